// platform::available_memory_bytes, which bounds how many replays the traced machine's fit runs at once: the
// kernel's MemAvailable, read here independently, and never more than the machine has.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "platform/available_memory.hpp"

namespace {

TEST(AvailableMemory, IsTheKernelsMemAvailableAndAtMostThePhysicalMemory) {
  std::ifstream meminfo("/proc/meminfo");
  ASSERT_TRUE(meminfo) << "a Linux /proc is needed";
  std::uint64_t expected_kib = 0;
  for (std::string line; std::getline(meminfo, line);) {
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    if (name == "MemAvailable:") fields >> expected_kib;
  }
  ASSERT_GT(expected_kib, 0u);
  const std::uint64_t got = rr::platform::available_memory_bytes();
  const double expected = static_cast<double>(expected_kib) * 1024;
  // Other processes change it between the two reads: within 20%.
  EXPECT_NEAR(static_cast<double>(got), expected, 0.2 * expected);
  const auto physical = static_cast<std::uint64_t>(::sysconf(_SC_PHYS_PAGES)) * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  EXPECT_LE(got, physical);
}

}  // namespace
