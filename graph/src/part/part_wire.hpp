// The bytes of the part build's exchanges: values and arrays of plain structs, written in order and read back in
// the same order. Every rank runs the same build, so the layout is the struct's own; a message cut short or longer
// than its reader expects is an error, never a read past its end.
#pragma once

#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace rr::graph::part_detail {

class WireWriter {
 public:
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
  std::vector<std::byte> take() { return std::move(bytes_); }

 private:
  std::vector<std::byte> bytes_;
};

class WireReader {
 public:
  explicit WireReader(const std::vector<std::byte>& bytes) : bytes_(bytes) {}
  template <class T>
  T value() {
    T x;
    copy(&x, sizeof(T));
    return x;
  }
  template <class T>
  std::vector<T> array() {
    const auto n = value<std::uint64_t>();
    if (n > (bytes_.size() - at_) / (sizeof(T) == 0 ? 1 : sizeof(T))) throw std::runtime_error("part build: a message is cut short");
    std::vector<T> xs(n);
    copy(xs.data(), n * sizeof(T));
    return xs;
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  void copy(void* to, std::size_t n) {
    if (n > bytes_.size() - at_) throw std::runtime_error("part build: a message is cut short");
    if (n > 0) std::memcpy(to, bytes_.data() + at_, n);
    at_ += n;
  }
  const std::vector<std::byte>& bytes_;
  std::size_t at_ = 0;
};

}  // namespace rr::graph::part_detail
