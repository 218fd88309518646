// Step 2 of the part build: the producer of every event this rank's files name. Each event has a home rank, the rank
// of the node that created it (the node bits of its id): producers are registered there and references asked there,
// so no rank holds the producers of the whole trace. The home decides what needs every producer of an event:
// duplicate producers (the first in vertex order wins, as in the whole build) and external events.
#include <algorithm>
#include <string>

#include "graph/src/part/part_builder.hpp"
#include "graph/src/part/part_wire.hpp"

namespace rr::graph::part_detail {

namespace {

bool producer_less(const Producer& a, const Producer& b) {
  return a.event == b.event ? a.vertex < b.vertex : event_less(a.event, b.event);
}

}  // namespace

void PartBuilder::resolve_references() {
  const std::uint32_t ranks = exchange_.ranks();
  ByRank<Producer> producers(ranks);
  std::vector<Query> queries;
  auto produced = [&](VertexId v, OpKind kind, const core::EventKey& e, std::uint32_t node) {
    if (!e.is_none()) producers[home_of(e)].push_back({e, v, owner_of_node(node), kind});
  };
  auto ask = [&](const core::EventKey& e, bool general) {
    if (!e.is_none()) queries.push_back({e, general});
  };
  reserve_producers(producers);
  // One query per event, general if any reference to it is: batch by batch, then all, so that the list of every
  // reference (many name one enclosing task) is never whole.
  auto one_per_event = [](std::vector<Query>& list, std::size_t from) {
    std::sort(list.begin() + static_cast<std::ptrdiff_t>(from), list.end(), [](const Query& a, const Query& b) {
      return a.event == b.event ? a.general > b.general : event_less(a.event, b.event);
    });
    list.erase(std::unique(list.begin() + static_cast<std::ptrdiff_t>(from), list.end(),
                           [](const Query& a, const Query& b) { return a.event == b.event; }),
               list.end());
    // The room the duplicates took gives its pages back until the list grows into it again.
    platform::discard_pages(list.data() + list.size(), (list.capacity() - list.size()) * sizeof(Query));
  };
  std::size_t distinct = 0;  // queries after the last dedupe of the whole list
  for (const BatchPlace& place : own_batches_) {
    const std::size_t batch_queries = queries.size();
    const core::RecordBatch& b = *place.batch;
    for (std::uint32_t i = 0; i < b.task_requests.size(); ++i) {
      const auto& r = b.task_requests[i];
      produced(place.first_task + i, OpKind::task, r.finish, owner_node(r.target.value()));
      ask(r.precondition, true);
      ask(r.enclosing, false);
    }
    for (std::uint32_t i = 0; i < b.copy_requests.size(); ++i) {
      const auto& r = b.copy_requests[i];
      produced(place.first_copy + i, OpKind::copy, r.copy, place.node);
      ask(r.wait_on, true);
      ask(r.enclosing, false);
    }
    for (std::uint32_t i = 0; i < b.event_merges.size(); ++i)
      produced(place.first_merge + i, OpKind::merge, b.event_merges[i].merged, place.node);
    for (std::uint32_t i = 0; i < b.event_triggers.size(); ++i) {
      const auto& r = b.event_triggers[i];
      produced(place.first_trigger + i, OpKind::trigger, r.event, place.node);
      ask(r.wait_on, true);
      ask(r.enclosing, false);
    }
    for (const auto& r : b.barrier_alters) ask(r.enclosing, false);
    for (const auto& r : b.barrier_arrives) {
      ask(r.wait_on, true);
      ask(r.enclosing, false);
    }
    for (const auto& r : b.event_preconditions) {
      ask(r.merged, false);
      ask(r.input, true);
    }
    for (const auto& r : b.task_times) ask(r.finish, false);
    for (const auto& r : b.copy_sizes) ask(r.copy, false);
    for (const auto& r : b.task_waits) {
      ask(r.waiter, false);
      ask(r.awaited, true);
    }
    one_per_event(queries, batch_queries);
    // Batches name the same events again (a task's actions, its Task Time): the whole list is made one per event
    // each time it has doubled, so it never holds much more than twice the events this rank's files name.
    if (queries.size() > 2 * distinct + (std::size_t{1} << 16)) {
      one_per_event(queries, 0);
      distinct = queries.size();
    }
  }
  for (std::uint32_t p = 0; p < phase_keys_.size(); ++p) {
    const std::uint32_t node = owner_node(phase_keys_[p].id());
    if (owner_of_node(node) == rank()) produced(record_vertices_ + p, OpKind::barrier_phase, phase_keys_[p], node);
  }
  one_per_event(queries, 0);
  // Each home's questions in one run of the list, this rank's own first, in place: the order within a run does not
  // matter (answers come back in the order asked, and resolved_ is sorted).
  const auto own_end = std::partition(queries.begin(), queries.end(),
                                      [&](const Query& q) { return home_of(q.event) == rank(); });
  std::sort(own_end, queries.end(),
            [&](const Query& a, const Query& b) { return home_of(a.event) < home_of(b.event); });
  std::vector<std::size_t> asked_of(ranks, 0);
  asked_of[rank()] = static_cast<std::size_t>(own_end - queries.begin());
  for (auto q = own_end; q != queries.end(); ++q) ++asked_of[home_of(q->event)];
  // This rank's own share is never written out: it stays as it is, for the home step.
  std::vector<std::vector<std::byte>> to_each(ranks);
  const Query* next = queries.data() + asked_of[rank()];
  for (std::uint32_t r = 0; r < ranks; ++r) {
    if (r == rank()) continue;
    WireWriter out;
    out.array(producers[r]);
    out.array(next, asked_of[r]);
    next += asked_of[r];
    to_each[r] = out.take();
    release(producers[r]);
  }
  queries.resize(asked_of[rank()]);
  std::vector<std::vector<std::byte>> from_each =
      exchange(answer_as_home(exchange(std::move(to_each)), std::move(producers[rank()]), std::move(queries)));
  for (std::uint32_t r = 0; r < ranks; ++r) {
    if (r == rank()) continue;
    WireReader in(from_each[r]);
    const std::size_t before = resolved_.size();
    in.append_to(resolved_);
    if (resolved_.size() - before != asked_of[r])
      throw std::runtime_error("part build: a home answered the wrong questions");
    release(from_each[r]);
  }
  std::sort(resolved_.begin(), resolved_.end(), producer_less);
}

// Room for each home's producers, counted first: growing by doubling would copy the largest list at the step's peak.
void PartBuilder::reserve_producers(ByRank<Producer>& producers) const {
  std::vector<std::size_t> homed(producers.size(), 0);
  auto count = [&](const core::EventKey& e) {
    if (!e.is_none()) ++homed[home_of(e)];
  };
  for (const BatchPlace& place : own_batches_) {
    const core::RecordBatch& b = *place.batch;
    for (const auto& r : b.task_requests) count(r.finish);
    for (const auto& r : b.copy_requests) count(r.copy);
    for (const auto& r : b.event_merges) count(r.merged);
    for (const auto& r : b.event_triggers) count(r.event);
  }
  for (const core::EventKey& phase : phase_keys_)
    if (owner_of_node(owner_node(phase.id())) == rank()) count(phase);
  for (std::size_t r = 0; r < producers.size(); ++r) producers[r].reserve(homed[r]);
}

// As the home: the directory of the events homed here, from every rank's producers, keeping the first producer of
// each event in vertex order; then every rank's questions answered, in the order asked (this rank's own straight
// into resolved_).
std::vector<std::vector<std::byte>> PartBuilder::answer_as_home(std::vector<std::vector<std::byte>> from_each,
                                                                std::vector<Producer> directory,
                                                                std::vector<Query> own_questions) {
  const std::uint32_t ranks = exchange_.ranks();
  ByRank<Query> questions(ranks);
  questions[rank()] = std::move(own_questions);
  for (std::uint32_t r = 0; r < ranks; ++r) {
    if (r == rank()) continue;
    WireReader in(from_each[r]);
    in.append_to(directory);
    in.append_to(questions[r]);
    release(from_each[r]);
  }
  std::sort(directory.begin(), directory.end(), producer_less);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < directory.size(); ++i) {
    if (kept > 0 && directory[kept - 1].event == directory[i].event) {
      const OpKind first = directory[kept - 1].kind, second = directory[i].kind;
      log_.note(core::Stat::duplicate_producer, directory[i].event,
                [&] { return std::string(op_kind_name(first)) + " and " + op_kind_name(second); });
      continue;
    }
    directory[kept++] = directory[i];
  }
  directory.resize(kept);
  std::vector<core::EventKey> externals;
  std::vector<std::vector<std::byte>> to_each(ranks);
  for (std::uint32_t r = 0; r < ranks; ++r) {
    std::vector<Producer> mine;
    std::vector<Producer>& answers = r == rank() ? resolved_ : mine;
    answers.reserve(answers.size() + questions[r].size());
    for (std::size_t k = 0; k < questions[r].size(); ++k) {
      discard_read(questions[r], k);  // read in order, once: their pages go back as the answers grow
      const Query& q = questions[r][k];
      const auto it = std::lower_bound(directory.begin(), directory.end(), Producer{q.event, 0}, producer_less);
      if (it != directory.end() && it->event == q.event) {
        answers.push_back(*it);
        continue;
      }
      answers.push_back({q.event, kNoVertex});
      const auto first = first_phase_.find(q.event.id());
      const bool before_first_phase = first != first_phase_.end() && q.event.gen < first->second;
      if (q.general && !before_first_phase) externals.push_back(q.event);
    }
    release(questions[r]);
    if (r == rank()) continue;
    WireWriter out;
    out.array(answers);
    to_each[r] = out.take();
  }
  std::sort(externals.begin(), externals.end(), event_less);
  externals.erase(std::unique(externals.begin(), externals.end()), externals.end());
  for (const core::EventKey& e : externals) log_.note(core::Stat::external_event, e);
  return to_each;
}

// The directory's answer for an event this rank's files name (asked in resolve_references).
const Producer& PartBuilder::producer(const core::EventKey& e) const {
  const auto it = std::lower_bound(resolved_.begin(), resolved_.end(), Producer{e, 0}, producer_less);
  if (it == resolved_.end() || !(it->event == e)) throw std::logic_error("part build: an event was never asked");
  return *it;
}

}  // namespace rr::graph::part_detail
