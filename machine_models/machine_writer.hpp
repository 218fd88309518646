// Writes a machine model back as a machine file the loader reads (a fitted machine from `calibrate`, say), with a
// comment per value where the caller has one.
#pragma once

#include <map>
#include <string>

#include "machine_models/machine_model.hpp"

namespace rr::machine {

// `notes` maps a dotted key ("network.latency_ns") to the comment written after its value; `header` is
// written first, each line as a comment.
std::string to_toml(const MachineModel& model, const std::string& header,
                    const std::map<std::string, std::string>& notes = {});

}  // namespace rr::machine
