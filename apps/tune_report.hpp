// The report of `realm-replay tune`: what the search could change, the starting and the best estimate, the path of
// improvements, the best mapping, and the candidates replayed and how fast; as text or JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "run_context.hpp"
#include "tuning/tuning.hpp"

namespace rr::app {

struct TuneView {
  const tuning::TuneResult& result;
  const graph::EventGraph& graph;  // function names
  std::string trace;               // its label
  std::string machine;             // its name
  std::string machine_file;
  std::uint64_t budget = 0;
  std::uint32_t rounds = 0;
  std::uint64_t seed = 0;
  bool early_stop = true;
  std::string written;             // --write-mapping, or empty
  std::string reproduce;           // the replay command that reproduces the best estimate from the written file
};

std::string render_tune_text(const TuneView& v);
nlohmann::ordered_json render_tune_json(const TuneView& v, const RunContext& ctx);

}  // namespace rr::app
