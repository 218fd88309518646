// The machine file writer: every section and key the loader knows, one [[paths]] entry per (src, dst, scope).
#include "machine_models/machine_writer.hpp"

#include "core/toml_string.hpp"
#include "machine_models/src/toml_number.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace rr::machine {

namespace {

std::string quoted(const std::string& s) { return core::toml_string(s); }

std::string number(double v) { return round_trip_number(v); }

class Writer {
 public:
  Writer(const std::map<std::string, std::string>& notes) : notes_(notes) {}
  void section(const std::string& name) {
    out_ << "\n[" << name << "]\n";
    section_ = name;
  }
  void value(const std::string& key, const std::string& text) {
    out_ << key << " = " << text;
    auto it = notes_.find(section_.empty() ? key : section_ + "." + key);
    if (it != notes_.end()) out_ << "   # " << it->second;
    out_ << "\n";
  }
  std::ostringstream& raw() { return out_; }

 private:
  const std::map<std::string, std::string>& notes_;
  std::ostringstream out_;
  std::string section_;
};

}  // namespace

std::string to_toml(const MachineModel& m, const std::string& header, const std::map<std::string, std::string>& notes) {
  Writer w(notes);
  std::istringstream lines(header);
  for (std::string line; std::getline(lines, line);) w.raw() << "# " << line << "\n";
  w.section("machine");
  w.value("name", quoted(m.name));
  w.value("description", quoted(m.description));
  for (std::size_t k = 0; k < 3; ++k) {
    const ProcessorClass& p = m.processors[k];
    w.section(std::string("processors.") + kProcessorSections[k]);
    w.value("count", std::to_string(p.count));
    if (!p.per_node.empty()) {
      std::string list = "[";
      for (std::size_t i = 0; i < p.per_node.size(); ++i) list += (i ? ", " : "") + std::to_string(p.per_node[i]);
      w.value("per_node", list + "]");
    }
    w.value("speed", number(p.speed));
    if (p.segment_overhead_ns) w.value("segment_overhead_ns", std::to_string(p.segment_overhead_ns));
    if (!p.function_speed.empty()) {
      w.section(std::string("processors.") + kProcessorSections[k] + ".function_speed");
      for (const auto& [func, speed] : p.function_speed) w.value(quoted(std::to_string(func)), number(speed));
    }
  }
  for (const Channel& c : m.channels) {
    w.section("channels." + c.name);
    w.value("latency_ns", std::to_string(c.latency_ns));
    w.value("bandwidth_gbs", number(c.bytes_per_ns));
    w.value("lanes", std::to_string(c.lanes));
    w.value("side", c.destination_side ? "\"destination\"" : "\"source\"");
  }
  for (const CopyPath& p : m.paths) {
    w.raw() << "\n[[paths]]\n";
    w.raw() << "src = " << quoted(std::string(memory_kind_key(p.src))) << "\n";
    w.raw() << "dst = " << quoted(std::string(memory_kind_key(p.dst))) << "\n";
    w.raw() << "scope = " << (p.remote ? "\"remote\"" : "\"local\"") << "\n";
    w.raw() << "hops = [";
    for (std::size_t i = 0; i < p.hops.size(); ++i) w.raw() << (i ? ", " : "") << quoted(m.channels[p.hops[i]].name);
    w.raw() << "]\n";
  }
  if (m.node.cores > 0) {  // absent means a core per thread: machine files written before cores stay as they were
    w.section("node");
    w.value("cores", std::to_string(m.node.cores));
  }
  w.section("network");
  w.value("latency_ns", std::to_string(m.network_latency_ns));
  w.section("runtime");
  w.value("task_launch_ns", std::to_string(m.runtime.task_launch_ns));
  w.value("trigger_local_ns", std::to_string(m.runtime.trigger_local_ns));
  w.value("trigger_remote_ns", std::to_string(m.runtime.trigger_remote_ns));
  w.value("merge_ns", std::to_string(m.runtime.merge_ns));
  w.value("barrier_arrival_ns", std::to_string(m.runtime.barrier_arrival_ns));
  if (m.runtime.processor_start_ns) w.value("processor_start_ns", std::to_string(m.runtime.processor_start_ns));
  if (!m.runtime.processor_starts_ns.empty()) {
    std::string list;
    for (const TimeNs t : m.runtime.processor_starts_ns) list += (list.empty() ? "" : ", ") + std::to_string(t);
    w.value("processor_starts_ns", "[" + list + "]");
  }
  w.value("wait_frees_processor", m.wait_frees_processor ? "true" : "false");
  w.value("issue_point", quoted(issue_point_name(m.issue_point)));
  w.value("default_copy_bytes", std::to_string(m.default_copy_bytes));
  if (m.default_placement) w.value("placement", quoted(placement_name(*m.default_placement)));
  return w.raw().str();
}

}  // namespace rr::machine
