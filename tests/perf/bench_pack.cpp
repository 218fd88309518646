// Packed-trace benchmark: reading and building a trace (what every command does first) against reloading its
// packed file, the cost of packing (reading with the summary, fitting the traced machine, writing), the file's
// size, and a replay on the mapped graph against one on the built graph. Medians of --repeat runs, the page
// cache warm for both (each run reads the same files); prints whether the reloaded graph is the built one,
// array by array, and whether both replays agree.
//   usage: bench_pack [--repeat R] [--machine FILE] [--keep FILE.rrg] TRACE...
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "bench_timing.hpp"
#include "proc_status.hpp"
#include "session/trace_packing.hpp"
#include "session/traced_fit.hpp"

namespace {

using rr::bench::Clock;
using rr::bench::median;
using rr::bench::seconds_since;
// Starts a new peak: the kernel resets VmHWM to the current RSS.
void reset_peak() { std::ofstream("/proc/self/clear_refs") << "5"; }
double mib(std::uint64_t kib) { return static_cast<double>(kib) / 1024.0; }

struct ColumnBytes {
  std::vector<std::pair<const void*, std::size_t>> columns;
  template <class T>
  void column(const rr::graph::Column<T>& c) {
    columns.emplace_back(c.data(), c.size() * sizeof(T));
  }
  template <class T>
  void value(const T&) {}
};

bool same_arrays(const rr::graph::EventGraph& a, const rr::graph::EventGraph& b) {
  ColumnBytes x, y;
  a.visit_parts(x);
  b.visit_parts(y);
  for (std::size_t i = 0; i < x.columns.size(); ++i)
    if (x.columns[i].second != y.columns[i].second ||
        (x.columns[i].second && std::memcmp(x.columns[i].first, y.columns[i].first, x.columns[i].second) != 0))
      return false;
  return true;
}

// `repeat` loads of `inputs` (logs or a packed trace): their times, the largest rise of the peak RSS over a load,
// and the last trace loaded (none after an error, which is printed).
struct Loads {
  std::vector<double> seconds;
  std::uint64_t peak_kib = 0;
  std::optional<rr::session::LoadedTrace> last;
};

Loads load_repeatedly(const std::vector<std::string>& inputs, int repeat) {
  Loads loads;
  for (int r = 0; r < repeat; ++r) {
    loads.last.reset();
    reset_peak();
    const std::uint64_t before = rr::bench::status_kib("VmRSS:");
    auto t = Clock::now();
    auto trace = rr::session::load_trace(inputs, {});
    loads.seconds.push_back(seconds_since(t));
    if (!trace) {
      std::fprintf(stderr, "%s\n", trace.error().to_string().c_str());
      return loads;
    }
    loads.peak_kib = std::max(loads.peak_kib, rr::bench::status_kib("VmHWM:") - before);
    loads.last = std::move(*trace);
  }
  return loads;
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 3;
  std::string machine;
  std::string keep;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::stoi(argv[++i]));
    else if (a == "--machine" && i + 1 < argc) machine = argv[++i];
    else if (a == "--keep" && i + 1 < argc) keep = argv[++i];
    else inputs.push_back(a);
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "usage: bench_pack [--repeat R] [--machine FILE] [--keep FILE.rrg] TRACE...\n");
    return 2;
  }
  const std::string packed_path = keep.empty() ? "/tmp/bench_pack_" + std::to_string(::getpid()) + ".rrg" : keep;

  // 1. Read and build, as every command does (no summary).
  Loads build = load_repeatedly(inputs, repeat);
  if (!build.last) return 1;
  const rr::session::LoadedTrace* built = &*build.last;
  const rr::graph::EventGraph& g = built->graph();
  const std::uint64_t records = built->records.record_count();
  std::uint64_t stored = 0;  // the logs as stored (compressed where they are), not other files beside them
  for (const auto& f : built->records.files) stored += f.stored_bytes;
  std::printf("input: %zu file(s), %.1f MB stored, %llu records, %u operations, %llu edges\n",
              built->records.files.size(), static_cast<double>(stored) / 1e6,
              static_cast<unsigned long long>(records), g.vertex_count(), static_cast<unsigned long long>(g.edge_count()));
  const double build_median = median(build.seconds);
  std::printf("read + build: median %.3f s of %d, %.2f M records/s, peak +%.1f MiB\n", build_median, repeat,
              static_cast<double>(records) / build_median / 1e6, mib(build.peak_kib));

  // 2. Pack: read with the summary, fit the traced machine, write.
  {
    rr::session::ReadingOptions with_summary;
    with_summary.summarise = true;
    auto t = Clock::now();
    auto trace = rr::session::load_trace(inputs, with_summary);
    if (!trace) return 1;
    const double read_s = seconds_since(t);
    t = Clock::now();
    (void)rr::session::fit_traced_machine(*trace);
    const double fit_s = seconds_since(t);
    t = Clock::now();
    rr::platform::OutputTarget out;
    if (auto err = out.open(packed_path); !err.empty()) {
      std::fprintf(stderr, "%s\n", err.c_str());
      return 1;
    }
    auto info = rr::session::write_packed_trace(*trace, out);
    const std::string err = info ? out.commit() : info.error().to_string();
    if (!err.empty()) {
      std::fprintf(stderr, "%s\n", err.c_str());
      return 1;
    }
    const double write_s = seconds_since(t);
    std::printf("pack: read with summary %.3f s, traced machine fit %.3f s, write %.3f s; file %.1f MB "
                "(%.1f B/operation, %.1f B/record)\n",
                read_s, fit_s, write_s, static_cast<double>(info->bytes) / 1e6,
                static_cast<double>(info->bytes) / g.vertex_count(), static_cast<double>(info->bytes) / records);
  }

  // 3. Reload.
  Loads reload = load_repeatedly({packed_path}, repeat);
  if (!reload.last) return 1;
  const rr::session::LoadedTrace* packed = &*reload.last;
  const double reload_median = median(reload.seconds);
  std::printf("reload: median %.3f s of %d, %.1fx faster than read + build, peak +%.1f MiB (mapped pages included); "
              "graph arrays %s\n",
              reload_median, repeat, build_median / reload_median, mib(reload.peak_kib),
              same_arrays(g, packed->graph()) ? "identical" : "DIFFER");

  // 4. A replay on each graph (mapped memory against the built arrays).
  if (!machine.empty()) {
    rr::session::ReplaySettings settings;
    settings.critical_path = false;
    auto time_replay = [&](const rr::session::LoadedTrace& trace, std::int64_t& makespan) {
      std::vector<double> s;
      for (int r = 0; r < repeat; ++r) {
        auto t = Clock::now();
        auto run = rr::session::replay_trace(trace, {machine, {}}, settings);
        s.push_back(seconds_since(t));
        if (run) makespan = run->result.makespan_ns;
      }
      return median(s);
    };
    std::int64_t m1 = 0, m2 = 0;
    const double on_built = time_replay(*built, m1), on_packed = time_replay(*packed, m2);
    std::printf("replay on %s: built graph median %.3f s, packed graph %.3f s; makespans %s\n", machine.c_str(),
                on_built, on_packed, m1 == m2 ? "identical" : "DIFFER");
  }
  if (keep.empty()) std::remove(packed_path.c_str());
  return 0;
}
