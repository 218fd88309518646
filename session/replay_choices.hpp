// The replay settings as text, as the command line's options and the Python module's keyword arguments give
// them, and the one parser both use: they accept the same values and refuse the others in the same words.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "machine_models/mapping.hpp"
#include "replay/replay_engine.hpp"
#include "session/session.hpp"

namespace rr::session {

// Each field has the name of its command-line option with `_` for `-` (--node-map: node_map), which is also
// the Python keyword. An empty placement or node map, and a fold of 0, leave the setting to the mapping file,
// else to its default.
struct ReplayChoices {
  std::string placement;         // traced, pool or eft; default: traced on the traced machine, pool elsewhere
  std::vector<std::string> map;  // function moves, each FUNC=KIND[:FACTOR]
  std::string mapping;           // a mapping file (docs/mapping.md); empty: none
  std::uint32_t fold = 0;        // model nodes; default: as many as the trace has
  std::string node_map;          // cyclic (the default), block, or a file with node_map = [...]
  std::string unlogged_time = replay::unlogged_time_name(replay::UnloggedTime::measured);
  std::string queue_order = replay::queue_order_name(replay::QueueOrder::observed);
};

// The names one option takes. A name outside them is a usage error on the command line (exit 2) and a
// ValueError in Python, and both say `problem`'s words after the option's name.
struct NamedChoice {
  std::vector<std::string> names;  // in the order help lists them

  std::string listed() const;  // "{traced,pool,eft}"
  // "nowhere not in {traced,pool,eft}", or nothing for one of the names.
  std::optional<std::string> problem(std::string_view name) const;
};
const NamedChoice& placement_choice();
const NamedChoice& unlogged_time_choice();
const NamedChoice& queue_order_choice();

// A fold outside 1 to machine::kMaxFold model nodes, in the words of the command line's range check ("Value 0
// not in range 1 to 65536"), or nothing.
std::optional<std::string> fold_problem(std::int64_t model_nodes);

// The settings the choices ask for: the mapping file, with the placement, moves, fold and node map given
// beside it over its own. Fails as the command line does (exit 1) on a move that cannot be parsed or moves a
// function twice, and on a mapping or node-map file that cannot be read; also on a name or fold the checks
// above refuse, named after its command-line option, for a caller that did not check them first.
core::Expected<ReplaySettings> replay_settings(const ReplayChoices& choices);

// compare and sweep replay one mapping on several traces, where a move or a fold may fit one trace and not
// another: the parts of `mapping` that do not apply to `trace` are taken out of it, each with a warning naming the
// trace. A move of a function the trace has no task of; a fold to more model nodes than the trace has nodes (with
// the cyclic or block rule). One replay (replay_on) refuses both instead.
std::vector<std::string> drop_inapplicable(const LoadedTrace& trace, machine::MappingSpec& mapping);

// Whether `mapping` folds a trace of `traced_nodes` nodes (LoadedTrace::nodes) onto more model nodes than it has,
// with the cyclic or block rule: what replay_on refuses and drop_inapplicable takes out.
bool fold_beyond(std::uint32_t traced_nodes, const machine::MappingSpec& mapping);

// A note when the placement is eft and no function can run on more than one kind (no move): eft then places every
// task as pool does, and says so rather than look like a second answer.
std::optional<std::string> eft_note(const machine::MappingSpec& mapping);

}  // namespace rr::session
