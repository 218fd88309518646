// Factors files: strict TOML like mapping files, errors with file and line.
#include "machine_models/factors_file.hpp"

#include "core/nearest_name.hpp"
#include "machine_models/mapping.hpp"
#include "machine_models/src/toml_file.hpp"

namespace rr::machine {

namespace {

// A function id as a factors file, a names file and the reports' "f18" give it: decimal digits only.
std::optional<std::uint32_t> function_id(std::string_view key) {
  if (key.empty() || key.size() > 10) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : key) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (v > 0xffffffffull) return std::nullopt;
  return static_cast<std::uint32_t>(v);
}

core::Expected<std::vector<KindFactor>> kind_factors(const toml::table& t, const std::string& path,
                                                     const std::string& function) {
  std::vector<KindFactor> out;
  for (const auto& [key, value] : t) {
    const std::string name(key.str());
    const auto kind = kind_from_key(name);
    if (!kind)
      return file_error(path, line_of(value), "function " + function + ": unknown kind '" + name +
                                                   "' (gpu, cpu or utility)" +
                                                   core::did_you_mean(name, {"gpu", "cpu", "utility"}));
    double v = 0;
    if (auto i = value.value_exact<std::int64_t>()) v = static_cast<double>(*i);
    else if (auto d = value.value_exact<double>()) v = *d;
    else return file_error(path, line_of(value), "function " + function + ": the factor of " + name + " must be a number");
    if (!busy_factor_in_range(v))
      return file_error(path, line_of(value), "function " + function + ": the factor of " + name +
                                                   " must be a number from 1e-6 to 1e6 (busy time x factor)");
    out.push_back({*kind, v, path + ":" + std::to_string(line_of(value))});
  }
  return out;
}

}  // namespace

core::Expected<FunctionFactors> load_factors(const std::string& path) {
  auto root = parse_toml_file(path, "factors file");
  if (!root) return root.error();
  FunctionFactors factors;
  factors.file = path;
  for (const auto& [key, value] : *root) {
    const std::string name(key.str());
    const auto func = function_id(name);
    if (!func)
      return file_error(path, line_of(value), "'" + name + "' is no task function id (decimal, 18, not f18): a "
                                                           "factors file holds [FUNC] tables of kind = factor");
    const toml::table* t = value.as_table();
    if (!t) return file_error(path, line_of(value), "function " + name + " must be a table of kind = factor ([" + name +
                                                        "] then gpu = 0.1, or " + name + " = { gpu = 0.1 })");
    if (t->empty()) return file_error(path, line_of(value), "function " + name + " gives no factor");
    auto kinds = kind_factors(*t, path, name);
    if (!kinds) return kinds.error();
    factors.of_function[*func] = std::move(*kinds);
  }
  return factors;
}

}  // namespace rr::machine
