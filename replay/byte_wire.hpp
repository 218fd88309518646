// Values laid into bytes and read back, for the messages of a replay over ranks (block_network.hpp). Both ends run
// the same program, so values go as their bytes; a message read past its end is a broken protocol, not bad input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace rr::replay {

class ByteWriter {
 public:
  template <typename T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto at = bytes_.size();
    bytes_.resize(at + sizeof(T));
    std::memcpy(bytes_.data() + at, &value, sizeof(T));
  }
  // Its size, then its elements.
  template <typename T>
  void put_all(std::span<const T> values) {
    static_assert(std::is_trivially_copyable_v<T>);
    put<std::uint64_t>(values.size());
    const auto at = bytes_.size();
    bytes_.resize(at + values.size_bytes());
    if (!values.empty()) std::memcpy(bytes_.data() + at, values.data(), values.size_bytes());
  }
  // Its length, then its characters.
  void put_text(std::string_view text) { put_all<char>(std::span<const char>(text.data(), text.size())); }
  std::vector<std::byte> take() { return std::move(bytes_); }

 private:
  std::vector<std::byte> bytes_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  template <typename T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    std::memcpy(&value, take(sizeof(T)), sizeof(T));
    return value;
  }
  template <typename T>
  std::vector<T> get_all() {
    const auto n = get<std::uint64_t>();
    if (n > (bytes_.size() - at_) / sizeof(T)) throw std::logic_error("replay over ranks: a message ends too soon");
    std::vector<T> values(n);
    if (n) std::memcpy(values.data(), take(n * sizeof(T)), n * sizeof(T));
    return values;
  }
  std::string get_text() {
    const std::vector<char> chars = get_all<char>();
    return {chars.begin(), chars.end()};
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  const std::byte* take(std::size_t n) {
    if (n > bytes_.size() - at_) throw std::logic_error("replay over ranks: a message ends too soon");
    const std::byte* p = bytes_.data() + at_;
    at_ += n;
    return p;
  }
  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
};

}  // namespace rr::replay
