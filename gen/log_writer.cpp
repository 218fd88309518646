// A generated trace's folder: the logs (realm_log_writer), the truth and its machine (truth_files), and the names of
// the program's functions.
#include "log_writer.hpp"

#include "compressed_output.hpp"
#include "core/toml_string.hpp"
#include "machine_models/machine_writer.hpp"
#include "platform/output_target.hpp"
#include "program_events.hpp"
#include "realm_log_writer.hpp"
#include "truth_files.hpp"

#include <filesystem>
#include <stdexcept>
#include <string_view>

namespace rr::gen {

namespace {

namespace fs = std::filesystem;

// A small file beside the logs, whole or not at all; throws naming the file when it cannot be written.
void write_file(const fs::path& path, std::string_view text) {
  if (auto err = platform::write_whole_file(path.string(), text); !err.empty()) throw std::runtime_error(err);
}

// names.toml: what each task function of the program stands for, since the logs give only ids.
std::string names_toml(const std::map<std::uint32_t, std::string>& names) {
  std::string out = "# The task functions of this generated trace, by id: realm-replay reads names.toml beside the logs.\n";
  for (const auto& [func, name] : names) out += std::to_string(func) + " = " + core::toml_string(name) + "\n";
  return out;
}

}  // namespace

WriteResult write_trace(const Program& p, const Truth& truth, const TruthMachine& m, const std::string& dir,
                        Compression compression, const Quirks& q) {
  fs::create_directories(dir);
  WriteResult result;
  ProgramEvents events(p);
  RealmLogWriter logs(p, truth, events, q, result);
  for (std::uint32_t node = 0; node < p.nodes; ++node)
    logs.write_node(node, fs::path(dir) / ("node_" + std::to_string(node) + ".log" + extension(compression)), compression);
  write_truth_json(fs::path(dir) / "truth.json", p, truth, events, result.injected);
  write_file(fs::path(dir) / "machine.toml",
             machine::to_toml(truth_machine_model(p, m),
                              "The machine realm-replay gen scheduled this trace's ground truth on (see truth.json)."));
  if (!p.function_names.empty()) write_file(fs::path(dir) / "names.toml", names_toml(p.function_names));
  return result;
}

}  // namespace rr::gen
