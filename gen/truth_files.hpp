// The files beside a generated trace's logs that say what the replay must reproduce: truth.json (every
// operation's start and end) and machine.toml (the machine the truth was scheduled on).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include "machine_models/machine_model.hpp"
#include "program.hpp"
#include "program_events.hpp"

namespace rr::gen {

// truth.json: the parameters, the quirks injected, the makespan and every operation's event, kind, node, start
// and end, streamed to the file.
void write_truth_json(const std::filesystem::path& path, const Program& program, const Truth& truth,
                      const ProgramEvents& events, const std::map<std::string, std::uint64_t>& injected);

// The truth machine as the replay's machine model: the program's processors per node, two channels at 1 GB/s (a
// node's memcpy engine for local copies, its NIC for remote ones), the truth's latencies and runtime costs, and
// traced placement, as the truth runs each task on its own processor.
machine::MachineModel truth_machine_model(const Program& program, const TruthMachine& machine);

}  // namespace rr::gen
