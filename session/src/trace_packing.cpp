// A loaded trace to and from a packed trace: the parts the format keeps, borrowed to write and moved in on reading,
// with the traced machine's facts and fit kept in the trace's cache as if they had been derived from it.
#include "session/trace_packing.hpp"

#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "session/src/trace_cache.hpp"
#include "session/traced_fit.hpp"

namespace rr::session {

core::Expected<packed::PackedTraceInfo> write_packed_trace(const LoadedTrace& trace, platform::OutputTarget& out,
                                                           bool fit) {
  const machine::TracedFacts facts = traced_facts(trace);
  const std::optional<std::string> traced_machine =
      fit ? std::optional<std::string>(fit_traced_machine(trace).toml) : std::nullopt;
  return packed::write_packed_trace({.label = trace.label,
                                     .nodes = trace.nodes,
                                     .records = trace.records,
                                     .summary = trace.summary,
                                     .profile_summary = trace.profile_summary,
                                     .graph = trace.graph(),
                                     .findings = trace.built.findings,
                                     .traced_facts = facts,
                                     .traced_machine = traced_machine},
                                    out);
}

core::Expected<LoadedTrace> read_packed_trace(const std::string& path) {
  auto packed = packed::read_packed_trace(path);
  if (!packed) return packed.error();
  LoadedTrace t;
  t.inputs = {path};
  t.label = std::move(packed->label);
  t.nodes = packed->nodes;
  t.records = std::move(packed->records);
  t.summary = std::move(packed->summary);
  t.profile_summary = std::move(packed->profile_summary);
  t.built.graph = std::move(packed->graph);
  t.built.findings = std::move(packed->findings);
  t.family = trace_family(t.label, t.nodes);
  // The cores the trace was packed with (--traced-cores) are among its facts: its durations were fixed with them.
  const std::optional<machine::MeasuredValue>& cores = packed->traced_facts.cores;
  t.traced_cores = cores ? static_cast<std::uint32_t>(cores->value) : 0;
  t.cache = std::make_shared<LoadedTrace::Cache>();
  t.cache->packed_facts = std::move(packed->traced_facts);
  if (packed->traced_machine)
    std::call_once(t.cache->traced_once, [&] { t.cache->traced_toml = std::move(*packed->traced_machine); });
  return t;
}

}  // namespace rr::session
