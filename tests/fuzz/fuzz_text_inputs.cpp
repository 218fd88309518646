// libFuzzer target: the small text inputs a user hands over besides traces and machine files. The first byte picks
// one, the rest is its text: a mapping file (TOML), a runs file for calibrate (TOML or CSV), a --map value, a
// --node-map value, sweep --vary options (one a line), or a factors file for tune (TOML). A mapping file that reads
// is written and read back to the same file. Each must give a value within its documented ranges (docs/limits.md) or an InputError with a
// message: never a crash, a hang or another exception.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>

#include "machine_models/factors_file.hpp"
#include "machine_models/mapping.hpp"
#include "calibration/runs_file.hpp"
#include "session/run_grid.hpp"
#include "session/sweep_grid.hpp"

namespace {

// The input as a file of its own (mapping and runs files are read by path), removed when done.
class TempFile {
 public:
  TempFile(std::string_view text, const char* suffix)
      : path_("/tmp/fuzz_text_inputs." + std::to_string(::getpid()) + suffix) {
    std::ofstream(path_, std::ios::binary).write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

bool factor_in_range(const std::optional<double>& f) { return !f || (std::isfinite(*f) && *f >= 1e-6 && *f <= 1e6); }

template <typename T>
void require_value_or_message(const rr::core::Expected<T>& r) {
  if (!r.ok() && r.error().message.empty()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 7) {
    case 0: {
      const TempFile file(text, ".toml");
      const auto spec = rr::machine::load_mapping(file.path());
      require_value_or_message(spec);
      if (!spec.ok()) break;
      for (const auto& m : spec->moves)
        if (!factor_in_range(m.factor)) std::abort();
      for (const auto& count : spec->processors.of_kind)
        if (count && *count > 65536) std::abort();
      const std::string written = rr::machine::mapping_toml(*spec);
      const TempFile again(written, ".again.toml");
      const auto back = rr::machine::load_mapping(again.path());
      if (!back.ok() || rr::machine::mapping_toml(*back) != written) std::abort();
      break;
    }
    case 1:
    case 2: {
      const TempFile file(text, data[0] % 7 == 1 ? ".toml" : ".csv");
      const auto runs = rr::calibration::read_runs(file.path());
      require_value_or_message(runs);
      if (runs.ok())
        for (const auto& r : *runs)
          if (!std::isfinite(r.measured_s) || r.measured_s < 1e-6 || r.measured_s > 1e6) std::abort();
      break;
    }
    case 3: {
      const auto move = rr::machine::parse_move(std::string(text));
      require_value_or_message(move);
      if (move.ok() && !factor_in_range(move->factor)) std::abort();
      break;
    }
    case 4: {
      const auto nodes = rr::machine::parse_node_map(std::string(text));
      require_value_or_message(nodes);
      break;
    }
    case 5: {
      // A grid it accepts is within the limit, and has every combination once.
      std::vector<std::string> varies;
      for (std::size_t start = 0; start <= text.size();) {
        const auto nl = text.find('\n', start);
        varies.emplace_back(text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
        if (nl == std::string_view::npos) break;
        start = nl + 1;
      }
      std::vector<rr::session::GridAxis> axes;
      if (!rr::session::parse_grid_axes(varies, axes).empty()) break;
      std::size_t points = 1;
      for (const auto& axis : axes) points *= axis.settings.size();
      const auto grid = rr::session::grid_points(axes);
      if (points > rr::session::kMaxGridPoints || grid.size() != points) std::abort();
      for (const auto& point : grid)
        if (point.size() != axes.size()) std::abort();
      break;
    }
    case 6: {
      const TempFile file(text, ".toml");
      const auto factors = rr::machine::load_factors(file.path());
      require_value_or_message(factors);
      if (factors.ok())
        for (const auto& [function, kinds] : factors->of_function)
          for (const auto& k : kinds)
            if (!factor_in_range(k.factor)) std::abort();
      break;
    }
  }
  return 0;
}
