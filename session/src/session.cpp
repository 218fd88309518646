// The pipeline: read (parser) -> build (graph) -> machine (TOML) -> map and replay (replay) -> critical path.
#include "session/session.hpp"
#include "session/replay_choices.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

#include "core/trace_stats.hpp"
#include "machine_models/machine_loader.hpp"
#include "machine_models/traced_machine.hpp"
#include "graph/prof_graph_builder.hpp"
#include "packed/packed_trace.hpp"
#include "parser/trace_reader.hpp"
#include "platform/freed_memory.hpp"
#include "session/names_file.hpp"
#include "session/src/trace_cache.hpp"
#include "session/trace_packing.hpp"
#include "session/traced_fit.hpp"

namespace rr::session {

std::optional<std::string> thread_count_problem(std::uint64_t threads) {
  if (threads <= kMaxThreads) return std::nullopt;
  return std::to_string(threads) + " threads is more than the limit of " + std::to_string(kMaxThreads) +
         " (0 uses every core)";
}

std::uint64_t LoadedTrace::malformed_lines() const {
  std::uint64_t n = 0;
  for (const auto& f : records.files) n += f.stats.malformed_total();
  return n;
}

std::uint64_t LoadedTrace::skipped_lines() const {
  std::uint64_t n = 0;
  for (const auto& f : records.files) n += f.stats.skipped_total();
  return n;
}

std::vector<core::Diagnostic> LoadedTrace::malformed_messages() const {
  std::vector<core::Diagnostic> out;
  for (const auto& f : records.files) out.insert(out.end(), f.stats.first_messages.begin(), f.stats.first_messages.end());
  return out;
}

std::string label_of(const std::string& path) {
  std::filesystem::path p(path);
  std::string name = p.filename().string();
  if (name.empty()) name = p.parent_path().filename().string();
  for (std::string_view ext : {".tar.zst", ".tar.gz", ".tar.xz", ".tar", ".tgz"}) {
    if (name.size() > ext.size() && name.ends_with(ext)) {
      name.resize(name.size() - ext.size());
      break;
    }
  }
  return name;
}

std::string trace_family(const std::string& label, std::uint32_t nodes) {
  const std::string count = std::to_string(nodes);
  auto is_digit = [&](std::size_t i) { return i < label.size() && std::isdigit(static_cast<unsigned char>(label[i])); };
  for (std::size_t i = 0; i < label.size(); ++i) {
    if (!is_digit(i) || (i > 0 && is_digit(i - 1))) continue;
    std::size_t j = i;
    while (is_digit(j)) ++j;
    if (label.compare(i, j - i, count) != 0) continue;
    const std::string_view after = std::string_view(label).substr(j);
    const std::string_view before = std::string_view(label).substr(0, i);
    const bool named = after.starts_with("n") || before.ends_with("n") || before.ends_with("nodes") ||
                       before.ends_with("node");
    // "n" after the count must end a word ("4n", "4node", "4nodes"), not start another ("4noise").
    const bool word_ends = !after.starts_with("n") || after.size() == 1 || after.starts_with("node") ||
                           !std::isalpha(static_cast<unsigned char>(after[1]));
    if (named && word_ends) return label.substr(0, i) + "N" + label.substr(j);
  }
  return label;
}

namespace {

// The first `n` messages of each file, in order (messages name their file).
void keep_first_per_file(std::vector<core::Diagnostic>& messages, std::size_t n) {
  std::map<std::string, std::size_t, std::less<>> kept;
  std::erase_if(messages, [&](const core::Diagnostic& d) { return kept[d.where.file]++ >= n; });
}

// A packed trace holds the examples and messages of the counts it was packed with: a command that asks for
// fewer (--examples, --max-messages) gets the first ones, as it would from the logs; more cannot be had.
void keep_at_most(LoadedTrace& t, std::size_t examples, std::size_t messages) {
  core::StatCounts per_kind;
  std::erase_if(t.built.findings.examples, [&](const graph::Finding& f) { return per_kind[f.kind]++ >= examples; });
  for (auto& f : t.records.files) {
    if (f.stats.first_messages.size() > messages) f.stats.first_messages.resize(messages);
    if (f.profile.join_messages.size() > messages) f.profile.join_messages.resize(messages);
  }
  if (t.summary) keep_first_per_file(t.summary->messages, messages);
  if (t.profile_summary) keep_first_per_file(t.profile_summary->messages, messages);
}

// Lays the given names over the trace's own: a names file renames what a Legion Prof log calls a function.
void apply_names(LoadedTrace& t, GivenNames given) {
  graph::EventGraph& g = t.built.graph;
  std::set<std::uint32_t> functions;
  for (std::uint32_t i = 0; i < g.task_count(); ++i) functions.insert(g.task_at(i).func_id);
  NamesSource source{std::move(given.file), given.names.size(), 0};
  for (const auto& entry : given.names) source.used += functions.count(entry.first);
  g.set_function_names(graph::merge_function_names(g.function_names(), given.names));
  t.names = std::move(source);
}

// Reads and builds the logs, or loads a packed trace.
core::Expected<LoadedTrace> load_built_trace(const std::vector<std::string>& inputs, const ReadingOptions& options) {
  // A packed trace stands alone: it is the whole trace, read and built when it was packed.
  if (inputs.size() == 1 && packed::is_packed_trace(inputs.front())) {
    auto packed = read_packed_trace(inputs.front());
    if (!packed) return packed.error();
    if (options.strict)
      if (auto problem = core::strict_problem(packed->records)) return *problem;
    if (!options.summarise) {
      packed->summary.reset();
      packed->profile_summary.reset();
    }
    const std::uint32_t traced_cores = options.build.traced_cores;
    keep_at_most(*packed, options.build.examples_per_finding, options.read.max_messages_per_file);
    if (traced_cores != 0 && traced_cores != packed->traced_cores)
      return core::InputError{core::SourceLocation{inputs.front(), 0, std::nullopt},
                              "packed " + (packed->traced_cores ? "with --traced-cores " + std::to_string(packed->traced_cores)
                                                                 : std::string("without --traced-cores")) +
                                  ": its durations were fixed then; pack the logs again with --traced-cores " +
                                  std::to_string(traced_cores)};
    packed->threads = options.threads;
    return packed;
  }
  auto records = parser::read_trace(inputs, options.read, options.threads);
  if (!records) return records.error();
  auto loaded = load_records(std::move(*records), inputs.empty() ? std::string() : label_of(inputs.front()), options);
  if (loaded) loaded->inputs = inputs;
  return loaded;
}

}  // namespace

core::Expected<LoadedTrace> load_trace(const std::vector<std::string>& inputs, const ReadingOptions& options) {
  auto names = read_given_names(inputs, options.names_file);
  if (!names) return names.error();
  auto loaded = load_built_trace(inputs, options);
  if (loaded && *names) apply_names(*loaded, std::move(**names));
  return loaded;
}

core::Expected<LoadedTrace> load_records(core::TraceRecords records, std::string label, const ReadingOptions& options) {
  if (options.strict)
    if (auto problem = core::strict_problem(records)) return *problem;
  LoadedTrace t;
  t.cache = std::make_shared<LoadedTrace::Cache>();
  t.label = std::move(label);
  t.threads = options.threads;
  t.traced_cores = options.build.traced_cores;
  std::set<std::int32_t> nodes;
  for (const auto& f : records.files)
    if (f.node >= 0) nodes.insert(f.node);
  t.nodes = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(nodes.size()));
  t.family = trace_family(t.label, t.nodes);
  if (records.format == core::TraceFormat::legion_prof) {
    if (options.summarise) t.profile_summary = parser::summarise_profiles(records);
    records.width = core::IdWidth::realm;
    t.built = graph::build_profile_graph(records, options.build);
    t.records = std::move(records);
    return t;
  }
  t.built = graph::build_event_graph_releasing(records, options.build, options.threads);
  // The summary's task time and copy bytes come from the build's tally: those records are gone now.
  if (options.summarise) t.summary = parser::summarise(records, t.built.timing_by_file);
  t.built.timing_by_file = {};  // the summary was its one reader; a packed trace does not keep it either
  t.records = std::move(records);
  return t;
}

bool MachineChoice::traced() const { return path == machine::kTracedMachine; }

core::Expected<machine::MachineModel> load_machine_for(const LoadedTrace& trace, const MachineChoice& machine,
                                                       replay::BlockNetwork* network) {
  if (machine.traced())
    return traced_machine_model(fit_traced_machine(trace, network).toml, trace.label, machine.overrides);
  return machine::load_machine(machine.path, machine.overrides);
}

core::Expected<ReplayRun> replay_trace(const LoadedTrace& trace, const MachineChoice& machine,
                                       const ReplaySettings& settings) {
  auto model = load_machine_for(trace, machine, settings.engine.execution.network);
  if (!model) return model.error();
  return replay_on(trace, std::move(*model), settings);
}

// A fold to more model nodes than the trace has nodes would be ignored (it only ever joins nodes).
bool fold_beyond(std::uint32_t traced_nodes, const machine::MappingSpec& mapping) {
  return mapping.fold > traced_nodes && mapping.nodes.rule != machine::NodeMapRule::list;
}

namespace {
constexpr graph::VertexId kTrimAfterOperations = 1'000'000;

std::set<std::uint32_t> task_functions(const graph::EventGraph& g) {
  std::set<std::uint32_t> functions;
  for (graph::VertexId v = 0; v < g.vertex_count(); ++v)
    if (g.kind(v) == graph::OpKind::task) functions.insert(g.task(v).func_id);
  return functions;
}

// A function move must name a function the trace has tasks of, and a kind the machine has processors of, and a fold
// must not ask for more nodes than the trace has: each mistake would otherwise replay as if it had not been given.
std::optional<core::InputError> check_moves(const graph::EventGraph& g, const machine::MachineModel& model,
                                            const machine::MappingSpec& mapping, std::uint32_t traced_nodes) {
  if (fold_beyond(traced_nodes, mapping))
    return core::InputError{core::SourceLocation{"--fold " + std::to_string(mapping.fold), 0, std::nullopt},
                            "the trace has " + std::to_string(traced_nodes) +
                                " node(s); a fold replays it on fewer model nodes, not more"};
  if (mapping.moves.empty()) return std::nullopt;
  const std::set<std::uint32_t> functions = task_functions(g);
  for (const machine::FunctionMove& m : mapping.moves) {
    const auto where = core::SourceLocation{m.source, 0, std::nullopt};
    if (!functions.count(m.function))
      return core::InputError{where, "the trace has no task of function " + std::to_string(m.function) +
                                         " (realm-replay stats lists its functions)"};
    const machine::ProcessorClass& to = model.processor(m.kind);
    if (to.count == 0 && std::all_of(to.per_node.begin(), to.per_node.end(), [](std::uint32_t c) { return c == 0; }))
      return core::InputError{where, "machine '" + model.name + "' has no " +
                                         std::string(core::processor_kind_name(m.kind)) + " processor to run function " +
                                         std::to_string(m.function) + " on"};
  }
  return std::nullopt;
}
}  // namespace

core::Expected<ReplayRun> replay_on(const LoadedTrace& trace, machine::MachineModel model,
                                    const ReplaySettings& settings) {
  machine::apply_processor_counts(model, settings.mapping.processors);
  if (auto error = check_moves(trace.graph(), model, settings.mapping, trace.nodes)) return *error;
  auto map = replay::MachineMap::build(trace.records, model, settings.mapping);
  if (!map) return map.error();
  auto result = replay::run_replay(trace.graph(), *map, model, settings.engine);
  // The engine's own state (pending inputs, queues, copy plans: about 10 bytes per operation) is freed by now, but
  // glibc keeps its pages where the graph build left the heap fragmented. On a large graph they are handed back
  // before the critical path allocates its arrays, which would otherwise come on top (-34 MiB at the peak of a
  // replay of 3.6 M operations from the logs); a small one is not worth a trim.
  if (trace.graph().vertex_count() >= kTrimAfterOperations) platform::FreedMemory::give_back();
  if (!result) return result.error();
  ReplayRun run{std::move(model), std::move(*map), std::move(*result), std::nullopt};
  if (settings.critical_path) run.critical = replay::critical_path(trace.graph(), run.map, run.model, run.result);
  return run;
}

std::vector<std::string> drop_inapplicable(const LoadedTrace& trace, machine::MappingSpec& mapping) {
  std::vector<std::string> warnings;
  if (fold_beyond(trace.nodes, mapping)) {
    warnings.push_back("trace " + trace.label + " has " + std::to_string(trace.nodes) + " node(s): --fold " +
                       std::to_string(mapping.fold) + " does not apply to it, it is replayed on its own nodes");
    mapping.fold = 0;
  }
  if (mapping.moves.empty()) return warnings;
  const std::set<std::uint32_t> functions = task_functions(trace.graph());
  std::erase_if(mapping.moves, [&](const machine::FunctionMove& m) {
    if (functions.count(m.function)) return false;
    warnings.push_back("trace " + trace.label + " has no task of function " + std::to_string(m.function) + ": " +
                       m.source + " does not apply to it");
    return true;
  });
  return warnings;
}

std::optional<std::string> eft_note(const machine::MappingSpec& mapping) {
  if (mapping.placement != machine::Placement::eft || !mapping.moves.empty()) return std::nullopt;
  return "placement eft: no function can run on more than one kind (no --map moves one), so eft places each task as "
         "pool does and gives the same times";
}

}  // namespace rr::session
