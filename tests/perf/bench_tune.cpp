// The speed of `realm-replay tune`: candidates replayed per second by its search (tuning::tune), the trace read and
// the machine loaded once, the starting replay not counted. Each repeat runs the whole search as many times as fill
// --seconds of search time and divides the candidates by that time; the median of --repeat repeats is the figure
// (docs/performance.md, Tuning). scripts/bench_tune.sh runs it on the bundled Legion Prof logs and the 32-node
// 12-step S3D trace.
//
// usage: bench_tune --machine FILE|traced [--set KEY=VALUE]... [--factors FILE] [--budget N] [--threads T]
//                   [--seconds S] [--repeat R] TRACE...
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench_timing.hpp"
#include "machine_models/factors_file.hpp"
#include "session/session.hpp"
#include "tuning/tuning.hpp"
#include "platform/usable_threads.hpp"

namespace {

struct Options {
  std::string machine;
  std::vector<std::string> overrides;
  std::string factors;
  std::uint64_t budget = 400;
  unsigned threads = 0;
  double seconds = 2.0;
  int repeat = 3;
  std::vector<std::string> inputs;
};

std::optional<Options> parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool more = i + 1 < argc;
    if (a == "--machine" && more) o.machine = argv[++i];
    else if (a == "--set" && more) o.overrides.push_back(argv[++i]);
    else if (a == "--factors" && more) o.factors = argv[++i];
    else if (a == "--budget" && more) o.budget = std::stoull(argv[++i]);
    else if (a == "--threads" && more) o.threads = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--seconds" && more) o.seconds = std::stod(argv[++i]);
    else if (a == "--repeat" && more) o.repeat = std::stoi(argv[++i]);
    else if (!a.empty() && a[0] != '-') o.inputs.push_back(a);
    else return std::nullopt;
  }
  if (o.machine.empty() || o.inputs.empty()) return std::nullopt;
  return o;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

}  // namespace

int main(int argc, char** argv) {
  const auto o = parse(argc, argv);
  if (!o) {
    std::fprintf(stderr, "usage: bench_tune --machine FILE|traced [--set KEY=VALUE]... [--factors FILE] [--budget N] "
                         "[--threads T] [--seconds S] [--repeat R] TRACE...\n");
    return 2;
  }
  rr::session::ReadingOptions reading;
  reading.threads = o->threads;
  auto trace = rr::session::load_trace(o->inputs, reading);
  if (!trace) {
    std::fprintf(stderr, "%s\n", trace.error().to_string().c_str());
    return 1;
  }
  auto model = rr::session::load_machine_for(*trace, {o->machine, o->overrides});
  if (!model) {
    std::fprintf(stderr, "%s\n", model.error().to_string().c_str());
    return 1;
  }
  std::optional<rr::machine::FunctionFactors> factors;
  if (!o->factors.empty()) {
    auto f = rr::machine::load_factors(o->factors);
    if (!f) {
      std::fprintf(stderr, "%s\n", f.error().to_string().c_str());
      return 1;
    }
    factors = std::move(*f);
  }
  rr::tuning::TuneOptions options;
  options.space.factors = factors ? &*factors : nullptr;
  options.budget = o->budget;
  options.threads = o->threads;
  const unsigned threads = rr::platform::threads_or_all(o->threads);
  std::printf("trace %s: %u operations; machine %s; %u thread(s) on %u core(s) (%s)\n", trace->label.c_str(),
              trace->graph().vertex_count(), model->name.c_str(), threads, std::thread::hardware_concurrency(),
              cpu_model().c_str());
  std::vector<double> rates;
  for (int r = 0; r < o->repeat; ++r) {
    double seconds = 0;
    std::uint64_t candidates = 0, cut_off = 0, searches = 0;
    while (seconds < o->seconds || searches == 0) {
      auto result = rr::tuning::tune(*trace, *model, {}, options);
      if (!result) {
        std::fprintf(stderr, "%s\n", result.error().to_string().c_str());
        return 1;
      }
      seconds += result->seconds;
      candidates += result->candidates;
      cut_off += result->cut_off;
      ++searches;
    }
    rates.push_back(static_cast<double>(candidates) / seconds);
    std::printf("  repeat %d: %llu searches, %llu candidates (%.0f%% stopped early) in %.3f s: %.1f candidates/s\n",
                r + 1, static_cast<unsigned long long>(searches), static_cast<unsigned long long>(candidates),
                candidates ? 100.0 * static_cast<double>(cut_off) / static_cast<double>(candidates) : 0.0, seconds,
                rates.back());
  }
  std::printf("median %.1f candidates/s\n", rr::bench::median(rates));
  return 0;
}
