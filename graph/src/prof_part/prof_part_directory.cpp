// Step 4 of the Legion Prof part build: the second directory. Each producer the first directory chose goes to its
// event's home with its id, kind and owner (the home adds the phases it decided, where nothing produced their
// generation first); each event this rank's records name is asked of its home once, and answered. The home counts
// each event that a counted reference names and nothing produces once (external_event), as the whole build does.
#include <algorithm>
#include <set>
#include <stdexcept>

#include "graph/src/part/part_wire.hpp"
#include "graph/src/prof_part/prof_part_builder.hpp"

namespace rr::graph::prof_part {

namespace {

using part_detail::WireReader;
using part_detail::WireWriter;

// An event asked of its home; counted: a reference the whole build counts when nothing produces it (a
// precondition, a merger's input, an awaited event), not a launch's creator or a profiling response's.
struct Question {
  std::uint64_t event = 0;
  std::uint64_t counted = 0;
};

bool by_event(const Producer& a, const Producer& b) { return a.event < b.event; }

}  // namespace

void ProfPartBuilder::second_directory() {
  ByRank<Producer> producers(ranks());
  ByRank<Question> questions(ranks());
  auto ask = [&](ProfEvent e, bool counted) {
    if (!e.is_none()) questions[home_of(e.id)].push_back({e.id, counted});
  };
  for (const LocalOp& op : ops_) {
    if (!op.kept) continue;
    if (op.stage < 2 && op.fresh && !op.event.is_none())
      producers[home_of(op.event.id)].push_back({op.event.id, op.id, owner_of(op.node), op.kind, {}});
    ask(op.critical, !op.profiler);
    if (op.stage != 1 || op.fresh) ask(op.creator, false);
  }
  for (const LocalInput& in : inputs_)
    if (ops_[in.op].fresh) ask(in.event, true);
  for (const LocalWait& w : waits_)
    if (ops_[w.op].fresh) ask(w.event, true);
  for (auto& q : questions) {
    std::sort(q.begin(), q.end(), [](const Question& a, const Question& b) { return a.event < b.event; });
    std::vector<Question> once;
    for (const Question& x : q) {
      if (!once.empty() && once.back().event == x.event) once.back().counted |= x.counted;
      else once.push_back(x);
    }
    q = std::move(once);
  }
  std::vector<std::vector<std::byte>> to_each(ranks());
  for (std::uint32_t r = 0; r < ranks(); ++r) {
    if (r == rank()) continue;
    WireWriter out;
    out.array(producers[r]);
    out.array(questions[r]);
    to_each[r] = out.take();
  }
  const auto from_each = channel_.exchange(std::move(to_each));

  // As the home: the producers of its events, the phases it decided among them, and the answers.
  for (std::uint32_t r = 0; r < ranks(); ++r) {
    if (r == rank()) {
      directory_.insert(directory_.end(), producers[r].begin(), producers[r].end());
    } else {
      WireReader in(from_each[r]);
      in.append_to(directory_);
    }
  }
  for (const PhaseCount& phase : own_phases_) {
    auto it = std::lower_bound(produced_here_.begin(), produced_here_.end(), phase.id,
                               [](const auto& p, std::uint64_t id) { return p.first < id; });
    if (it != produced_here_.end() && it->first == phase.id) continue;  // the first producer stays
    const VertexId v = first_phase_ + phase_index_.at(phase.id);
    directory_.push_back({phase.id, v, owner_of(core::realm_barrier_node_of(phase.id)), OpKind::barrier_phase, {}});
  }
  std::sort(directory_.begin(), directory_.end(), by_event);
  std::set<std::uint64_t> external;
  auto answer = [&](const std::vector<Question>& asked) {
    std::vector<Producer> out;
    out.reserve(asked.size());
    for (const Question& q : asked) {
      auto it = std::lower_bound(directory_.begin(), directory_.end(), Producer{q.event}, by_event);
      if (it != directory_.end() && it->event == q.event) {
        out.push_back(*it);
      } else {
        out.push_back({q.event});
        if (q.counted) external.insert(q.event);
      }
    }
    return out;
  };
  std::vector<std::vector<std::byte>> replies(ranks());
  for (std::uint32_t r = 0; r < ranks(); ++r) {
    if (r == rank()) continue;
    WireReader in(from_each[r]);
    in.array<Producer>();
    WireWriter out;
    out.array(answer(in.array<Question>()));
    replies[r] = out.take();
  }
  answers_ = answer(questions[rank()]);
  for (std::uint64_t e : external) log_.note(core::Stat::external_event, key_of(ProfEvent{e}));
  const auto answered = channel_.exchange(std::move(replies));
  for (std::uint32_t h = 0; h < ranks(); ++h) {
    if (h == rank()) continue;
    WireReader in(answered[h]);
    std::vector<Producer> got = in.array<Producer>();
    if (got.size() != questions[h].size())
      throw std::runtime_error("part build: rank " + std::to_string(h) + " answered other questions than were asked");
    answers_.insert(answers_.end(), got.begin(), got.end());
  }
  std::sort(answers_.begin(), answers_.end(), by_event);
}

const Producer* ProfPartBuilder::producer(ProfEvent e) const {
  if (e.is_none()) return nullptr;
  auto it = std::lower_bound(answers_.begin(), answers_.end(), Producer{e.id}, by_event);
  return it != answers_.end() && it->event == e.id && it->vertex != kNoVertex ? &*it : nullptr;
}

}  // namespace rr::graph::prof_part
