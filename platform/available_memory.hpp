// How much memory the system can still give without swapping, for deciding how much work to run at once.
#pragma once

#include <cstdint>

namespace rr::platform {

// MemAvailable from /proc/meminfo (free memory plus what the kernel can reclaim at once), in bytes; where it
// cannot be read, the free physical pages. 0 if neither is known.
std::uint64_t available_memory_bytes();

}  // namespace rr::platform
