// realm-replay entry point: subcommand dispatch and exit codes (0 ok, 1 bad input, 2 usage).
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "output_file.hpp"
#include "platform/output_target.hpp"
#include "option_checks.hpp"
#include "messages.hpp"

int main(int argc, char** argv) {
  CLI::App app{"realm-replay: replay and explain Realm event logs (Legion 2014-2015) and Legion Prof logs (today's "
               "Legion).",
               "realm-replay"};
  app.set_version_flag("--version", std::string("realm-replay ") + RR_VERSION);
  app.require_subcommand(1);
  app.fallthrough();  // global options such as --threads may follow the subcommand
  rr::app::CommonOptions common;
  app.add_option("-j,--threads", common.threads, "worker threads (0 = all cores)")
      ->check(rr::app::thread_count())
      ->capture_default_str();

  auto run_stats = rr::app::add_stats_command(app, common);
  auto run_validate = rr::app::add_validate_command(app, common);
  auto run_graph = rr::app::add_graph_command(app, common);
  auto run_replay = rr::app::add_replay_command(app, common);
  auto run_critpath = rr::app::add_critpath_command(app, common);
  auto run_profile = rr::app::add_profile_command(app, common);
  auto run_compare = rr::app::add_compare_command(app, common);
  auto run_sweep = rr::app::add_sweep_command(app, common);
  auto run_diff = rr::app::add_diff_command(app, common);
  auto run_explain = rr::app::add_explain_command(app, common);
  auto run_gen = rr::app::add_gen_command(app, common);
  auto run_machine = rr::app::add_machine_command(app, common);
  auto run_calibrate = rr::app::add_calibrate_command(app, common);
  auto run_export = rr::app::add_export_command(app, common);
  auto run_pack = rr::app::add_pack_command(app, common);
  auto run_tune = rr::app::add_tune_command(app, common);
  auto run_study = rr::app::add_study_command(app, common);

  // A mistyped command and the old --json FILE form get an answer of their own, not CLI11's "not expected".
  if (const auto stop = rr::app::parse_command_line(app, argc, argv)) return *stop;
  rr::app::protect_command_line_inputs(app);
  const int code = [&] {
    try {
    if (app.got_subcommand("stats")) return run_stats();
    if (app.got_subcommand("validate")) return run_validate();
    if (app.got_subcommand("graph")) return run_graph();
    if (app.got_subcommand("replay")) return run_replay();
    if (app.got_subcommand("critpath")) return run_critpath();
    if (app.got_subcommand("profile")) return run_profile();
    if (app.got_subcommand("compare")) return run_compare();
    if (app.got_subcommand("sweep")) return run_sweep();
    if (app.got_subcommand("diff")) return run_diff();
    if (app.got_subcommand("explain")) return run_explain();
    if (app.got_subcommand("gen")) return run_gen();
    if (app.got_subcommand("machine")) return run_machine();
    if (app.got_subcommand("calibrate")) return run_calibrate();
    if (app.got_subcommand("export")) return run_export();
    if (app.got_subcommand("pack")) return run_pack();
    if (app.got_subcommand("tune")) return run_tune();
    if (app.got_subcommand("study")) return run_study();
    } catch (const std::exception& e) {
      rr::app::print_message("", std::string("internal error: ") + e.what());
      return rr::app::kExitBadInput;
    }
    return rr::app::kExitUsage;
  }();
  // A report that did not reach standard output (a full disk, /dev/full, a closed descriptor) is a failure.
  if (auto err = rr::platform::flush_stdout(); !err.empty()) {
    rr::app::print_error("", "cannot write standard output: " + err);
    return code == rr::app::kExitOk ? rr::app::kExitBadInput : code;
  }
  return code;
}
