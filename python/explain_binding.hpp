// realm_replay.explain (docs/explain.md): two traces of one application, B's replayed time less A's shared out
// among classes of facts. Bound apart from the module's other functions, which hand it their Trace objects.
#pragma once

#include <pybind11/pybind11.h>

#include <functional>
#include <memory>

#include "session/session.hpp"

namespace rr::python {

// `trace_of` gives the loaded trace of a realm_replay.Trace (and throws TypeError for anything else); `error` is
// realm_replay.Error, raised on bad input with the command line's message.
void bind_explain(pybind11::module_& m,
                  std::function<std::shared_ptr<const session::LoadedTrace>(const pybind11::object&)> trace_of,
                  pybind11::object error);

}  // namespace rr::python
