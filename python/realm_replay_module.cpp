// The Python module `realm_replay` (pybind11): read a trace, load a machine, replay, and get the replay's tables
// as NumPy columns. Every call goes through session:: like the command-line program; the GIL is released while
// reading and replaying; an InputError becomes realm_replay.Error with the CLI's message (file:line: what).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <memory>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/stats.hpp"
#include "machine_models/machine_limits.hpp"
#include "machine_models/machine_loader.hpp"
#include "replay/critical_path.hpp"
#include "replay/slack.hpp"
#include "session/bounds.hpp"
#include "replay/operation_columns.hpp"
#include "replay/utilisation.hpp"
#include "session/replay_choices.hpp"
#include "session/session.hpp"
#include "explain_binding.hpp"

namespace py = pybind11;

namespace {

using rr::core::InputError;

struct Error {};  // tag: the Python exception type is created in the module init
py::object& error_type() {
  static py::object type;
  return type;
}

[[noreturn]] void raise(const InputError& e) {
  PyErr_SetString(error_type().ptr(), e.to_string().c_str());
  throw py::error_already_set();
}

template <class T>
T take(rr::core::Expected<T>&& result) {
  if (!result.ok()) raise(result.error());
  return std::move(result).value();
}

// A NumPy view of a vector owned by `owner` (kept alive by the array's base): no copy.
template <class T, class Owner>
py::array_t<T> view(const std::vector<T>& data, const std::shared_ptr<Owner>& owner) {
  auto* keep = new std::shared_ptr<Owner>(owner);
  py::capsule base(keep, [](void* p) { delete static_cast<std::shared_ptr<Owner>*>(p); });
  return py::array_t<T>({static_cast<py::ssize_t>(data.size())}, {static_cast<py::ssize_t>(sizeof(T))}, data.data(),
                        base);
}

// A NumPy array that takes over a vector (built for the table, so moved, not copied).
template <class T>
py::array_t<T> owned(std::vector<T>&& data) {
  auto* heap = new std::vector<T>(std::move(data));
  py::capsule base(heap, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({static_cast<py::ssize_t>(heap->size())}, {static_cast<py::ssize_t>(sizeof(T))},
                        heap->data(), base);
}

// A path from Python, where a str may hold NUL characters: the operating system reads a path up to its first
// NUL, so 'titan.toml\0junk' would open titan.toml. Such a path raises realm_replay.Error instead.
const std::string& checked_path(const std::string& path) {
  if (path.find('\0') == std::string::npos) return path;
  std::string shown;
  for (char c : path) shown += c == '\0' ? std::string("\\0") : std::string(1, c);
  raise(InputError{rr::core::SourceLocation{shown, 0, std::nullopt}, "a path cannot hold a NUL character"});
}

// The worker threads a call may use: 0 means every core. A count the command line would refuse raises
// ValueError in the same words, before any thread is made.
std::unique_ptr<tbb::global_control> limit_threads(unsigned threads) {
  if (threads == 0) return nullptr;
  return std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, threads);
}

unsigned checked_threads(std::uint64_t threads) {
  if (auto problem = rr::session::thread_count_problem(threads)) throw py::value_error("threads: " + *problem);
  return static_cast<unsigned>(threads);
}

struct Trace {
  std::shared_ptr<rr::session::LoadedTrace> loaded;
};

struct Machine {
  std::shared_ptr<rr::machine::MachineModel> model;
};

// A replay and what it was made of, shared by the NumPy views of its arrays.
struct ReplayState {
  std::shared_ptr<rr::session::LoadedTrace> trace;
  rr::session::ReplayRun run;
  rr::session::ReplaySettings settings;  // what it was replayed with (what-ifs start from them)
};

struct Result {
  std::shared_ptr<ReplayState> state;
};

Trace read(const std::vector<std::string>& inputs, unsigned threads, bool strict, bool keep_going,
          std::uint32_t traced_cores, const std::string& names) {
  rr::session::ReadingOptions options;
  options.names_file = names;
  options.threads = threads;
  options.build.traced_cores = traced_cores;
  options.strict = strict;
  options.read.keep_going = keep_going;
  rr::core::Expected<rr::session::LoadedTrace> loaded = InputError{};
  {
    py::gil_scoped_release unlocked;
    auto limit = limit_threads(threads);
    loaded = rr::session::load_trace(inputs, options);
  }
  return Trace{std::make_shared<rr::session::LoadedTrace>(take(std::move(loaded)))};
}

Machine machine(const std::string& path, const std::vector<std::string>& overrides, const Trace* trace) {
  if (path == "traced") {
    if (!trace) throw py::value_error("machine('traced') needs the trace: machine('traced', trace=t)");
    return Machine{std::make_shared<rr::machine::MachineModel>(
        take(rr::session::load_machine_for(*trace->loaded, {path, overrides})))};
  }
  return Machine{std::make_shared<rr::machine::MachineModel>(take(rr::machine::load_machine(path, overrides)))};
}

// `map` as one str or a list of them.
std::vector<std::string> moves(const py::object& map) {
  if (map.is_none()) return {};
  if (py::isinstance<py::str>(map)) return {map.cast<std::string>()};
  try {
    return map.cast<std::vector<std::string>>();
  } catch (const py::cast_error&) {
    throw py::type_error("map takes FUNC=KIND[:FACTOR] as a str or a list of them");
  }
}

// A name one of the choices does not take raises ValueError, in the words the command line prints after its option.
void check_name(const char* keyword, const rr::session::NamedChoice& choice, const std::string& name) {
  if (auto problem = choice.problem(name)) throw py::value_error(std::string(keyword) + ": " + *problem);
}

// The replay's keyword arguments, named and checked as the command line's options (`_` for `-`): a value the
// command line refuses as a usage error raises ValueError, one it refuses as bad input (a move, a mapping or
// node-map file) realm_replay.Error, each with the command line's message.
rr::session::ReplaySettings replay_settings(const std::optional<std::string>& placement, const py::object& map,
                                            const std::optional<std::string>& mapping, std::optional<std::int64_t> fold,
                                            const std::optional<std::string>& node_map,
                                            const std::string& unlogged_time, const std::string& queue_order) {
  rr::session::ReplayChoices choices;
  if (placement) {
    check_name("placement", rr::session::placement_choice(), *placement);
    choices.placement = *placement;
  }
  choices.map = moves(map);
  if (mapping) choices.mapping = checked_path(*mapping);
  if (fold) {
    if (auto problem = rr::session::fold_problem(*fold)) throw py::value_error("fold: " + *problem);
    choices.fold = static_cast<std::uint32_t>(*fold);
  }
  if (node_map) choices.node_map = checked_path(*node_map);
  check_name("unlogged_time", rr::session::unlogged_time_choice(), unlogged_time);
  choices.unlogged_time = unlogged_time;
  check_name("queue_order", rr::session::queue_order_choice(), queue_order);
  choices.queue_order = queue_order;
  return take(rr::session::replay_settings(choices));
}

Result replay(const Trace& trace, const Machine& machine, rr::session::ReplaySettings settings, unsigned threads,
              bool critical_path) {
  settings.critical_path = critical_path;
  rr::core::Expected<rr::session::ReplayRun> run = InputError{};
  {
    py::gil_scoped_release unlocked;
    auto limit = limit_threads(threads);
    run = rr::session::replay_on(*trace.loaded, *machine.model, settings);
  }
  auto state = std::make_shared<ReplayState>(ReplayState{trace.loaded, take(std::move(run)), settings});
  return Result{state};
}

py::list names(std::size_t count, const char* (*name)(std::size_t)) {
  py::list out;
  for (std::size_t i = 0; i < count; ++i) out.append(name(i));
  return out;
}

// Every function the trace has tasks of, by id, as every output names it: {5: 'calc_new_currents', 7: 'f7'}.
// Every stat of the list (core/stats.hpp), zero or not, in its order: the rows of the SQL stats table.
py::list stats(const rr::session::LoadedTrace& trace) {
  const rr::core::StatCounts counts = rr::graph::trace_stats(trace.records, trace.built.findings);
  py::list out;
  for (rr::core::Stat stat : rr::core::kAllStats) {
    py::dict row;
    row["name"] = std::string(rr::core::stat_key(stat));
    row["source"] = std::string(rr::core::source_name(rr::core::stat_source(stat)));
    row["severity"] = std::string(rr::core::severity_name(rr::core::stat_severity(stat)));
    row["value"] = counts[stat];
    row["description"] = std::string(rr::core::stat_description(stat));
    out.append(std::move(row));
  }
  return out;
}

py::dict function_names(const rr::session::LoadedTrace& trace) {
  const auto& g = trace.graph();
  std::set<std::uint32_t> functions;
  for (std::uint32_t i = 0; i < g.task_count(); ++i) functions.insert(g.task_at(i).func_id);
  py::dict d;
  for (std::uint32_t f : functions) d[py::int_(f)] = g.function_name(f);
  return d;
}

// The operations' function column as names: codes into the sorted names of the functions there are (-1: none),
// so that a frame of millions of operations holds each name once.
py::object function_name_column(const rr::session::LoadedTrace& trace, const py::array_t<std::int64_t>& function) {
  const py::dict names = function_names(trace);
  std::map<std::int64_t, std::int32_t> code;
  py::list categories;
  std::vector<std::pair<std::string, std::int64_t>> sorted;
  for (auto item : names) sorted.emplace_back(py::str(item.second), item.first.cast<std::int64_t>());
  std::sort(sorted.begin(), sorted.end());
  for (const auto& [name, id] : sorted) {
    code[id] = static_cast<std::int32_t>(categories.size());
    categories.append(name);
  }
  std::vector<std::int32_t> codes(static_cast<std::size_t>(function.size()), -1);
  auto f = function.unchecked<1>();
  for (py::ssize_t i = 0; i < f.shape(0); ++i)
    if (auto it = code.find(f(i)); it != code.end()) codes[static_cast<std::size_t>(i)] = it->second;
  return py::module_::import("pandas").attr("Categorical").attr("from_codes")(owned(std::move(codes)), categories);
}

py::dict operations(const Result& res) {
  const auto& s = *res.state;
  const auto& g = s.trace->graph();
  const auto& r = s.run.result;
  rr::replay::OperationColumns c = rr::replay::operation_columns(g, s.run.map, s.run.model, r);
  const std::size_t n = g.vertex_count();
  std::vector<std::uint32_t> id(n);
  std::vector<std::uint8_t> kind(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    id[v] = v;
    kind[v] = static_cast<std::uint8_t>(g.kind(v));
  }
  py::dict d;
  d["id"] = owned(std::move(id));
  d["kind"] = owned(std::move(kind));
  d["node"] = owned(std::move(c.node));
  d["processor"] = owned(std::move(c.processor));
  d["function"] = owned(std::move(c.function));
  // The result keeps these in its 24-byte records (replay/operation_records.hpp): they are written out whole here.
  std::vector<std::int64_t> ready(n), start(n), end(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    ready[v] = r.ready(v);
    start[v] = r.start(v);
    end[v] = r.end(v);
  }
  d["ready"] = owned(std::move(ready));
  d["start"] = owned(std::move(start));
  d["end"] = owned(std::move(end));
  d["bytes"] = owned(std::move(c.bytes));
  d["slack"] = owned(rr::replay::operation_slack(g, s.run.map, s.run.model, r));
  return d;
}

py::dict edges(const Result& res) {
  const auto& g = res.state->trace->graph();
  std::vector<std::uint32_t> src, dst;
  std::vector<std::uint8_t> kind;
  for (std::uint32_t v = 0; v < g.vertex_count(); ++v) {
    const auto succ = g.successors(v);
    const auto kinds = g.successor_kinds(v);
    for (std::size_t i = 0; i < succ.size(); ++i) {
      src.push_back(v);
      dst.push_back(succ[i]);
      kind.push_back(static_cast<std::uint8_t>(kinds[i]));
    }
  }
  py::dict d;
  d["src"] = owned(std::move(src));
  d["dst"] = owned(std::move(dst));
  d["kind"] = owned(std::move(kind));
  return d;
}

py::dict critical_path(const Result& res) {
  const auto& cp = res.state->run.critical;
  if (!cp) throw py::value_error("this replay was run with critical_path=False");
  std::vector<std::uint32_t> op;
  std::vector<std::uint8_t> cls;
  std::vector<std::int64_t> begin, end;
  py::list labels;
  for (const auto& st : cp->steps) {
    op.push_back(st.vertex);
    cls.push_back(static_cast<std::uint8_t>(st.cls));
    begin.push_back(st.begin);
    end.push_back(st.end);
    labels.append(st.label);
  }
  py::dict d;
  d["op"] = owned(std::move(op));
  d["class"] = owned(std::move(cls));
  d["begin"] = owned(std::move(begin));
  d["end"] = owned(std::move(end));
  d["label"] = labels;
  return d;
}

py::dict processors(const Result& res) {
  const auto& s = *res.state;
  const auto& procs = s.run.map.processors();
  const auto& r = s.run.result;
  std::vector<std::uint32_t> node, index;
  std::vector<std::uint8_t> kind;
  std::vector<std::int64_t> busy;
  std::vector<double> utilisation;
  for (std::size_t p = 0; p < procs.size(); ++p) {
    node.push_back(procs[p].node);
    kind.push_back(static_cast<std::uint8_t>(procs[p].kind));
    index.push_back(procs[p].index);
    busy.push_back(r.processors[p].busy_ns);
    utilisation.push_back(rr::replay::processor_utilisation(r, static_cast<std::uint32_t>(p)));
  }
  py::dict d;
  d["node"] = owned(std::move(node));
  d["kind"] = owned(std::move(kind));
  d["index"] = owned(std::move(index));
  d["busy_ns"] = owned(std::move(busy));
  d["utilisation"] = owned(std::move(utilisation));
  return d;
}

const char* op_kind(std::size_t i) { return rr::graph::op_kind_name(static_cast<rr::graph::OpKind>(i)); }
const char* edge_kind(std::size_t i) { return rr::graph::edge_kind_name(static_cast<rr::graph::EdgeKind>(i)); }
const char* path_class(std::size_t i) { return rr::replay::path_class_name(static_cast<rr::replay::PathClass>(i)); }
const char* processor_kind(std::size_t i) {
  return rr::core::processor_kind_name(static_cast<rr::core::ProcessorKind>(i)).data();  // literals: terminated
}

// The table as a pandas DataFrame, code columns as categoricals with their names.
py::object frame(py::dict columns, const std::vector<std::pair<const char*, py::list>>& categories) {
  py::module_ pd = py::module_::import("pandas");
  py::dict data;
  for (auto item : columns) {
    const std::string key = py::str(item.first);
    py::object column = py::reinterpret_borrow<py::object>(item.second);
    for (const auto& [name, labels] : categories)
      if (key == name) column = pd.attr("Categorical").attr("from_codes")(column, labels);
    data[item.first] = column;
  }
  return pd.attr("DataFrame")(data);
}

}  // namespace

// The module's whole surface, one binding after another; it is over 120 lines because pybind11 declares a module in
// one block, and the bindings read best together, as the Python reference lists them.
PYBIND11_MODULE(realm_replay, m) {
  m.doc() = "realm-replay: read Realm and Legion Prof traces, replay them on machine models, query the result.";
  error_type() = py::reinterpret_borrow<py::object>(PyErr_NewException("realm_replay.Error", PyExc_Exception, nullptr));
  m.attr("Error") = error_type();
  m.attr("OP_KINDS") = names(rr::graph::kOpKindCount, op_kind);
  m.attr("EDGE_KINDS") = names(rr::graph::kEdgeKindCount, edge_kind);
  m.attr("PATH_CLASSES") = names(rr::replay::kPathClassCount, path_class);
  m.attr("PROCESSOR_KINDS") = names(rr::replay::kModelKindCount, processor_kind);

  py::class_<Trace>(m, "Trace", "A trace read and built into its event graph.")
      .def_property_readonly("label", [](const Trace& t) { return t.loaded->label; })
      .def_property_readonly("nodes", [](const Trace& t) { return t.loaded->nodes; })
      .def_property_readonly("records", [](const Trace& t) { return t.loaded->records.record_count(); })
      .def_property_readonly("operations", [](const Trace& t) { return t.loaded->graph().vertex_count(); })
      .def_property_readonly("edges", [](const Trace& t) { return t.loaded->graph().edge_count(); })
      .def_property_readonly("malformed_lines", [](const Trace& t) { return t.loaded->malformed_lines(); })
      .def_property_readonly("skipped_lines", [](const Trace& t) { return t.loaded->skipped_lines(); })
      .def_property_readonly("format", [](const Trace& t) {
        return std::string(rr::core::trace_format_name(t.loaded->records.format));
      })
      .def_property_readonly(
          "record_counts",
          [](const Trace& t) {
            // The 14 record kinds of the text logs, over every file (as `stats` counts them; Legion Prof logs: 0).
            rr::core::EnumCounts<rr::core::RecordKind, rr::core::kRecordKindCount> counts;
            for (const auto& f : t.loaded->records.files) counts += f.stats.records;
            py::dict d;
            for (auto kind : rr::core::all_record_kinds())
              d[py::str(std::string(rr::core::record_kind_name(kind)))] = counts[kind];
            return d;
          },
          "records per kind, as `realm-replay stats` counts them")
      .def_property_readonly(
          "findings",
          [](const Trace& t) {
            py::dict d;
            const auto& f = t.loaded->built.findings;
            for (rr::core::Stat kind : rr::core::finding_stats())
              d[py::str(std::string(rr::core::stat_key(kind)))] = f.count(kind);
            return d;
          },
          "count per kind of graph finding (validate)")
      .def_property_readonly(
          "stats", [](const Trace& t) { return stats(*t.loaded); },
          "every stat of reading and building the trace, as the SQL export's stats table: a list of dicts with "
          "name, source, severity (info, data_loss: refused by strict=True, finding), value and description")
      .def_property_readonly(
          "function_names", [](const Trace& t) { return function_names(*t.loaded); },
          "every function the trace has tasks of, by id, as every output names it (the log's names, a names "
          "file's, else f<id>): {5: 'calc_new_currents', 7: 'f7'}")
      .def_property_readonly(
          "names_file", [](const Trace& t) -> std::optional<std::string> {
            if (!t.loaded->names) return std::nullopt;
            return t.loaded->names->file;
          },
          "the names file read with the trace (names= or names.toml beside it), or None")
      .def("__repr__", [](const Trace& t) {
        return "<realm_replay.Trace " + t.loaded->label + ": " + std::to_string(t.loaded->nodes) + " node(s), " +
               std::to_string(t.loaded->graph().vertex_count()) + " operations>";
      });

  py::class_<Machine>(m, "Machine", "A machine model.")
      .def_property_readonly("name", [](const Machine& mm) { return mm.model->name; })
      .def("__repr__", [](const Machine& mm) { return "<realm_replay.Machine " + mm.model->name + ">"; });

  py::class_<Result>(m, "Result", "A replay: the estimate and its tables (dicts of NumPy arrays).")
      .def_property_readonly("estimated_time_ns", [](const Result& r) { return r.state->run.result.makespan_ns; })
      .def_property_readonly("lower_bound_ns",
                             [](const Result& r) -> std::optional<std::int64_t> {
                               const auto& cp = r.state->run.critical;
                               if (!cp || cp->lower_bound_ns < 0) return std::nullopt;
                               return cp->lower_bound_ns;
                             })
      .def_property_readonly("completed", [](const Result& r) { return r.state->run.result.operations; })
      .def_property_readonly("stuck", [](const Result& r) { return r.state->run.result.stuck; })
      .def_property_readonly("operations", &operations,
                             "id, kind (code into OP_KINDS), node, processor, function (-1: none), ready, start, end "
                             "(ns; -1: never), bytes (copies; -1 otherwise), slack (ns; -1: unbounded)")
      .def_property_readonly("edges", &edges, "src, dst, kind (code into EDGE_KINDS)")
      .def_property_readonly("critical_path", &critical_path, "op, class (code into PATH_CLASSES), begin, end, label")
      .def(
          "bounded_by",
          [](const Result& r, bool what_ifs, unsigned threads) {
            const auto& st = *r.state;
            if (!st.run.critical) throw py::value_error("this replay was run with critical_path=False");
            std::vector<rr::session::RunBound> bounds = rr::session::find_bounds(*st.trace, st.run);
            if (what_ifs) {
              const unsigned workers = checked_threads(threads);
              py::gil_scoped_release unlocked;
              rr::session::run_what_ifs(*st.trace, st.settings, bounds, workers);
            }
            py::list out;
            for (const auto& b : bounds) {
              py::dict d;
              d["name"] = b.name;
              d["kind"] = rr::session::kind_name(b.kind);
              d["path_ns"] = b.path_ns;
              d["change"] = b.change;
              d["overrides"] = b.overrides;
              d["placement"] = rr::session::what_if_placement(b);
              d["what_if_ns"] = b.what_if_ns ? py::object(py::int_(*b.what_if_ns)) : py::object(py::none());
              if (!b.what_if_error.empty()) d["what_if_error"] = b.what_if_error;
              out.append(d);
            }
            return out;
          },
          py::arg("what_ifs") = true, py::arg("threads") = 0,
          "what bounds the run: at most 3 resources and functions of the critical path, largest first, each with "
          "its what-if (the resource doubled, the function twice as fast) replayed unless what_ifs=False")
      .def_property_readonly(
          "contention_by_resource",
          [](const Result& r) {
            const auto& cp = r.state->run.critical;
            if (!cp) throw py::value_error("this replay was run with critical_path=False");
            py::dict d;
            for (const auto& [resource, t] : cp->contention) d[py::str(rr::replay::resource_name(resource))] = t;
            return d;
          },
          "the critical path's contention by resource, ns: {'utility processors, node 0': ...}")
      .def_property_readonly("processors", &processors, "node, kind (code into PROCESSOR_KINDS), index, busy_ns, utilisation")
      .def_property_readonly(
          "function_names", [](const Result& r) { return function_names(*r.state->trace); },
          "the replayed trace's functions by id, as every output names them: {5: 'calc_new_currents', 7: 'f7'}")
      .def(
          "to_pandas",
          [m](const Result& r) {
            py::dict out;
            py::dict ops = operations(r);
            ops["function_name"] = function_name_column(*r.state->trace, ops["function"].cast<py::array_t<std::int64_t>>());
            out["operations"] = frame(ops, {{"kind", m.attr("OP_KINDS")}});
            out["edges"] = frame(edges(r), {{"kind", m.attr("EDGE_KINDS")}});
            if (r.state->run.critical) out["critical_path"] = frame(critical_path(r), {{"class", m.attr("PATH_CLASSES")}});
            out["processors"] = frame(processors(r), {{"kind", m.attr("PROCESSOR_KINDS")}});
            return out;
          },
          "the tables as pandas DataFrames (needs pandas), kinds as categoricals; operations has function_name, "
          "the function as every output names it");

  m.def(
      "read",
      [](py::object inputs, std::uint64_t threads, bool strict, bool keep_going, std::uint32_t traced_cores,
         const py::object& names) {
        std::vector<std::string> paths;
        if (py::isinstance<py::str>(inputs) || py::hasattr(inputs, "__fspath__"))
          paths.push_back(py::str(py::module_::import("os").attr("fspath")(inputs)));
        else
          for (auto item : inputs) paths.push_back(py::str(py::module_::import("os").attr("fspath")(item)));
        for (const auto& path : paths) checked_path(path);
        if (traced_cores > rr::machine::kMaxCoresPerNode)
          throw py::value_error("traced_cores must be in [0, " + std::to_string(rr::machine::kMaxCoresPerNode) + "]");
        std::string names_file;
        if (!names.is_none()) {
          names_file = checked_path(py::str(py::module_::import("os").attr("fspath")(names)));
          if (names_file.empty()) throw py::value_error("names: an empty path (None reads names.toml beside the trace)");
        }
        return read(paths, checked_threads(threads), strict, keep_going, traced_cores, names_file);
      },
      py::arg("trace"), py::arg("threads") = 0, py::arg("strict") = false, py::arg("keep_going") = false,
      py::arg("traced_cores") = 0, py::kw_only(), py::arg("names") = py::none(),
      "Read a trace (a folder, files, globs or a tar archive; a path or a list) and build its event graph; "
      "traced_cores: the cores the traced process ran on (its spans become work, and machine('traced') gets them); "
      "names: a names file (the command line's --names; default: names.toml in the trace's folder, when there is one).");
  m.def(
      "machine",
      [](const std::string& path, std::optional<std::vector<std::string>> overrides, const Trace* trace) {
        return machine(checked_path(path), overrides.value_or(std::vector<std::string>{}), trace);
      },
      py::arg("path"), py::arg("overrides") = py::none(), py::arg("trace") = nullptr,
      "Load a machine file with 'key=value' overrides; 'traced' with trace= for the machine the trace was taken on.");
  const rr::session::ReplayChoices defaults;
  m.def(
      "replay",
      [](const Trace& trace, const Machine& machine, const std::optional<std::string>& placement,
         std::uint64_t threads, bool critical_path, const py::object& map, const std::optional<std::string>& mapping,
         std::optional<std::int64_t> fold, const std::optional<std::string>& node_map, const std::string& unlogged_time,
         const std::string& queue_order) {
        const unsigned workers = checked_threads(threads);
        auto settings = replay_settings(placement, map, mapping, fold, node_map, unlogged_time, queue_order);
        return replay(trace, machine, std::move(settings), workers, critical_path);
      },
      py::arg("trace"), py::arg("machine"), py::arg("placement") = py::none(), py::arg("threads") = 0,
      py::arg("critical_path") = true, py::kw_only(), py::arg("map") = py::none(), py::arg("mapping") = py::none(),
      py::arg("fold") = py::none(), py::arg("node_map") = py::none(), py::arg("unlogged_time") = defaults.unlogged_time,
      py::arg("queue_order") = defaults.queue_order,
      "Replay a trace on a machine: the estimate, the utilisation and the tables. placement, map (FUNC=KIND[:FACTOR], "
      "one or a list), mapping (a file), fold, node_map, unlogged_time and queue_order are the command line's "
      "--placement, --map, --mapping, --fold, --node-map, --unlogged-time and --queue-order.");
  rr::python::bind_explain(
      m,
      [](const py::object& t) -> std::shared_ptr<const rr::session::LoadedTrace> {
        if (!py::isinstance<Trace>(t)) throw py::type_error("explain: a and b are traces (realm_replay.read)");
        return t.cast<const Trace&>().loaded;
      },
      error_type());
}
