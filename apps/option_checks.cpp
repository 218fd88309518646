// Option checks shared by the subcommands.
#include "option_checks.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>
#include <algorithm>

#include "core/nearest_name.hpp"
#include "commands.hpp"
#include "messages.hpp"
#include "session/session.hpp"

namespace rr::app {

CLI::Validator thread_count() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::uint64_t threads = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), threads);
        // Text that is no count at all is left to the option's own conversion to refuse.
        if (ec == std::errc::invalid_argument || end != text.data() + text.size()) return {};
        if (ec == std::errc::result_out_of_range) threads = ~std::uint64_t{0};
        return session::thread_count_problem(threads).value_or("");
      },
      "at most " + std::to_string(session::kMaxThreads));
}

CLI::Validator output_path() {
  return CLI::Validator([](std::string& text) -> std::string { return text.empty() ? "the path is empty" : ""; },
                        "PATH");
}

CLI::Validator one_of(const session::NamedChoice& choice) {
  return CLI::Validator([&choice](std::string& text) { return choice.problem(text).value_or(""); }, choice.listed());
}

CLI::Validator finite_range(double lo, double hi) {
  const std::string range = CLI::detail::to_string(lo) + " to " + CLI::detail::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0') return {};  // not a number: the conversion says so
        if (std::isfinite(v) && v >= lo && v <= hi) return {};
        return "'" + text + "' is not a finite number from " + range;
      },
      "finite, " + range);
}

namespace {

// The index of the subcommand's word in argv, or argc when there is none: the first word that is no option,
// skipping the value of the program's -j/--threads.
int command_word(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-j" || arg == "--threads") {
      ++i;
      continue;
    }
    if (!arg.starts_with("-")) return i;
  }
  return argc;
}

}  // namespace

std::optional<std::string> unknown_command(const CLI::App& app, int argc, const char* const* argv) {
  const int at = command_word(argc, argv);
  if (at == argc) return std::nullopt;
  const std::string word = argv[at];
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  if (std::find(names.begin(), names.end(), word) != names.end()) return std::nullopt;
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  return "unknown command '" + word + "'" + core::did_you_mean(word, names) + "; the commands: " + list +
         " (realm-replay --help)";
}

std::optional<std::string> json_file_form(int argc, const char* const* argv) {
  const int at = command_word(argc, argv);
  if (at == argc || std::string_view(argv[at]) == "diff") return std::nullopt;
  for (int i = at + 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    std::string file;
    if (arg.starts_with("--json=")) file = arg.substr(7);
    else if (arg == "--json" && i + 1 < argc && std::string_view(argv[i + 1]).ends_with(".json")) file = argv[i + 1];
    if (file.empty() || file == "true" || file == "false") continue;
    return "--json is a flag (JSON instead of text), and it takes no file: write --json -o " + file;
  }
  return std::nullopt;
}

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
  for (auto problem : {unknown_command(app, argc, argv), json_file_form(argc, argv)})
    if (problem) {
      print_error("", *problem);
      return kExitUsage;
    }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  return std::nullopt;
}

}  // namespace rr::app
