// Deriving the traced machine: counts and memories from the Processor and Memory records, a median copy size from
// the Copy Sizes, and the assumptions every machine file needs for what the trace does not record.
#include "machine_models/traced_machine.hpp"

#include "machine_models/machine_model.hpp"

#include <algorithm>
#include <cmath>
#include <array>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

namespace rr::machine {

namespace {

struct Observed {
  std::uint32_t nodes = 1;
  // [kind][node] processors
  std::array<std::map<std::uint32_t, std::uint32_t>, 3> processors;
  std::uint32_t program_threads = 0;  // processors of the external kind, in all
  std::map<std::uint32_t, std::set<std::string>> memories;  // node -> "system 60000000 (512 MiB)", ...
};

Observed observe(const TracedMachineSource& source) {
  Observed o;
  o.nodes = std::max<std::uint32_t>(1, source.file_nodes);
  const auto layout = core::IdLayout::for_width(source.width == core::IdWidth::unknown ? core::IdWidth::bits32 : source.width);
  const core::MachineRecords& machine = source.machine;
  for (const auto& p : machine.processors) {
    const auto k = static_cast<std::size_t>(p.kind);
    o.program_threads += p.kind == core::ProcessorKind::external;
    if (k >= 3) continue;
    const std::uint32_t node = layout.node_of(p.id.value());
    ++o.processors[k][node];
    o.nodes = std::max(o.nodes, node + 1);
  }
  for (std::size_t i = 0; i < machine.memories.size(); ++i) {
    const auto& m = machine.memories[i];
    // GASNet global memory spans the nodes; its node bits mean nothing (docs/realm-log-format.md, Ids).
    const std::uint32_t node = m.kind == core::MemoryKind::global ? 0 : layout.node_of(m.id.value());
    std::string text = std::string(core::memory_kind_name(m.kind)) + " " + core::hex(m.id.value());
    if (machine.memory_capacities[i]) text += " (" + std::to_string(machine.memory_capacities[i] >> 20) + " MiB)";
    o.memories[node].insert(text);
  }
  return o;
}

// Legion Prof logs carry Realm's processor-memory affinity table (ProcMDesc). Its bandwidths and latencies are the
// nominal values Realm is configured with, the same for every run of a kind of machine, not measurements: they
// are listed for reference, and the channels below take the copies' observed times where the log has copies.
std::string affinities_of(const core::TraceRecords& trace) {
  std::map<std::uint64_t, core::RealmMemKind> mem_kind;
  std::map<std::tuple<std::uint64_t, std::string, std::uint32_t, std::uint32_t>, std::uint32_t> rows;  // node, kind, bw, lat
  for (const auto& f : trace.files)
    for (const auto& m : f.profile.memories) mem_kind.try_emplace(m.id.value(), m.kind);
  for (const auto& f : trace.files)
    for (const auto& a : f.profile.affinities) {
      auto it = mem_kind.find(a.mem.value());
      const std::string kind = it == mem_kind.end() ? "unknown" : core::realm_mem_kind_name(it->second);
      ++rows[{core::realm_node_of(a.mem.value()), kind, a.bandwidth, a.latency}];
    }
  if (rows.empty()) return {};
  std::ostringstream t;
  t << "# Processor-memory affinities the log lists (ProcMDesc: Realm's nominal values, not measured) [T]:\n";
  for (const auto& [key, n] : rows)
    t << "#   node " << std::get<0>(key) << ", " << std::get<1>(key) << " memory: bandwidth " << std::get<2>(key)
      << " MB/s, latency " << std::get<3>(key) << " ns (" << n << " processor-memory pair(s))\n";
  return t.str();
}

std::string value_or(const std::optional<MeasuredValue>& v, const std::string& fallback, bool integer) {
  if (!v) return fallback;
  std::ostringstream s;
  if (integer) s << std::llround(v->value);
  else s << v->value;
  return s.str();
}

std::string tag_or(const std::optional<MeasuredValue>& v, const std::string& assumption) {
  if (v) return v->tag + " " + v->note;
  return assumption.empty() ? "[A]" : "[A] " + assumption;
}


}  // namespace

TracedMachineSource traced_machine_source(const core::TraceRecords& trace) {
  TracedMachineSource source;
  source.machine = core::machine_records(trace);
  for (const auto& f : trace.files)
    if (f.node >= 0) source.file_nodes = std::max(source.file_nodes, static_cast<std::uint32_t>(f.node) + 1);
  source.width = trace.width;
  source.affinities = affinities_of(trace);
  return source;
}

std::string traced_machine_toml(const core::TraceRecords& trace, const std::string& label, const TracedFacts& facts) {
  return traced_machine_toml(traced_machine_source(trace), label, facts);
}

std::string traced_machine_toml(const TracedMachineSource& source, const std::string& label, const TracedFacts& facts) {
  const Observed o = observe(source);
  std::ostringstream t;
  // The label is a file name: a newline in it must not end the comment and start TOML of its own.
  std::string shown = label;
  for (char& c : shown)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  t << "# The machine trace '" << shown << "' was taken on, as the trace logged it (realm-replay machine from-trace).\n"
    << "# [T] from the trace. [F] fitted to the trace's own measured waits. [A] an assumption: the trace does not\n"
    << "# record it; change it with --set, or fit it to measured run times with realm-replay calibrate.\n\n";
  const std::string latency = value_or(facts.network_latency_ns, std::to_string(kAssumedNetworkLatencyNs), true);
  const std::string latency_tag =
      tag_or(facts.network_latency_ns, "GASNet's UDP conduit over loopback, as the bundled real traces ran; 1–5 us on an HPC interconnect");
  std::ostringstream summary;
  for (std::size_t k = 0; k < 3; ++k) {
    std::uint32_t total = 0;
    for (const auto& [node, n] : o.processors[k]) total += n;
    if (total) summary << (summary.tellp() ? ", " : "") << total << " " << core::processor_kind_name(static_cast<core::ProcessorKind>(k));
  }
  t << "[machine]\nname = \"traced\"\ndescription = \"as traced: " << o.nodes << " node(s), " << summary.str()
    << " processor(s) in all\"\n\n";
  t << "# Realm processors of each kind on each node, exactly as the Processor records list them [T]; speed 1 is the\n"
    << "# traced hardware itself: the trace's own durations [T].\n";
  for (std::size_t k = 0; k < 3; ++k) {
    std::vector<std::uint32_t> counts(o.nodes, 0);
    for (const auto& [node, n] : o.processors[k]) counts[node] = n;
    const bool uniform = std::all_of(counts.begin(), counts.end(), [&](auto c) { return c == counts[0]; });
    t << "[processors." << kProcessorSections[k] << "]\ncount = " << (counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end()));
    if (uniform) t << "        # on every node [T]\n";
    else {
      t << "        # the most on any node; each node's own count below [T]\nper_node = [";
      for (std::uint32_t n = 0; n < o.nodes; ++n) t << (n ? ", " : "") << counts[n];
      t << "]\n";
    }
    t << "speed = 1.0\n";
    if (facts.segment_overhead_ns[k])
      t << "segment_overhead_ns = " << value_or(facts.segment_overhead_ns[k], "0", true) << "   # " << tag_or(facts.segment_overhead_ns[k], "") << "\n";
    t << "\n";
  }
  if (o.program_threads)
    t << "# The program's own thread of each process (" << o.program_threads << " in all [T]) is a processor of the\n"
      << "# kind 'external', not a CPU: it comes with the trace, one per traced process, and no machine file sets it.\n\n";
  t << "# Memories the trace logged [T]:\n";
  for (const auto& [node, list] : o.memories) {
    t << "#   node " << node << ":";
    for (const auto& m : list) t << " " << m << ";";
    t << "\n";
  }
  if (o.memories.empty()) t << "#   none (E3 traces log no Memory records)\n";
  t << source.affinities;
  t << "\n# Copy channels, one instance per node; a transfer holds one lane for latency + bytes / bandwidth.\n"
    << "[channels.memcpy]          # host memory to host memory in a node, by a DMA thread\n"
    << "latency_ns = " << value_or(facts.local_latency_ns, "1000", true) << "   # " << tag_or(facts.local_latency_ns, "") << "\n"
    << "bandwidth_gbs = " << value_or(facts.local_bandwidth_gbs, "10.0", false) << "   # "
    << tag_or(facts.local_bandwidth_gbs, "one core's memcpy") << "\nlanes = 1                  # [A]\n\n"
    << "[channels.network]         # node to node\n"
    << "latency_ns = " << latency << "   # " << latency_tag << "\n"
    << "bandwidth_gbs = " << value_or(facts.remote_bandwidth_gbs, "1.0", false) << "   # "
    << tag_or(facts.remote_bandwidth_gbs, "") << "\nlanes = 1                  # [A]\n\n"
    << "[channels.pcie_h2d]        # host to GPU framebuffer\nlatency_ns = 10000         # [A]\nbandwidth_gbs = 6.0        # [A] PCIe Gen2 x16\nlanes = 1                  # [A]\nside = \"destination\"\n\n"
    << "[channels.pcie_d2h]        # GPU framebuffer to host\nlatency_ns = 10000         # [A]\nbandwidth_gbs = 6.0        # [A]\nlanes = 1                  # [A]\n\n"
    << "[channels.fb_copy]         # framebuffer to framebuffer on one GPU\nlatency_ns = 5000          # [A]\nbandwidth_gbs = 100.0      # [A]\nlanes = 1                  # [A]\n\n";
  const char* host = "[\"system\", \"registered\", \"zero_copy\", \"socket\", \"global\", \"l1_cache\", \"l2_cache\", \"l3_cache\"]";
  auto path = [&](const std::string& src, const std::string& dst, const char* scope, const char* hops) {
    t << "[[paths]]\nsrc = " << src << "\ndst = " << dst << "\nscope = \"" << scope << "\"\nhops = " << hops << "\n\n";
  };
  t << "# Which channels each copy takes [A]: remote framebuffer traffic is staged through host memory.\n";
  path(host, host, "local", "[\"memcpy\"]");
  path(host, "\"framebuffer\"", "local", "[\"pcie_h2d\"]");
  path("\"framebuffer\"", host, "local", "[\"pcie_d2h\"]");
  path("\"framebuffer\"", "\"framebuffer\"", "local", "[\"fb_copy\"]");
  path(host, host, "remote", "[\"network\"]");
  path("\"framebuffer\"", host, "remote", "[\"pcie_d2h\", \"network\"]");
  path(host, "\"framebuffer\"", "remote", "[\"network\", \"pcie_h2d\"]");
  path("\"framebuffer\"", "\"framebuffer\"", "remote", "[\"pcie_d2h\", \"network\", \"pcie_h2d\"]");
  if (facts.cores)
    t << "[node]\ncores = " << value_or(facts.cores, "0", true) << "   # " << tag_or(facts.cores, "") << "\n\n";
  t << "[network]\nlatency_ns = " << latency << "   # "
    << (facts.network_latency_ns ? facts.network_latency_ns->tag : std::string("[A]"))
    << " one way, an event or a launch between nodes (as channels.network)\n\n"
    << "[runtime]\n"
    << "task_launch_ns = 0         # [A] the runtime's own work is in the logged meta-tasks (function 4)\n"
    << "trigger_local_ns = 0       # [A]\ntrigger_remote_ns = 0      # [A] on top of the network latency\n"
    << "merge_ns = 0               # [A]\nbarrier_arrival_ns = 0     # [A]\n";
  if (facts.processor_start_ns)
    t << "processor_start_ns = " << value_or(facts.processor_start_ns, "0", true) << "   # " << tag_or(facts.processor_start_ns, "")
      << "\n";
  if (!facts.processor_starts_ns.empty()) {
    t << "processor_starts_ns = [";
    for (std::size_t k = 0; k < facts.processor_starts_ns.size(); ++k) t << (k ? ", " : "") << facts.processor_starts_ns[k];
    t << "]   # [T] each start-up the log measured, in the order they came (the median over the logs): a node's first "
         "start-ups take these lengths\n";
  }
  t
    << "wait_frees_processor = true   # Realm runs other ready tasks while one waits\n"
    << "issue_point = \"interpolate\"   # action k of K at start + (k+1)/(K+1) x busy\n"
    << "placement = \"traced\"   # each traced processor runs on its own model processor: the traced run\n"
    << "default_copy_bytes = " << facts.median_copy_bytes.value_or(65536)
    << (facts.median_copy_bytes ? "   # [T] the median size of the trace's copies\n" : "   # [A] the trace logs no copy size\n");
  return t.str();
}

}  // namespace rr::machine
