// How much memory this process can still take without swapping or being killed, for deciding how much work to
// run at once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rr::platform {

// The smaller of the kernel's MemAvailable (free memory plus what it can reclaim at once; where it cannot be
// read, the free physical pages) and what the process's control groups still allow (cgroup_headroom), in bytes.
// 0 if nothing is known.
std::uint64_t available_memory_bytes();

// What the memory limits of the control groups in `proc_self_cgroup` (the text of /proc/self/cgroup) leave: the
// least of limit − usage over the group and its ancestors, read below `root` (normally /sys/fs/cgroup). cgroup v2
// (memory.max, memory.current) and v1 (memory/…/memory.limit_in_bytes, memory.usage_in_bytes). nullopt when no
// group has a limit, or none can be read.
std::optional<std::uint64_t> cgroup_headroom(const std::string& proc_self_cgroup, const std::string& root);

}  // namespace rr::platform
