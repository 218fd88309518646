// What a report says about the run that made it: the JSON `context` block every report carries.
#pragma once

#include <nlohmann/json.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace rr::app {

struct MachineContext {
  std::string name;
  std::string file;
  std::vector<std::string> overrides;
};

struct RunContext {
  std::string command;
  std::vector<std::string> inputs;
  unsigned threads = 0;
  bool keep_going = false;
  bool strict = false;
  std::optional<MachineContext> machine;           // commands that replay on one machine
  nlohmann::ordered_json options = nlohmann::ordered_json::object();  // the command's own options
  double elapsed_seconds = 0;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

  // Sets elapsed_seconds to the time since the context was made (at the command's start).
  void stop_clock() { elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); }
};

// {"tool", "version", "command", "inputs", ["machine"], "options": {threads, keep_going, strict, ...}}.
nlohmann::ordered_json context_json(const RunContext& ctx);

}  // namespace rr::app
