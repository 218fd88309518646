// A flat array that starts as zero bytes without being filled: large ones come straight from the kernel (an
// anonymous mapping, whose pages are zeroed as they are first touched, on huge pages where the kernel can), so a
// fresh array of hundreds of megabytes costs no pass over it, and its page faults come with the first writes
// rather than in a fill of their own. For element types whose all-zero bytes are the state to start from.
#pragma once

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#include "platform/huge_pages.hpp"

namespace rr::platform {

template <class T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T>, "the elements start as zero bytes and are copied as bytes");

 public:
  ZeroedArray() = default;
  explicit ZeroedArray(std::size_t n) : data_(allocate(n)), size_(n) {}
  ZeroedArray(const ZeroedArray& o) : data_(allocate(o.size_)), size_(o.size_) {
    if (size_) std::memcpy(data_, o.data_, size_ * sizeof(T));
  }
  ZeroedArray(ZeroedArray&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  ZeroedArray& operator=(ZeroedArray o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  ~ZeroedArray() { release(data_, size_); }

  // n elements of zero bytes; what was there is freed first, so the two are never held together.
  void reset(std::size_t n) {
    release(std::exchange(data_, nullptr), std::exchange(size_, 0));
    data_ = allocate(n);
    size_ = n;
  }

  std::size_t size() const { return size_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  // Below this a mapping would waste most of a page: calloc, which zeroes small blocks itself.
  static constexpr std::size_t kMapFrom = std::size_t{64} << 10;

  static T* allocate(std::size_t n) {
    if (n == 0) return nullptr;
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kMapFrom) {
      void* p = std::calloc(n, sizeof(T));
      if (!p) throw std::bad_alloc();
      return static_cast<T*>(p);
    }
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    advise_huge_pages(p, bytes);
    return static_cast<T*>(p);
  }
  static void release(T* data, std::size_t n) {
    if (!data) return;
    if (n * sizeof(T) < kMapFrom) std::free(data);
    else munmap(data, n * sizeof(T));
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace rr::platform
