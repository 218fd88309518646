// The sources of a study's inputs (apps/study_sources.hpp): folds, generated traces, lists of traces.
#include "study_sources.hpp"

#include <stdlib.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <system_error>

#include "core/nearest_name.hpp"
#include "gen_options.hpp"
#include "machine_models/mapping.hpp"
#include "messages.hpp"
#include "text_format.hpp"

namespace rr::app {

namespace fs = std::filesystem;

class ScratchFolder {
 public:
  // A fresh folder under the system's temporary directory; empty path() when none could be made.
  ScratchFolder() {
    std::string name = (fs::temp_directory_path() / "realm-replay-study-XXXXXX").string();
    if (::mkdtemp(name.data())) path_ = name;
  }
  ~ScratchFolder() {
    std::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

namespace {

// "1,2,4,8": node counts from 1 to machine::kMaxFold, each once, ascending; a problem naming the option otherwise.
std::optional<std::string> parse_node_counts(const std::string& option, const std::string& text,
                                             std::vector<std::uint32_t>& out) {
  const std::string usage = option + " takes node counts N,M,... from 1 to " + std::to_string(machine::kMaxFold);
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string word = text.substr(start, comma - start);
    start = comma + 1;
    std::size_t used = 0;
    unsigned long n = 0;
    try {
      n = std::stoul(word, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (word.empty() || used != word.size() || !std::isdigit(static_cast<unsigned char>(word[0])) || n < 1 ||
        n > machine::kMaxFold)
      return usage + ", not '" + word + "'";
    if (std::find(out.begin(), out.end(), n) != out.end()) return option + " names " + word + " twice";
    out.push_back(static_cast<std::uint32_t>(n));
  }
  std::sort(out.begin(), out.end());
  return std::nullopt;
}

// One --gen value: "[NAME=]GENERATOR OPTIONS...", its name (given, or the value with every run of characters that no
// name has made one '-') and its generator's options.
struct GenSpec {
  std::string name;
  std::string options;  // the generator and its options, without the name
};

GenSpec split_gen_spec(const std::string& spec) {
  const std::size_t first_space = std::min(spec.find(' '), spec.size());
  const std::size_t eq = spec.find('=');
  if (eq != std::string::npos && eq < first_space && eq > 0) return {spec.substr(0, eq), spec.substr(eq + 1)};
  std::string name;
  for (char c : spec) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '+';
    if (keep) name += c;
    else if (!name.empty() && name.back() != '-') name += '-';
  }
  while (!name.empty() && name.back() == '-') name.pop_back();
  return {name, spec};
}

// Reads the options of a --gen value with the generators' own (gen_options.hpp) into `opts`, through `parser`, which
// must outlive the use of `opts` (it answers whether an option was given); a problem when they are no generator's.
std::optional<std::string> parse_gen_options(const GenSpec& spec, CLI::App& parser, GenOptions& opts) {
  parser.require_subcommand(1);
  add_generators(&parser, opts, false);
  try {
    parser.parse(spec.options, false);
  } catch (const CLI::CallForHelp&) {
    return "--gen " + spec.options + ": realm-replay gen GENERATOR --help lists a generator's options";
  } catch (const CLI::ParseError& e) {
    return "--gen " + spec.options + ": " + e.what();
  }
  return std::nullopt;
}

// The program of a --gen value at `nodes`, or nothing after a message (a planted change that does not fit it).
std::optional<Generated> generate_spec(const GenSpec& spec, std::uint32_t nodes) {
  GenOptions opts;
  CLI::App parser{"", "--gen"};
  if (auto problem = parse_gen_options(spec, parser, opts)) {
    print_error("study", *problem);
    return std::nullopt;
  }
  opts.nodes = nodes;
  return generate(opts, "study");
}

std::optional<std::string> gen_spec_problem(const std::string& spec) {
  const GenSpec s = split_gen_spec(spec);
  const bool name_ok = std::all_of(s.name.begin(), s.name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '+';
  });
  if (s.name.empty() || !name_ok)
    return "--gen '" + spec + "': NAME is letters, digits and _ - . + (NAME=GENERATOR OPTIONS...)";
  const std::vector<std::string> generators{"s3d", "chain", "fork-join", "stencil", "random-dag"};
  const std::string generator = s.options.substr(0, s.options.find(' '));
  if (std::find(generators.begin(), generators.end(), generator) == generators.end())
    return "--gen '" + spec + "': '" + generator + "' is no generator" + core::did_you_mean(generator, generators) +
           " (s3d, chain, fork-join, stencil, random-dag)";
  std::istringstream words(s.options);
  for (std::string w; words >> w;)
    if (w == "-o" || w == "--out" || w == "--nodes" || w.starts_with("--out=") || w.starts_with("--nodes=") ||
        w.starts_with("-o"))
      return "--gen '" + spec + "': the study makes the traces at --nodes, in a folder of its own: no " + w + " here";
  GenOptions opts;
  CLI::App parser{"", "--gen"};
  return parse_gen_options(s, parser, opts);
}

// The machine a generated or listed trace in `folder` is replayed on: its own machine.toml with -m truth.
session::MachineChoice machine_of(const StudySourceOptions& opts, const fs::path& folder) {
  if (opts.machine == kTruthMachine) return {(folder / "machine.toml").string(), opts.overrides};
  return {opts.machine, opts.overrides};
}

// The truth makespan that gen wrote beside a trace (the start of its truth.json), when there is one.
std::optional<replay::TimeNs> truth_makespan(const fs::path& folder) {
  std::ifstream in(folder / "truth.json");
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  std::smatch m;
  if (!std::regex_search(head, m, std::regex(R"re("makespan_ns": (\d+))re"))) return std::nullopt;
  return std::stoll(m[1].str());
}

fs::path folder_of(const std::string& input) {
  std::error_code ec;
  return fs::is_directory(input, ec) ? fs::path(input) : fs::path(input).parent_path();
}

std::string list_text(const std::vector<std::uint32_t>& v) {
  std::vector<std::string> parts;
  for (auto n : v) parts.push_back(std::to_string(n));
  return join(parts, ", ");
}

}  // namespace

void add_study_sources(CLI::App* cmd, StudySourceOptions& opts) {
  cmd->add_option("--fold", opts.folds, "strong scaling: replay the one TRACE folded onto each of these node counts (1,2,4)");
  cmd->add_option("--gen", opts.gens,
                  "weak scaling: '[NAME=]GENERATOR OPTIONS' of realm-replay gen (no -o, no --nodes), generated at each "
                  "--nodes count (repeatable: each a variant, e.g. 'all=s3d --strategy all')");
  cmd->add_option("--nodes", opts.nodes, "the node counts of --gen (1,2,4,8)");
  cmd->add_option("--scaling", opts.scaling, "several TRACEs of one application: strong (one problem) or weak (a problem "
                                             "per node)")
      ->check(CLI::IsMember({"strong", "weak"}));
}

std::optional<std::string> study_source_problem(const StudySourceOptions& opts) {
  const bool fold = !opts.folds.empty(), gen = !opts.gens.empty();
  const char* forms = "a study takes --fold N,M,... on one TRACE (strong scaling), --gen SPEC with --nodes N,M,... "
                      "(weak scaling), or several TRACEs with --scaling strong|weak";
  if (fold && gen) return std::string("--fold and --gen are two sources of node counts: give one; ") + forms;
  if (gen && !opts.traces.empty()) return "--gen makes the traces: give no TRACE beside it";
  if (gen != !opts.nodes.empty()) return gen ? "--gen needs --nodes N,M,..." : "--nodes is the node counts of --gen";
  if (opts.machine == kTruthMachine && fold)
    return "-m truth is the machine of a generated trace's truth: with --gen or generated TRACEs, not --fold";
  std::vector<std::uint32_t> counts;
  if (fold) {
    if (opts.traces.size() != 1) return "--fold folds one TRACE, not " + std::to_string(opts.traces.size());
    if (opts.scaling == "weak") return "--fold is strong scaling (one problem on fewer nodes): not --scaling weak";
    return parse_node_counts("--fold", opts.folds, counts);
  }
  if (gen) {
    if (opts.scaling == "strong") return "--gen is weak scaling (the generators' problem grows with the nodes): not --scaling strong";
    if (auto problem = parse_node_counts("--nodes", opts.nodes, counts)) return problem;
    std::vector<std::string> names;
    for (const auto& spec : opts.gens) {
      if (auto problem = gen_spec_problem(spec)) return problem;
      names.push_back(split_gen_spec(spec).name);
      if (std::count(names.begin(), names.end(), names.back()) > 1)
        return "two --gen are named '" + names.back() + "': give each its own NAME=";
    }
    return std::nullopt;
  }
  if (opts.traces.size() < 2) return std::string(forms);
  if (opts.scaling.empty()) return "several TRACEs: say whether they scale one problem (--scaling strong) or a problem per node (--scaling weak)";
  return std::nullopt;
}

namespace {

// --fold: the one trace at each node count.
bool load_folds(const StudySourceOptions& opts, const CommonOptions& common, const ReadingFlags& reading,
                StudyInputs& out) {
  std::vector<std::uint32_t> folds;
  parse_node_counts("--fold", opts.folds, folds);
  auto trace = open_trace("study", opts.traces, common, reading);
  if (!trace) return false;
  out.traces.push_back(std::make_unique<session::LoadedTrace>(std::move(*trace)));
  const session::LoadedTrace* t = out.traces.back().get();
  for (std::uint32_t n : folds) out.inputs.push_back({t, "", n, n, machine_of(opts, folder_of(opts.traces.front())), {}});
  out.scaling = session::Scaling::strong;
  out.description = "folds " + list_text(folds) + " of " + t->label;
  return true;
}

// --gen: every value at every node count, written into the scratch folder and read back as any trace is.
bool load_generated(const StudySourceOptions& opts, const CommonOptions& common, const ReadingFlags& reading,
                    StudyInputs& out, int& exit_code) {
  std::vector<std::uint32_t> nodes;
  parse_node_counts("--nodes", opts.nodes, nodes);
  out.scratch = std::make_shared<ScratchFolder>();
  if (out.scratch->path().empty()) {
    print_error("study", "cannot make a folder for the generated traces under " + fs::temp_directory_path().string());
    return false;
  }
  std::vector<std::string> described;
  for (const std::string& text : opts.gens) {
    const GenSpec spec = split_gen_spec(text);
    described.push_back(spec.name + " = " + spec.options);
    for (std::uint32_t n : nodes) {
      auto generated = generate_spec(spec, n);
      if (!generated) {
        exit_code = kExitUsage;
        return false;
      }
      const fs::path folder = out.scratch->path() / (spec.name + "_" + std::to_string(n) + "n");
      try {
        gen::write_trace(generated->program, generated->truth, generated->machine, folder.string(),
                         generated->compression, generated->quirks);
      } catch (const std::exception& e) {
        print_error("study", e.what());
        return false;
      }
      auto trace = open_trace("study", {folder.string()}, common, reading);
      if (!trace) return false;
      out.traces.push_back(std::make_unique<session::LoadedTrace>(std::move(*trace)));
      std::optional<replay::TimeNs> truth;
      if (opts.machine == kTruthMachine && opts.overrides.empty()) truth = generated->truth.makespan_ns;
      out.inputs.push_back({out.traces.back().get(), spec.name, n, 0, machine_of(opts, folder), truth});
    }
  }
  out.scaling = session::Scaling::weak;
  out.description = "generated " + join(described, "; ") + ", at " + list_text(nodes) + " node(s)";
  return true;
}

// Several traces: one series per family when every name gives its node count (dme_all_2n, dme_all_4n), else one.
bool load_listed(const StudySourceOptions& opts, const CommonOptions& common, const ReadingFlags& reading,
                 StudyInputs& out, int& exit_code) {
  for (const std::string& path : opts.traces) {
    auto trace = open_trace("study", {path}, common, reading);
    if (!trace) return false;
    out.traces.push_back(std::make_unique<session::LoadedTrace>(std::move(*trace)));
  }
  const bool families = std::all_of(out.traces.begin(), out.traces.end(), [](const auto& t) {
    return t->family != t->label;
  });
  std::map<std::pair<std::string, std::uint32_t>, std::string> seen;  // (variant, nodes) -> trace
  for (std::size_t i = 0; i < out.traces.size(); ++i) {
    const session::LoadedTrace* t = out.traces[i].get();
    const std::string variant = families ? t->family : "";
    auto [it, fresh] = seen.try_emplace({variant, t->nodes}, t->label);
    if (!fresh) {
      print_error("study", "traces " + it->second + " and " + t->label + " are both " + std::to_string(t->nodes) +
                               "-node runs of " + (families ? "family " + variant : std::string("the study")) +
                               ": a series has one trace per node count (names such as app_2n and app_4n make "
                               "families of their own)");
      exit_code = kExitUsage;
      return false;
    }
    const fs::path folder = folder_of(opts.traces[i]);
    std::optional<replay::TimeNs> truth;
    if (opts.machine == kTruthMachine) {
      std::error_code ec;
      if (!fs::is_regular_file(folder / "machine.toml", ec)) {
        print_error("study", "-m truth: trace " + t->label + " has no machine.toml beside it (gen writes one)");
        return false;
      }
      if (opts.overrides.empty()) truth = truth_makespan(folder);
    }
    out.inputs.push_back({t, variant, t->nodes, 0, machine_of(opts, folder), truth});
  }
  out.scaling = opts.scaling == "weak" ? session::Scaling::weak : session::Scaling::strong;
  std::vector<std::string> labels;
  for (const auto& t : out.traces) labels.push_back(t->label);
  out.description = "traces " + join(labels, ", ");
  return true;
}

}  // namespace

std::optional<StudyInputs> load_study_inputs(const StudySourceOptions& opts, const CommonOptions& common,
                                             const ReadingFlags& reading, int& exit_code) {
  StudyInputs out;
  exit_code = kExitBadInput;
  const bool ok = !opts.folds.empty() ? load_folds(opts, common, reading, out)
                  : !opts.gens.empty() ? load_generated(opts, common, reading, out, exit_code)
                                       : load_listed(opts, common, reading, out, exit_code);
  if (!ok) return std::nullopt;
  return out;
}

}  // namespace rr::app
