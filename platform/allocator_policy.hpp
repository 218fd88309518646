// How the process's allocator treats large arrays: set once, at the start of a program that reads traces.
#pragma once

#include <cstddef>

namespace rr::platform {

// Arrays from this size up get pages of their own from the system, which go back to it the moment they are freed.
inline constexpr std::size_t kOwnPagesFrom = std::size_t{128} << 10;

// glibc starts there (128 KiB) but then raises its threshold to the size of every such array freed, up to
// 32 MiB. The graph build frees the parsed records batch by batch (arrays of 0.1-2 MB each) while it fills the
// graph: past the first such free, later arrays of that size came from the heap and stayed resident once freed
// until a malloc_trim found them, 16 MiB of a 405 MiB peak on a 7.6 M-record trace. Fixing the threshold keeps
// glibc's first behaviour. Other C libraries: nothing to do.
void give_large_arrays_their_own_pages();

}  // namespace rr::platform
