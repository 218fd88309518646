// Planted changes of a generated program (gen/plant.hpp).
#include "plant.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace rr::gen {

namespace {
template <class T>
bool parse_number(const std::string& text, T& out) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}
}  // namespace

std::optional<SlowFunction> parse_slow_function(const std::string& text, std::string& error) {
  const auto at = text.find('@');
  const auto eq = text.find('=');
  SlowFunction s;
  if (at == std::string::npos || eq == std::string::npos || eq < at ||
      !parse_number(text.substr(0, at), s.function) || !parse_number(text.substr(at + 1, eq - at - 1), s.node) ||
      !parse_number(text.substr(eq + 1), s.factor)) {
    error = "'" + text + "' is not FUNC@NODE=FACTOR (a function id, a node, a factor: 5@0=1.3)";
    return std::nullopt;
  }
  if (!std::isfinite(s.factor) || s.factor <= 0 || s.factor > 1000) {
    error = "'" + text + "': the factor must be above 0 and at most 1000";
    return std::nullopt;
  }
  return s;
}

std::uint64_t plant_slow_function(Program& program, const SlowFunction& slow) {
  std::uint64_t changed = 0;
  for (GenOp& op : program.ops) {
    if (op.kind != GenKind::task || op.func != slow.function || op.node != slow.node) continue;
    op.busy_us = std::max<std::int64_t>(1, std::llround(static_cast<double>(op.busy_us) * slow.factor));
    ++changed;
  }
  program.parameters.emplace_back("slow_function", std::to_string(slow.function) + "@" + std::to_string(slow.node) +
                                                       "=" + std::to_string(slow.factor));
  return changed;
}

}  // namespace rr::gen
