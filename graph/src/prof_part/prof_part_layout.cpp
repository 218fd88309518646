// Steps 2 and 3 of the Legion Prof part build. The first directory: which record of an event comes first in the
// whole build's order (its producer; a later trigger of it is dropped, a later work item, copy or merger is a
// duplicate), which record of an arrival both processes logged is kept, which barrier generations are phases, and
// which instance a profiling response is about, each decided by the event's home. Then the layout: every rank tells
// every other its files' counts, the phases it decided, its files' function names and its earliest start.
#include <algorithm>
#include <set>
#include <stdexcept>
#include <tuple>

#include "graph/prof_graph_builder.hpp"
#include "graph/src/part/part_wire.hpp"
#include "graph/src/prof_part/prof_part_builder.hpp"

namespace rr::graph::prof_part {

namespace {

using part_detail::WireReader;
using part_detail::WireWriter;

// A would-be producer of an event, to the event's home.
struct Candidate {
  std::uint64_t event = 0;
  std::uint64_t key = 0;  // order_key(stage, file, seq): the whole build's order of producers
  std::uint8_t trigger = 0;
  OpKind kind = OpKind::task;
  std::uint8_t unused[6] = {};
};

struct ArrivalNote {
  std::uint64_t result = 0, fevent = 0, precondition = 0;
  TimeNs performed = 0;
  std::uint64_t key = 0;  // file << 40 | index: the first of two identical records stays
  auto tuple() const { return std::tie(result, fevent, precondition, performed); }
};

struct InstanceAnswer {
  std::uint64_t creator = 0;
  TimeNs create = 0;
  std::uint64_t found = 0;
};

// What one rank asks a home in the first directory.
struct FirstQuestions {
  std::vector<Candidate> candidates;
  std::vector<ArrivalNote> arrivals;
  std::vector<InstanceNote> instances;
  std::vector<std::uint64_t> instance_uids;
};

// Every rank's entries of one kind, one after another by rank, with each one's rank and place among its rank's.
template <class T>
std::vector<T> by_sender(const std::vector<FirstQuestions>& asked, std::vector<T> FirstQuestions::*member,
                         std::vector<std::uint32_t>& sender, std::vector<std::uint32_t>& index) {
  std::vector<T> all;
  for (std::uint32_t r = 0; r < asked.size(); ++r) {
    const std::vector<T>& xs = asked[r].*member;
    for (std::uint32_t k = 0; k < xs.size(); ++k) {
      sender.push_back(r);
      index.push_back(k);
    }
    all.insert(all.end(), xs.begin(), xs.end());
  }
  return all;
}

}  // namespace

std::uint32_t ProfPartBuilder::home_of(std::uint64_t event) const {
  // Barrier ids (top bits 0010) name their creator at bit 44, other events at bit 47 (docs/legion-prof.md, Ids):
  // an event's home is the rank of the process that created it, where its producer mostly is.
  const bool barrier = (event >> 60) == 0x2;
  return ranks_.rank_of(barrier ? core::realm_barrier_node_of(event) : core::realm_node_of(event));
}

// over 120 lines because it sends, decides as a home and takes the answers of one exchange, three kinds of
// question (producers, arrivals, instances) that must keep the order they were asked in.
void ProfPartBuilder::first_directory() {
  ByRank<Candidate> candidates(ranks());
  ByRank<ArrivalNote> arrivals(ranks());
  ByRank<InstanceNote> instances(ranks());
  ByRank<std::uint64_t> questions(ranks());
  ByRank<std::uint32_t> candidate_ops(ranks()), arrival_ops(ranks()), question_ops(ranks());
  if (files_.records) {
    for (std::uint32_t i = 0; i < ops_.size(); ++i) {
      const LocalOp& op = ops_[i];
      const std::uint32_t h = home_of(op.event.id);
      if (op.stage == 2) {
        arrivals[h].push_back({op.event.id, op.creator.id, op.critical.id, op.end,
                               std::uint64_t{whole_file(op.file)} << 40 | op.seq});
        arrival_ops[h].push_back(i);
      } else if (!op.event.is_none()) {  // no event: nothing to produce, nothing to be the first of
        candidates[h].push_back({op.event.id, order_key(op.stage, whole_file(op.file), op.seq), op.trigger, op.kind});
        candidate_ops[h].push_back(i);
      }
      if (op.profiler) {
        questions[home_of(op.creator.id)].push_back(op.creator.id);
        question_ops[home_of(op.creator.id)].push_back(i);
      }
    }
    for (const InstanceNote& n : instances_) instances[home_of(n.uid)].push_back(n);
  }
  std::vector<std::vector<std::byte>> to_each(ranks());
  for (std::uint32_t r = 0; r < ranks(); ++r) {
    if (r == rank()) continue;
    WireWriter out;
    out.array(candidates[r]);
    out.array(arrivals[r]);
    out.array(instances[r]);
    out.array(questions[r]);
    to_each[r] = out.take();
  }
  // A rank that could not read its files says so here, in place of its message: every rank stops, naming it.
  if (!files_.records) throw std::runtime_error(files_.read_error);
  const auto from_each = channel_.exchange(std::move(to_each));
  std::vector<FirstQuestions> asked(ranks());
  for (std::uint32_t r = 0; r < ranks(); ++r) {
    if (r == rank()) {
      asked[r] = {candidates[r], arrivals[r], instances[r], questions[r]};
      continue;
    }
    WireReader in(from_each[r]);
    asked[r].candidates = in.array<Candidate>();
    asked[r].arrivals = in.array<ArrivalNote>();
    asked[r].instances = in.array<InstanceNote>();
    asked[r].instance_uids = in.array<std::uint64_t>();
  }

  // As the home: the first candidate of each event in input order is its producer.
  std::vector<std::uint32_t> sender, index;
  const std::vector<Candidate> all = by_sender(asked, &FirstQuestions::candidates, sender, index);
  ByRank<std::uint8_t> won(ranks());
  for (std::uint32_t r = 0; r < ranks(); ++r) won[r].assign(asked[r].candidates.size(), 0);
  {
    std::vector<std::uint32_t> order(all.size());
    for (std::uint32_t k = 0; k < all.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return std::tie(all[a].event, all[a].key) < std::tie(all[b].event, all[b].key);
    });
    for (std::size_t k = 0; k < order.size();) {
      const Candidate& first = all[order[k]];
      won[sender[order[k]]][index[order[k]]] = 1;
      produced_here_.push_back({first.event, first.kind});
      std::size_t j = k + 1;
      // A trigger comes only where nothing came before it; anything else coming later is a duplicate producer.
      for (; j < order.size() && all[order[j]].event == first.event; ++j)
        if (!all[order[j]].trigger)
          log_.note(core::Stat::duplicate_producer, key_of(ProfEvent{first.event}), [&] { return std::string(op_kind_name(first.kind)) + " and " + op_kind_name(all[order[j]].kind); });
      k = j;
    }
  }
  // Arrivals: of identical records (one arrival both processes logged) the first stays; each generation with an
  // arrival is a phase.
  std::vector<std::uint32_t> arrival_sender, arrival_index;
  const std::vector<ArrivalNote> logged = by_sender(asked, &FirstQuestions::arrivals, arrival_sender, arrival_index);
  ByRank<std::uint8_t> kept(ranks());
  for (std::uint32_t r = 0; r < ranks(); ++r) kept[r].assign(asked[r].arrivals.size(), 0);
  {
    std::vector<std::uint32_t> order(logged.size());
    for (std::uint32_t k = 0; k < logged.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return std::tuple_cat(logged[a].tuple(), std::tie(logged[a].key)) < std::tuple_cat(logged[b].tuple(), std::tie(logged[b].key));
    });
    for (std::size_t k = 0; k < order.size(); ++k) {
      const ArrivalNote& a = logged[order[k]];
      if (k > 0 && logged[order[k - 1]].tuple() == a.tuple()) continue;
      kept[arrival_sender[order[k]]][arrival_index[order[k]]] = 1;
      if (own_phases_.empty() || own_phases_.back().id != a.result) own_phases_.push_back({a.result, 0});
      ++own_phases_.back().arrivals;
    }
  }
  // Instances: the first record of each in input order; each question answered.
  std::vector<InstanceNote> known;
  for (const FirstQuestions& a : asked) known.insert(known.end(), a.instances.begin(), a.instances.end());
  std::sort(known.begin(), known.end(), [](const auto& a, const auto& b) { return std::tie(a.uid, a.key) < std::tie(b.uid, b.key); });
  known.erase(std::unique(known.begin(), known.end(), [](const auto& a, const auto& b) { return a.uid == b.uid; }), known.end());
  auto answer = [&](const std::vector<std::uint64_t>& asked) {
    std::vector<InstanceAnswer> out;
    for (std::uint64_t uid : asked) {
      auto it = std::lower_bound(known.begin(), known.end(), uid, [](const InstanceNote& n, std::uint64_t u) { return n.uid < u; });
      out.push_back(it != known.end() && it->uid == uid ? InstanceAnswer{it->creator, it->create, 1} : InstanceAnswer{});
    }
    return out;
  };
  std::vector<std::vector<std::byte>> replies(ranks());
  for (std::uint32_t r = 0; r < ranks(); ++r) {
    if (r == rank()) continue;
    WireWriter out;
    out.array(won[r]);
    out.array(kept[r]);
    out.array(answer(asked[r].instance_uids));
    replies[r] = out.take();
  }
  const auto answers = channel_.exchange(std::move(replies));

  // This rank's records, as their homes decided.
  for (std::uint32_t h = 0; h < ranks(); ++h) {
    std::vector<std::uint8_t> first, stays;
    std::vector<InstanceAnswer> about;
    if (h == rank()) {
      first = won[h];
      stays = kept[h];
      about = answer(questions[h]);
    } else {
      WireReader in(answers[h]);
      first = in.array<std::uint8_t>();
      stays = in.array<std::uint8_t>();
      about = in.array<InstanceAnswer>();
    }
    if (first.size() != candidate_ops[h].size() || stays.size() != arrival_ops[h].size() || about.size() != question_ops[h].size())
      throw std::runtime_error("part build: rank " + std::to_string(h) + " answered other questions than were asked");
    for (std::size_t k = 0; k < first.size(); ++k) {
      LocalOp& op = ops_[candidate_ops[h][k]];
      op.fresh = first[k] != 0;
      op.kept = !op.trigger || op.fresh;  // a trigger another record gave first makes no vertex
    }
    for (std::size_t k = 0; k < stays.size(); ++k) ops_[arrival_ops[h][k]].kept = stays[k] != 0;
    for (std::size_t k = 0; k < about.size(); ++k) {
      LocalOp& op = ops_[question_ops[h][k]];
      if (about[k].found) {
        // About an instance: launched by the instance's creator where it created the instance, with its measured
        // delay (it has no precondition of its own).
        op.profiler = false;
        op.critical = {};
        op.creator = ProfEvent{about[k].creator};
        op.launched = about[k].create;
        op.external_input = true;
      } else {
        op.critical = op.creator;  // its creator is what it follows
        op.creator = {};
      }
    }
  }
  // produced_here_ is by event already (the candidates were sorted so). A phase whose generation something else
  // produced first is a duplicate too (the whole build produces phases last).
  for (const PhaseCount& phase : own_phases_) {
    auto it = std::lower_bound(produced_here_.begin(), produced_here_.end(), phase.id,
                               [](const auto& p, std::uint64_t id) { return p.first < id; });
    if (it != produced_here_.end() && it->first == phase.id)
      log_.note(core::Stat::duplicate_producer, key_of(ProfEvent{phase.id}),
                [&] { return std::string(op_kind_name(it->second)) + " and " + op_kind_name(OpKind::barrier_phase); });
  }
}

// Every rank tells every other its files' counts, the phases it decided, its files' function names and its earliest
// start; each then numbers the vertices as the whole build does (docs/scale.md, "The Legion Prof graph built in
// parts") and gives its own records their ids.
void ProfPartBuilder::lay_out() {
  std::vector<FileCounts> mine;
  std::vector<NameNote> names;
  std::vector<char> text;
  auto name = [&](std::uint32_t fi, std::uint32_t id, std::uint8_t kind, bool overwritten, std::string_view s) {
    names.push_back({whole_file(fi), id, kind, static_cast<std::uint8_t>(overwritten), {}, static_cast<std::uint32_t>(s.size())});
    text.insert(text.end(), s.begin(), s.end());
  };
  for (std::uint32_t fi = 0; fi < files_.records->files.size(); ++fi) {
    const core::FileRecords& f = file(fi);
    const core::ProfileRecords& p = f.profile;
    FileCounts c;
    c.file = whole_file(fi);
    c.node = f.node;
    c.num_nodes = p.machine ? p.machine->num_nodes : 0;
    c.work = static_cast<std::uint32_t>(p.work.size());
    c.copies = static_cast<std::uint32_t>(p.copies.size() + p.fills.size());
    for (const LocalOp& op : ops_)
      if (op.file == fi) {
        c.passing += op.stage == 1 && op.kept;
        c.arrivals += op.stage == 2 && op.kept;
      }
    c.event_graph_records = !p.mergers.empty() || !p.completion_queues.empty() || !p.triggers.empty() ||
                            !p.poisons.empty() || !p.arrivals.empty() || !p.reservation_acquires.empty() ||
                            !p.instance_readies.empty() || !p.instance_redistricts.empty();
    mine.push_back(c);
    for (const auto& k : p.task_kinds) name(fi, k.task_id, 0, k.overwritten, p.string_at(k.name));
    for (const auto& m : p.meta_kinds) name(fi, m.kind, 1, false, p.string_at(m.name));
    for (const auto& w : p.work)
      if (w.kind == core::ProfWorkKind::partition) name(fi, w.function, 2, false, {});
  }
  WireWriter out;
  out.array(mine);
  out.array(own_phases_);
  out.array(names);
  out.array(text);
  out.value(earliest_start_);
  const std::vector<std::byte> message = out.take();
  const auto from_each = channel_.exchange(std::vector<std::vector<std::byte>>(ranks(), message));
  std::vector<std::vector<NameNote>> all_names(ranks());
  std::vector<std::vector<char>> all_text(ranks());
  for (std::uint32_t r = 0; r < ranks(); ++r) {
    WireReader in(r == rank() ? message : from_each[r]);
    in.append_to(files_counts_);
    in.append_to(phases_);
    all_names[r] = in.array<NameNote>();
    all_text[r] = in.array<char>();
    const TimeNs start = in.value<TimeNs>();
    if (start != kNoTime && (origin_ == kNoTime || start < origin_)) origin_ = start;
  }
  std::sort(files_counts_.begin(), files_counts_.end(), [](const auto& a, const auto& b) { return a.file < b.file; });
  for (std::uint32_t i = 0; i < files_counts_.size(); ++i)
    if (files_counts_[i].file != i || files_counts_.size() != files_.total_files)
      throw std::runtime_error("part build: the ranks' files are not the trace's " + std::to_string(files_.total_files) +
                               " files, each once");
  const std::uint32_t n = files_.total_files;
  first_work_.resize(n);
  first_task_.resize(n);
  first_copy_.resize(n);
  first_passing_.resize(n);
  first_arrival_.resize(n);
  std::uint64_t next = 0, tasks = 0, copies = 0;
  for (std::uint32_t f = 0; f < n; ++f) {
    first_work_[f] = static_cast<VertexId>(next);
    first_task_[f] = static_cast<std::uint32_t>(tasks);
    first_copy_[f] = static_cast<std::uint32_t>(copies);
    next += files_counts_[f].work + files_counts_[f].copies;
    tasks += files_counts_[f].work;
    copies += files_counts_[f].copies;
    event_graph_records_ = event_graph_records_ || files_counts_[f].event_graph_records;
  }
  for (std::uint32_t f = 0; f < n; ++f) {
    first_passing_[f] = static_cast<VertexId>(next);
    next += files_counts_[f].passing;
  }
  const std::uint64_t first_arrivals = next;
  for (std::uint32_t f = 0; f < n; ++f) {
    first_arrival_[f] = static_cast<VertexId>(next);
    next += files_counts_[f].arrivals;
  }
  std::sort(phases_.begin(), phases_.end(), [](const PhaseCount& a, const PhaseCount& b) { return a.id < b.id; });
  first_phase_ = static_cast<VertexId>(next);
  for (std::uint32_t i = 0; i < phases_.size(); ++i) phase_index_.emplace(phases_[i].id, i);
  next += phases_.size();
  if (next > kNoVertex - 1) throw std::length_error("part build: more vertices than 32-bit ids hold");
  first_resume_ = static_cast<VertexId>(next);

  // This rank's records: their ids and payloads (a kept trigger or arrival counts among its file's kept ones).
  std::uint32_t at_file = ~0u, passing = 0, arrivals = 0;
  for (LocalOp& op : ops_) {
    const std::uint32_t f = whole_file(op.file);
    if (op.file != at_file) at_file = op.file, passing = 0, arrivals = 0;
    if (!op.kept) continue;
    if (op.stage == 0) {
      op.id = first_work_[f] + op.seq;
      op.payload = op.kind == OpKind::copy ? first_copy_[f] + op.seq - files_counts_[f].work : first_task_[f] + op.seq;
    } else if (op.stage == 1) {
      op.id = first_passing_[f] + passing++;
      op.payload = op.kind == OpKind::trigger ? 0 : op.detail;  // a merger's or queue's: its inputs
    } else {
      op.id = first_arrival_[f] + arrivals;
      op.payload = static_cast<std::uint32_t>(first_arrival_[f] - first_arrivals) + arrivals++;  // its value's
    }
  }
  lay_out_names(all_names, all_text);
}

// The function names, by the whole build's rules over the files in order: a task's first name stays unless a later
// one overwrites it; a meta-task's first stays; partitions are named by number.
void ProfPartBuilder::lay_out_names(const std::vector<std::vector<NameNote>>& names,
                                    const std::vector<std::vector<char>>& text) {
  struct Named {
    NameNote note;
    std::string name;
  };
  std::vector<Named> all;
  for (std::uint32_t r = 0; r < names.size(); ++r) {
    std::size_t at = 0;
    for (const NameNote& n : names[r]) {
      if (n.length > text[r].size() - at) throw std::runtime_error("part build: a name cut short");
      all.push_back({n, std::string(text[r].data() + at, n.length)});
      at += n.length;
    }
  }
  std::stable_sort(all.begin(), all.end(), [](const Named& a, const Named& b) { return a.note.file < b.note.file; });
  std::map<std::uint32_t, std::pair<std::string, bool>> tasks;
  std::map<std::uint32_t, std::string> meta;
  std::set<std::uint32_t> partitions;
  for (const Named& n : all) {
    if (n.note.kind == 0) {
      auto [it, fresh] = tasks.try_emplace(n.note.id, n.name, n.note.overwritten != 0);
      if (!fresh && n.note.overwritten && !it->second.second) it->second = {n.name, true};
    } else if (n.note.kind == 1) {
      meta.try_emplace(n.note.id, n.name);
    } else {
      partitions.insert(n.note.id);
    }
  }
  for (auto& [id, name] : tasks) names_.emplace_back(id, name.first);
  for (auto& [id, name] : meta) names_.emplace_back(kMetaFunction + id, name);
  for (auto op : partitions) names_.emplace_back(kPartitionFunction + op, "partition op " + std::to_string(op));
  names_.emplace_back(kProfilerFunction, "profiler task");
}

}  // namespace rr::graph::prof_part
