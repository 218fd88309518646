// The traced machine of a trace read in parts: its facts and its network latency's fit over the ranks, each rank
// counting what its part holds (its copies' sizes, its waits), every rank's sums agreed.
#include "session/traced_part_machine.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <utility>

#include "machine_models/machine_loader.hpp"
#include "replay/machine_map.hpp"
#include "replay/network_sums.hpp"
#include "session/src/over_ranks.hpp"
#include "session/src/prof_part_facts.hpp"
#include "session/src/traced_network_fit.hpp"
#include "session/traced_fit.hpp"

namespace rr::session {

namespace {

using graph::kNoVertex;
using graph::VertexId;

// The sizes of the rank's own copies that have one, as traced_facts takes them from the whole graph.
std::vector<std::uint64_t> own_copy_sizes(const graph::GraphPart& part) {
  std::vector<std::uint64_t> sizes;
  for (std::size_t i = 0; i < part.size(); ++i)
    if (part.kind[i] == graph::OpKind::copy) {
      const std::uint64_t bytes = part.copies[part.local_payload[i]].bytes;
      if (bytes != graph::kNoValue && bytes > 0) sizes.push_back(bytes);
    }
  return sizes;
}

// The rank's own Task Waits on produced events: their resumes' whole ids (ascending, as the part's), which the fit's
// replays sum the spans of, and how many they are and measured in all, summed over the ranks.
struct ProducedWaits {
  std::vector<VertexId> resumes;
  std::int64_t count = 0, measured_ns = 0;
};
ProducedWaits own_produced_waits(const graph::GraphPart& part, replay::BlockNetwork& net) {
  ProducedWaits out;
  for (std::size_t i = 0; i < part.size(); ++i)
    if (part.kind[i] == graph::OpKind::task_resume)
      if (const graph::WaitInfo& w = part.waits[part.local_payload[i]]; w.awaited != kNoVertex) {
        out.resumes.push_back(part.ids[i]);
        ++out.count;
        out.measured_ns += w.wait_ns;
      }
  const auto all = replay::combine_over_ranks(net, std::array{out.count, out.measured_ns}, replay::Combine::sum);
  out.count = all[0];
  out.measured_ns = all[1];
  return out;
}

// The replayed span of each of the rank's produced waits, from the end of the segment before it to its resume being
// ready, in all: what fit_traced_network sums over the whole graph's waits, here over the waits of the rank's view
// (graph_of_part: its own waits, in the whole graph's order, each task's in one run).
std::int64_t own_waits_span(const replay::ReplayResult& r, const ProducedWaits& produced) {
  const graph::EventGraph& g = replay::graph_of_part(r);
  const auto waits = g.waits();
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < waits.size(); ++i) {
    const graph::WaitInfo& w = waits[i];
    if (w.task == kNoVertex) continue;  // (a ghost resume's wait: its owner's to count)
    const VertexId whole = g.whole_id(w.resume);
    if (!std::binary_search(produced.resumes.begin(), produced.resumes.end(), whole)) continue;
    const VertexId resume = replay::place_of(r, whole).record;
    const VertexId before = replay::place_of(r, g.whole_id(g.segment_before_wait(i))).record;
    if (resume == kNoVertex || before == kNoVertex || r.ready(resume) < 0) continue;
    if (r.end(before) >= 0) sum += std::max<replay::TimeNs>(0, r.ready(resume) - r.end(before));
  }
  return sum;
}

core::InputError not_from_parts(const std::string& why) {
  core::InputError error;  // (filled in place: GCC 12 warns, wrongly, of a braced one's uninitialised string)
  error.message = "the traced machine's fit: " + why;
  return error;
}

}  // namespace

core::Expected<TracedPartMachine> traced_machine_of_part(TracePart& trace, graph::RankExchange& exchange,
                                                         const replay::ReplayOptions& options,
                                                         const machine::MappingSpec& mapping) {
  replay::BlockNetwork& net = *options.execution.network;
  const SharedMachine shared = share_machine_records(trace, exchange);
  machine::TracedFacts facts = trace.packed_facts.value_or(machine::TracedFacts{});
  if (!trace.packed_facts) facts.median_copy_bytes = replay::median_over_ranks(net, own_copy_sizes(trace.part));
  // With --traced-cores a Legion Prof trace's machine lists the start-ups every log measured, the k-th the lower
  // median of the logs' k-th silences (graph::measured_start_ups), which no rank's part puts together yet: the whole
  // trace serves it.
  if (!trace.packed_facts && trace.machine_files && trace.traced_cores > 0)
    return not_from_parts("the start-ups measured in every Legion Prof log are put together by one process");
  if (!trace.packed_facts && trace.machine_files) add_prof_facts_over_ranks(trace, net, facts);  // (Legion Prof logs)
  // The cores --traced-cores gives, as the whole trace's facts take them (2015 Realm logs measure no start-ups; a
  // packed trace refuses --traced-cores but for the cores it was packed with, which its facts hold).
  if (!trace.packed_facts && trace.traced_cores > 0) facts.cores = traced_cores_fact(trace.traced_cores);
  // Counted before the part is prepared (which uses it up), and only when there is a latency to fit: every rank
  // decides alike (the same packed file, the same facts).
  const bool to_fit = !trace.packed_machine && !facts.network_latency_ns;
  const ProducedWaits produced = to_fit ? own_produced_waits(trace.part, net) : ProducedWaits{};
  const std::string assumed = machine::traced_machine_toml(shared.source, trace.label, facts);

  // The part is prepared for the fit's model: the traced machine as it is, placed as traced.
  auto model = machine::parse_machine(assumed, "traced");
  if (!model) return model.error();  // (every rank parses the same text)
  auto map = replay::MachineMap::build(trace.map_records(), *model, {});
  // The run's map folds the nodes as its mapping asks, on parts split by that fold: the part serves both maps. Only
  // its fold matters to the part (the ranks whose channel instances a copy's hops hold), not the fitted latency.
  std::optional<core::Expected<replay::MachineMap>> run_map;
  if (!trace.ranks.fold.of_traced.empty()) run_map = replay::MachineMap::build(trace.map_records(), *model, mapping);
  // (each rank maps it from its own files' records)
  if (!agree_over_ranks(net, map.ok() && (!run_map || run_map->ok()), 0).everyone)
    return not_from_parts("a rank could not map the traced machine");
  auto prepared = replay::prepare_part(std::move(trace.part), trace.ranks, exchange, *map, *model, options,
                                       run_map ? &**run_map : nullptr);
  if (!prepared) return prepared.error();
  TracedPartMachine out;
  out.prepared = std::move(*prepared);
  if (!to_fit) {  // packed fitted, or the latency measured
    out.toml = trace.packed_machine.value_or(assumed);
    return out;
  }
  TracedNetworkFit fit;
  fit.latency_ns = machine::kAssumedNetworkLatencyNs;
  fit.waits = static_cast<std::size_t>(produced.count);
  fit.measured_ns = static_cast<double>(produced.measured_ns);
  std::string refused;  // a replay the parts do not serve: every rank refuses it alike
  auto replay_at = [&](long long latency) -> Replayed {
    auto at = traced_model_at(assumed, latency);
    if (!at) return {};
    replay::ReplayOptions plain;  // one engine's times, without noise, as the whole trace's fit replays
    plain.execution.network = &net;
    auto r = replay::run_part_over_network(out.prepared, trace.ranks, exchange, *map, *at, plain);
    if (!r) {
      refused = r.error().to_string();
      return {};
    }
    return replayed_over_ranks(own_waits_span(*r, produced), r->makespan_ns, &net);
  };
  fit_network_latency(shared.nodes, replay_at, 1, fit);
  if (!refused.empty()) return not_from_parts(refused);
  add_fitted_latency(fit, facts);
  out.toml = machine::traced_machine_toml(shared.source, trace.label, facts);
  return out;
}

}  // namespace rr::session
