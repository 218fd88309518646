// The ranges a machine file's values must lie in (docs/limits.md). They keep every price the model computes
// finite and inside int64 nanoseconds, and the model's processors few enough to allocate: a value outside them
// is a typo or a hostile file, and is refused with the file, line and key (or the --set key) named.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace rr::machine {

// Relative speeds (processors.KIND.speed, function_speed): a millionth to a million times the traced machine.
inline constexpr double kMinSpeed = 1e-6;
inline constexpr double kMaxSpeed = 1e6;
// A busy-time factor (a move's, a factors file's) scales like a speed, so it has a speed's range: outside it
// (4.9e-324, 1e300) the busy times it gives are zero or past any run.
inline bool busy_factor_in_range(double v) { return std::isfinite(v) && v >= kMinSpeed && v <= kMaxSpeed; }
// Channel bandwidths in GB/s (bytes per ns), the same span around a byte per nanosecond.
inline constexpr double kMinBandwidthGbs = 1e-6;
inline constexpr double kMaxBandwidthGbs = 1e6;
// Latencies and runtime costs in ns: at most 1e15 ns (11.6 days) each, so sums of many stay far from 2^63.
inline constexpr std::int64_t kMaxCostNs = 1'000'000'000'000'000;
// Processors of one kind on one model node, and model processors in all (every node, every kind).
inline constexpr std::int64_t kMaxProcessorsPerNode = 65536;
inline constexpr std::uint64_t kMaxModelProcessors = std::uint64_t{1} << 20;
// Lanes of one channel, and the entries of a per_node list (one per model node).
inline constexpr std::int64_t kMaxLanes = 65536;
// `[node] cores`: a node's cores (0: a core per thread).
inline constexpr std::int64_t kMaxCoresPerNode = 65536;
inline constexpr std::int64_t kMaxPerNodeEntries = 65536;
// Components of one dotted key (`a.b.c` has 3), in a file or a --set: the schema's deepest key has 4
// (processors.gpu.function_speed.7). toml++ recurses once per component and would overflow the stack on a
// key thousands deep, so deeper keys are refused before the TOML parser sees them.
inline constexpr std::size_t kMaxKeyComponents = 64;
// Bytes assumed for a copy without a Copy Size: at most 1 PiB.
inline constexpr std::int64_t kMaxCopyBytes = std::int64_t{1} << 50;

}  // namespace rr::machine
