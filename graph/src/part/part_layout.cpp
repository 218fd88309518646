// Step 1 of the part build: every rank's files' shapes, so that each rank gives its records the vertex ids the
// whole build would (lay_out.cpp there: batch by batch in input order), and every barrier phase, which each rank
// works out alike from the phases all files name (barrier_phases.cpp there).
#include <map>
#include <stdexcept>
#include <string>

#include "graph/src/part/part_builder.hpp"
#include "graph/src/part/part_wire.hpp"
#include "graph/src/barrier_phase_order.hpp"

namespace rr::graph::part_detail {

namespace {

struct FileHeader {
  std::uint32_t file = 0;
  std::int32_t node = -1;
  std::uint32_t batches = 0;
  std::uint32_t phases = 0;  // distinct phases it names
};

struct BatchCounts {
  std::uint32_t tasks = 0, copies = 0, merges = 0, triggers = 0, alters = 0, arrives = 0;
};

struct Creation {
  std::uint64_t id = 0;
  std::uint32_t expected = 0;
  std::uint32_t file = 0;
};

// A phase a file names, in the order the whole build meets it (each batch's Alters, then its Arrives), with the
// file's sums for it.
struct PhaseMention {
  core::EventKey phase;
  std::uint32_t unused = 0;
  std::int64_t required = 0;
  std::int64_t arrived = 0;
};

std::uint32_t count32(std::size_t n) { return static_cast<std::uint32_t>(n); }

// This rank's files: their shapes, creations and phases, the same message for every rank.
std::vector<std::byte> describe_files(const PartFiles& files) {
  std::vector<FileHeader> headers;
  std::vector<BatchCounts> counts;
  std::vector<Creation> creations;
  std::vector<PhaseMention> mentions;
  for (std::size_t i = 0; i < files.records->files.size(); ++i) {
    const core::FileRecords& f = files.records->files[i];
    const std::uint32_t file = files.file_index.at(i);
    std::unordered_map<core::EventKey, std::size_t> seen;
    auto mention = [&](const core::EventKey& phase) -> PhaseMention& {
      auto [it, added] = seen.try_emplace(phase, mentions.size());
      if (added) mentions.push_back({phase, 0, 0, 0});
      return mentions[it->second];
    };
    const std::size_t first_mention = mentions.size();
    for (const core::RecordBatch& b : f.batches) {
      counts.push_back({count32(b.task_requests.size()), count32(b.copy_requests.size()), count32(b.event_merges.size()),
                        count32(b.event_triggers.size()), count32(b.barrier_alters.size()),
                        count32(b.barrier_arrives.size())});
      for (const auto& r : b.barrier_creations) creations.push_back({r.id.value(), r.expected_arrivals, file});
      for (const auto& r : b.barrier_alters) mention(r.phase).required += r.delta;
      for (const auto& r : b.barrier_arrives) mention(r.phase).arrived += r.count;
    }
    headers.push_back({file, f.node, count32(f.batches.size()), count32(mentions.size() - first_mention)});
  }
  WireWriter out;
  out.value(files.records->width);
  out.array(headers);
  out.array(counts);
  out.array(creations);
  out.array(mentions);
  return out.take();
}

}  // namespace

void PartBuilder::lay_out() {
  if (files_.records == nullptr) throw std::runtime_error(files_.read_error);
  if (exchange_.ranks() >= kMaxRanks) throw std::invalid_argument("part build: more ranks than 2^24 - 1");
  if (files_.releasable && files_.releasable != files_.records)
    throw std::invalid_argument("part build: releasable records must be the records read");
  if (files_.file_index.size() != files_.records->files.size())
    throw std::runtime_error("part build: the files' indices do not match the files read");
  const std::vector<std::byte> mine = describe_files(files_);
  const std::vector<std::vector<std::byte>> from_each = exchange(std::vector(exchange_.ranks(), mine));

  // Every file's shape, in the whole trace's order.
  struct File {
    FileHeader header;
    std::vector<BatchCounts> batches;
    std::uint32_t rank = 0;
    std::size_t first_local = 0;  // index in files_.records->files, for this rank's
    bool present = false;
  };
  std::vector<File> all(files_.total_files);
  for (std::uint32_t r = 0; r < from_each.size(); ++r) {
    WireReader in(from_each[r]);
    const auto width = in.value<core::IdWidth>();
    if (width_ == core::IdWidth::unknown) width_ = width;
    const auto headers = in.array<FileHeader>();
    const auto counts = in.array<BatchCounts>();
    std::size_t next = 0;
    for (std::size_t i = 0; i < headers.size(); ++i) {
      const FileHeader& h = headers[i];
      if (h.file >= all.size() || all[h.file].present || next + h.batches > counts.size())
        throw std::runtime_error("part build: rank " + std::to_string(r) + " names file " + std::to_string(h.file) +
                                 " that is not one of the trace's, or another rank's too");
      all[h.file] = {h, {counts.begin() + next, counts.begin() + next + h.batches}, r, i, true};
      next += h.batches;
    }
  }
  for (std::uint32_t f = 0; f < all.size(); ++f)
    if (!all[f].present) throw std::runtime_error("part build: no rank read file " + std::to_string(f));

  std::uint64_t v = 0, tasks = 0, copies = 0, values = 0;
  std::uint32_t global = 0;
  for (const File& f : all) {
    for (std::size_t bi = 0; bi < f.batches.size(); ++bi) {
      const BatchCounts& c = f.batches[bi];
      BatchPlace b;
      b.file = f.header.file;
      b.global = global++;
      b.node = f.header.node < 0 ? kNoNode : static_cast<std::uint32_t>(f.header.node);
      b.first_task = static_cast<VertexId>(v);
      b.first_copy = b.first_task + c.tasks;
      b.first_merge = b.first_copy + c.copies;
      b.first_trigger = b.first_merge + c.merges;
      b.first_alter = b.first_trigger + c.triggers;
      b.first_arrive = b.first_alter + c.alters;
      b.end = b.first_arrive + c.arrives;
      b.task_info = static_cast<std::uint32_t>(tasks);
      b.copy_info = static_cast<std::uint32_t>(copies);
      b.alter_value = static_cast<std::uint32_t>(values);
      b.arrive_value = static_cast<std::uint32_t>(values + c.alters);
      v += std::uint64_t{c.tasks} + c.copies + c.merges + c.triggers + c.alters + c.arrives;
      tasks += c.tasks;
      copies += c.copies;
      values += std::uint64_t{c.alters} + c.arrives;
      if (v >= kNoVertex) throw std::runtime_error("part build: more operations than 32-bit vertex ids hold");
      if (f.rank == rank()) {
        b.batch = &files_.records->files[f.first_local].batches[bi];
        if (files_.releasable) b.releasable = &files_.releasable->files[f.first_local].batches[bi];
        own_batches_.push_back(b);
      }
    }
  }
  total_batches_ = global;
  // Every batch is a run of edge keys, and so is the tail after them (edge_key).
  if (std::uint64_t{total_batches_} + 2 > kMaxRuns)
    throw std::runtime_error("part build: more batches than edge keys order (2^24 - 2)");
  record_vertices_ = static_cast<VertexId>(v);
  total_values_ = static_cast<std::uint32_t>(values);
  lay_out_phases(from_each);
}

// Every phase, as the whole build makes them: those the records name in the order it meets them, then the
// missing generations in between, barrier by barrier; their sums, their order edges and the first phase of each
// barrier. Every rank holds the list: phases are few (one per barrier generation).
void PartBuilder::lay_out_phases(const std::vector<std::vector<std::byte>>& from_each) {
  std::vector<std::vector<PhaseMention>> by_file(files_.total_files);
  std::vector<std::vector<Creation>> created_by_file(files_.total_files);
  for (const auto& bytes : from_each) {
    WireReader in(bytes);
    in.value<core::IdWidth>();
    const auto headers = in.array<FileHeader>();
    in.array<BatchCounts>();
    for (const Creation& c : in.array<Creation>()) created_by_file[c.file].push_back(c);
    const auto mentions = in.array<PhaseMention>();
    std::size_t next = 0;
    for (const FileHeader& h : headers) {
      by_file[h.file].assign(mentions.begin() + next, mentions.begin() + next + h.phases);
      next += h.phases;
    }
  }
  std::unordered_map<std::uint64_t, std::uint32_t> created;  // barrier id -> expected arrivals: the first creation
  for (const auto& file : created_by_file)
    for (const Creation& c : file) created.try_emplace(c.id, c.expected);
  auto phase = [&](const core::EventKey& key) -> std::uint32_t {
    auto [it, added] = phase_index_.try_emplace(key, static_cast<std::uint32_t>(phase_keys_.size()));
    if (added) {
      phase_keys_.push_back(key);
      phase_info_.push_back({});
    }
    return it->second;
  };
  for (const auto& file : by_file)
    for (const PhaseMention& m : file) {
      BarrierPhaseInfo& info = phase_info_[phase(m.phase)];
      info.required += m.required;
      info.arrived += m.arrived;
    }
  note_phase_findings(created);
}

// The whole build's complete_barriers: the phases between those named, order edges, and the phases that cannot
// complete; those findings and barriers without creation are rank 0's to note.
void PartBuilder::note_phase_findings(const std::unordered_map<std::uint64_t, std::uint32_t>& created) {
  std::map<std::uint64_t, std::vector<std::uint32_t>> gens;
  for (const core::EventKey& k : phase_keys_) gens[k.id()].push_back(k.gen);
  const bool notes = rank() == 0;
  std::uint64_t order_edges = 0;
  for (auto& [id, list] : gens) {
    std::sort(list.begin(), list.end());
    first_phase_.emplace(id, list.front());
    const auto c = created.find(id);
    std::int64_t expected = 0;
    if (c == created.end()) {
      if (notes) log_.note(core::Stat::barrier_without_creation, core::EventKey::make(id, list.front()));
    } else {
      expected = c->second;
    }
    std::uint32_t previous = kNoVertex;
    auto add = [&, id = id](std::uint32_t gen, std::uint64_t stands_for) {
      const core::EventKey key = core::EventKey::make(id, gen);
      auto [it, added] = phase_index_.try_emplace(key, static_cast<std::uint32_t>(phase_keys_.size()));
      if (added) {
        phase_keys_.push_back(key);
        phase_info_.push_back({});
      }
      const std::uint32_t p = it->second;
      BarrierPhaseInfo& info = phase_info_[p];
      info.required += expected;
      info.first = previous == kNoVertex;
      if (previous != kNoVertex)
        phase_order_.push_back({record_vertices_ + previous, record_vertices_ + p,
                                edge_key(kBarrierRun, std::uint64_t{total_values_} + order_edges++),
                                EdgeKind::phase_order});
      if (notes && info.arrived < info.required)
        log_.note(core::Stat::barrier_phase_incomplete, key,
                  [&] { return incomplete_phase_why(info.required, info.arrived, gen, stands_for); });
      previous = p;
    };
    for_each_phase_in_order(list, add);
  }
  if (std::uint64_t{record_vertices_} + phase_keys_.size() >= kNoVertex)
    throw std::runtime_error("part build: more operations than 32-bit vertex ids hold");
}

}  // namespace rr::graph::part_detail
