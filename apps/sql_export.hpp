// A replay as SQL tables (SQLite): the run, its processors and memories, every operation with its replayed
// times, the edges, the copies with their routes, the critical path, the findings and every stat of the trace
// (core/stats.hpp). Schema: docs/sql.md.
#pragma once

#include <string>

#include "session/session.hpp"

namespace rr::app {

// What the runs table says beyond the replay itself.
struct ExportedRun {
  std::string trace;           // the trace's label
  std::string trace_path;      // as given
  std::string machine;         // the machine's name
  std::string machine_file;    // as given ("traced" for the traced machine)
  std::string overrides;       // --set values, space separated
  std::string placement;
};

// Writes the replay into a new SQLite database at `path`, in one transaction, whole or not at all (a temporary
// file renamed into place, never over an input). Returns an empty string or a message naming the file.
std::string export_sqlite(const std::string& path, const session::LoadedTrace& trace, const session::ReplayRun& run,
                          const ExportedRun& info);

}  // namespace rr::app
