// platform::ZeroedArray (the replay's per-operation records): zero bytes from the start on both of its ways to get
// memory (calloc for small arrays, a mapping for large ones), deep copies, moves, and reset.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

#include "platform/zeroed_array.hpp"

namespace rr::platform {
namespace {

struct Twelve {
  std::uint32_t a, b, c;
};

bool all_zero(const ZeroedArray<Twelve>& z) {
  for (std::size_t i = 0; i < z.size(); ++i)
    if (z[i].a || z[i].b || z[i].c) return false;
  return true;
}

TEST(ZeroedArray, StartsAsZeroBytesSmallAndLarge) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{100}, std::size_t{1} << 20}) {
    ZeroedArray<Twelve> z(n);
    EXPECT_EQ(z.size(), n);
    EXPECT_TRUE(all_zero(z)) << n;
    if (n) {
      z[n - 1].c = 7;
      EXPECT_EQ(z[n - 1].c, 7u);
    }
  }
}

TEST(ZeroedArray, CopiesAreDeepMovesLeaveItEmptyResetStartsOver) {
  for (const std::size_t n : {std::size_t{10}, std::size_t{300000}}) {  // below and above the mapping's threshold
    ZeroedArray<Twelve> a(n);
    a[3] = {1, 2, 3};
    ZeroedArray<Twelve> b = a;
    b[3].a = 9;
    EXPECT_EQ(a[3].a, 1u);
    EXPECT_EQ(b[3].b, 2u);
    ZeroedArray<Twelve> c = std::move(b);
    EXPECT_EQ(b.size(), 0u);
    EXPECT_EQ(c[3].a, 9u);
    a = c;
    EXPECT_EQ(a[3].a, 9u);
    a.reset(n / 2);
    EXPECT_EQ(a.size(), n / 2);
    EXPECT_TRUE(all_zero(a));
    a = std::move(c);
    EXPECT_EQ(a.size(), n);
    EXPECT_EQ(a[3].c, 3u);
  }
}

}  // namespace
}  // namespace rr::platform
