// Names of the stats' severities and sources, as reports and the SQL `stats` table print them.
#include "core/stats.hpp"

namespace rr::core {

std::string_view severity_name(StatSeverity s) {
  switch (s) {
    case StatSeverity::info: return "info";
    case StatSeverity::data_loss: return "data_loss";
    case StatSeverity::finding: return "finding";
  }
  return "?";
}

std::string_view source_name(StatSource s) {
  switch (s) {
    case StatSource::trace_reader: return "trace_reader";
    case StatSource::realm_log_parser: return "realm_log_parser";
    case StatSource::legion_prof_reader: return "legion_prof_reader";
    case StatSource::graph_builder: return "graph_builder";
  }
  return "?";
}

}  // namespace rr::core
