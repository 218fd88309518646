// realm-replay-mpi: `realm-replay replay` as one replay over MPI ranks (docs/scale.md, "One replay over MPI ranks").
// `mpirun -np R realm-replay-mpi replay TRACE -m MACHINE [options]`: rank 0 prints what realm-replay prints; each
// rank replays the block of its model nodes. A rank that stops before its part of the replay is done ends the
// whole run (MPI_Abort), naming itself: the others would otherwise wait for it forever.
#include <mpi.h>

#include <cstdio>
#include <string>

#include "commands.hpp"
#include "messages.hpp"
#include "mpi_network.hpp"
#include "option_checks.hpp"
#include "output_file.hpp"
#include "platform/output_target.hpp"
#include "rank_output.hpp"

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  rr::app::MpiNetwork net;
  rr::app::RankOutput output(net.rank());
  CLI::App app{"realm-replay-mpi: one replay of a Realm or Legion Prof trace over MPI ranks, each replaying the "
               "blocks of its model nodes (mpirun -np R realm-replay-mpi replay TRACE -m MACHINE). Subcommands: "
               "replay only; rank 0 prints what `realm-replay replay` prints.",
               "realm-replay-mpi"};
  app.set_version_flag("--version", std::string("realm-replay-mpi ") + RR_VERSION);
  app.require_subcommand(1);
  app.fallthrough();
  rr::app::CommonOptions common;
  app.add_option("-j,--threads", common.threads, "worker threads of each rank (0 = all cores)")
      ->check(rr::app::thread_count())
      ->capture_default_str();
  // One rank has nothing to split: it runs as one process does, with no network (no part and view of the whole
  // graph at once, no notes about reading the whole trace).
  if (net.ranks() > 1) common.network = &net;
  auto run_replay = rr::app::add_replay_command(app, common);

  // Every rank parses the same words; should one stop there, all do, with the highest code.
  const int parsed = rr::app::parse_command_line(app, argc, argv).value_or(-1);  // -1: go on
  int stop = parsed;
  MPI_Allreduce(&parsed, &stop, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (stop >= 0) {
    if (parsed < 0) rr::app::print_error("", "another rank could not read its command line");
    MPI_Finalize();
    return stop;
  }
  rr::app::protect_command_line_inputs(app);
  int code = rr::app::kExitBadInput;
  try {
    code = run_replay();
  } catch (const std::exception& e) {
    rr::app::print_message("", std::string("internal error: ") + e.what());
  }
  if (common.network && !net.part_over()) {
    output.show_failure("realm-replay-mpi: rank " + std::to_string(net.rank()) + " of " + std::to_string(net.ranks()) +
                        " stopped before its part of the replay was done (exit code " + std::to_string(code) +
                        "): ending the run");
    MPI_Abort(MPI_COMM_WORLD, code ? code : rr::app::kExitBadInput);
  }
  // Only rank 0 gets here (or a failure of one rank alone): the others end once their part is done
  // (MpiNetwork::part_done).
  if (auto err = rr::platform::flush_stdout(); !err.empty()) {
    rr::app::print_error("", "cannot write standard output: " + err);
    if (code == rr::app::kExitOk) code = rr::app::kExitBadInput;
  }
  MPI_Finalize();
  return code;
}
