#include "replay_from_parts.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <utility>
#include <variant>

#include <nlohmann/json.hpp>

#include "core/trace_stats.hpp"
#include "machine_models/machine_loader.hpp"
#include "machine_models/mapping.hpp"
#include "machine_models/traced_machine.hpp"
#include "messages.hpp"
#include "packed/packed_graph_part.hpp"
#include "packed/packed_trace.hpp"
#include "platform/freed_memory.hpp"
#include "replay/network_sums.hpp"
#include "replay/part_exchange.hpp"
#include "replay/part_replay.hpp"
#include "replay/part_sums.hpp"
#include "session/replay_choices.hpp"
#include "session/traced_fit.hpp"
#include "session/traced_part_machine.hpp"

namespace rr::app {

namespace {

// The fold the parts are split by, when the mapping folds or maps nodes: the replay's own (machine::fold_nodes) for
// `traced_nodes` traced nodes, as MachineMap::build finds them (the logs' names give the count before any is read,
// and every rank checks it against its map once they are: open_replay_from_parts), so that each rank reads the files
// of the traced nodes whose model node is in its range. Else why not: what one process refuses (a fold to more nodes
// than the trace's `nodes`, a node map that does not fit the trace), or more ranks than model nodes, which the
// replay of the whole trace says as one process would.
std::variant<core::NodeFold, std::string> parts_fold(const machine::MappingSpec& mapping, std::uint32_t nodes,
                                                     std::uint32_t traced_nodes, std::uint32_t ranks) {
  if (mapping.fold == 0 && mapping.nodes.rule == machine::NodeMapRule::cyclic) return core::NodeFold{};
  if (session::fold_beyond(nodes, mapping)) return "the fold asks for more model nodes than the trace has nodes";
  auto fold = machine::fold_nodes(mapping, traced_nodes);
  if (!fold) return "the node map does not fit the trace: " + fold.error().to_string();
  if (ranks > fold->model_nodes)
    return std::to_string(ranks) + " ranks are more than the model's " + std::to_string(fold->model_nodes) + " node(s)";
  return std::move(*fold);
}

// A packed trace's fold, from its own records (the traced nodes its machine map has).
std::variant<core::NodeFold, std::string> packed_fold(const std::string& path, const machine::MappingSpec& mapping,
                                                      std::uint32_t ranks) {
  if (mapping.fold == 0 && mapping.nodes.rule == machine::NodeMapRule::cyclic) return core::NodeFold{};
  auto mapped = packed::MappedPackedTrace::open(path);
  if (!mapped) return mapped.error().to_string();
  auto context = packed::read_packed_context(*mapped);
  if (!context) return context.error().to_string();
  return parts_fold(mapping, context->nodes, replay::MachineMap::traced_node_count(context->records), ranks);
}

// A rank maps the model from its own files' records (the machine's processors and memories, which every node's log
// lists): a rank that would read none (its model nodes hold no traced node's file: node files missing, or a node map
// that leaves model nodes empty) could not, and the whole trace serves.
std::optional<std::string> rank_without_files(const session::TraceFilesByNode& files, const graph::NodeRanks& split) {
  std::vector<bool> reads(split.ranks, false);
  for (const std::uint32_t node : files.node) reads[split.rank_of(node)] = true;
  for (std::uint32_t r = 0; r < split.ranks; ++r)
    if (!reads[r]) return "rank " + std::to_string(r) + "'s model nodes hold no traced node's file";
  return std::nullopt;
}

// The plan when the replay can run from parts on this rank's view of the command line, else why not; nothing read
// but, for a fold of a packed trace, the trace's records.
std::variant<PartsPlan, std::string> plan_on_this_rank(const ReplayInputs& in, std::uint32_t ranks) {
  auto settings = session::replay_settings(in.replay);
  if (!settings) return settings.error().to_string();  // (the replay of the whole graph says so as one process does)
  // The traced machine is put together from the parts once they are read: its outline, with the user's --set,
  // answers what is asked of the model here.
  const bool traced = in.machine == machine::kTracedMachine;
  auto model = traced ? session::traced_machine_outline(in.reading.options.build.traced_cores, in.overrides)
                      : machine::load_machine(in.machine, in.overrides);
  if (!model) return model.error().to_string();
  machine::apply_processor_counts(*model, settings->mapping.processors);
  const machine::MappingSpec& mapping = settings->mapping;
  if (!mapping.moves.empty()) return "function moves do not run from parts";
  if (in.trace.size() == 1 && packed::is_packed_trace(in.trace.front())) {
    auto fold = packed_fold(in.trace.front(), mapping, ranks);
    if (auto* why = std::get_if<std::string>(&fold)) return std::move(*why);
    return PartsPlan{{}, in.trace.front(), std::move(*model), std::move(*settings), traced,
                     std::move(std::get<core::NodeFold>(fold))};
  }
  auto files = session::files_by_node(in.trace);
  if (!files) return files.error().to_string();
  auto fold = parts_fold(mapping, static_cast<std::uint32_t>(files->paths.size()), files->nodes, ranks);
  if (auto* why = std::get_if<std::string>(&fold)) return std::move(*why);
  if (auto why = rank_without_files(*files, session::split_by(ranks, files->nodes, std::get<core::NodeFold>(fold))))
    return std::move(*why);
  return PartsPlan{std::move(*files), {}, std::move(*model), std::move(*settings), traced,
                   std::move(std::get<core::NodeFold>(fold))};
}

std::vector<std::byte> bytes_of(const std::string& text) {
  std::vector<std::byte> out(text.size());
  std::transform(text.begin(), text.end(), out.begin(), [](char c) { return static_cast<std::byte>(c); });
  return out;
}
std::string text_of(const std::vector<std::byte>& bytes) {
  std::string out(bytes.size(), '\0');
  std::transform(bytes.begin(), bytes.end(), out.begin(), [](std::byte b) { return static_cast<char>(b); });
  return out;
}

// What this rank's files and part add to the reading summary; the messages by their file's place in the trace.
nlohmann::json own_reading_facts(const session::TracePart& t, std::uint32_t rank) {
  nlohmann::json j;
  // A packed trace gives every rank every file's records: rank 0 counts them.
  const core::TraceRecords none;
  const core::TraceRecords& records = t.whole_records && rank != 0 ? none : t.records;
  j["records"] = records.record_count();
  j["stats"] = core::read_stats(records).values;
  j["findings"] = t.part.findings.total();
  j["notes"] = t.part.findings.notes;
  nlohmann::json messages = nlohmann::json::array();
  for (std::size_t f = 0; f < records.files.size(); ++f)
    for (const auto& d : records.files[f].stats.first_messages)
      messages.push_back({t.file_index[f], core::format_diagnostic(d)});
  j["messages"] = messages;
  // A Legion Prof log's records that could not be joined, which the summary lists after every file's other messages.
  nlohmann::json joins = nlohmann::json::array();
  for (std::size_t f = 0; f < records.files.size(); ++f)
    for (const auto& d : records.files[f].profile.join_messages)
      joins.push_back({t.file_index[f], core::format_diagnostic(d)});
  j["joins"] = joins;
  j["failed"] = nlohmann::json::array();
  for (const auto& failed : records.failed_files) j["failed"].push_back(skipped_file_message(failed));
  std::set<std::uint32_t> functions;
  for (const graph::TaskInfo& task : t.part.tasks) functions.insert(task.func_id);
  nlohmann::json named = nlohmann::json::array();
  for (const std::uint32_t id : t.named)
    if (functions.count(id)) named.push_back(id);
  j["named_functions"] = named;
  return j;
}

// The whole trace's reading summary on rank 0, from every rank's facts (one exchange, before the replay's).
std::optional<ReadingFacts> gather_reading_facts(const session::TracePart& t, graph::RankExchange& exchange) {
  std::vector<std::vector<std::byte>> to_each(exchange.ranks());
  if (exchange.rank() != 0) to_each[0] = bytes_of(own_reading_facts(t, exchange.rank()).dump());
  std::vector<std::vector<std::byte>> came = exchange.all_to_all(std::move(to_each));
  if (exchange.rank() != 0) return std::nullopt;
  came[0] = bytes_of(own_reading_facts(t, 0).dump());
  ReadingFacts f;
  f.files = t.total_files;
  f.operations = t.part.whole_vertices;
  f.legion_prof = t.records.format == core::TraceFormat::legion_prof || t.machine_files.has_value();
  if (t.names) f.names = *t.names;
  std::set<std::uint32_t> named;
  std::vector<std::pair<std::uint32_t, std::string>> messages, joins;  // by file, in each file's order
  for (const std::vector<std::byte>& bytes : came) {
    const nlohmann::json j = nlohmann::json::parse(text_of(bytes));
    f.records += j["records"].get<std::uint64_t>();
    const auto stats = j["stats"].get<std::array<std::uint64_t, core::kStatCount>>();
    for (std::size_t i = 0; i < core::kStatCount; ++i) f.stats.values[i] += stats[i];
    f.findings += j["findings"].get<std::uint64_t>();
    for (const auto& note : j["notes"])
      if (std::find(f.notes.begin(), f.notes.end(), note.get<std::string>()) == f.notes.end()) f.notes.push_back(note);
    for (const auto& m : j["messages"]) messages.emplace_back(m[0].get<std::uint32_t>(), m[1].get<std::string>());
    for (const auto& m : j["joins"]) joins.emplace_back(m[0].get<std::uint32_t>(), m[1].get<std::string>());
    for (const auto& failed : j["failed"]) f.messages.push_back(failed);
    for (const auto& id : j["named_functions"]) named.insert(id.get<std::uint32_t>());
  }
  if (f.names) f.names->used = named.size();
  for (auto* listed : {&messages, &joins}) {
    std::stable_sort(listed->begin(), listed->end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [file, text] : *listed) f.messages.push_back(std::move(text));
  }
  return f;
}

// Each rank's part of a packed trace, read without exchanges; should any rank fail (a damaged block among its rows),
// every rank fails alike, with the first failing rank's error.
core::Expected<session::TracePart> load_packed_part_over_ranks(const std::string& path,
                                                               const session::ReadingOptions& reading,
                                                               const core::NodeFold& fold,
                                                               graph::RankExchange& exchange) {
  auto part = session::load_packed_part(path, reading, exchange.ranks(), exchange.rank(), fold);
  const std::string mine = part ? std::string() : part.error().to_string();
  const std::vector<std::vector<std::byte>> said = exchange.all_to_all(std::vector(exchange.ranks(), bytes_of(mine)));
  for (std::uint32_t r = 0; r < said.size(); ++r)
    if (!said[r].empty()) {
      core::InputError error;
      error.where.file = "rank " + std::to_string(r) + " of " + std::to_string(exchange.ranks());
      error.message = "could not read its part: " + text_of(said[r]);
      return error;
    }
  return part;
}

}  // namespace

std::optional<PartsPlan> plan_from_parts(const ReplayInputs& in, const CommonOptions& common) {
  if (!common.network) return std::nullopt;
  auto plan = plan_on_this_rank(in, common.network->ranks());
  const std::string* why_not = std::get_if<std::string>(&plan);
  const std::array<std::int64_t, 1> whole{why_not ? 1 : 0};
  if (replay::combine_over_ranks(*common.network, whole, replay::Combine::max)[0] != 0) {
    if (common.network->rank() == 0)
      common.network->note("every rank reads the whole trace: " + (why_not ? *why_not : std::string("another rank cannot read only its nodes' files")));
    return std::nullopt;
  }
  return std::move(std::get<PartsPlan>(plan));
}

PartsOutcome open_replay_from_parts(const char* command, const ReplayInputs& in, const CommonOptions& common,
                                    PartsPlan plan, const replay::ResultDetail& detail) {
  replay::BlockNetwork& net = *common.network;
  // A failure every rank shares ends their parts, so that rank 0 alone says what it was.
  auto fail = [&](const std::string& message) {
    net.part_done();
    print_error(command, message);
    return PartsOutcome{nullptr, true};
  };
  auto opened = std::make_unique<OpenedParts>();
  opened->settings = std::move(plan.settings);
  opened->settings.engine.detail = detail;
  opened->settings.engine.execution.network = &net;
  opened->exchange = std::make_unique<replay::NetworkRankExchange>(net);
  session::ReadingOptions reading = in.reading.options;
  reading.threads = common.threads;
  std::optional<replay::MachineMap> map;
  // Every rank refuses alike before the replay begins; the replay of the whole graph serves it, or says why not in
  // one process's words.
  auto fall_back = [&](const core::InputError& why) {
    net.note("the replay does not run from parts (" + why.to_string() + "): every rank reads the whole trace");
    return PartsOutcome{};
  };
  std::shared_ptr<const replay::PreparedPart> prepared;  // the traced machine's fit prepares the part
  try {
    auto trace = plan.packed.empty()
                     ? session::load_trace_part(in.trace, plan.files, reading, net.ranks(), *opened->exchange, plan.fold)
                     : load_packed_part_over_ranks(plan.packed, reading, plan.fold, *opened->exchange);
    if (!trace) return fail(trace.error().to_string());
    opened->trace = std::move(*trace);
    platform::FreedMemory::give_back();  // (the parsed records the build freed: the replay's arrays come on top)
    const std::optional<ReadingFacts> facts = gather_reading_facts(opened->trace, *opened->exchange);
    if (facts && !in.reading.quiet) print_message(command, reading_summary(*facts));
    if (auto note = session::eft_note(opened->settings.mapping)) print_message(command, "note: " + *note);
    if (plan.traced) {
      auto traced = session::traced_machine_of_part(opened->trace, *opened->exchange, opened->settings.engine,
                                                    opened->settings.mapping);
      if (!traced) return fall_back(traced.error());
      // As one process loads it, with the mapping's processor counts as above.
      auto model = session::traced_machine_model(traced->toml, opened->trace.label, in.overrides);
      if (!model) return fall_back(model.error());
      machine::apply_processor_counts(*model, opened->settings.mapping.processors);
      plan.model = std::move(*model);
      prepared = std::move(traced->prepared);
    }
    auto built = replay::MachineMap::build(opened->trace.map_records(), plan.model, opened->settings.mapping);
    // Each rank maps the model from its own files' records; a fold must be the one the parts were split by, which
    // the plan found from the files' names. Should any rank's map not fit, the whole trace's replay serves (or says
    // what does not fit, as one process does).
    const bool fits = built && (plan.fold.of_traced.empty() || built->node_fold() == plan.fold);
    const std::array<std::int64_t, 1> misfit{fits ? 0 : 1};
    if (replay::combine_over_ranks(net, misfit, replay::Combine::max)[0] != 0) {
      core::InputError why;  // (filled in place: GCC 12 warns, wrongly, of a braced one's uninitialised string)
      why.message = !built ? "a rank could not map the model: " + built.error().to_string()
                    : !fits ? std::string("a rank's machine map folds the nodes otherwise than the parts were split")
                            : std::string("another rank's machine map does not fit the parts");
      return fall_back(why);
    }
    map = std::move(*built);
  } catch (const std::runtime_error& e) {  // (every rank: one could not read its files or build its part)
    return fail(e.what());
  }
  // The prepared part holds what the run and its what-ifs read of the part, which it uses up.
  if (!prepared) {
    auto made = replay::prepare_part(std::move(opened->trace.part), opened->trace.ranks, *opened->exchange, *map,
                                     plan.model, opened->settings.engine);
    platform::FreedMemory::give_back();
    if (!made) return fall_back(made.error());
    prepared = std::move(*made);
  }
  opened->prepared = std::move(prepared);
  auto result = replay::run_part_over_network(opened->prepared, opened->trace.ranks, *opened->exchange, *map,
                                              plan.model, opened->settings.engine);
  if (!result) return fall_back(result.error());
  replay::gather_part_sums(*result, net, detail.stuck_examples);
  platform::FreedMemory::give_back();  // (the engine's state: the critical path's arrays come on top)
  opened->run = session::ReplayRun{std::move(plan.model), std::move(*map), std::move(*result), std::nullopt};
  if (opened->settings.critical_path)
    opened->run.critical = replay::critical_path(replay::graph_of_part(opened->run.result), opened->run.map,
                                                 opened->run.model, opened->run.result);
  return {std::move(opened), false};
}

}  // namespace rr::app
