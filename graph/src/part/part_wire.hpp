// The bytes of the part build's exchanges: values and arrays of plain structs, written in order and read back in
// the same order. Every rank runs the same build, so the layout is the struct's own; a message cut short is an
// error, never a read past its end. A message's first byte says whether its sender is still going (0, written
// here) or stopped (PartChannel::send_failure): written first, so that no byte of the message moves to make room.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "platform/freed_memory.hpp"

namespace rr::graph::part_detail {

// Gives `array` room for `room` elements without holding it twice, as reserve would while it copies: the elements
// move to the new room a block at a time, each block's old pages given back once it is copied.
template <class T>
void grow_room(std::vector<T>& array, std::size_t room) {
  if (room <= array.capacity()) return;
  std::vector<T> grown;
  grown.reserve(room);
  constexpr std::size_t kBlock = std::size_t{1} << 16;
  for (std::size_t at = 0; at < array.size(); at += kBlock) {
    const std::size_t end = std::min(array.size(), at + kBlock);
    grown.insert(grown.end(), array.begin() + static_cast<std::ptrdiff_t>(at),
                 array.begin() + static_cast<std::ptrdiff_t>(end));
    platform::discard_pages(array.data(), end * sizeof(T));
  }
  platform::free_array(array);
  array = std::move(grown);
}

class WireWriter {
 public:
  WireWriter() : bytes_{std::byte{0}} {}
  template <class T>
  void value(const T& x) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const std::byte*>(&x);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  template <class T>
  void array(const std::vector<T>& xs) {
    static_assert(std::is_trivially_copyable_v<T>);
    value(static_cast<std::uint64_t>(xs.size()));
    const auto* p = reinterpret_cast<const std::byte*>(xs.data());
    bytes_.insert(bytes_.end(), p, p + xs.size() * sizeof(T));
  }
  // The same as array() for the n values from `data`.
  template <class T>
  void array(const T* data, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>);
    value(static_cast<std::uint64_t>(n));
    const auto* p = reinterpret_cast<const std::byte*>(data);
    bytes_.insert(bytes_.end(), p, p + n * sizeof(T));
  }
  std::vector<std::byte> take() { return std::move(bytes_); }

 private:
  std::vector<std::byte> bytes_;
};

class WireReader {
 public:
  // Reads past the first byte, which the exchange has checked.
  explicit WireReader(const std::vector<std::byte>& bytes) : bytes_(bytes), at_(1) {
    if (bytes.empty()) throw std::runtime_error("part build: an empty message");
  }
  template <class T>
  T value() {
    T x;
    copy(&x, sizeof(T));
    return x;
  }
  template <class T>
  std::vector<T> array() {
    const auto n = value<std::uint64_t>();
    if (n > (bytes_.size() - at_) / sizeof(T)) throw std::runtime_error("part build: a message is cut short");
    std::vector<T> xs(n);
    copy(xs.data(), n * sizeof(T));
    return xs;
  }
  // Appends the next array to `to`, with no copy in between.
  template <class T>
  void append_to(std::vector<T>& to) {
    const auto n = value<std::uint64_t>();
    if (n > (bytes_.size() - at_) / sizeof(T)) throw std::runtime_error("part build: a message is cut short");
    const std::size_t old = to.size();
    grow_room(to, old + n);  // exactly: growing by doubling would leave room unused at the build's peak
    to.resize(old + n);
    copy(to.data() + old, n * sizeof(T));
  }

 private:
  void copy(void* to, std::size_t n) {
    if (n > bytes_.size() - at_) throw std::runtime_error("part build: a message is cut short");
    if (n > 0) std::memcpy(to, bytes_.data() + at_, n);
    at_ += n;
  }
  const std::vector<std::byte>& bytes_;
  std::size_t at_;
};

}  // namespace rr::graph::part_detail
