// The machines' differences, field by field (explain/src/machine_diff.hpp).
#include "machine_diff.hpp"

#include <algorithm>
#include <sstream>

namespace rr::explain {

namespace {

template <class T>
void differ(std::vector<std::string>& out, const std::string& what, const T& a, const T& b, const char* unit = "") {
  if (a == b) return;
  std::ostringstream s;
  s << what << ' ' << a << " -> " << b << unit;
  out.push_back(s.str());
}

std::string per_node_text(const machine::ProcessorClass& p) {
  if (p.per_node.empty()) return std::to_string(p.count);
  std::string s = "[";
  for (std::size_t i = 0; i < p.per_node.size(); ++i) s += (i ? "," : "") + std::to_string(p.per_node[i]);
  return s + "], else " + std::to_string(p.count);
}

void cost_differences(const machine::MachineModel& a, const machine::MachineModel& b, std::vector<std::string>& out) {
  for (std::size_t k = 0; k < a.processors.size(); ++k) {
    const std::string kind(core::processor_kind_name(static_cast<core::ProcessorKind>(k)));
    const machine::ProcessorClass &pa = a.processors[k], &pb = b.processors[k];
    differ(out, kind + " speed", pa.speed, pb.speed);
    differ(out, kind + " segment overhead", pa.segment_overhead_ns, pb.segment_overhead_ns, " ns");
    if (pa.function_speed != pb.function_speed) out.push_back(kind + " speeds per function differ");
  }
  differ(out, "network latency", a.network_latency_ns, b.network_latency_ns, " ns");
  differ(out, "task launch", a.runtime.task_launch_ns, b.runtime.task_launch_ns, " ns");
  differ(out, "local trigger", a.runtime.trigger_local_ns, b.runtime.trigger_local_ns, " ns");
  differ(out, "remote trigger", a.runtime.trigger_remote_ns, b.runtime.trigger_remote_ns, " ns");
  differ(out, "merge", a.runtime.merge_ns, b.runtime.merge_ns, " ns");
  differ(out, "barrier arrival", a.runtime.barrier_arrival_ns, b.runtime.barrier_arrival_ns, " ns");
  differ(out, "processor start-up", a.runtime.processor_start_ns, b.runtime.processor_start_ns, " ns");
  if (a.runtime.processor_starts_ns != b.runtime.processor_starts_ns) out.push_back("measured start-ups differ");
  differ(out, "default copy size", a.default_copy_bytes, b.default_copy_bytes, " B");
  if (a.wait_frees_processor != b.wait_frees_processor) out.push_back("wait_frees_processor differs");
  if (a.issue_point != b.issue_point) out.push_back("issue point differs");
  if (a.default_placement != b.default_placement) out.push_back("default placement differs");
  const std::size_t channels = std::max(a.channels.size(), b.channels.size());
  for (std::size_t i = 0; i < channels; ++i) {
    if (i >= a.channels.size() || i >= b.channels.size()) {
      out.push_back("channel count " + std::to_string(a.channels.size()) + " -> " + std::to_string(b.channels.size()));
      break;
    }
    const machine::Channel &ca = a.channels[i], &cb = b.channels[i];
    const std::string name = "channel " + ca.name;
    if (ca.name != cb.name) out.push_back("channel " + std::to_string(i) + " " + ca.name + " -> " + cb.name);
    differ(out, name + " latency", ca.latency_ns, cb.latency_ns, " ns");
    differ(out, name + " bandwidth", ca.bytes_per_ns, cb.bytes_per_ns, " B/ns");
    differ(out, name + " lanes", ca.lanes, cb.lanes);
    if (ca.destination_side != cb.destination_side) out.push_back(name + " side differs");
  }
  bool paths_same = a.paths.size() == b.paths.size();
  for (std::size_t i = 0; paths_same && i < a.paths.size(); ++i)
    paths_same = a.paths[i].src == b.paths[i].src && a.paths[i].dst == b.paths[i].dst &&
                 a.paths[i].remote == b.paths[i].remote && a.paths[i].hops == b.paths[i].hops;
  if (!paths_same) out.push_back("copy paths differ");
}

}  // namespace

MachineDifferences machine_differences(const machine::MachineModel& a, const machine::MachineModel& b) {
  MachineDifferences d;
  cost_differences(a, b, d.costs);
  for (std::size_t k = 0; k < a.processors.size(); ++k) {
    const machine::ProcessorClass &pa = a.processors[k], &pb = b.processors[k];
    if (pa.count != pb.count || pa.per_node != pb.per_node)
      d.processors.push_back(std::string(core::processor_kind_name(static_cast<core::ProcessorKind>(k))) +
                             " processors per node " + per_node_text(pa) + " -> " + per_node_text(pb));
  }
  differ(d.processors, "cores per node", a.node.cores, b.node.cores);
  return d;
}

machine::MachineModel compose_machine(const machine::MachineModel& a, const machine::MachineModel& b, bool costs_from_b,
                                      bool processors_from_b) {
  machine::MachineModel m = costs_from_b ? b : a;
  const machine::MachineModel& p = processors_from_b ? b : a;
  for (std::size_t k = 0; k < m.processors.size(); ++k) {
    m.processors[k].count = p.processors[k].count;
    m.processors[k].per_node = p.processors[k].per_node;
  }
  m.node.cores = p.node.cores;
  return m;
}

}  // namespace rr::explain
