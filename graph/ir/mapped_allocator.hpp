// An allocator that gives every large array pages of its own, so that freeing the array returns its memory.
//
// glibc serves mid-sized blocks (up to 32 MiB once its mmap threshold has adapted) from heap arenas and keeps
// them resident after free. Parsed records are released batch by batch while the event graph is built
// (GraphBuilder); from the heap, those frees would not lower the resident set, and the records would still
// count against the peak of reading plus building.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <memory>
#include <new>

#include "huge_pages.hpp"

namespace rr::ir {

template <class T>
struct MappedAllocator {
  using value_type = T;
  // Below this, a block comes from the ordinary heap: a page of its own would waste up to 4 KiB of it.
  static constexpr std::size_t kMinMappedBytes = std::size_t{64} << 10;

  MappedAllocator() noexcept = default;
  template <class U>
  MappedAllocator(const MappedAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kMinMappedBytes) return std::allocator<T>{}.allocate(n);
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    advise_huge_pages(p, bytes);
    return static_cast<T*>(p);
  }

  void deallocate(T* p, std::size_t n) noexcept {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kMinMappedBytes)
      std::allocator<T>{}.deallocate(p, n);
    else
      munmap(p, bytes);
  }

  template <class U>
  friend bool operator==(const MappedAllocator&, const MappedAllocator<U>&) noexcept {
    return true;
  }
};

}  // namespace rr::ir
