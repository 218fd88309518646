#include "replay/src/local_graph.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "platform/freed_memory.hpp"
#include "replay/copy_route.hpp"
#include "replay/byte_wire.hpp"

namespace rr::replay {

namespace {

using graph::EdgeKind;
using graph::OpKind;
using graph::VertexId;
using graph::kNoVertex;

// What a ghost is: every attribute the owner holds of one vertex but its edges and its wait.
struct GhostVertex {
  VertexId id = kNoVertex;
  OpKind kind = OpKind::task;
  std::uint32_t node = graph::kNoNode;
  std::uint32_t position = 0;
  std::uint32_t payload = 0;  // the whole graph's: a merge's announced count (the kinds with arrays get their own)
  core::EventKey event;
  graph::TaskInfo task;
  graph::CopyInfo copy;
  graph::BarrierPhaseInfo phase;
  std::int64_t barrier_value = 0;
  // What a Legion Prof log adds (GraphPart's timestamped facts), as the whole graph holds them where it holds none.
  float issue_fraction = -1.0f;
  std::int64_t observed_start = graph::kNoTime;
  std::int64_t observed_end = graph::kNoTime;
  std::int64_t external_delay = 0;
};

// Which of the timestamped facts the whole graph holds, one bit each (a rank without vertices holds no array, and
// learns them from the others).
enum FactBits : std::uint8_t { kFraction = 1, kObservedStart = 2, kObservedEnd = 4, kExternalDelay = 8 };
std::uint8_t facts_of(const graph::GraphPart& part) {
  return static_cast<std::uint8_t>((part.issue_fraction.empty() ? 0 : kFraction) |
                                    (part.observed_start.empty() ? 0 : kObservedStart) |
                                    (part.observed_end.empty() ? 0 : kObservedEnd) |
                                    (part.external_delay.empty() ? 0 : kExternalDelay));
}

struct WireEdge {
  VertexId from, to;
  EdgeKind kind;
};

bool has_tasks(OpKind k) { return k == OpKind::task || k == OpKind::background; }
bool has_value(OpKind k) { return k == OpKind::barrier_alter || k == OpKind::barrier_arrive; }

GhostVertex describe(const graph::GraphPart& part, std::size_t i) {
  GhostVertex x;
  x.id = part.ids[i];
  x.kind = part.kind[i];
  x.node = part.node[i];
  x.position = part.position[i];
  x.payload = part.payload[i];
  x.event = part.event[i];
  const std::uint32_t at = part.local_payload[i];
  if (has_tasks(x.kind)) x.task = part.tasks[at];
  if (x.kind == OpKind::copy) x.copy = part.copies[at];
  if (x.kind == OpKind::barrier_phase) x.phase = part.phases[at];
  if (has_value(x.kind)) x.barrier_value = part.barrier_values[at];
  if (!part.issue_fraction.empty()) x.issue_fraction = part.issue_fraction[i];
  if (!part.observed_start.empty()) x.observed_start = part.observed_start[i];
  if (!part.observed_end.empty()) x.observed_end = part.observed_end[i];
  if (!part.external_delay.empty()) x.external_delay = part.external_delay[i];
  return x;
}

// The ranks whose channel instances the hops of a copy hold under each map the view serves, other than `me`: its
// route as its memories give it.
std::vector<std::uint32_t> hop_ranks(const graph::CopyInfo& copy, std::span<const ServedMap> maps,
                                     const machine::MachineModel& model, std::uint32_t me) {
  std::vector<std::uint32_t> out;
  for (const ServedMap& served : maps) {
    const CopyRoute route = traced_route(copy, *served.map);
    const machine::CopyPath* path = model.path(route.src.kind, route.dst.kind, route.remote);
    if (!path) continue;  // the copy's owner refuses the replay (plan_copies)
    for (const std::uint32_t channel : path->hops) {
      const std::uint32_t node = model.channels[channel].destination_side ? route.dst_node : route.src_node;
      const std::uint32_t r = served.ranks.of_node.at(node);
      if (r != me && std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
    }
  }
  return out;
}

std::vector<std::byte> ghosts_message(const std::vector<GhostVertex>& ghosts, const std::vector<WireEdge>& edges) {
  ByteWriter w;
  w.put_all<GhostVertex>(ghosts);
  w.put_all<WireEdge>(edges);
  return w.take();
}

// The ghosts and edges other ranks sent, with their senders.
struct Received {
  std::vector<std::pair<GhostVertex, std::uint32_t>> ghosts;
  std::vector<WireEdge> edges;  // from ghosts into this rank's vertices, by sender and then in each source's order
  std::uint8_t facts = 0;       // FactBits of every rank's part
  void take(const std::vector<std::vector<std::byte>>& from_each, std::uint32_t me) {
    for (std::uint32_t r = 0; r < from_each.size(); ++r) {
      if (r == me) continue;
      ByteReader in(from_each[r]);
      for (const GhostVertex& x : in.get_all<GhostVertex>()) ghosts.emplace_back(x, r);
      for (const WireEdge& e : in.get_all<WireEdge>()) edges.push_back(e);
    }
  }
};

// The rounds, in order. 1: every rank asks every other for the targets of its edges and the issuers of its vertices
// that it does not own (an owner is not known from an id), and gives each rank whose channel instances its copies' hops hold those copies.
// 2: each answers the asks it owns. 3: each gives the owners of its edges' targets the edges and their sources.
Received exchange_ghosts(const graph::GraphPart& part, std::uint32_t count, std::span<const ServedMap> maps,
                         const machine::MachineModel& model, PartRounds& rounds) {
  const std::uint32_t me = part.rank;
  Received got;
  got.facts = facts_of(part);
  std::vector<VertexId> asks;
  for (const VertexId w : part.successors)
    if (part.local(w) == part.size()) asks.push_back(w);
  // An own vertex's issuer, which the critical path compares with the task it walks back to: it need not be the
  // source of an edge into the vertex (a Legion Prof log's issue may leave a later segment of the task).
  for (const VertexId w : part.issuer)
    if (w != kNoVertex && part.local(w) == part.size()) asks.push_back(w);
  std::sort(asks.begin(), asks.end());
  asks.erase(std::unique(asks.begin(), asks.end()), asks.end());
  std::vector<std::vector<GhostVertex>> copies(count);
  for (std::size_t i = 0; i < part.size(); ++i)
    if (part.kind[i] == OpKind::copy)
      for (const std::uint32_t r : hop_ranks(part.copies[part.local_payload[i]], maps, model, me))
        copies[r].push_back(describe(part, i));
  std::vector<std::vector<std::byte>> first(count);
  for (std::uint32_t r = 0; r < count; ++r) {
    if (r == me) continue;
    ByteWriter w;
    w.put(got.facts);
    w.put_all<VertexId>(asks);
    w.put_all<GhostVertex>(copies[r]);
    first[r] = w.take();
  }
  std::vector<std::vector<std::byte>> asked = rounds.exchange(std::move(first));
  std::vector<std::vector<std::byte>> answers(count);
  for (std::uint32_t r = 0; r < count; ++r) {
    if (r == me) continue;
    ByteReader in(asked[r]);
    got.facts |= in.get<std::uint8_t>();
    std::vector<GhostVertex> mine;
    for (const VertexId w : in.get_all<VertexId>())
      if (const std::size_t i = part.local(w); i < part.size()) mine.push_back(describe(part, i));
    for (const GhostVertex& x : in.get_all<GhostVertex>()) got.ghosts.emplace_back(x, r);
    answers[r] = ghosts_message(mine, {});
  }
  const std::size_t hop_copies = got.ghosts.size();
  got.take(rounds.exchange(std::move(answers)), me);
  // The owner of each target, from who answered for it.
  std::vector<std::pair<VertexId, std::uint32_t>> owner_of;
  for (std::size_t k = hop_copies; k < got.ghosts.size(); ++k)
    owner_of.emplace_back(got.ghosts[k].first.id, got.ghosts[k].second);
  std::sort(owner_of.begin(), owner_of.end());
  if (owner_of.size() != asks.size())
    throw std::runtime_error("replay from parts: rank " + std::to_string(me) + " has edges into " +
                             std::to_string(asks.size() - owner_of.size()) + " vertices no rank owns");
  std::vector<std::vector<GhostVertex>> sources(count);
  std::vector<std::vector<WireEdge>> edges(count);
  std::vector<std::uint32_t> given;  // the ranks the present source went to
  for (std::size_t i = 0; i < part.size(); ++i) {
    const auto succ = part.successors_of(i);
    const auto kinds = part.successor_kinds_of(i);
    given.clear();
    for (std::size_t k = 0; k < succ.size(); ++k) {
      if (part.local(succ[k]) < part.size()) continue;
      const std::uint32_t r =
          std::lower_bound(owner_of.begin(), owner_of.end(), std::pair{succ[k], 0u})->second;
      edges[r].push_back({part.ids[i], succ[k], kinds[k]});
      if (std::find(given.begin(), given.end(), r) == given.end()) {
        given.push_back(r);
        sources[r].push_back(describe(part, i));
      }
    }
  }
  std::vector<std::vector<std::byte>> third(count);
  for (std::uint32_t r = 0; r < count; ++r)
    if (r != me) third[r] = ghosts_message(sources[r], edges[r]);
  got.take(rounds.exchange(std::move(third)), me);
  return got;
}

// The engine's view of a task's waits: one run per task in program order (the whole graph's order of its waits),
// its resumes' payloads pointing into it. A task and its resumes are on one node, so one rank holds them all.
struct LocalWaits {
  std::vector<std::pair<std::uint32_t, VertexId>> by_whole;  // (whole wait index, local resume), sorted
  std::uint32_t index_of(std::uint32_t whole_wait) const {
    const auto it = std::lower_bound(by_whole.begin(), by_whole.end(), std::pair{whole_wait, VertexId{0}});
    if (it == by_whole.end() || it->first != whole_wait)
      throw std::logic_error("replay from parts: a task's wait is not on its rank");
    return static_cast<std::uint32_t>(it - by_whole.begin());
  }
};

// The local vertex of whole id w in `whole` (ascending), or kNoVertex: LocalGraph::local before the graph is frozen.
VertexId local_in(const std::vector<VertexId>& whole, VertexId w) {
  const auto it = std::lower_bound(whole.begin(), whole.end(), w);
  return it != whole.end() && *it == w ? static_cast<VertexId>(it - whole.begin()) : kNoVertex;
}

// The view's edges: those leaving the part's vertices, then those from ghosts into them, by local vertex.
std::vector<graph::Edge> local_edges(const graph::GraphPart& part, const Received& got,
                                     const std::vector<VertexId>& whole) {
  std::vector<graph::Edge> edges;
  edges.reserve(part.successors.size() + got.edges.size());
  for (std::size_t i = 0; i < part.size(); ++i) {
    const VertexId from = local_in(whole, part.ids[i]);
    const auto succ = part.successors_of(i);
    const auto kinds = part.successor_kinds_of(i);
    for (std::size_t k = 0; k < succ.size(); ++k) edges.push_back({from, local_in(whole, succ[k]), kinds[k]});
  }
  for (const WireEdge& e : got.edges) edges.push_back({local_in(whole, e.from), local_in(whole, e.to), e.kind});
  for (const graph::Edge& e : edges)
    if (e.from == kNoVertex || e.to == kNoVertex)
      throw std::logic_error("replay from parts: an edge leaves rank " + std::to_string(part.rank) + "'s view");
  return edges;
}

// The timestamped facts' columns where the whole graph holds them, its observed origin, and the outside work this
// rank owns (counted over the ranks as one engine counts it over the whole graph).
void size_facts(const graph::GraphPart& part, std::uint8_t facts, const std::vector<VertexId>& whole,
                graph::VertexTable& t) {
  const std::size_t n = whole.size();
  if (facts & kFraction) t.issue_fraction.resize(n);
  if (facts & kObservedStart) t.observed_start.resize(n);
  if (facts & kObservedEnd) t.observed_end.resize(n);
  if (facts & kExternalDelay) t.external_delay.resize(n);
  t.observed_origin = part.observed_origin;
  for (const VertexId w : part.outside_work) t.outside_work.push_back(local_in(whole, w));
}

void put_facts(const GhostVertex& x, VertexId v, graph::VertexTable& t) {
  if (!t.issue_fraction.empty()) t.issue_fraction[v] = x.issue_fraction;
  if (!t.observed_start.empty()) t.observed_start[v] = x.observed_start;
  if (!t.observed_end.empty()) t.observed_end[v] = x.observed_end;
  if (!t.external_delay.empty()) t.external_delay[v] = x.external_delay;
}

// Each ghost once, by id (several ranks may send one, and one rank in two rounds).
void keep_each_ghost_once(Received& got) {
  std::sort(got.ghosts.begin(), got.ghosts.end(),
            [](const auto& a, const auto& b) { return a.first.id < b.first.id; });
  got.ghosts.erase(std::unique(got.ghosts.begin(), got.ghosts.end(),
                               [](const auto& a, const auto& b) { return a.first.id == b.first.id; }),
                   got.ghosts.end());
}

void drop_facts(graph::GraphPart& part) {
  part.issue_fraction = {};
  part.observed_start = {};
  part.observed_end = {};
  part.external_delay = {};
  part.outside_work = {};
}

}  // namespace

graph::VertexId LocalGraph::local(VertexId w) const {
  const auto ids = g.whole_ids();
  if (ids.empty()) return w < g.vertex_count() ? w : kNoVertex;
  const auto it = std::lower_bound(ids.begin(), ids.end(), w);
  return it != ids.end() && *it == w ? static_cast<VertexId>(it - ids.begin()) : kNoVertex;
}

LocalGraph build_local_graph(graph::GraphPart&& part, std::uint32_t ranks, std::span<const ServedMap> maps,
                             const machine::MachineModel& model, PartRounds& rounds) {
  Received got = exchange_ghosts(part, ranks, maps, model, rounds);
  keep_each_ghost_once(got);
  LocalGraph out;
  std::vector<VertexId> whole;
  whole.reserve(part.size() + got.ghosts.size());
  for (std::size_t i = 0, k = 0; i < part.size() || k < got.ghosts.size();)
    whole.push_back(k == got.ghosts.size() || (i < part.size() && part.ids[i] < got.ghosts[k].first.id)
                        ? part.ids[i++]
                        : got.ghosts[k++].first.id);
  out.own = static_cast<std::uint32_t>(part.size());
  const auto local = [&](VertexId w) { return local_in(whole, w); };

  graph::VertexTable t;
  const std::size_t n = whole.size();
  t.kind.resize(n);
  t.node.resize(n);
  t.event.resize(n);
  t.issuer.assign(n, kNoVertex);
  t.position.resize(n);
  t.payload.resize(n);
  out.owner.resize(n);
  // At most the part's own and every ghost: reserved, so that no array doubles while the part is still whole.
  // Tasks, the largest payload, are copied in a pass of their own once the part's other arrays are gone: each task
  // vertex's source, an own index or a ghost's (kGhostTask set).
  constexpr std::uint32_t kGhostTask = 1u << 31;
  std::vector<std::uint32_t> task_sources;
  task_sources.reserve(part.tasks.size() + got.ghosts.size());
  t.copies.reserve(part.copies.size() + got.ghosts.size());
  t.phases.reserve(part.phases.size() + got.ghosts.size());
  t.barrier_values.reserve(part.barrier_values.size() + got.ghosts.size());
  size_facts(part, got.facts, whole, t);
  LocalWaits waits;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> first_waits;  // (local task payload, whole first wait)
  std::size_t own = 0, ghost = 0;
  for (VertexId v = 0; v < n; ++v) {
    const bool mine = own < part.size() && part.ids[own] == whole[v];
    const GhostVertex x = mine ? describe(part, own) : got.ghosts[ghost].first;
    out.owner[v] = static_cast<std::uint8_t>(mine ? part.rank : got.ghosts[ghost].second);
    t.kind[v] = x.kind;
    t.node[v] = x.node;
    t.event[v] = x.event;
    t.position[v] = x.position;
    t.payload[v] = x.payload;
    put_facts(x, v, t);
    if (mine && part.issuer[own] != kNoVertex) t.issuer[v] = local(part.issuer[own]);
    if (has_tasks(x.kind)) {  // (the tasks are laid out last, below)
      t.payload[v] = static_cast<std::uint32_t>(task_sources.size());
      task_sources.push_back(mine ? static_cast<std::uint32_t>(own) : kGhostTask | static_cast<std::uint32_t>(ghost));
      if (mine && x.task.first_wait != graph::kNoWait) first_waits.emplace_back(t.payload[v], x.task.first_wait);
    } else if (x.kind == OpKind::copy) {
      t.payload[v] = static_cast<std::uint32_t>(t.copies.size());
      t.copies.push_back(x.copy);
    } else if (x.kind == OpKind::barrier_phase) {
      t.payload[v] = static_cast<std::uint32_t>(t.phases.size());
      t.phases.push_back(x.phase);
    } else if (has_value(x.kind)) {
      t.payload[v] = static_cast<std::uint32_t>(t.barrier_values.size());
      t.barrier_values.push_back(x.barrier_value);
    } else if (x.kind == OpKind::task_resume && mine) {
      waits.by_whole.emplace_back(part.payload[own], v);
    }
    mine ? ++own : ++ghost;
  }
  // Own waits in the whole graph's order; a ghost resume gets a wait of its own that names no task.
  std::sort(waits.by_whole.begin(), waits.by_whole.end());
  for (const auto& [whole_wait, v] : waits.by_whole) {
    graph::WaitInfo w = part.waits[part.local_payload[part.local(whole[v])]];
    w.task = local(w.task);
    w.resume = v;
    if (w.awaited != kNoVertex) w.awaited = local(w.awaited);
    t.payload[v] = static_cast<std::uint32_t>(t.waits.size());
    t.waits.push_back(w);
  }
  for (VertexId v = 0; v < n; ++v)
    if (t.kind[v] == OpKind::task_resume && out.owner[v] != part.rank) {
      graph::WaitInfo w;
      w.resume = v;
      t.payload[v] = static_cast<std::uint32_t>(t.waits.size());
      t.waits.push_back(w);
    }
  // The part's attributes but its tasks are in the table now: they go before the tasks are copied, and the tasks
  // before the graph is frozen, the two peaks of this build.
  const graph::FunctionNames names = std::move(part.function_names);
  part.kind = {};
  part.node = {};
  part.event = {};
  part.issuer = {};
  part.position = {};
  part.payload = {};
  part.copies = {};
  part.phases = {};
  part.barrier_values = {};
  part.waits = {};
  drop_facts(part);
  t.tasks.reserve(task_sources.size());
  for (const std::uint32_t from : task_sources) {
    const bool ghost_task = from & kGhostTask;
    t.tasks.push_back(ghost_task ? got.ghosts[from & ~kGhostTask].first.task : part.tasks[part.local_payload[from]]);
    t.tasks.back().first_wait = graph::kNoWait;  // a ghost's waits are its owner's; an own task's are set below
  }
  for (const auto& [task, whole_wait] : first_waits) t.tasks[task].first_wait = waits.index_of(whole_wait);
  task_sources = {};
  got.ghosts = {};
  part.tasks = {};
  part.local_payload = {};
  platform::FreedMemory::give_back();  // (the heap keeps what the part's arrays freed, where the edges come next)

  const std::vector<graph::Edge> edges = local_edges(part, got, whole);
  part = {};
  got = {};
  const std::span<const graph::Edge> run(edges);
  out.g = graph::EventGraph::freeze(std::move(t), std::span(&run, 1));
  out.g.set_whole_ids(std::move(whole));
  out.g.set_function_names(names);  // (the reports' names: each rank's graph has them all)
  return out;
}

}  // namespace rr::replay
