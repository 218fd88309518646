// The strategies of a study (`realm-replay study --strategy`, docs/mapping.md, Studies): each a name and how the
// trace is placed on the machine — a mapping file, or inline options (placement, moved functions, a node map and
// machine values such as processor counts). Text to strategy lives here so that every front end reads one alike.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "session/replay_choices.hpp"

namespace rr::session {

struct StudyStrategy {
  std::string name;
  std::string text;                    // as given ("--strategy" value), for messages; empty for the default
  ReplayChoices choices;               // placement, map, mapping and node_map; never a fold (the study's own)
  std::vector<std::string> overrides;  // machine values of this strategy alone (set=KEY=VALUE), after --set's
};

// The strategy of a study given none, and the bare word that names it: the trace's own mapping, replayed as it
// ran (placement traced, no moved function).
inline constexpr const char* kTracedStrategyName = "traced";
StudyStrategy traced_strategy();

// One --strategy value:
//   NAME=FILE              a mapping file (docs/mapping.md, Mapping files)
//   NAME:KEY=VALUE,...     inline: placement=traced|pool|eft, map=FUNC=KIND[:FACTOR] (repeatable),
//                          set=KEY=VALUE (a machine value, repeatable), node-map=cyclic|block|FILE, mapping=FILE
//   traced                 the default strategy (traced_strategy)
// NAME is letters, digits and `_ - . +`; the first `=` or `:` after it says which form follows. Values are not
// checked here beyond their form: replay_settings reads them (a move that cannot be parsed, an unreadable file) and
// the machine its overrides. Fails with a message naming the value and the forms it may take.
core::Expected<StudyStrategy> parse_strategy(const std::string& text);

// Two strategies of one name, which no report could tell apart; nothing when the names differ.
std::optional<std::string> duplicate_strategy(const std::vector<StudyStrategy>& strategies);

}  // namespace rr::session
