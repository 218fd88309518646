// What the tuning tests start from: a bundled trace and a machine loaded through the session, factors files written
// to a test's folder.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "machine_models/factors_file.hpp"
#include "session/session.hpp"

namespace rr::tuning::testing {

inline const std::string kMixed4 = RR_SOURCE_DIR "/data/traces/s3d/dme_mixed_4n";
inline const std::string kTitan = RR_SOURCE_DIR "/data/machines/titan.toml";

inline session::LoadedTrace load(const std::string& path) {
  auto trace = session::load_trace({path}, {});
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().to_string());
  return std::move(*trace);
}

inline machine::MachineModel machine_for(const session::LoadedTrace& trace, const std::string& path,
                                         const std::vector<std::string>& overrides = {}) {
  auto model = session::load_machine_for(trace, {path, overrides});
  EXPECT_TRUE(model.ok()) << (model.ok() ? "" : model.error().to_string());
  return std::move(*model);
}

inline machine::FunctionFactors factors(const std::filesystem::path& file, const std::string& text) {
  std::ofstream(file) << text;
  auto f = machine::load_factors(file.string());
  EXPECT_TRUE(f.ok()) << (f.ok() ? "" : f.error().to_string());
  return std::move(*f);
}

}  // namespace rr::tuning::testing
