// The subcommands of realm-replay: each registers its options on a CLI11 app and runs after parsing.
#pragma once

#include <CLI/CLI.hpp>

namespace rr::replay {
class BlockNetwork;
}

namespace rr::app {

// Exit codes of every subcommand (README, "Using it": 0 ok, 1 bad input, 2 usage).
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 1;
inline constexpr int kExitUsage = 2;

// Options every subcommand that reads a trace shares.
struct CommonOptions {
  unsigned threads = 0;
  replay::BlockNetwork* network = nullptr;  // realm-replay-mpi: the command's replay runs over these ranks
};

// Adds `stats` to `app`; the returned callback runs it and gives the exit code.
std::function<int()> add_stats_command(CLI::App& app, CommonOptions& common);
std::function<int()> add_validate_command(CLI::App& app, CommonOptions& common);
std::function<int()> add_graph_command(CLI::App& app, CommonOptions& common);
std::function<int()> add_replay_command(CLI::App& app, CommonOptions& common);
std::function<int()> add_critpath_command(CLI::App& app, CommonOptions& common);
std::function<int()> add_profile_command(CLI::App& app, CommonOptions& common);
std::function<int()> add_compare_command(CLI::App& app, CommonOptions& common);
std::function<int()> add_sweep_command(CLI::App& app, CommonOptions& common);
std::function<int()> add_diff_command(CLI::App& app, CommonOptions& common);
std::function<int()> add_explain_command(CLI::App& app, CommonOptions& common);
std::function<int()> add_gen_command(CLI::App& app, CommonOptions& common);
std::function<int()> add_machine_command(CLI::App& app, CommonOptions& common);
std::function<int()> add_calibrate_command(CLI::App& app, CommonOptions& common);
std::function<int()> add_export_command(CLI::App& app, CommonOptions& common);
std::function<int()> add_pack_command(CLI::App& app, CommonOptions& common);
std::function<int()> add_tune_command(CLI::App& app, CommonOptions& common);
std::function<int()> add_study_command(CLI::App& app, CommonOptions& common);

}  // namespace rr::app
