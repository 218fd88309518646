#include "session/trace_part.hpp"

#include <filesystem>
#include <set>
#include <utility>

#include "core/ids.hpp"
#include "core/trace_stats.hpp"
#include "graph/prof_graph_part.hpp"
#include "packed/packed_graph_part.hpp"
#include "packed/packed_trace.hpp"
#include "parser/trace_inputs.hpp"
#include "parser/trace_reader.hpp"
#include "session/names_file.hpp"
#include "session/src/prof_machine_view.hpp"

namespace rr::session {

namespace {

core::InputError not_by_rank(const std::string& path, const std::string& why) {
  core::InputError error;  // (filled in place: GCC 12 warns, wrongly, of a braced one's uninitialised string)
  error.where.file = path;
  error.message = why + ": only Realm text logs named node_<N>.log and Legion Prof logs named by their process's "
                        "number (prof_<N>.gz) are read rank by rank";
  return error;
}

// This rank's files read as the whole trace's reading reads them (the same chunks, so the same vertex ids), each
// checked to hold its name's node.
std::string read_own_files(const TraceFilesByNode& files, const graph::NodeRanks& ranks, std::uint32_t rank,
                           const ReadingOptions& options, TracePart& out) {
  std::vector<std::string> mine;
  for (std::uint32_t f = 0; f < files.paths.size(); ++f)
    if (ranks.rank_of(files.node[f]) == rank) {
      mine.push_back(files.paths[f]);
      out.file_index.push_back(f);
    }
  if (mine.empty()) return {};
  auto read = parser::read_trace(mine, options.read, options.threads);
  if (!read) return read.error().to_string();
  if (options.strict)
    if (auto problem = core::strict_problem(*read)) return problem->to_string();
  if (read->files.size() != mine.size()) return mine.front() + ": its files were not read one by one";
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const std::int32_t node = read->files[i].node;
    const std::uint32_t named = files.node[out.file_index[i]];
    if (node != static_cast<std::int32_t>(named))
      return mine[i] +
             (files.format == core::TraceFormat::legion_prof ? ": its MachineDesc is node " : ": its lines are node ") +
             std::to_string(node) + "'s, and its name says node " + std::to_string(named) +
             " (a rank reads the files its nodes' names give it)";
  }
  out.records = std::move(*read);
  return {};
}

// The names file's names, its source (whose `used` the reading summary counts over every rank) and the functions
// it names noted in `out`.
graph::FunctionNames take_names(GivenNames given, TracePart& out) {
  out.names = NamesSource{given.file, given.names.size(), 0};
  for (const auto& entry : given.names) out.named.push_back(entry.first);
  return std::move(given.names);
}

}  // namespace

graph::NodeRanks split_by(std::uint32_t ranks, std::uint32_t nodes, const core::NodeFold& fold) {
  if (fold.of_traced.empty()) return {ranks, nodes, {}};
  return {ranks, fold.model_nodes, fold};
}

core::Expected<TraceFilesByNode> files_by_node(const std::vector<std::string>& inputs) {
  if (inputs.size() == 1 && packed::is_packed_trace(inputs.front()))
    return not_by_rank(inputs.front(), "a packed trace");
  auto found = parser::discover_inputs(inputs);
  if (!found) return found.error();
  TraceFilesByNode out;
  std::set<std::uint32_t> seen;
  for (const parser::TraceInput& in : *found) {
    if (in.is_archive) return not_by_rank(in.path, "a tar archive");
    if (in.stream) return not_by_rank(in.path, "a stream");
    if (!out.paths.empty() && in.format != out.format) return not_by_rank(in.path, "logs of two formats");
    out.format = in.format;
    // A Legion Prof log's node is its MachineDesc's, which reading it checks against its name's last number.
    const std::string name = std::filesystem::path(in.path).filename().string();
    int node = -1;
    const bool named = in.format == core::TraceFormat::legion_prof ? parser::number_in_name(name, &node)
                                                                   : parser::is_node_log_name(name, &node);
    if (!named || node < 0 || node > static_cast<int>(core::kMaxNode))
      return not_by_rank(in.path, "its name gives no node");
    const auto n = static_cast<std::uint32_t>(node);
    if (!seen.insert(n).second) return not_by_rank(in.path, "a second file of node " + std::to_string(n));
    out.paths.push_back(in.path);
    out.node.push_back(n);
    out.nodes = std::max(out.nodes, n + 1);
  }
  if (out.paths.empty()) return not_by_rank(inputs.empty() ? std::string() : inputs.front(), "no log files");
  return out;
}

core::Expected<TracePart> load_trace_part(const std::vector<std::string>& inputs, const TraceFilesByNode& files,
                                          const ReadingOptions& options, std::uint32_t ranks,
                                          graph::RankExchange& exchange, const core::NodeFold& fold) {
  TracePart out;
  out.label = inputs.empty() ? std::string() : label_of(inputs.front());
  out.ranks = split_by(ranks, files.nodes, fold);
  out.total_files = static_cast<std::uint32_t>(files.paths.size());
  out.traced_cores = options.build.traced_cores;
  auto given = read_given_names(inputs, options.names_file);
  if (!given) return given.error();
  if (*given) out.function_names = take_names(std::move(**given), out);
  graph::PartFiles part_files;
  part_files.read_error = read_own_files(files, out.ranks, exchange.rank(), options, out);
  const bool prof = files.format == core::TraceFormat::legion_prof;
  if (prof) out.records.width = core::IdWidth::realm;  // (as the whole trace's Legion Prof build: load_records)
  if (part_files.read_error.empty()) {
    part_files.records = &out.records;
    if (!prof) part_files.releasable = &out.records;  // (the Legion Prof build frees no record, on one process either)
  }
  part_files.file_index = out.file_index;
  part_files.total_files = out.total_files;
  if (prof) {
    out.part = graph::build_prof_graph_part(part_files, out.ranks, exchange, options.build);
    out.machine_files = every_file_machine(out.records, out.file_index, out.total_files, exchange);
    // The logs name their functions (every rank's part has every log's names): a names file's go over them.
    out.function_names = graph::merge_function_names(out.part.function_names, out.function_names);
  } else {
    out.part = graph::build_graph_part(part_files, out.ranks, exchange, options.build);
  }
  out.part.function_names = out.function_names;  // (the reports' names: every rank's graph has them all)
  return out;
}

core::Expected<TracePart> load_packed_part(const std::string& path, const ReadingOptions& options, std::uint32_t ranks,
                                           std::uint32_t rank, const core::NodeFold& fold) {
  auto mapped = packed::MappedPackedTrace::open(path);
  if (!mapped) return mapped.error();
  auto context = packed::read_packed_context(*mapped);
  if (!context) return context.error();
  auto refused = [&](const std::string& why) {
    core::InputError error;  // (filled in place: GCC 12 warns, wrongly, of a braced one's uninitialised string)
    error.where.file = path;
    error.message = why;
    return error;
  };
  if (context->records.format != core::TraceFormat::realm_text)
    return refused("packed from Legion Prof logs: only 2015 Realm logs are read rank by rank");
  if (options.build.traced_cores != 0)
    return refused("--traced-cores fixes Legion Prof logs' durations, and this trace was packed from Realm logs");
  if (options.strict)
    if (auto problem = core::strict_problem(context->records)) return *problem;
  TracePart out;
  out.label = context->label;
  out.ranks = split_by(ranks, mapped->graph_nodes(), fold);
  out.whole_records = true;
  out.total_files = static_cast<std::uint32_t>(context->records.files.size());
  for (std::uint32_t f = 0; f < out.total_files; ++f) out.file_index.push_back(f);
  // A packed trace holds the messages it was packed with: a command that asks for fewer gets the first ones.
  for (core::FileRecords& f : context->records.files)
    if (f.stats.first_messages.size() > options.read.max_messages_per_file)
      f.stats.first_messages.resize(options.read.max_messages_per_file);
  out.records = std::move(context->records);
  auto part = packed::read_graph_part(*mapped, out.ranks, rank);
  if (!part) return part.error();
  out.part = std::move(*part);
  out.function_names = std::move(context->function_names);
  auto given = read_given_names({path}, options.names_file);
  if (!given) return given.error();
  if (*given) out.function_names = graph::merge_function_names(out.function_names, take_names(std::move(**given), out));
  if (rank == 0) out.part.findings = std::move(context->findings);
  out.packed_nodes = context->nodes;
  out.packed_facts = std::move(context->traced_facts);
  out.packed_machine = std::move(context->traced_machine);
  out.part.function_names = out.function_names;
  return out;
}

}  // namespace rr::session
