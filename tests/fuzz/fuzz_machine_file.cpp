// libFuzzer target: arbitrary bytes as a machine file, the lines after a "\n--set\n" separator as --set
// overrides. The loader must give a model or an InputError: never a crash, a hang or another exception. A model
// it accepts must hold its documented ranges (machine_limits.hpp) and survive a round trip through the writer.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "machine_models/machine_limits.hpp"
#include "machine_models/machine_loader.hpp"
#include "machine_models/machine_writer.hpp"

namespace {

using rr::machine::MachineModel;

bool in_range(const MachineModel& m) {
  auto cost = [](std::int64_t v) { return v >= 0 && v <= rr::machine::kMaxCostNs; };
  if (!cost(m.network_latency_ns) || !cost(m.runtime.task_launch_ns) || !cost(m.runtime.merge_ns) ||
      !cost(m.runtime.trigger_local_ns) || !cost(m.runtime.trigger_remote_ns) || !cost(m.runtime.barrier_arrival_ns) ||
      !cost(m.runtime.processor_start_ns) || m.node.cores > static_cast<std::uint32_t>(rr::machine::kMaxCoresPerNode))
    return false;
  if (m.runtime.processor_starts_ns.size() > static_cast<std::size_t>(rr::machine::kMaxProcessorsPerNode) ||
      !std::all_of(m.runtime.processor_starts_ns.begin(), m.runtime.processor_starts_ns.end(), cost))
    return false;
  for (const auto& c : m.channels)
    if (!std::isfinite(c.bytes_per_ns) || c.bytes_per_ns < rr::machine::kMinBandwidthGbs ||
        c.bytes_per_ns > rr::machine::kMaxBandwidthGbs || !cost(c.latency_ns) || c.lanes < 1 ||
        c.lanes > static_cast<std::uint64_t>(rr::machine::kMaxLanes))
      return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  constexpr std::string_view kSeparator = "\n--set\n";
  const auto at = input.find(kSeparator);
  const std::string toml(input.substr(0, at));
  std::vector<std::string> overrides;
  if (at != std::string_view::npos) {
    std::string_view rest = input.substr(at + kSeparator.size());
    while (!rest.empty()) {
      const auto nl = rest.find('\n');
      overrides.emplace_back(rest.substr(0, nl));
      rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    }
  }
  const auto model = rr::machine::parse_machine(toml, "fuzz.toml", overrides);
  if (!model.ok()) {
    if (model.error().message.empty()) std::abort();
    return 0;
  }
  if (!in_range(*model)) std::abort();
  // What the writer writes, the loader reads back to the same file.
  const std::string written = rr::machine::to_toml(*model, "round trip");
  const auto again = rr::machine::parse_machine(written, "written.toml");
  if (!again.ok()) {
    std::fprintf(stderr, "the written machine does not load: %s\n%s\n", again.error().to_string().c_str(), written.c_str());
    std::abort();
  }
  if (const std::string rewritten = rr::machine::to_toml(*again, "round trip"); rewritten != written) {
    std::fprintf(stderr, "written:\n%s\nrewritten:\n%s\n", written.c_str(), rewritten.c_str());
    std::abort();
  }
  return 0;
}
