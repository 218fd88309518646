// Choosing the classes (explain/src/classes.hpp).
#include "classes.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "explain/shapley.hpp"
#include "facts.hpp"

namespace rr::explain {

namespace {

struct Candidate {
  std::uint32_t name = 0;
  double size = 0;
  OpClass op_class = OpClass::cpu;
};

// The duration classes: one per function while they fit in `room`; past that, the largest keep a class each and
// the rest are grouped by processor kind, and if the kinds still do not fit, the smallest kinds go into one.
std::vector<std::vector<Candidate>> group_functions(std::vector<Candidate> f, std::size_t room) {
  std::vector<std::vector<Candidate>> groups;
  if (f.size() <= room) {
    for (const Candidate& c : f) groups.push_back({c});
    return groups;
  }
  auto kinds_of = [&](std::size_t from) {
    std::set<OpClass> k;
    for (std::size_t i = from; i < f.size(); ++i) k.insert(f[i].op_class);
    return k.size();
  };
  std::size_t keep = room;
  while (keep > 0 && keep + kinds_of(keep) > room) --keep;
  for (std::size_t i = 0; i < keep; ++i) groups.push_back({f[i]});
  std::map<OpClass, std::vector<Candidate>> by_kind;
  for (std::size_t i = keep; i < f.size(); ++i) by_kind[f[i].op_class].push_back(f[i]);
  std::vector<std::vector<Candidate>> rest;
  for (auto& [k, list] : by_kind) rest.push_back(std::move(list));
  auto total = [](const std::vector<Candidate>& g) {
    double s = 0;
    for (const Candidate& c : g) s += c.size;
    return s;
  };
  std::stable_sort(rest.begin(), rest.end(), [&](const auto& x, const auto& y) { return total(x) > total(y); });
  const std::size_t slots = room - keep;
  while (rest.size() > slots && rest.size() >= 2) {  // the two smallest into one
    auto last = std::move(rest.back());
    rest.pop_back();
    rest.back().insert(rest.back().end(), last.begin(), last.end());
  }
  for (auto& g : rest) groups.push_back(std::move(g));
  return groups;
}

FactClass duration_class(const Matching& m, const std::vector<Candidate>& group) {
  FactClass c;
  c.kind = FactKind::durations;
  std::set<OpClass> kinds;
  for (const Candidate& x : group) {
    c.members.push_back(m.names[x.name]);
    c.size += x.size;
    kinds.insert(x.op_class);
  }
  if (group.size() == 1) c.name = "durations of " + m.names[group[0].name];
  else if (kinds.size() == 1)
    c.name = "durations of " + std::to_string(group.size()) + " " + op_class_name(*kinds.begin()) + " functions";
  else c.name = "durations of " + std::to_string(group.size()) + " other functions";
  return c;
}

}  // namespace

ClassPlan plan_classes(const Matching& m, const std::vector<NameStats>& stats, const MachineDifferences& machines,
                       bool structure_differs) {
  ClassPlan plan;
  plan.class_of_name.assign(m.names.size(), kNoClass);
  std::vector<Candidate> functions;
  bool copies = false;
  for (std::uint32_t n = 0; n < stats.size(); ++n) {
    if (!stats[n].differs) continue;
    if (stats[n].work.op_class == OpClass::copy) copies = true;
    else functions.push_back({n, std::abs(static_cast<double>(stats[n].matched_delta)), stats[n].work.op_class});
  }
  std::stable_sort(functions.begin(), functions.end(),
                   [&](const Candidate& x, const Candidate& y) { return x.size > y.size; });
  const std::size_t others = (copies ? 1 : 0) + (machines.costs.empty() ? 0 : 1) +
                             (machines.processors.empty() ? 0 : 1) + (structure_differs ? 1 : 0);
  const std::size_t room = kMaxPlayers - others;
  const auto groups = group_functions(functions, room);
  if (groups.size() < functions.size())
    plan.notes.push_back(std::to_string(functions.size()) + " functions changed duration, more than the " +
                         std::to_string(room) + " classes left for them: the largest (by total busy time changed) "
                         "keep a class each, the others are grouped by processor kind");
  for (const auto& g : groups) {
    for (const Candidate& x : g) plan.class_of_name[x.name] = static_cast<std::uint8_t>(plan.classes.size());
    plan.classes.push_back(duration_class(m, g));
  }
  if (copies) {
    FactClass c;
    c.kind = FactKind::copies;
    c.name = "copies";
    for (std::uint32_t n = 0; n < stats.size(); ++n)
      if (stats[n].work.op_class == OpClass::copy) {
        plan.class_of_name[n] = static_cast<std::uint8_t>(plan.classes.size());
        c.members.push_back(m.names[n]);
        c.size += std::abs(static_cast<double>(stats[n].matched_delta));
      }
    plan.classes.push_back(std::move(c));
  }
  auto add = [&](FactKind kind, const char* name, std::vector<std::string> changes, int& bit) {
    bit = static_cast<int>(plan.classes.size());
    FactClass c;
    c.kind = kind;
    c.name = name;
    c.changes = std::move(changes);
    plan.classes.push_back(std::move(c));
  };
  if (!machines.costs.empty()) add(FactKind::costs, "machine costs", machines.costs, plan.costs);
  if (!machines.processors.empty()) add(FactKind::processors, "processors", machines.processors, plan.processors);
  if (structure_differs) add(FactKind::structure, "structure", {}, plan.structure);
  return plan;
}

}  // namespace rr::explain
