// TOML machine files (toml++): strict schema (every key known, typed, in range), `--set` overrides,
// and errors that name the file, line and key.
#include "machine_models/machine_loader.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/nearest_name.hpp"
#include "core/text_file.hpp"
#include "machine_models/machine_limits.hpp"
#include "machine_models/toml_depth.hpp"

namespace rr::machine {
namespace {

// The line of an error in a --set value rather than in the file.
constexpr std::uint64_t kInOverride = ~std::uint64_t{0};

struct LoadError : std::runtime_error {
  LoadError(std::string msg, std::uint64_t line) : std::runtime_error(std::move(msg)), line(line) {}
  std::uint64_t line;
};

std::uint64_t line_of(const toml::node& n) { return n.source().begin.line; }

// A value given by --set has no place in the file: its errors name the key as the override, not a line.
bool from_override(const toml::node& n) { return n.source().path == nullptr; }
std::uint64_t value_line(const toml::node& n) { return from_override(n) ? 0 : line_of(n); }

// Reads one table's keys against a fixed list; whatever is left over is an unknown key.
class TableReader {
 public:
  TableReader(const toml::table& table, std::string path) : table_(table), path_(std::move(path)) {}

  const toml::node* find(std::string_view key) {
    seen_.insert(std::string(key));
    return table_.get(key);
  }
  std::string key_name(std::string_view key) const { return path_.empty() ? std::string(key) : path_ + "." + std::string(key); }

  // A finite number in [min, max] (or (min, max] when min_exclusive): nan, inf and denormal-small values
  // would pass a plain "> 0" and turn every price into nonsense.
  double number(std::string_view key, std::optional<double> fallback, double min, bool min_exclusive, double max) {
    const toml::node* n = find(key);
    if (!n) {
      if (!fallback) throw LoadError("missing key '" + key_name(key) + "'", line_of(table_));
      return *fallback;
    }
    double v;
    if (auto i = n->value_exact<std::int64_t>()) v = static_cast<double>(*i);
    else if (auto d = n->value_exact<double>()) v = *d;
    else throw LoadError(quoted(key, *n) + " must be a number", value_line(*n));
    if (!std::isfinite(v) || v < min || (min_exclusive && v == min) || v > max)
      throw LoadError(quoted(key, *n) + " must be a finite number in " + (min_exclusive ? "(" : "[") + trim(min) + ", " +
                          trim(max) + "], not " + trim(v),
                      value_line(*n));
    return v;
  }
  std::int64_t integer(std::string_view key, std::optional<std::int64_t> fallback, std::int64_t min, std::int64_t max) {
    const toml::node* n = find(key);
    if (!n) {
      if (!fallback) throw LoadError("missing key '" + key_name(key) + "'", line_of(table_));
      return *fallback;
    }
    auto i = n->value_exact<std::int64_t>();
    if (!i) throw LoadError(quoted(key, *n) + " must be an integer", value_line(*n));
    if (*i < min || *i > max)
      throw LoadError(quoted(key, *n) + " must be in [" + std::to_string(min) + ", " + std::to_string(max) + "], not " +
                          std::to_string(*i),
                      value_line(*n));
    return *i;
  }
  // An array of at most `max_count` integers in [min, max]; empty when the key is absent.
  std::vector<std::int64_t> integers(std::string_view key, std::int64_t min, std::int64_t max, std::size_t max_count) {
    const toml::node* n = find(key);
    if (!n) return {};
    const toml::array* arr = n->as_array();
    const std::string what = "'" + key_name(key) + "' must be an array of at most " + std::to_string(max_count) +
                             " integers in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
    if (!arr || arr->size() > max_count) throw LoadError(what, value_line(*n));
    std::vector<std::int64_t> out;
    for (const auto& item : *arr) {
      auto v = item.value_exact<std::int64_t>();
      if (!v || *v < min || *v > max) throw LoadError(what, value_line(item));
      out.push_back(*v);
    }
    return out;
  }
  bool boolean(std::string_view key, bool fallback) {
    const toml::node* n = find(key);
    if (!n) return fallback;
    auto b = n->value_exact<bool>();
    if (!b) throw LoadError("'" + key_name(key) + "' must be true or false", line_of(*n));
    return *b;
  }
  std::string string(std::string_view key, std::optional<std::string> fallback) {
    const toml::node* n = find(key);
    if (!n) {
      if (!fallback) throw LoadError("missing key '" + key_name(key) + "'", line_of(table_));
      return *fallback;
    }
    auto s = n->value_exact<std::string>();
    if (!s) throw LoadError("'" + key_name(key) + "' must be a string", line_of(*n));
    return *s;
  }
  const toml::table& table(std::string_view key, bool required) {
    const toml::node* n = find(key);
    if (!n) {
      if (required) throw LoadError("missing section [" + key_name(key) + "]", line_of(table_));
      static const toml::table empty;
      return empty;
    }
    if (!n->is_table()) throw LoadError("'" + key_name(key) + "' must be a table", line_of(*n));
    return *n->as_table();
  }
  // An unknown key from --set is blamed on the override, not the file; either way the nearest known key of the
  // table is suggested.
  void reject_unknown() const {
    for (const auto& [k, v] : table_) {
      if (seen_.count(std::string(k.str()))) continue;
      std::vector<std::string> known;
      for (const auto& s : seen_) known.push_back(key_name(s));
      const std::string hint = core::did_you_mean(key_name(k.str()), known);
      if (from_override(v)) throw LoadError("unknown key '" + key_name(k.str()) + "'" + hint, kInOverride);
      throw LoadError("unknown key '" + key_name(k.str()) + "'" + hint, line_of(v));
    }
  }

 private:
  std::string quoted(std::string_view key, const toml::node& n) const {
    return "'" + key_name(key) + "'" + (from_override(n) ? " (--set)" : "");
  }
  static std::string trim(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
  }
  const toml::table& table_;
  std::string path_;
  std::set<std::string> seen_;
};

ProcessorClass read_processor(const toml::table& t, const std::string& path) {
  TableReader r(t, path);
  ProcessorClass p;
  p.count = static_cast<std::uint32_t>(r.integer("count", std::nullopt, 0, kMaxProcessorsPerNode));
  if (const toml::node* n = r.find("per_node")) {
    const toml::array* arr = n->as_array();
    if (!arr) throw LoadError("'" + path + ".per_node' must be an array of counts, one per node", value_line(*n));
    if (arr->size() > static_cast<std::size_t>(kMaxPerNodeEntries))
      throw LoadError("'" + path + ".per_node' lists more than " + std::to_string(kMaxPerNodeEntries) + " nodes",
                      value_line(*n));
    for (const auto& item : *arr) {
      auto v = item.value_exact<std::int64_t>();
      if (!v || *v < 0 || *v > kMaxProcessorsPerNode)
        throw LoadError("'" + path + ".per_node' lists counts (integers in [0, " + std::to_string(kMaxProcessorsPerNode) +
                            "])",
                        value_line(item));
      p.per_node.push_back(static_cast<std::uint32_t>(*v));
    }
  }
  p.speed = r.number("speed", 1.0, kMinSpeed, false, kMaxSpeed);
  p.segment_overhead_ns = r.integer("segment_overhead_ns", 0, 0, kMaxCostNs);
  const toml::table& f = r.table("function_speed", false);
  for (const auto& [key, value] : f) {
    std::uint32_t func = 0;
    try {
      std::size_t used = 0;
      unsigned long parsed = std::stoul(std::string(key.str()), &used);
      if (used != key.str().size()) throw std::invalid_argument("trailing");
      func = static_cast<std::uint32_t>(parsed);
    } catch (const std::exception&) {
      throw LoadError("'" + path + ".function_speed." + std::string(key.str()) + "': keys are task function ids",
                      line_of(value));
    }
    TableReader one(f, path + ".function_speed");
    p.function_speed[func] = one.number(key.str(), std::nullopt, kMinSpeed, false, kMaxSpeed);
  }
  r.reject_unknown();
  return p;
}

core::MemoryKind memory_kind(const toml::node& n, const std::string& key) {
  auto s = n.value_exact<std::string>();
  if (!s) throw LoadError("'" + key + "' must be a memory kind name", line_of(n));
  auto kind = memory_kind_from_key(*s);
  if (!kind)
    throw LoadError("'" + key + "': unknown memory kind \"" + *s +
                        "\" (system, registered, zero_copy, framebuffer, global, socket, l1/l2/l3_cache)",
                    line_of(n));
  return *kind;
}

// A memory kind name or an array of them.
std::vector<core::MemoryKind> memory_kinds(const toml::node& n, const std::string& key) {
  std::vector<core::MemoryKind> out;
  if (const toml::array* arr = n.as_array()) {
    for (const auto& item : *arr) out.push_back(memory_kind(item, key));
    if (out.empty()) throw LoadError("'" + key + "' is empty", line_of(n));
  } else {
    out.push_back(memory_kind(n, key));
  }
  return out;
}

MachineModel read_model(const toml::table& root) {
  MachineModel m;
  TableReader top(root, "");
  {
    TableReader r(top.table("machine", true), "machine");
    m.name = r.string("name", std::nullopt);
    m.description = r.string("description", std::string());
    r.reject_unknown();
  }
  {
    const toml::table& procs = top.table("processors", true);
    TableReader r(procs, "processors");
    for (int k = 0; k < 3; ++k)
      m.processors[k] = read_processor(r.table(kProcessorSections[k], true), std::string("processors.") + kProcessorSections[k]);
    r.reject_unknown();
  }
  std::map<std::string, std::uint32_t, std::less<>> channel_index;
  {
    const toml::table& chans = top.table("channels", true);
    for (const auto& [name, node] : chans) {
      std::string path = "channels." + std::string(name.str());
      if (!node.is_table()) throw LoadError("'" + path + "' must be a table", line_of(node));
      TableReader r(*node.as_table(), path);
      Channel c;
      c.name = std::string(name.str());
      c.latency_ns = static_cast<TimeNs>(r.integer("latency_ns", std::nullopt, 0, kMaxCostNs));
      c.bytes_per_ns = r.number("bandwidth_gbs", std::nullopt, kMinBandwidthGbs, false, kMaxBandwidthGbs);
      c.lanes = static_cast<std::uint32_t>(r.integer("lanes", 1, 1, kMaxLanes));
      std::string side = r.string("side", std::string("source"));
      if (side != "source" && side != "destination")
        throw LoadError("'" + path + ".side' must be \"source\" or \"destination\"", line_of(*r.find("side")));
      c.destination_side = side == "destination";
      r.reject_unknown();
      channel_index[c.name] = static_cast<std::uint32_t>(m.channels.size());
      m.channels.push_back(c);
    }
  }
  {
    const toml::node* paths = top.find("paths");
    if (!paths) throw LoadError("missing [[paths]] (which channels each copy uses)", line_of(root));
    const toml::array* arr = paths->as_array();
    if (!arr || !arr->is_array_of_tables()) throw LoadError("'paths' must be an array of tables [[paths]]", line_of(*paths));
    for (const auto& entry : *arr) {
      const toml::table& t = *entry.as_table();
      TableReader r(t, "paths");
      const toml::node* src = r.find("src");
      const toml::node* dst = r.find("dst");
      if (!src || !dst) throw LoadError("each [[paths]] needs src and dst", line_of(t));
      std::vector<core::MemoryKind> srcs = memory_kinds(*src, "paths.src");
      std::vector<core::MemoryKind> dsts = memory_kinds(*dst, "paths.dst");
      std::string scope = r.string("scope", std::nullopt);
      if (scope != "local" && scope != "remote")
        throw LoadError("'paths.scope' must be \"local\" or \"remote\", not \"" + scope + "\"", line_of(*r.find("scope")));
      const toml::node* hops = r.find("hops");
      if (!hops || !hops->is_array()) throw LoadError("each [[paths]] needs hops = [\"channel\", ...]", line_of(t));
      std::vector<std::uint32_t> hop_list;
      for (const auto& h : *hops->as_array()) {
        auto name = h.value_exact<std::string>();
        if (!name) throw LoadError("'paths.hops' lists channel names", line_of(h));
        auto it = channel_index.find(*name);
        if (it == channel_index.end()) throw LoadError("'paths.hops': no channel named \"" + *name + "\"", line_of(h));
        hop_list.push_back(it->second);
      }
      if (hop_list.empty()) throw LoadError("'paths.hops' is empty", line_of(*hops));
      // src and dst may list several kinds: the entry stands for every pair.
      for (auto s_kind : srcs)
        for (auto d_kind : dsts) {
          bool remote = scope == "remote";
          for (const auto& existing : m.paths)
            if (existing.src == s_kind && existing.dst == d_kind && existing.remote == remote)
              throw LoadError("a path for this (src, dst, scope) is already given", line_of(t));
          m.paths.push_back(CopyPath{s_kind, d_kind, remote, hop_list});
        }
      r.reject_unknown();
    }
  }
  {
    TableReader r(top.table("node", false), "node");
    m.node.cores = static_cast<std::uint32_t>(r.integer("cores", 0, 0, kMaxCoresPerNode));
    r.reject_unknown();
  }
  {
    TableReader r(top.table("network", true), "network");
    m.network_latency_ns = r.integer("latency_ns", std::nullopt, 0, kMaxCostNs);
    r.reject_unknown();
  }
  {
    TableReader r(top.table("runtime", true), "runtime");
    m.runtime.task_launch_ns = r.integer("task_launch_ns", 0, 0, kMaxCostNs);
    m.runtime.trigger_local_ns = r.integer("trigger_local_ns", 0, 0, kMaxCostNs);
    m.runtime.trigger_remote_ns = r.integer("trigger_remote_ns", 0, 0, kMaxCostNs);
    m.runtime.merge_ns = r.integer("merge_ns", 0, 0, kMaxCostNs);
    m.runtime.barrier_arrival_ns = r.integer("barrier_arrival_ns", 0, 0, kMaxCostNs);
    m.runtime.processor_start_ns = r.integer("processor_start_ns", 0, 0, kMaxCostNs);
    m.runtime.processor_starts_ns = r.integers("processor_starts_ns", 0, kMaxCostNs, kMaxProcessorsPerNode);
    m.wait_frees_processor = r.boolean("wait_frees_processor", true);
    std::string issue = r.string("issue_point", std::string("interpolate"));
    if (issue == "interpolate") m.issue_point = IssuePoint::interpolate;
    else if (issue == "start") m.issue_point = IssuePoint::start;
    else if (issue == "end") m.issue_point = IssuePoint::end;
    else throw LoadError("'runtime.issue_point' must be \"interpolate\", \"start\" or \"end\"", line_of(*r.find("issue_point")));
    m.default_copy_bytes = static_cast<std::uint64_t>(r.integer("default_copy_bytes", 65536, 0, kMaxCopyBytes));
    if (r.find("placement")) {
      std::string placement = r.string("placement", std::nullopt);
      m.default_placement = placement_from_name(placement);
      if (!m.default_placement)
        throw LoadError("'runtime.placement' must be \"traced\", \"pool\" or \"eft\"", line_of(*r.find("placement")));
    }
    r.reject_unknown();
  }
  top.reject_unknown();
  return m;
}

// Applies one "a.b.c=value" override; the value is parsed as TOML.
void apply_override(toml::table& root, const std::string& text) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw LoadError("--set takes key=value, not '" + text + "'", 0);
  std::string key = text.substr(0, eq);
  std::string value_text = text.substr(eq + 1);
  toml::table parsed;
  try {
    parsed = toml::parse("v = " + value_text);
  } catch (const toml::parse_error&) {
    // Bare words are taken as strings, so --set runtime.issue_point=start works unquoted.
    parsed = toml::table{{"v", value_text}};
  }
  if (static_cast<std::size_t>(std::count(key.begin(), key.end(), '.')) >= kMaxKeyComponents ||
      line_of_too_deep_key(value_text))
    throw LoadError("--set: a dotted key of more than " + std::to_string(kMaxKeyComponents) +
                        " parts (no machine key has more than 4)", 0);
  toml::table* table = &root;
  std::size_t start = 0;
  for (;;) {
    auto dot = key.find('.', start);
    std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part.empty()) throw LoadError("--set " + text + ": empty key part", 0);
    if (dot == std::string::npos) {
      table->insert_or_assign(part, *parsed.get("v"));
      return;
    }
    toml::node* next = table->get(part);
    // A missing section is created (e.g. processors.gpu.function_speed); the schema check
    // that follows rejects it if it is not one the machine format knows.
    if (!next) next = table->insert_or_assign(part, toml::table{}).first->second.as_table();
    if (!next->is_table()) throw LoadError("--set " + text + ": '" + key.substr(0, dot) + "' is not a section", 0);
    table = next->as_table();
    start = dot + 1;
  }
}

core::Expected<MachineModel> build(toml::table root, const std::string& name, const std::vector<std::string>& overrides) {
  try {
    for (const auto& o : overrides) apply_override(root, o);
    MachineModel m = read_model(root);
    m.source = name;
    return m;
  } catch (const LoadError& e) {
    if (e.line == kInOverride) return core::InputError{core::SourceLocation{"--set", 0, std::nullopt}, e.what()};
    return core::InputError{core::SourceLocation{name, e.line, std::nullopt}, e.what()};
  }
}

}  // namespace

core::Expected<MachineModel> parse_machine(const std::string& text, const std::string& name,
                                         const std::vector<std::string>& overrides) {
  if (auto line = line_of_too_deep_key(text))
    return core::InputError{core::SourceLocation{name, *line, std::nullopt},
                            "a dotted key of more than " + std::to_string(kMaxKeyComponents) +
                                " parts (no machine key has more than 4)"};
  try {
    return build(toml::parse(text, name), name, overrides);
  } catch (const toml::parse_error& e) {
    return core::InputError{core::SourceLocation{name, e.source().begin.line, std::nullopt},
                          "TOML syntax: " + std::string(e.description())};
  }
}

core::Expected<MachineModel> load_machine(const std::string& path, const std::vector<std::string>& overrides) {
  auto text = core::read_text_file(path, "machine file");
  if (!text) return text.error();
  return parse_machine(*text, path, overrides);
}

}  // namespace rr::machine
