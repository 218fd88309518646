// A study's grid of replays and its table (session/study.hpp).
#include "session/study.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "session/run_grid.hpp"

namespace rr::session {

const char* scaling_name(Scaling s) { return s == Scaling::strong ? "strong" : "weak"; }

std::string series_name(const std::string& variant, const std::string& strategy, bool several_variants,
                        bool only_default_strategy) {
  if (!several_variants) return strategy;
  return only_default_strategy ? variant : variant + "/" + strategy;
}

namespace {

bool ran_to_end(const StudyCell& c) { return c.run.stuck == 0 && c.run.estimated_ns > 0; }

double ratio(replay::TimeNs a, replay::TimeNs b) { return static_cast<double>(a) / static_cast<double>(b); }

// Per node count, the series with the least time (`time` of a cell, or nothing when it cannot win); ties go to the
// earlier series. Then every change of winner from one node count to the next.
template <class Time>
void find_winners(const std::vector<StudyCell>& cells, const std::vector<std::string>& series, Time time,
                  std::vector<StudyWinner>& winners, std::vector<StudyCrossover>& crossovers) {
  std::map<std::uint32_t, std::pair<std::size_t, replay::TimeNs>> best;  // nodes -> (series index, time)
  for (const StudyCell& c : cells) {
    const std::optional<replay::TimeNs> t = time(c);
    if (!t) continue;
    const std::size_t index = static_cast<std::size_t>(std::find(series.begin(), series.end(), c.series) - series.begin());
    auto [it, fresh] = best.try_emplace(c.nodes, index, *t);
    if (!fresh && (*t < it->second.second || (*t == it->second.second && index < it->second.first)))
      it->second = {index, *t};
  }
  for (const auto& [nodes, b] : best) {
    if (!winners.empty() && winners.back().series != series[b.first])
      crossovers.push_back({winners.back().nodes, nodes, winners.back().series, series[b.first]});
    winners.push_back({nodes, series[b.first], b.second});
  }
}

}  // namespace

StudyResult tabulate_study(std::vector<StudyCell> cells, std::vector<std::string> series, Scaling scaling) {
  StudyResult out;
  out.scaling = scaling;
  auto position = [&](const std::string& name) {
    return std::find(series.begin(), series.end(), name) - series.begin();
  };
  std::stable_sort(cells.begin(), cells.end(), [&](const StudyCell& a, const StudyCell& b) {
    return a.nodes != b.nodes ? a.nodes < b.nodes : position(a.series) < position(b.series);
  });
  std::map<std::string, const StudyCell*> reference;  // series -> its fewest-node cell
  std::set<std::uint32_t> nodes;
  for (const StudyCell& c : cells) {
    nodes.insert(c.nodes);
    reference.try_emplace(c.series, &c);  // sorted by nodes: the first is the fewest
  }
  for (StudyCell& c : cells) {
    const StudyCell& ref = *reference.at(c.series);
    c.reference_nodes = ref.nodes;
    if (!ran_to_end(c) || !ran_to_end(ref)) continue;
    const double time_ratio = ratio(ref.run.estimated_ns, c.run.estimated_ns);
    const double node_ratio = static_cast<double>(c.nodes) / static_cast<double>(ref.nodes);
    c.speedup = scaling == Scaling::strong ? time_ratio : time_ratio * node_ratio;
    c.efficiency = scaling == Scaling::strong ? time_ratio / node_ratio : time_ratio;
  }
  find_winners(cells, series, [](const StudyCell& c) -> std::optional<replay::TimeNs> {
    if (ran_to_end(c)) return c.run.estimated_ns;
    return std::nullopt;
  }, out.winners, out.crossovers);
  for (StudyCell& c : cells)
    for (const StudyWinner& w : out.winners)
      if (w.nodes == c.nodes && ran_to_end(c) && w.time_ns > 0) {
        c.winner = w.series == c.series;
        c.to_winner = ratio(c.run.estimated_ns, w.time_ns);
      }
  const bool all_true = !cells.empty() && std::all_of(cells.begin(), cells.end(), [](const StudyCell& c) {
    return c.truth_ns.has_value();
  });
  if (all_true)
    find_winners(cells, series, [](const StudyCell& c) { return c.truth_ns; }, out.truth_winners, out.truth_crossovers);
  out.series = std::move(series);
  out.node_counts.assign(nodes.begin(), nodes.end());
  out.cells = std::move(cells);
  return out;
}

namespace {

// The settings of every strategy, each checked once: its mapping read, no fold of its own, its machine values taken
// by the machine of the first input (the machine of every input is loaded again by its replays).
core::Expected<std::vector<ReplaySettings>> strategy_settings(const std::vector<StudyInput>& inputs,
                                                              const std::vector<StudyStrategy>& strategies) {
  std::vector<ReplaySettings> out;
  // The machine and --set alone first, so that a mistake of theirs is not blamed on a strategy.
  if (!inputs.empty())
    if (auto model = load_machine_for(*inputs.front().trace, inputs.front().machine); !model) return model.error();
  for (const StudyStrategy& s : strategies) {
    auto named = [&](const std::string& problem) {
      return core::InputError{core::SourceLocation{"strategy " + s.name, 0, std::nullopt}, problem};
    };
    auto settings = replay_settings(s.choices);
    if (!settings) return named(settings.error().to_string());
    if (settings->mapping.fold)
      return named("its mapping sets fold = " + std::to_string(settings->mapping.fold) +
                   "; a study's node counts come from --fold, --nodes or its traces");
    if (!inputs.empty() && !s.overrides.empty()) {
      MachineChoice machine = inputs.front().machine;
      machine.overrides.insert(machine.overrides.end(), s.overrides.begin(), s.overrides.end());
      if (auto model = load_machine_for(*inputs.front().trace, machine); !model) return named(model.error().to_string());
    }
    out.push_back(std::move(*settings));
  }
  return out;
}

void add_once(std::vector<std::string>& list, std::string text) {
  if (std::find(list.begin(), list.end(), text) == list.end()) list.push_back(std::move(text));
}

}  // namespace

core::Expected<StudyResult> run_study(const std::vector<StudyInput>& inputs, const std::vector<StudyStrategy>& strategies,
                                      Scaling scaling, unsigned threads) {
  auto settings = strategy_settings(inputs, strategies);
  if (!settings) return settings.error();
  std::vector<std::string> variants;
  for (const StudyInput& in : inputs) add_once(variants, in.variant);
  const bool several_variants = variants.size() > 1;
  const bool only_default = strategies.size() == 1 && strategies.front().text.empty();
  std::vector<std::string> series, warnings, notes;
  for (const std::string& v : variants)
    for (const StudyStrategy& s : strategies) series.push_back(series_name(v, s.name, several_variants, only_default));

  std::vector<GridJob> jobs;
  std::vector<StudyCell> cells;
  for (const StudyInput& in : inputs)
    for (std::size_t k = 0; k < strategies.size(); ++k) {
      const StudyStrategy& s = strategies[k];
      GridJob job{in.trace, in.machine, "", (*settings)[k]};
      job.machine.overrides.insert(job.machine.overrides.end(), s.overrides.begin(), s.overrides.end());
      job.settings.mapping.fold = in.fold;
      // A fold beyond the trace's nodes would replay it on its own nodes, a cell of another node count: left out.
      if (in.fold > in.trace->nodes && job.settings.mapping.nodes.rule != machine::NodeMapRule::list) {
        add_once(warnings, "trace " + in.trace->label + " has " + std::to_string(in.trace->nodes) + " node(s): its " +
                               std::to_string(in.fold) + "-node cells are left out (a fold only joins nodes)");
        continue;
      }
      for (const std::string& w : drop_inapplicable(*in.trace, job.settings.mapping))
        add_once(warnings, w + " (strategy " + s.name + ")");
      if (auto note = eft_note(job.settings.mapping)) add_once(notes, "strategy " + s.name + ": " + *note);
      StudyCell cell;
      cell.series = series_name(in.variant, s.name, several_variants, only_default);
      cell.strategy = s.name;
      cell.variant = in.variant;
      cell.nodes = in.nodes;
      // The truth is the trace's own run on its own machine: a strategy that changes either has none.
      const auto& mapping = job.settings.mapping;
      const bool as_traced = s.overrides.empty() && mapping.moves.empty() && !mapping.processors.any() &&
                             mapping.placement.value_or(machine::Placement::traced) == machine::Placement::traced &&
                             mapping.nodes.rule == machine::NodeMapRule::cyclic;
      if (as_traced) cell.truth_ns = in.truth_ns;
      cells.push_back(std::move(cell));
      jobs.push_back(std::move(job));
    }
  if (jobs.empty())
    return core::InputError{core::SourceLocation{"the study's cells", 0, std::nullopt},
                            "none is left to replay: " + [&] {
                              std::string why;
                              for (const auto& w : warnings) why += (why.empty() ? "" : "; ") + w;
                              return why;
                            }()};
  std::erase_if(series, [&](const std::string& name) {
    return std::none_of(cells.begin(), cells.end(), [&](const StudyCell& c) { return c.series == name; });
  });
  auto runs = run_grid(jobs, threads);
  if (!runs) return runs.error();
  for (std::size_t i = 0; i < cells.size(); ++i) cells[i].run = std::move((*runs)[i]);
  StudyResult result = tabulate_study(std::move(cells), std::move(series), scaling);
  result.warnings = std::move(warnings);
  result.notes = std::move(notes);
  return result;
}

}  // namespace rr::session
