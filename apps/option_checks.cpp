// Option checks shared by the subcommands.
#include "option_checks.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>

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

}  // namespace rr::app
