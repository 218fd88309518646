// Gives the memory of released records back to the system while the graph is built, so that the peak of
// reading plus building is not that of the graph plus every record.
//
// glibc keeps freed heap blocks resident: on free() only the top of a heap shrinks. So a large array gives its
// pages back itself as it is freed (free_array), and malloc_trim hands back the whole free pages the smaller
// ones leave inside the heaps. It walks the free lists, so it runs once per kStep bytes released rather than on
// every free. Other C libraries: malloc_trim is not called (the frees still count).
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "platform/whole_pages.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace rr::platform {

// Arrays from this size up give their pages back as they are freed (free_array).
inline constexpr std::size_t kDiscardFrom = std::size_t{64} << 10;

// Hands the whole pages inside [data, data + bytes) back to the system; they read as zeros if touched again.
inline void discard_pages(const void* data, std::size_t bytes) {
  advise_whole_pages(data, bytes, static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE)), MADV_DONTNEED);
}

// Frees an array for good (clear() would keep its memory) and returns the bytes it held. A large array's pages go
// back to the system first: freed into the heap, they would stay resident until a malloc_trim found them, or until
// the heap handed the block out again.
template <class T>
std::size_t free_array(std::vector<T>& array) {
  const std::size_t bytes = array.capacity() * sizeof(T);
  if (bytes >= kDiscardFrom) discard_pages(array.data(), bytes);
  std::vector<T>().swap(array);
  return bytes;
}

class FreedMemory {
 public:
  static constexpr std::size_t kStep = std::size_t{32} << 20;

  // Notes `bytes` just freed, from any thread; gives free pages back each time the total crosses a step.
  void released(std::size_t bytes) {
    const std::size_t before = total_.fetch_add(bytes, std::memory_order_relaxed);
    if (before / kStep != (before + bytes) / kStep) give_back();
  }

  // Hands every free page of the heaps back to the system now.
  static void give_back() {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
  }

 private:
  std::atomic<std::size_t> total_{0};
};

}  // namespace rr::platform
