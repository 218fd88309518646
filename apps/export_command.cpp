// `realm-replay export TRACE -m MACHINE --sqlite out.db`: a replay as SQL tables (docs/sql.md).
#include <chrono>
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "option_checks.hpp"
#include "sql_export.hpp"
#include "trace_inputs.hpp"
#include "messages.hpp"

namespace rr::app {

std::function<int()> add_export_command(CLI::App& app, CommonOptions& common) {
  struct Options {
    ReplayInputs in;
    std::string sqlite;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "export",
      "Replay a trace and write everything as SQL tables (SQLite): runs, processors, memories, operations, edges, "
      "copies, critical_path, findings (docs/sql.md).");
  add_replay_inputs(cmd, opts->in, common);
  cmd->add_option("--sqlite", opts->sqlite, "the SQLite database to write (whole or not at all)")
      ->required()
      ->check(output_path());
  return [opts, &common]() -> int {
    const auto started = std::chrono::steady_clock::now();
    auto s = open_replay("export", opts->in, common);
    if (!s) return kExitBadInput;
    ExportedRun info;
    info.trace = s->trace.label;
    for (const auto& input : opts->in.trace) info.trace_path += (info.trace_path.empty() ? "" : " ") + input;
    info.machine = s->run.model.name;
    info.machine_file = opts->in.machine;
    for (const auto& o : opts->in.overrides) info.overrides += (info.overrides.empty() ? "" : " ") + o;
    info.placement = opts->in.replay.placement.empty() ? "default" : opts->in.replay.placement;
    if (auto err = export_sqlite(opts->sqlite, s->trace, s->run, info); !err.empty()) {
      print_error("export", err);
      return kExitBadInput;
    }
    if (!opts->in.reading.quiet) {
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::fprintf(stderr, "realm-replay export: %s: %u operations, estimate %.3f ms, written in %.2f s (read, replay and export)\n",
                   opts->sqlite.c_str(), s->trace.graph().vertex_count(),
                   static_cast<double>(s->run.result.makespan_ns) / 1e6, seconds);
    }
    return kExitOk;
  };
}

}  // namespace rr::app
