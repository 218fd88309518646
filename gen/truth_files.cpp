#include "truth_files.hpp"

#include "compressed_output.hpp"
#include "json_stream.hpp"

#include <charconv>
#include <string_view>

namespace rr::gen {

namespace {

// "(id,gen)" as the logs print an event, in `buffer`.
std::string_view event_text(std::uint64_t id, std::uint32_t gen, char (&buffer)[48]) {
  char* p = buffer;
  *p++ = '(';
  p = std::to_chars(p, buffer + sizeof buffer, id, 16).ptr;
  *p++ = ',';
  p = std::to_chars(p, buffer + sizeof buffer, gen).ptr;
  *p++ = ')';
  return {buffer, static_cast<std::size_t>(p - buffer)};
}

void write_parameters(JsonStream& json, const Program& p) {
  json.key("parameters").begin_object(true);
  json.member("generator", p.generator).member("seed", p.seed).member("nodes", p.nodes);
  json.member("cpus_per_node", p.cpus_per_node).member("gpus_per_node", p.gpus_per_node);
  json.member("utility_per_node", p.utility_per_node).member("drivers_per_node", p.drivers_per_node);
  json.member("operations", p.ops.size());
  for (const auto& [name, value] : p.parameters) {
    json.key(name);
    std::visit([&](const auto& v) { json.value(v); }, value);
  }
  json.end_object();
}

}  // namespace

void write_truth_json(const std::filesystem::path& path, const Program& p, const Truth& truth,
                      const ProgramEvents& events, const std::map<std::string, std::uint64_t>& injected) {
  CompressedOutput out(path, Compression::none);
  JsonStream json(out);
  json.begin_object().member("schema", "realm-replay/truth").member("schema_version", 1);
  write_parameters(json, p);
  json.key("injected").begin_object(true);
  for (const auto& [quirk, count] : injected) json.member(quirk, count);
  json.end_object();
  json.member("machine", "machine.toml").member("makespan_ns", truth.makespan_ns).member("never_ran", truth.never_ran);
  json.key("operations").begin_array();
  char event[48];
  for (std::uint32_t i = 0; i < p.ops.size(); ++i) {
    json.begin_object(true).member("event", event_text(events.id(i), events.generation(i), event));
    json.member("kind", kGenKindNames[static_cast<int>(p.ops[i].kind)]).member("node", p.ops[i].node);
    json.member("start_ns", truth.start[i]).member("end_ns", truth.end[i]).end_object();
  }
  json.end_array().end_object().finish();
  out.commit();
}

machine::MachineModel truth_machine_model(const Program& p, const TruthMachine& m) {
  machine::MachineModel model;
  model.name = "gen-truth";
  model.description = "the generator's truth machine";
  auto& processors = model.processors;
  processors[static_cast<std::size_t>(core::ProcessorKind::gpu)].count = p.gpus_per_node;
  processors[static_cast<std::size_t>(core::ProcessorKind::cpu)].count = p.cpus_per_node + p.drivers_per_node;
  processors[static_cast<std::size_t>(core::ProcessorKind::utility)].count = p.utility_per_node;
  // 1 byte/ns, so that transfer times are whole nanoseconds, as the truth's scheduler computes them.
  model.channels = {machine::Channel{"memcpy", m.memcpy_latency_ns, 1.0, m.lanes, false},
                    machine::Channel{"nic", m.nic_latency_ns, 1.0, m.lanes, false}};
  constexpr core::MemoryKind kMemories[] = {core::MemoryKind::system, core::MemoryKind::zero_copy,
                                            core::MemoryKind::framebuffer};
  for (const bool remote : {false, true})
    for (const core::MemoryKind src : kMemories)
      for (const core::MemoryKind dst : kMemories)
        model.paths.push_back(machine::CopyPath{src, dst, remote, {remote ? 1u : 0u}});
  model.network_latency_ns = m.network_latency_ns;
  model.runtime.trigger_local_ns = m.trigger_local_ns;
  model.runtime.trigger_remote_ns = m.trigger_remote_ns;
  model.runtime.merge_ns = m.merge_ns;
  model.wait_frees_processor = true;
  model.issue_point = machine::IssuePoint::interpolate;
  model.default_copy_bytes = 65536;  // every generated copy logs its size; this is the machine files' default
  model.default_placement = machine::Placement::traced;
  return model;
}

}  // namespace rr::gen
