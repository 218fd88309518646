// realm_replay.explain and its Explanation (python/explain_binding.hpp).
#include "explain_binding.hpp"

#include <pybind11/stl.h>

#include "explain/explain.hpp"

namespace py = pybind11;

namespace rr::python {

namespace {

py::dict class_dict(const explain::FactClass& c, std::int64_t difference, std::int64_t replay_a) {
  py::dict d;
  d["name"] = c.name;
  d["kind"] = explain::fact_kind_name(c.kind);
  d["share_ns"] = c.share_ns;
  d["share"] = difference == 0 ? 0.0 : static_cast<double>(c.share_ns) / static_cast<double>(difference);
  d["alone_ns"] = c.alone_ns;
  d["replay_alone_ns"] = replay_a + c.alone_ns;
  d["members"] = c.members;
  d["changes"] = c.changes;
  d["matched"] = c.matched;
  d["median_ratio"] = c.median_ratio;
  return d;
}

}  // namespace

void bind_explain(py::module_& m,
                  std::function<std::shared_ptr<const session::LoadedTrace>(const py::object&)> trace_of,
                  py::object error) {
  py::class_<explain::ExplainResult>(m, "Explanation",
                                     "Why run B differs from run A: the replays, the classes and their shares.")
      .def_property_readonly("a", [](const explain::ExplainResult& r) { return r.label_a; })
      .def_property_readonly("b", [](const explain::ExplainResult& r) { return r.label_b; })
      .def_property_readonly("replay_a_ns", [](const explain::ExplainResult& r) { return r.replay_a_ns; })
      .def_property_readonly("replay_b_ns", [](const explain::ExplainResult& r) { return r.replay_b_ns; })
      .def_property_readonly("difference_ns", &explain::ExplainResult::difference_ns)
      .def_property_readonly("observed_a_ns", [](const explain::ExplainResult& r) { return r.observed_a_ns; })
      .def_property_readonly("observed_b_ns", [](const explain::ExplainResult& r) { return r.observed_b_ns; })
      .def_property_readonly("placement", [](const explain::ExplainResult& r) { return r.placement; })
      .def_property_readonly(
          "classes",
          [](const explain::ExplainResult& r) {
            py::list out;
            for (std::size_t i : r.ranked()) out.append(class_dict(r.classes[i], r.difference_ns(), r.replay_a_ns));
            return out;
          },
          "the classes by share, largest first: name, kind, share_ns, share, alone_ns, replay_alone_ns, members, "
          "changes, matched, median_ratio")
      .def_property_readonly(
          "replays",
          [](const explain::ExplainResult& r) {
            py::list out;
            for (std::size_t mask = 0; mask < r.subset_ns.size(); ++mask) {
              py::list from_b;
              for (std::size_t c = 0; c < r.classes.size(); ++c)
                if ((mask >> c) & 1u) from_b.append(r.classes[c].name);
              py::dict d;
              d["from_b"] = from_b;
              d["replay_ns"] = r.subset_ns[mask];
              out.append(d);
            }
            return out;
          },
          "every counterfactual replay: the classes it took from B and its time")
      .def_property_readonly("replays_run", [](const explain::ExplainResult& r) { return r.replays; })
      .def_property_readonly("notes", [](const explain::ExplainResult& r) { return r.notes; })
      .def("__repr__", [](const explain::ExplainResult& r) {
        return "<Explanation " + r.label_a + " -> " + r.label_b + ": " + std::to_string(r.difference_ns()) + " ns, " +
               std::to_string(r.classes.size()) + " classes>";
      });
  m.def(
      "explain",
      [trace_of, error](const py::object& a, const py::object& b, const py::object& machine, std::uint32_t threads) {
        const auto ta = trace_of(a), tb = trace_of(b);
        explain::ExplainOptions o;
        std::vector<std::string> machines;
        if (py::isinstance<py::str>(machine)) machines.push_back(machine.cast<std::string>());
        else machines = machine.cast<std::vector<std::string>>();
        if (machines.empty() || machines.size() > 2)
          throw py::value_error("machine: 'traced', one machine file, or a list of two (one per run)");
        o.machine_a = {machines.front(), {}};
        o.machine_b = {machines.back(), {}};
        o.threads = threads;
        core::Expected<explain::ExplainResult> r = [&] {
          py::gil_scoped_release unlocked;
          return explain::explain_traces(*ta, *tb, o);
        }();
        if (!r.ok()) {
          PyErr_SetString(error.ptr(), r.error().to_string().c_str());
          throw py::error_already_set();
        }
        return std::move(r).value();
      },
      py::arg("a"), py::arg("b"), py::arg("machine") = "traced", py::arg("threads") = 0,
      "Why run B differs from run A (two traces of one application, from realm_replay.read): B's replayed time less "
      "A's, shared out among classes of facts by Shapley values that add up to it exactly. machine: 'traced' (each "
      "run its own traced machine), a machine file for both, or a list of two files.");
}

}  // namespace rr::python
