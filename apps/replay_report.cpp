// Replay reports: per-kind and per-node utilisation tables, copy paths, channels, mapping and stuck work.
#include "replay_report.hpp"

#include "core/saturating.hpp"
#include "json_object.hpp"
#include "replay/critical_operations.hpp"
#include "replay/timing_rules.hpp"
#include "replay/utilisation.hpp"
#include "text_format.hpp"

#include <cmath>
#include <cstdio>
#include <algorithm>
#include <map>
#include <tuple>
#include <sstream>

namespace rr::app {
namespace {

// The text report lists every node, and every line of the mapping, up to these counts (a 64-node run still
// reads as a list); beyond them it gives the spread and the first lines, and --json has them all.
// Up to this many nodes, the utilisation by node lists each one; beyond, the spread and its outliers.
constexpr std::size_t kNodesListed = 8;
constexpr std::size_t kOutliersListed = 4;
// The mapping's lines after grouping the traced nodes that map alike; the rest is in --json.
constexpr std::size_t kMappingLinesListed = 24;


// The values (sorted) outside the quartiles' fences: more than 1.5 interquartile ranges beyond the middle half.
std::vector<std::pair<double, std::uint32_t>> outliers(const std::vector<std::pair<double, std::uint32_t>>& sorted) {
  std::vector<std::pair<double, std::uint32_t>> out;
  if (sorted.size() < 4) return out;
  const double q1 = sorted[sorted.size() / 4].first, q3 = sorted[sorted.size() * 3 / 4].first;
  const double fence = 1.5 * (q3 - q1);
  for (const auto& e : sorted)
    if (e.first < q1 - fence || e.first > q3 + fence) out.push_back(e);
  return out;
}

// "0-31", "0-3, 8, 10-11"
std::string node_ranges(const std::vector<std::uint32_t>& nodes) {
  std::string out;
  for (std::size_t i = 0; i < nodes.size();) {
    std::size_t j = i;
    while (j + 1 < nodes.size() && nodes[j + 1] == nodes[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") + std::to_string(nodes[i]) + (j > i ? "-" + std::to_string(nodes[j]) : "");
    i = j + 1;
  }
  return out;
}

// The mapping's lines, the traced nodes that map alike in one line: the same kind and count, pinned or not to as
// many, out of as many, each on the model node of its own number (or, with a fold or node map, on the model node
// the "nodes:" line gives it).
std::vector<std::string> grouped_mapping(const replay::MachineMap& map) {
  using Placed = replay::MachineMap::PlacedProcessors;
  std::map<std::tuple<core::ProcessorKind, std::uint32_t, std::uint32_t, std::uint32_t, bool>, std::vector<const Placed*>> groups;
  for (const Placed& p : map.placed())
    groups[{p.kind, p.count, p.pinned, p.available, p.model_node == p.traced_node}].push_back(&p);
  std::vector<std::pair<std::uint32_t, std::string>> lines;  // by first traced node, then as grouped
  for (const auto& [key, members] : groups) {
    if (members.size() == 1) {
      lines.emplace_back(members.front()->traced_node, replay::MachineMap::describe(*members.front()));
      continue;
    }
    const Placed& p = *members.front();
    std::vector<std::uint32_t> nodes;
    for (const Placed* m : members) nodes.push_back(m->traced_node);
    const bool same_number = std::get<4>(key);
    lines.emplace_back(p.traced_node, "traced nodes " + node_ranges(nodes) + " " + std::string(core::processor_kind_name(p.kind)) +
                                          ": " + std::to_string(p.count) + " processor(s) each -> " +
                                          (same_number ? "the model node of the same number" : "their model nodes") + ", " +
                                          (p.pinned ? std::to_string(p.pinned) + " of its " + std::to_string(p.available)
                                                    : "any of its " + std::to_string(p.available)));
  }
  std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (auto& [node, line] : lines) out.push_back(std::move(line));
  return out;
}

std::string kind_name(std::size_t k) { return std::string(core::processor_kind_name(static_cast<core::ProcessorKind>(k))); }

nlohmann::ordered_json kind_use_json(const replay::KindUse& u, replay::TimeNs makespan) {
  return {{"processors", u.processors},
          {"used_processors", u.used},
          {"busy_ns", u.busy_ns},
          {"segments", u.segments},
          {"utilisation", u.utilisation_all(makespan)},
          {"utilisation_used", u.utilisation_used(makespan)}};
}

}  // namespace

nlohmann::ordered_json path_classes_json(const std::array<replay::TimeNs, replay::kPathClassCount>& by_class) {
  nlohmann::ordered_json j;
  for (std::size_t c = 0; c < replay::kPathClassCount; ++c)
    j[replay::path_class_name(static_cast<replay::PathClass>(c))] = by_class[c];
  return j;
}

nlohmann::ordered_json contention_json(const replay::CriticalPath& cp) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [resource, t] : cp.contention) j[replay::resource_name(resource)] = t;
  return j;
}

std::string machine_line(const machine::MachineModel& model, const replay::MachineMap& map,
                         const std::vector<std::string>& overrides) {
  std::string out = "Machine: " + model.name + " (" + model.description + "), " + std::to_string(map.model_nodes()) + " node(s)";
  if (map.model_nodes() != map.traced_nodes())
    out += " (the trace's " + std::to_string(map.traced_nodes()) + " nodes folded onto them)";
  if (!overrides.empty()) out += "; overrides: " + join(overrides, ", ");
  return out;
}

namespace {

// Utilisation of the used processors per node and kind: every node when they fit a line, else the spread.
void write_node_utilisation(std::ostringstream& out, const replay::Utilisation& use, replay::TimeNs makespan_ns) {
  out << "\nUtilisation of the used processors by node";
  if (use.by_node.size() <= kNodesListed) {
    out << ":\n";
    for (std::size_t k = 0; k < replay::kModelKindCount; ++k) {
      std::string line;
      for (const auto& [node, uses] : use.by_node)
        if (uses[k].busy_ns > 0) line += "  n" + std::to_string(node) + " " + pct(uses[k].utilisation_used(makespan_ns));
      if (!line.empty()) out << "  " << pad(kind_name(k), 10) << line << "\n";
    }
  } else {
    // Many nodes do not fit a line a person reads: the spread per kind and the nodes far from it, every node in --json.
    out << " (" << use.by_node.size() << " nodes: lowest, median, highest, and outliers; every node in --json):\n";
    for (std::size_t k = 0; k < replay::kModelKindCount; ++k) {
      std::vector<std::pair<double, std::uint32_t>> by_use;
      for (const auto& [node, uses] : use.by_node)
        if (uses[k].busy_ns > 0) by_use.emplace_back(uses[k].utilisation_used(makespan_ns), node);
      if (by_use.empty()) continue;
      std::sort(by_use.begin(), by_use.end());
      const auto& low = by_use.front();
      const auto& high = by_use.back();
      out << "  " << pad(kind_name(k), 10) << "  n" << low.second << " " << pct(low.first) << "  median "
          << pct(by_use[by_use.size() / 2].first) << "  n" << high.second << " " << pct(high.first);
      const std::vector<std::pair<double, std::uint32_t>> far = outliers(by_use);
      if (!far.empty()) {
        out << "  outliers:";
        for (std::size_t i = 0; i < far.size() && i < kOutliersListed; ++i)
          out << " n" << far[i].second << " " << pct(far[i].first);
        if (far.size() > kOutliersListed) out << " and " << far.size() - kOutliersListed << " more";
      }
      out << "\n";
    }
  }
}

// Copies per path and the busy time of each channel's lanes.
void write_copies(std::ostringstream& out, const ReplayView& v) {
  const auto& r = v.result;
  if (!r.paths.empty()) {
    out << "\nCopies by path                              count   bytes (B)   time (ms)\n";
    for (const auto& [name, p] : r.paths) {
      char line[200];
      std::snprintf(line, sizeof line, "  %-40s %7llu %11llu %11s\n", name.c_str(),
                    static_cast<unsigned long long>(p.copies), static_cast<unsigned long long>(p.bytes),
                    ms(p.time_ns).c_str());
      out << line;
    }
    std::map<std::string, std::pair<replay::TimeNs, std::uint64_t>> by_channel;
    for (const auto& c : r.channels) {
      auto& e = by_channel[v.model.channels[c.channel].name];
      e.first = core::saturating_add(e.first, c.busy_ns);
      e.second += c.transfers;
    }
    out << "Channels                              lane busy (ms)   transfers\n";
    for (const auto& [name, e] : by_channel) {
      char line[200];
      std::snprintf(line, sizeof line, "  %-34s %15s %11llu\n", name.c_str(), ms(e.first).c_str(),
                    static_cast<unsigned long long>(e.second));
      out << line;
    }
  }
}

}  // namespace

std::string render_replay_text(const ReplayView& v) {
  const auto& r = v.result;
  std::ostringstream out;
  out << machine_line(v.model, v.map, v.overrides) << "\n";
  out << "Estimated run time: " << ms(r.makespan_ns) << " ms\n";
  if (r.measured_waits)
    out << "  " << r.measured_waits << " wait(s) on events no record produces took their measured time, "
        << ms(r.measured_wait_ns) << " ms summed over them\n"
        << "  (they may overlap: not a part of the estimate); --unlogged-time instant ends them at once\n";
  if (r.tasks_without_time) {
    out << "  left out: " << r.tasks_without_time << " task(s) without Task Time (they did not finish in the traced run)"
        << (r.after_untimed ? " and " + std::to_string(r.after_untimed) + " operation(s) after them" : std::string());
    if (r.last_end_ns > r.makespan_ns) out << "; with them the replay ends at " << ms(r.last_end_ns) << " ms";
    out << "\n";
  }
  if (r.outside_work)
    out << "  left out: " << r.outside_work
        << " operation(s) that are not the application's work (the program's own thread, the profiler's responses)\n";
  out << "Operations replayed: " << r.operations << (r.stuck ? ", STUCK: " + std::to_string(r.stuck) : "") << "\n\n";
  if (!v.bounded_by.empty()) out << v.bounded_by << "\n";

  // Utilisation over the used processors answers "how busy is what the trace runs on"; over all of them,
  // "how much of this machine does the trace need". Both, labelled, so neither is mistaken for the other.
  out << "Processors      model   used     busy (ms)  util. of used  util. of all  segments\n";
  const replay::Utilisation use = replay::utilisation(v.map, r);
  for (std::size_t k = 0; k < replay::kModelKindCount; ++k) {
    const replay::KindUse& u = use.total[k];
    if (u.processors == 0) continue;
    char line[200];
    std::snprintf(line, sizeof line, "  %-12s %6u %6u %13s %14s %13s %9llu\n", kind_name(k).c_str(), u.processors, u.used,
                  ms(u.busy_ns).c_str(), pct(u.utilisation_used(r.makespan_ns)).c_str(),
                  pct(u.utilisation_all(r.makespan_ns)).c_str(), static_cast<unsigned long long>(u.segments));
    out << line;
  }
  out << "  (model: model processors of the kind; used: those the mapping runs traced processors on;\n"
         "   util.: busy time / (run time x processors))\n";
  write_node_utilisation(out, use, r.makespan_ns);
  write_copies(out, v);
  out << "\nMapping:\n";
  for (const auto& line : v.map.changes()) out << "  " << line << "\n";
  const std::vector<std::string> mapping = grouped_mapping(v.map);
  const std::size_t listed = std::min(mapping.size(), kMappingLinesListed);
  for (std::size_t i = 0; i < listed; ++i) out << "  " << mapping[i] << "\n";
  if (listed < mapping.size())
    out << "  ... " << mapping.size() - listed << " more line(s) like these, every traced node in --json\n";
  if (!v.map.mapping().moves.empty()) {
    out << "\nMoved functions (assumptions: the trace cannot know them):\n"
        << "  a moved task's busy time is its traced busy time x the move's factor (as traced without one), divided by\n"
        << "  the new kind's speed; copies follow its data (docs/mapping.md): " << r.copies_retargeted
        << " copy(ies) retargeted, " << r.copies_removed << " removed as moving nothing; " << r.implied_copies
        << " implied copy(ies) of " << v.model.default_copy_bytes << " B each (" << ms(r.implied_copy_ns)
        << " ms in all) for dependencies the trace needed none for, holding no channel lane";
    out << (v.map.placement() == machine::Placement::eft ? ";\n  under eft, copies follow the function's mapped kind, "
                                                          "whichever kind the task runs on.\n"
                                                        : ".\n");
  }
  std::vector<std::string> notes;
  if (r.copies_default_size)
    notes.push_back(std::to_string(r.copies_default_size) + " copy(ies) without Copy Size used " +
                    std::to_string(v.model.default_copy_bytes) + " B");
  if (r.clamped_waits) notes.push_back(std::to_string(r.clamped_waits) + " task segment(s) waited longer than their Task Time");
  if (v.map.unknown_processors())
    notes.push_back(std::to_string(v.map.unknown_processors()) + " processor(s) without a record ran as CPUs");
  if (!notes.empty()) out << "\nNotes: " << join(notes, "; ") << ".\n";
  if (r.stuck) {
    out << "\nStuck operations (" << r.stuck << "), first ones:\n";
    for (const auto& s : r.stuck_examples) out << "  " << s.reason << "\n";
  }
  return out.str();
}

nlohmann::ordered_json render_replay_json(const ReplayView& v, const RunContext& ctx) {
  const auto& r = v.result;
  nlohmann::ordered_json j;
  j["schema"] = "realm-replay/replay";
  j["schema_version"] = 2;  // 2: the critical path's queueing became contention, with contention_by_resource_ns
  RunContext with_model = ctx;
  with_model.options["issue_point"] = machine::issue_point_name(v.model.issue_point);
  with_model.options["wait_frees_processor"] = v.model.wait_frees_processor;
  j["context"] = context_json(with_model);
  j["estimated_time_ns"] = r.makespan_ns;
  j["operations"] = r.operations;
  j["stuck"] = r.stuck;
  nlohmann::ordered_json kinds = nlohmann::ordered_json::object();
  const replay::Utilisation use = replay::utilisation(v.map, r);
  for (std::size_t k = 0; k < replay::kModelKindCount; ++k)
    if (use.total[k].processors) kinds[kind_name(k)] = kind_use_json(use.total[k], r.makespan_ns);
  LinearObject nodes;  // one key per model node: there may be tens of thousands
  for (const auto& [node, uses] : use.by_node) {
    nlohmann::ordered_json one = nlohmann::ordered_json::object();
    for (std::size_t k = 0; k < replay::kModelKindCount; ++k)
      if (uses[k].processors) one[kind_name(k)] = kind_use_json(uses[k], r.makespan_ns);
    if (!one.empty()) nodes.append(std::to_string(node), std::move(one));
  }
  j["processor_kinds"] = kinds;
  j["nodes"] = nodes.take();
  nlohmann::ordered_json paths = nlohmann::ordered_json::object();
  for (const auto& [name, p] : r.paths) paths[name] = {{"copies", p.copies}, {"bytes", p.bytes}, {"time_ns", p.time_ns}};
  j["copy_paths"] = paths;
  nlohmann::ordered_json channels = nlohmann::ordered_json::array();
  for (const auto& c : r.channels)
    channels.push_back({{"channel", v.model.channels[c.channel].name}, {"node", c.node}, {"busy_ns", c.busy_ns},
                        {"transfers", c.transfers}, {"bytes", c.bytes}});
  j["channels"] = channels;
  j["mapping"] = v.map.describe();
  j["placement"] = machine::placement_name(v.map.placement());
  j["mapping_changes"] = v.map.changes();
  j["notes"] = {{"tasks_without_time", r.tasks_without_time},
                {"outside_work", r.outside_work},
                {"after_untimed", r.after_untimed},
                {"last_end_ns", r.last_end_ns},
                {"measured_waits", r.measured_waits},
                {"measured_wait_ns", r.measured_wait_ns},
                {"copies_default_size", r.copies_default_size},
                {"copies_retargeted", r.copies_retargeted},
                {"copies_removed", r.copies_removed},
                {"implied_copies", r.implied_copies},
                {"implied_copy_ns", r.implied_copy_ns},
                {"clamped_waits", r.clamped_waits},
                {"unknown_processors", v.map.unknown_processors()}};
  nlohmann::ordered_json stuck = nlohmann::ordered_json::array();
  for (const auto& s : r.stuck_examples) stuck.push_back(s.reason);
  j["stuck_examples"] = stuck;
  if (v.critical) {
    const auto& cp = *v.critical;
    nlohmann::ordered_json classes = path_classes_json(cp.by_class);
    const std::vector<std::string> events = replay::critical_operations(cp);
    j["critical_path"] = {{"length_ns", cp.length_ns}, {"lower_bound_ns", lower_bound_json(cp.lower_bound_ns)},
                          {"by_class_ns", classes}, {"contention_by_resource_ns", contention_json(cp)},
                          {"operations", events}};
  }
  return j;
}

std::string distribution_text(const session::EstimateDistribution& d) {
  return "Under noise (lognormal factor of mean 1 and sigma " + fixed(d.sigma, 3) + " on every duration, " +
         std::to_string(d.samples.size()) + " samples, seed " + std::to_string(d.seed) + "), estimated run time in ms:\n" +
         "  mean " + ms(static_cast<replay::TimeNs>(std::llround(d.mean_ns))) + "   p5 " + ms(d.p5_ns) + "   p50 " +
         ms(d.p50_ns) + "   p95 " + ms(d.p95_ns) + "   (min " + ms(d.min_ns) + ", max " + ms(d.max_ns) + ")\n";
}

nlohmann::ordered_json distribution_json(const session::EstimateDistribution& d) {
  return {{"sigma", d.sigma},     {"samples", d.samples.size()}, {"seed", d.seed},    {"mean_ns", d.mean_ns},
          {"p5_ns", d.p5_ns},     {"p50_ns", d.p50_ns},          {"p95_ns", d.p95_ns}, {"min_ns", d.min_ns},
          {"max_ns", d.max_ns}};
}

}  // namespace rr::app
