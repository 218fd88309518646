// The neighbours of a mapping: one move, one processor count, the placement or the node map changed.
#include "tuning/neighbours.hpp"

#include <algorithm>

#include "tuning/src/labels.hpp"

namespace rr::tuning {

namespace {

using labels::function_label;
using labels::kind_name;
using labels::number;
using labels::slot;

using core::ProcessorKind;

// The mapping with f's move replaced by `move` (none: f back on its traced kind), moves kept in function order.
machine::MappingSpec with_move(const machine::MappingSpec& current, std::uint32_t f,
                               const machine::FunctionMove* move) {
  machine::MappingSpec m = current;
  std::erase_if(m.moves, [&](const machine::FunctionMove& x) { return x.function == f; });
  if (move) {
    auto at = std::find_if(m.moves.begin(), m.moves.end(), [&](const auto& x) { return x.function > f; });
    m.moves.insert(at, *move);
  }
  return m;
}

void add_moves(const SearchSpace& space, const machine::MappingSpec& current, const graph::EventGraph& g,
               std::vector<Candidate>& out) {
  for (const MoveOption& o : space.moves) {
    const auto made = std::find_if(current.moves.begin(), current.moves.end(),
                                   [&](const machine::FunctionMove& m) { return m.function == o.function; });
    if (made != current.moves.end() && made->kind == o.kind && made->factor == o.factor) continue;
    const machine::FunctionMove move{o.function, o.kind, o.factor, o.source};
    const std::string grounds = o.factor ? "busy time x " + number(*o.factor) + ": " + o.source : "priced by " + o.source;
    const std::string text = function_label(g, o.function) + " to " + kind_name(o.kind) + " (" + grounds + ")";
    out.push_back({with_move(current, o.function, &move), ChangeKind::move, text});
    // A faster kind that is busy may be worth it only for the tasks that would finish sooner there: under eft,
    // one step, which the hill climb would not take as two (the move alone can be slower).
    if (current.placement != machine::Placement::eft) {
      machine::MappingSpec either = with_move(current, o.function, &move);
      either.placement = machine::Placement::eft;
      out.push_back({std::move(either), ChangeKind::move, text + ", placement eft: on whichever kind finishes first"});
    }
  }
  for (const machine::FunctionMove& m : current.moves)
    out.push_back({with_move(current, m.function, nullptr), ChangeKind::move,
                   function_label(g, m.function) + " back to the kind it was traced on"});
}

void add_counts(const SearchSpace& space, const machine::MappingSpec& current, std::vector<Candidate>& out) {
  const CountRange& range = space.counts;
  std::uint32_t total = 0;
  for (ProcessorKind k : range.kinds) total += count_of(space, current, k);
  auto step = [&](ProcessorKind k, int by) {
    const std::uint32_t c = count_of(space, current, k);
    return kind_name(k) + " " + std::to_string(c) + " -> " + std::to_string(c + by);
  };
  auto make = [&](std::vector<std::pair<ProcessorKind, int>> changes, std::string text) {
    machine::MappingSpec m = current;
    for (const auto& [k, by] : changes) m.processors.of_kind[slot(k)] = count_of(space, current, k) + by;
    m.processors.source = "tune";
    out.push_back({std::move(m), ChangeKind::count, std::move(text)});
  };
  auto can_lose = [&](ProcessorKind k) { return count_of(space, current, k) > range.least[slot(k)]; };
  const std::string within =
      " per node (at most " + std::to_string(range.budget) + " in all: " + range.budget_source + ")";
  for (ProcessorKind k : range.kinds) {
    if (total + 1 <= range.budget) make({{k, +1}}, step(k, +1) + within);
    if (can_lose(k)) make({{k, -1}}, step(k, -1) + " per node");
  }
  // One of a kind for one of another: the same total, which a budget already spent allows.
  if (total <= range.budget)
    for (ProcessorKind up : range.kinds)
      for (ProcessorKind down : range.kinds)
        if (up != down && can_lose(down))
          make({{up, +1}, {down, -1}}, step(up, +1) + ", " + step(down, -1) + " per node");
}

void add_placements(const machine::MappingSpec& current, std::vector<Candidate>& out) {
  for (machine::Placement p : {machine::Placement::traced, machine::Placement::pool, machine::Placement::eft}) {
    if (current.placement == p || (p == machine::Placement::eft && current.moves.empty())) continue;
    machine::MappingSpec m = current;
    m.placement = p;
    out.push_back({std::move(m), ChangeKind::placement,
                   std::string("placement ") + (current.placement ? machine::placement_name(*current.placement) : "default") +
                       " -> " + machine::placement_name(p)});
  }
}

void add_node_maps(const SearchSpace& space, const machine::MappingSpec& current, std::vector<Candidate>& out) {
  if (!space.node_maps) return;
  for (machine::NodeMapRule r : {machine::NodeMapRule::cyclic, machine::NodeMapRule::block}) {
    if (current.nodes.rule == r) continue;
    machine::MappingSpec m = current;
    m.nodes = machine::NodeMap{r, {}, {}};
    out.push_back({std::move(m), ChangeKind::node_map,
                   std::string("node map ") + machine::node_map_rule_name(current.nodes.rule) + " -> " +
                       machine::node_map_rule_name(r) + " (" + std::to_string(space.traced_nodes) + " traced nodes on " +
                       std::to_string(space.model_nodes) + " model nodes)"});
  }
}

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

std::vector<Candidate> neighbours(const SearchSpace& space, const machine::MappingSpec& current,
                                  const graph::EventGraph& names) {
  std::vector<Candidate> out;
  add_moves(space, current, names, out);
  add_counts(space, current, out);
  add_placements(current, out);
  add_node_maps(space, current, out);
  return out;
}

void shuffle(std::vector<Candidate>& candidates, std::uint64_t seed, std::uint32_t round) {
  std::uint64_t state = seed ^ (std::uint64_t{round} * 0xd1b54a32d192ed03ull);
  for (std::size_t i = candidates.size(); i > 1; --i) {
    // The modulo's bias over a few dozen candidates is below 1e-17.
    const auto j = static_cast<std::size_t>(splitmix64(state) % i);
    std::swap(candidates[i - 1], candidates[j]);
  }
}

}  // namespace rr::tuning
