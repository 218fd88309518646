// The critical path of a replay over ranks (docs/scale.md, "One replay over MPI ranks"), walked back across the
// ranks: each rank classes the steps of its own operations and the gaps back from them, from its own records, and
// hands the walk over to the owner of the next operation back whenever the path crosses ranks.
#pragma once

#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/critical_path.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"

namespace rr::replay {

// Runs on every rank of the replay that gave `r` (r.over_ranks set). Rank 0 gets the whole critical path, its steps
// laid in order from the pieces the ranks walked; another rank gets its sums (by class, label and contended
// resource, the lower bound) without steps, so that every rank can choose the same what-ifs. After a replay from
// parts, `g` is graph_of_part(r) (the walk reads the rank's own view whatever it is given), and each rank reads its
// records by local vertex (records_by_local_vertex) for the walk's while.
CriticalPath critical_path_over_ranks(const graph::EventGraph& g, const MachineMap& map,
                                      const machine::MachineModel& model, const ReplayResult& r);

}  // namespace rr::replay
