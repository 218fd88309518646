// The machine records of a trace read in parts, put together as the whole trace's reading would give them
// (core::machine_records: each processor and memory once, the first file's in the whole trace's file order): each
// rank sends rank 0 its own, each tagged with the first of its files that lists it, and rank 0 sends every rank the
// whole machine. A machine is small beside the graph (16,384 processors at 1,024 nodes), and rank 0 alone merges,
// so no rank receives more than one machine from each rank.
#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "machine_models/machine_loader.hpp"
#include "replay/byte_wire.hpp"
#include "session/traced_part_machine.hpp"

namespace rr::session {

namespace {

// The records one rank sends. `file` is the whole trace's index of the first file that lists the record.
struct ProcessorEntry {
  std::uint32_t file;
  core::ProcessorRecord record;
};
struct MemoryEntry {
  std::uint32_t file;
  core::MemoryRecord record;
  std::uint64_t capacity;
};
struct MachineMessage {
  std::uint64_t file_nodes = 1, width = 0, nodes = 0;
  std::vector<ProcessorEntry> processors;
  std::vector<MemoryEntry> memories;
};

std::vector<std::byte> encode(const MachineMessage& m) {
  replay::ByteWriter w;
  w.put(m.file_nodes);
  w.put(m.width);
  w.put(m.nodes);
  w.put_all<ProcessorEntry>(m.processors);
  w.put_all<MemoryEntry>(m.memories);
  return w.take();
}

MachineMessage decode(const std::vector<std::byte>& bytes) {
  replay::ByteReader r(bytes);
  MachineMessage m;
  m.file_nodes = r.get<std::uint64_t>();
  m.width = r.get<std::uint64_t>();
  m.nodes = r.get<std::uint64_t>();
  m.processors = r.get_all<ProcessorEntry>();
  m.memories = r.get_all<MemoryEntry>();
  return m;
}

// This rank's machine records, each with the first of its files (in the whole trace's order) that lists it.
MachineMessage own_records(const TracePart& trace) {
  MachineMessage m;
  const core::TraceRecords& records = trace.records;
  std::unordered_map<std::uint64_t, std::uint32_t> first_processor, first_memory;
  std::set<std::int32_t> nodes;
  for (std::size_t f = 0; f < records.files.size(); ++f) {
    const core::FileRecords& file = records.files[f];
    if (file.node >= 0) {
      nodes.insert(file.node);
      m.file_nodes = std::max<std::uint64_t>(m.file_nodes, static_cast<std::uint64_t>(file.node) + 1);
    }
    for (const core::RecordBatch& b : file.batches) {
      for (const auto& p : b.processors) first_processor.try_emplace(p.id.value(), trace.file_index[f]);
      for (const auto& mem : b.memories) first_memory.try_emplace(mem.id.value(), trace.file_index[f]);
    }
  }
  m.width = static_cast<std::uint64_t>(records.width);
  m.nodes = nodes.size();
  const core::MachineRecords machine = core::machine_records(records);
  for (const auto& p : machine.processors) m.processors.push_back({first_processor.at(p.id.value()), p});
  for (std::size_t i = 0; i < machine.memories.size(); ++i) {
    const core::MemoryRecord& mem = machine.memories[i];
    m.memories.push_back({first_memory.at(mem.id.value()), mem, machine.memory_capacities[i]});
  }
  return m;
}

// Rank 0's merge of every rank's records: by first file, each id once, the first file's.
MachineMessage merged(const std::vector<MachineMessage>& from_ranks) {
  MachineMessage out;
  out.file_nodes = 1;
  for (const MachineMessage& m : from_ranks) {
    out.file_nodes = std::max(out.file_nodes, m.file_nodes);
    out.width = std::max(out.width, m.width);  // (the widest: the whole trace's is that of its largest id)
    out.nodes += m.nodes;                        // (each node's file is one rank's)
    out.processors.insert(out.processors.end(), m.processors.begin(), m.processors.end());
    out.memories.insert(out.memories.end(), m.memories.begin(), m.memories.end());
  }
  auto by_file = [](const auto& a, const auto& b) { return a.file < b.file; };
  std::stable_sort(out.processors.begin(), out.processors.end(), by_file);
  std::stable_sort(out.memories.begin(), out.memories.end(), by_file);
  std::unordered_set<std::uint64_t> seen;
  std::erase_if(out.processors, [&](const ProcessorEntry& p) { return !seen.insert(p.record.id.value()).second; });
  seen.clear();
  std::erase_if(out.memories, [&](const MemoryEntry& m) { return !seen.insert(m.record.id.value()).second; });
  return out;
}

}  // namespace

core::Expected<machine::MachineModel> traced_machine_outline(std::uint32_t traced_cores,
                                                             const std::vector<std::string>& overrides) {
  machine::TracedFacts facts;
  if (traced_cores > 0) facts.cores = machine::MeasuredValue{static_cast<double>(traced_cores), "[G]", "--traced-cores"};
  return machine::parse_machine(machine::traced_machine_toml(machine::TracedMachineSource{}, "", facts), "traced",
                                overrides);
}

SharedMachine share_machine_records(const TracePart& trace, graph::RankExchange& exchange) {
  SharedMachine out;
  if (trace.machine_files) {  // Legion Prof logs: every rank holds every file's machine (prof_machine_view.hpp)
    out.source = machine::traced_machine_source(*trace.machine_files);
    std::set<std::int32_t> nodes;
    for (const core::FileRecords& f : trace.machine_files->files)
      if (f.node >= 0) nodes.insert(f.node);
    out.nodes = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(nodes.size()));
    return out;
  }
  if (trace.whole_records) {  // a packed trace: every rank holds every file's records
    out.source = machine::traced_machine_source(trace.records);
    out.nodes = std::max<std::uint32_t>(1, trace.packed_nodes);
    return out;
  }
  const std::uint32_t ranks = exchange.ranks(), me = exchange.rank();
  std::vector<std::vector<std::byte>> to_each(ranks);
  to_each[0] = encode(own_records(trace));
  std::vector<std::vector<std::byte>> came = exchange.all_to_all(std::move(to_each));
  std::vector<std::vector<std::byte>> back(ranks);
  if (me == 0) {
    std::vector<MachineMessage> from_ranks;
    for (const auto& bytes : came) from_ranks.push_back(decode(bytes));
    back.assign(ranks, encode(merged(from_ranks)));
  }
  const MachineMessage whole = decode(exchange.all_to_all(std::move(back))[0]);
  out.source.file_nodes = static_cast<std::uint32_t>(whole.file_nodes);
  out.source.width = static_cast<core::IdWidth>(whole.width);
  for (const ProcessorEntry& p : whole.processors) out.source.machine.processors.push_back(p.record);
  for (const MemoryEntry& m : whole.memories) {
    out.source.machine.memories.push_back(m.record);
    out.source.machine.memory_capacities.push_back(m.capacity);
  }
  out.nodes = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(whole.nodes));
  return out;
}

}  // namespace rr::session
