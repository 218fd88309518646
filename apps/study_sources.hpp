// Where a study's node counts come from (docs/mapping.md, Studies): folds of one trace (strong scaling), traces the
// generators make at given node counts (weak scaling, as the generator scales), or traces of one application at
// several node counts (--scaling strong|weak). Each source gives the study its inputs: one loaded trace at one node
// count, with the machine it is replayed on.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "session/study.hpp"
#include "trace_inputs.hpp"

namespace rr::app {

// The machine word that names each generated trace's own truth machine (its machine.toml).
inline constexpr const char* kTruthMachine = "truth";

struct StudySourceOptions {
  std::vector<std::string> traces;
  std::string folds;               // --fold N,M,...: model node counts of one trace
  std::vector<std::string> gens;   // --gen '[NAME=]GENERATOR OPTIONS...'
  std::string nodes;               // --nodes N,M,...: the node counts of --gen
  std::string scaling;             // --scaling strong|weak: of a list of traces
  std::string machine;             // -m: a file, a bundled name, traced or truth
  std::vector<std::string> overrides;  // --set
};

// --fold, --gen, --nodes and --scaling on the study command.
void add_study_sources(CLI::App* cmd, StudySourceOptions& opts);

// A folder that holds the generated traces while the study runs, removed with the object.
class ScratchFolder;

struct StudyInputs {
  session::Scaling scaling = session::Scaling::strong;
  std::string description;  // "folds 1, 2, 4 of dme_all_4n", as reports name the source
  std::vector<std::unique_ptr<session::LoadedTrace>> traces;
  std::vector<session::StudyInput> inputs;
  std::shared_ptr<ScratchFolder> scratch;
};

// The one source the options name, checked before anything is read: a usage problem (exit 2) when there is none,
// several, a node count list that is not one, or a scaling the source contradicts.
std::optional<std::string> study_source_problem(const StudySourceOptions& opts);

// Reads (or generates, then reads) the inputs; nothing after printing an error, with `exit_code` set (1 for a trace or
// machine that cannot be read, 2 for a --gen that its generator refuses or traces that make no series).
std::optional<StudyInputs> load_study_inputs(const StudySourceOptions& opts, const CommonOptions& common,
                                             const ReadingFlags& reading, int& exit_code);

}  // namespace rr::app
