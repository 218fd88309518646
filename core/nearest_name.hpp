// The nearest of a list of names to a mistyped one, for "did you mean ...?" hints (a subcommand, a machine key,
// a bundled machine, a node-map rule).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rr::core {

// The edit distance (insertions, deletions, substitutions and swaps of two neighbouring characters, each 1)
// between two names, compared without regard to ASCII case.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `name`, when it is close enough to be a likely typo: at most a third of the longer
// name's length (and at least 1) edits away. Ties go to the earlier candidate; an exact match is returned too.
std::optional<std::string> nearest_name(std::string_view name, const std::vector<std::string>& candidates);

// " (did you mean 'speed'?)" for the nearest candidate, or nothing when none is close.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace rr::core
