// Function labels: escaping, and "name#id" wherever two functions would print alike.
#include "graph/function_labels.hpp"

#include <algorithm>
#include <charconv>
#include <map>

namespace rr::graph {

namespace {

bool needs_escape(unsigned char c) { return c == ';' || c == '%' || c < 0x20 || c == 0x7f; }

// Whether `label` is what an unnamed function other than `func` prints ("f7" given to function 5).
bool reads_as_other_function(std::string_view label, std::uint32_t func) {
  if (label.size() < 2 || label.front() != 'f') return false;
  std::uint32_t id = 0;
  const char* last = label.data() + label.size();
  auto [end, error] = std::from_chars(label.data() + 1, last, id);
  return error == std::errc{} && end == last && id != func && label == unnamed_function_label(id);
}

}  // namespace

std::string unnamed_function_label(std::uint32_t func) { return "f" + std::to_string(func); }

std::string escape_function_name(std::string_view name) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(name.size());
  for (char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    if (!needs_escape(c)) {
      out += ch;
      continue;
    }
    out += '%';
    out += kHex[c >> 4];
    out += kHex[c & 0xf];
  }
  return out;
}

FunctionNames function_labels(const FunctionNames& names) {
  FunctionNames labels;
  labels.reserve(names.size());
  std::map<std::string, std::uint32_t, std::less<>> uses;  // escaped name -> how many functions print it
  for (const auto& [func, name] : names) {
    if (name.empty()) continue;
    labels.emplace_back(func, escape_function_name(name));
    ++uses[labels.back().second];
  }
  for (auto& [func, label] : labels)
    if (uses[label] > 1 || reads_as_other_function(label, func)) label += "#" + std::to_string(func);
  std::sort(labels.begin(), labels.end());
  return labels;
}

FunctionNames merge_function_names(const FunctionNames& names, const FunctionNames& overrides) {
  std::map<std::uint32_t, std::string> merged(names.begin(), names.end());
  for (const auto& [func, name] : overrides) merged[func] = name;
  return {merged.begin(), merged.end()};
}

}  // namespace rr::graph
