// platform::available_memory_bytes, which bounds how many replays the traced machine's fit runs at once: the
// kernel's MemAvailable, read here independently, lowered by what the process's control groups still allow
// (cgroup_headroom, checked on cgroup trees made here).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "platform/available_memory.hpp"
#include "support/test_dir.hpp"

namespace {

namespace fs = std::filesystem;
using rr::platform::cgroup_headroom;

TEST(AvailableMemory, AtMostTheKernelsMemAvailableAndThePhysicalMemory) {
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
  EXPECT_GT(got, 0u);
  // Other processes change it between the two reads: up to 20% more.
  EXPECT_LE(static_cast<double>(got), 1.2 * static_cast<double>(expected_kib) * 1024);
  const auto physical = static_cast<std::uint64_t>(::sysconf(_SC_PHYS_PAGES)) * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  EXPECT_LE(got, physical);
}

class CgroupTree : public ::testing::Test {
 protected:
  void write(const std::string& file, const std::string& text) {
    fs::create_directories((dir_.path() / file).parent_path());
    std::ofstream(dir_.path() / file) << text;
  }
  std::string root() const { return dir_.path().string(); }
  rr::testing::TestDir dir_{"rr_cgroup"};
};

TEST_F(CgroupTree, V2TheTightestOfTheGroupAndItsAncestors) {
  write("job/memory.max", "1000000\n");
  write("job/memory.current", "400000\n");
  write("job/step/memory.max", "max\n");
  write("job/step/memory.current", "300000\n");
  EXPECT_EQ(cgroup_headroom("0::/job/step\n", root()), 600000u);  // the job's limit, not the step's "max"
  write("job/step/memory.max", "500000\n");
  EXPECT_EQ(cgroup_headroom("0::/job/step\n", root()), 200000u);
  write("job/step/memory.current", "700000\n");
  EXPECT_EQ(cgroup_headroom("0::/job/step\n", root()), 0u);  // over its limit: nothing left
}

TEST_F(CgroupTree, V2WithoutLimitsOrFilesIsUnknown) {
  write("job/memory.max", "max\n");
  EXPECT_EQ(cgroup_headroom("0::/job\n", root()), std::nullopt);
  EXPECT_EQ(cgroup_headroom("0::/\n", root()), std::nullopt);
  EXPECT_EQ(cgroup_headroom("0::/nowhere\n", root()), std::nullopt);
  EXPECT_EQ(cgroup_headroom("", root()), std::nullopt);
  EXPECT_EQ(cgroup_headroom("garbage without colons\n", root()), std::nullopt);
}

TEST_F(CgroupTree, V1TheMemoryControllersGroupUnlimitedAtTheRoot) {
  write("memory/memory.limit_in_bytes", "9223372036854771712\n");
  write("memory/memory.usage_in_bytes", "5000000\n");
  write("memory/api/7/memory.limit_in_bytes", "2000000\n");
  write("memory/api/7/memory.usage_in_bytes", "500000\n");
  const std::string self = "9:name=systemd:/\n4:memory:/api/7\n3:cpuset:/\n0::/\n";
  EXPECT_EQ(cgroup_headroom(self, root()), 1500000u);
  // Another controller's line with the same path is not memory's.
  EXPECT_EQ(cgroup_headroom("3:cpu,cpuacct:/api/7\n", root()), std::nullopt);
  EXPECT_EQ(cgroup_headroom("4:cpu,memory:/api/7\n", root()), 1500000u);
}

}  // namespace
