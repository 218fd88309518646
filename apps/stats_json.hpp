// Counts of some stats as a JSON object, keyed as the list in core/stats.hpp names them, in its order: how
// `stats` and `validate` print skipped and malformed lines, records not joined and findings.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "core/stats.hpp"

namespace rr::app {

// {"blank": 3, "other_category": 0, ...}: every stat of `stats`, zero or not.
template <class Stats>
nlohmann::ordered_json stats_json(const core::StatCounts& counts, Stats&& stats) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (core::Stat stat : stats) j[std::string(core::stat_key(stat))] = counts[stat];
  return j;
}

}  // namespace rr::app
