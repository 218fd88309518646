// madvise on the whole pages inside a byte range, never on a page that bytes outside the range share.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

namespace rr::platform {

// Gives `advice` for the whole pages of `page` bytes (a power of two) inside [data, data + bytes); nothing when
// the range holds no whole page.
inline void advise_whole_pages(const void* data, std::size_t bytes, std::uintptr_t page, int advice) {
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + page - 1) & ~(page - 1);
  const std::uintptr_t last = (begin + bytes) & ~(page - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, advice);
}

}  // namespace rr::platform
