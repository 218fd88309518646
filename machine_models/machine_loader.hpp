// Reads a machine description from a commented TOML file, with `key=value` overrides, validating every key.
#pragma once

#include <string>
#include <vector>

#include "core/result.hpp"
#include "machine_models/machine_model.hpp"

namespace rr::machine {

// `overrides` are "dotted.key=value" strings (value in TOML syntax: 4, 2.5, true, "start").
// Errors name the file, the line and the key: unknown keys, wrong types, values out of
// range (negative bandwidth, zero lanes), missing sections, unknown memory kinds or channels.
core::Expected<MachineModel> load_machine(const std::string& path, const std::vector<std::string>& overrides = {});

// The same from TOML text already in memory (`name` is used in messages).
core::Expected<MachineModel> parse_machine(const std::string& toml_text, const std::string& name,
                                         const std::vector<std::string>& overrides = {});

}  // namespace rr::machine
