#include "platform/available_memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

namespace rr::platform {

namespace {

// The first number in a file, or nullopt (missing file, "max", anything else).
std::optional<std::uint64_t> number_in(const std::string& path) {
  std::ifstream in(path);
  unsigned long long value = 0;
  if (!(in >> value)) return std::nullopt;
  return static_cast<std::uint64_t>(value);
}

// Limits this large mean "none" (cgroup v1 writes the largest page-aligned signed 64-bit value).
constexpr std::uint64_t kUnlimited = std::uint64_t{1} << 62;

// limit − usage for one group's directory, nullopt without a limit.
std::optional<std::uint64_t> headroom_of(const std::string& dir, const char* limit_file, const char* usage_file) {
  const auto limit = number_in(dir + "/" + limit_file);
  if (!limit || *limit >= kUnlimited) return std::nullopt;
  const std::uint64_t usage = number_in(dir + "/" + usage_file).value_or(0);
  return usage < *limit ? *limit - usage : 0;
}

// The group at `path` below `base` and each of its ancestors up to `base` itself.
std::vector<std::string> group_and_ancestors(const std::string& base, std::string path) {
  std::vector<std::string> dirs;
  while (!path.empty() && path.back() == '/') path.pop_back();
  for (;;) {
    dirs.push_back(base + path);
    if (path.empty()) break;
    path.resize(path.rfind('/') == std::string::npos ? 0 : path.rfind('/'));
  }
  return dirs;
}

}  // namespace

std::optional<std::uint64_t> cgroup_headroom(const std::string& proc_self_cgroup, const std::string& root) {
  std::optional<std::uint64_t> least;
  auto consider = [&](std::optional<std::uint64_t> h) {
    if (h) least = least ? std::min(*least, *h) : *h;
  };
  std::istringstream lines(proc_self_cgroup);
  for (std::string line; std::getline(lines, line);) {
    // "hierarchy-id:controllers:path"
    const auto first = line.find(':'), second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1), path = line.substr(second + 1);
    if (line.compare(0, first, "0") == 0 && controllers.empty()) {  // cgroup v2
      for (const auto& dir : group_and_ancestors(root, path)) consider(headroom_of(dir, "memory.max", "memory.current"));
    } else {
      std::istringstream names(controllers);
      for (std::string name; std::getline(names, name, ',');)
        if (name == "memory")
          for (const auto& dir : group_and_ancestors(root + "/memory", path))
            consider(headroom_of(dir, "memory.limit_in_bytes", "memory.usage_in_bytes"));
    }
  }
  return least;
}

std::uint64_t available_memory_bytes() {
  std::uint64_t available = 0;
  bool found = false;
  if (std::FILE* f = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    unsigned long long kib = 0;
    while (!found && std::fgets(line, sizeof line, f)) found = std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    std::fclose(f);
    if (found) available = static_cast<std::uint64_t>(kib) * 1024;
  }
  if (!found) {
    const long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) available = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
  }
  std::ifstream self("/proc/self/cgroup");
  std::ostringstream text;
  text << self.rdbuf();
  if (const auto headroom = cgroup_headroom(text.str(), "/sys/fs/cgroup"))
    available = available == 0 ? *headroom : std::min(available, *headroom);
  return available;
}

}  // namespace rr::platform
