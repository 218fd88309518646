#include "messages.hpp"

#include <iostream>
#include <string>

namespace rr::app {

void print_message(std::string_view command, std::string_view text) {
  std::string line = "realm-replay";
  if (!command.empty()) line.append(" ").append(command);
  line.append(": ").append(text).append("\n");
  std::cerr << line << std::flush;
}

void print_error(std::string_view command, std::string_view what) {
  print_message(command, std::string("error: ").append(what));
}

}  // namespace rr::app
