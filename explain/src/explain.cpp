// explain_traces (explain/explain.hpp): match, compare, choose the classes, replay every subset of them side by
// side on oneTBB, and share the difference out by Shapley values.
#include "explain/explain.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <numeric>

#include "changes.hpp"
#include "classes.hpp"
#include "explain/shapley.hpp"
#include "facts.hpp"
#include "graph_variant.hpp"
#include "machine_diff.hpp"
#include "replay/observed_comparison.hpp"
#include "platform/usable_threads.hpp"

namespace rr::explain {

const char* fact_kind_name(FactKind k) {
  switch (k) {
    case FactKind::durations: return "durations";
    case FactKind::copies: return "copies";
    case FactKind::costs: return "costs";
    case FactKind::processors: return "processors";
    case FactKind::structure: return "structure";
  }
  return "?";
}

std::vector<std::size_t> ExplainResult::ranked() const {
  std::vector<std::size_t> order(classes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return std::llabs(classes[x].share_ns) > std::llabs(classes[y].share_ns);
  });
  return order;
}

namespace {

struct Run {
  const session::LoadedTrace& trace;
  machine::MachineModel model;
  replay::MachineMap map;  // on its own machine, for the kinds of its processors and memories
};

// Everything the replays of the subsets share.
struct Game {
  const Run& a;
  const Run& b;
  const Matching& m;
  ClassPlan plan;
  std::vector<std::uint8_t> class_of_a, class_of_b;  // per vertex
  std::vector<double> ratio_b_over_a, ratio_a_over_b;
  std::uint32_t fact_bits = 0;  // the durations' and copies' classes
  machine::MappingSpec mapping;
  replay::ReplayOptions engine;
};

struct Value {
  std::int64_t makespan = 0;
  std::optional<std::int64_t> observed;  // when the graph replayed is a trace's own and it has observed times
};

bool has(int bit, std::uint32_t mask) { return bit >= 0 && ((mask >> bit) & 1u); }

core::Expected<Value> replay_subset(const Game& g, std::uint32_t mask) {
  const bool structure_from_b = has(g.plan.structure, mask);
  const Run& base = structure_from_b ? g.b : g.a;
  const Run& other = structure_from_b ? g.a : g.b;
  const std::uint32_t take = (structure_from_b ? ~mask : mask) & g.fact_bits;
  const machine::MachineModel model =
      compose_machine(g.a.model, g.b.model, has(g.plan.costs, mask), has(g.plan.processors, mask));
  std::optional<graph::EventGraph> swapped;
  if (take)
    swapped = swap_facts(Swap{base.trace.graph(), structure_from_b ? g.m.b : g.m.a,
                              structure_from_b ? g.class_of_b : g.class_of_a, other.trace.graph(), take,
                              structure_from_b ? g.ratio_a_over_b : g.ratio_b_over_a});
  const graph::EventGraph& graph = swapped ? *swapped : base.trace.graph();
  auto map = replay::MachineMap::build(base.trace.records, model, g.mapping);
  if (!map) return map.error();
  auto result = replay::run_replay(graph, *map, model, g.engine);
  if (!result) return result.error();
  Value v{result->makespan_ns, std::nullopt};
  if (!swapped)
    if (auto observed = replay::compare_with_observed(graph, *result)) v.observed = observed->observed_makespan_ns;
  return v;
}

// v(S) of every subset S, side by side on `threads` workers; the first error (by subset) if any fails.
core::Expected<std::vector<Value>> replay_subsets(const Game& g, unsigned threads) {
  const std::uint32_t subsets = 1u << g.plan.classes.size();
  std::vector<Value> values(subsets);
  std::vector<std::optional<core::InputError>> errors(subsets);
  tbb::task_arena arena(static_cast<int>(threads));
  arena.execute([&] {
    tbb::parallel_for(std::uint32_t{0}, subsets, [&](std::uint32_t mask) {
      auto v = replay_subset(g, mask);
      if (v) values[mask] = *v;
      else errors[mask] = v.error();
    });
  });
  for (auto& e : errors)
    if (e) return *e;
  return values;
}

std::vector<std::uint8_t> classes_by_vertex(const MatchSide& side, const std::vector<std::uint8_t>& of_name) {
  std::vector<std::uint8_t> out(side.name.size(), kNoClass);
  for (std::size_t v = 0; v < out.size(); ++v)
    if (side.name[v] != kNoGroup) out[v] = of_name[side.name[v]];
  return out;
}

// Whether B is A's program with other facts: every compared operation matched to the one of its own number, and
// the graphs the same but for the facts swapped (under pool placement a task's processor only by kind).
bool same_structure(const Run& a, const Run& b, const Matching& m, bool pool) {
  if (m.a.unmatched || m.b.unmatched || a.trace.nodes != b.trace.nodes) return false;
  for (std::size_t v = 0; v < m.a.other.size(); ++v)
    if (m.a.name[v] != kNoGroup && m.a.other[v] != v) return false;
  return same_program(a.trace.graph(), a.map, b.trace.graph(), b.map, !pool);
}

core::Expected<Run> open_run(const session::LoadedTrace& t, const session::MachineChoice& choice) {
  auto model = session::load_machine_for(t, choice);
  if (!model) return model.error();
  auto map = replay::MachineMap::build(t.records, *model, {});
  if (!map) return map.error();
  return Run{t, std::move(*model), std::move(*map)};
}

core::InputError not_one_application(const session::LoadedTrace& a, const session::LoadedTrace& b,
                                     const Matching& m) {
  const auto where = core::SourceLocation{a.inputs.empty() ? a.label : a.inputs.front(), 0, std::nullopt};
  return core::InputError{
      where, "and " + (b.inputs.empty() ? b.label : b.inputs.front()) + " do not look like two runs of one application: " +
                 std::to_string(m.matched) + " of their " + std::to_string(m.a.compared) + " and " +
                 std::to_string(m.b.compared) + " operations match (by function or copy path, node, processor kind "
                 "and launch order; explain needs at least a fifth); compare their replays with `diff` instead"};
}

void fill_classes(const Game& g, const std::vector<Value>& v, const std::vector<NameStats>& stats,
                  std::vector<FactClass>& classes) {
  std::vector<std::int64_t> values(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) values[i] = v[i].makespan;
  const auto shares = shapley_values(values, static_cast<unsigned>(classes.size()));
  for (std::size_t c = 0; c < classes.size(); ++c) {
    classes[c].share_ns = shares[c];
    classes[c].alone_ns = values[std::size_t{1} << c] - values[0];
    if (c < g.ratio_b_over_a.size()) classes[c].median_ratio = g.ratio_b_over_a[c];
  }
  for (std::uint32_t n = 0; n < stats.size(); ++n)
    if (g.plan.class_of_name[n] != kNoClass) classes[g.plan.class_of_name[n]].matched += stats[n].work.matched;
}

}  // namespace

core::Expected<ExplainResult> explain_traces(const session::LoadedTrace& a, const session::LoadedTrace& b,
                                             const ExplainOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  auto run_a = open_run(a, options.machine_a);
  if (!run_a) return run_a.error();
  auto run_b = open_run(b, options.machine_b);
  if (!run_b) return run_b.error();
  const Matching m = match_operations(a.graph(), run_a->map, b.graph(), run_b->map);
  if (m.matched_share() < options.min_matched_share) return not_one_application(a, b, m);
  const std::vector<NameStats> stats = name_stats(a.graph(), b.graph(), m);
  const MachineDifferences machines = machine_differences(run_a->model, run_b->model);
  const bool pool = !machines.processors.empty();
  ExplainResult r;
  r.label_a = a.label;
  r.label_b = b.label;
  r.threads = platform::threads_or_all(options.threads);
  r.changes = summarise_changes(a.graph(), run_a->map, b.graph(), run_b->map, m, stats, machines);
  Game g{*run_a, *run_b, m, plan_classes(m, stats, machines, !same_structure(*run_a, *run_b, m, pool)), {}, {}, {}, {},
         0, {}, {}};
  if (pool) g.mapping.placement = machine::Placement::pool;
  g.engine.rules = options.rules;
  g.engine.rules.noise = {};
  g.engine.detail.stuck_examples = 0;
  for (int attempt = 0;; ++attempt) {
    g.class_of_a = classes_by_vertex(m.a, g.plan.class_of_name);
    g.class_of_b = classes_by_vertex(m.b, g.plan.class_of_name);
    g.fact_bits = 0;
    for (std::size_t c = 0; c < g.plan.classes.size(); ++c)
      if (g.plan.classes[c].kind == FactKind::durations || g.plan.classes[c].kind == FactKind::copies)
        g.fact_bits |= 1u << c;
    const std::size_t k = g.plan.classes.size();
    g.ratio_b_over_a = median_ratios(a.graph(), m.a, g.class_of_a, b.graph(), k);
    g.ratio_a_over_b = median_ratios(b.graph(), m.b, g.class_of_b, a.graph(), k);
    auto v = replay_subsets(g, r.threads);
    if (!v) return v.error();
    r.replays += v->size();
    Value direct_b = v->back();
    if (g.plan.structure < 0) {  // B's own replay, which the subset of every class must reproduce
      Game own = g;
      own.plan = ClassPlan{};
      own.plan.structure = 0;
      own.plan.costs = 1;
      own.plan.processors = 2;
      own.fact_bits = 0;
      auto vb = replay_subset(own, 7u);
      if (!vb) return vb.error();
      ++r.replays;
      direct_b = *vb;
    }
    if (direct_b.makespan != v->back().makespan && attempt == 0) {
      g.plan = plan_classes(m, stats, machines, true);
      g.plan.notes.push_back("A with every class from B did not replay as B: the graphs differ in more than the "
                             "classes swap, which the structure class now takes");
      continue;
    }
    r.replay_a_ns = v->front().makespan;
    r.replay_b_ns = direct_b.makespan;
    r.observed_a_ns = v->front().observed;
    r.observed_b_ns = direct_b.observed;
    r.subset_ns.reserve(v->size());
    for (const Value& x : *v) r.subset_ns.push_back(x.makespan);
    r.classes = g.plan.classes;
    fill_classes(g, *v, stats, r.classes);
    break;
  }
  r.placement = pool ? "pool" : (run_a->model.default_placement ? machine::placement_name(*run_a->model.default_placement)
                                                                 : "pool");
  r.notes = g.plan.notes;
  if (pool) r.notes.push_back("the processors differ, so every replay places tasks on any processor of their kind "
                              "(pool placement)");
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

}  // namespace rr::explain
