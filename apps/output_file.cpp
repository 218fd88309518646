// Command outputs through platform::OutputTarget (whole or not at all, never over an input).
#include "output_file.hpp"

#include <iostream>
#include <set>

#include "platform/output_target.hpp"
#include "messages.hpp"

namespace rr::app {

bool emit_report(const char* command, const std::string& path, std::string_view text) {
  if (path.empty()) {
    std::cout << text;
    return true;
  }
  return write_output_file(command, path, text);
}

bool write_output_file(const char* command, const std::string& path, std::string_view text) {
  if (auto err = platform::write_whole_file(path, text); !err.empty()) {
    print_error(command, err);
    return false;
  }
  return true;
}

void protect_command_line_inputs(const CLI::App& app) {
  static const std::set<std::string> kInputOptions{"machine", "mapping", "against-trace", "against-machine",
                                                   "node-map", "factors"};
  for (const CLI::Option* opt : app.get_options()) {
    bool input = opt->get_positional() && opt->get_lnames().empty() && opt->get_snames().empty();
    for (const auto& name : opt->get_lnames()) input = input || kInputOptions.count(name) > 0;
    if (!input) continue;
    for (const auto& value : opt->results())
      if (value != "traced") platform::protect_input(value);
  }
  for (const CLI::App* sub : app.get_subcommands()) protect_command_line_inputs(*sub);
}

}  // namespace rr::app
