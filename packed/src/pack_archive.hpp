// The byte encoding of a packed trace's small parts (everything but the graph's arrays): a Writer and a Reader
// that walk the same field lists (pack_fields.hpp), so that what is written and what is read cannot drift
// apart. Numbers are stored as in memory (a packed trace is read on a machine of the same byte order, which
// its header checks); strings and arrays carry their length. The Reader never reads past its bytes nor
// allocates more elements than the bytes left could hold: a damaged part is an error, never a crash.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/diagnostics.hpp"

namespace rr::packed::pack {

// A part that cannot be decoded; the message says what and at which byte of the part.
struct Undecodable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class T>
inline constexpr bool kIsScalar = std::is_arithmetic_v<T> || std::is_enum_v<T>;

class Writer {
 public:
  template <class T>
  void operator()(const T& x) {
    if constexpr (kIsScalar<T>) {
      bytes_.append(reinterpret_cast<const char*>(&x), sizeof x);
    } else {
      fields(*this, const_cast<T&>(x));  // the field lists take T&; a Writer only reads through it
    }
  }
  void operator()(const std::string& s) {
    (*this)(std::uint64_t{s.size()});
    bytes_.append(s);
  }
  template <class T>
  void operator()(const std::vector<T>& v) {
    (*this)(std::uint64_t{v.size()});
    for (const T& x : v) (*this)(x);
  }
  template <class T, std::size_t N>
  void operator()(const std::array<T, N>& a) {
    for (const T& x : a) (*this)(x);
  }
  template <class T>
  void operator()(const std::optional<T>& o) {
    (*this)(static_cast<std::uint8_t>(o.has_value()));
    if (o) (*this)(*o);
  }
  template <class A, class B>
  void operator()(const std::pair<A, B>& p) {
    (*this)(p.first);
    (*this)(p.second);
  }
  template <class K, class V, class C>
  void operator()(const std::map<K, V, C>& m) {
    (*this)(std::uint64_t{m.size()});
    for (const auto& [k, v] : m) {
      (*this)(k);
      (*this)(v);
    }
  }
  template <class E, std::size_t N>
  void operator()(const core::EnumCounts<E, N>& c) {
    (*this)(c.values);
  }

  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

class Reader {
 public:
  explicit Reader(std::span<const std::byte> bytes) : bytes_(bytes) {}

  template <class T>
  void operator()(T& x) {
    if constexpr (kIsScalar<T>) {
      take(&x, sizeof x);
      if constexpr (std::is_same_v<T, bool>) {
        // Any byte other than 0 or 1 is not a bool: reading it as one is undefined.
        unsigned char b;
        std::memcpy(&b, &x, 1);
        if (b > 1) fail("a flag that is neither 0 nor 1");
      }
    } else {
      fields(*this, x);
    }
  }
  void operator()(std::string& s) {
    const std::size_t n = count(1);
    s.assign(reinterpret_cast<const char*>(bytes_.data() + at_), n);
    at_ += n;
  }
  template <class T>
  void operator()(std::vector<T>& v) {
    const std::size_t n = count(1);  // every element takes at least one byte
    // Element by element: memory grows with the bytes decoded, never with a count the bytes cannot back.
    v.clear();
    for (std::size_t i = 0; i < n; ++i) (*this)(v.emplace_back());
  }
  template <class T, std::size_t N>
  void operator()(std::array<T, N>& a) {
    for (T& x : a) (*this)(x);
  }
  template <class T>
  void operator()(std::optional<T>& o) {
    std::uint8_t has = 0;
    (*this)(has);
    if (has > 1) fail("a presence flag that is neither 0 nor 1");
    if (has) (*this)(o.emplace());
    else o.reset();
  }
  template <class A, class B>
  void operator()(std::pair<A, B>& p) {
    (*this)(p.first);
    (*this)(p.second);
  }
  template <class K, class V, class C>
  void operator()(std::map<K, V, C>& m) {
    const std::size_t n = count(2);
    m.clear();
    for (std::size_t i = 0; i < n; ++i) {
      std::pair<K, V> kv;
      (*this)(kv.first);
      (*this)(kv.second);
      m.insert(std::move(kv));
    }
  }
  template <class E, std::size_t N>
  void operator()(core::EnumCounts<E, N>& c) {
    (*this)(c.values);
  }

  bool done() const { return at_ == bytes_.size(); }
  // Throws Undecodable("<what> at byte N").
  [[noreturn]] void fail(const std::string& what) const {
    throw Undecodable(what + " at byte " + std::to_string(at_));
  }

 private:
  void take(void* out, std::size_t n) {
    if (bytes_.size() - at_ < n) fail("the part ends inside a value");
    std::memcpy(out, bytes_.data() + at_, n);
    at_ += n;
  }
  // A length, refused when that many elements of at least `min_bytes` each cannot fit in what is left.
  std::size_t count(std::size_t min_bytes) {
    std::uint64_t n = 0;
    take(&n, sizeof n);
    if (n > (bytes_.size() - at_) / min_bytes) fail("a length of " + std::to_string(n) + " past the end of the part");
    return static_cast<std::size_t>(n);
  }

  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
};

// An enum read from bytes must be one of its values: `count` is how many there are (0 .. count - 1).
template <class E>
void check_enum(Reader& r, E e, std::size_t count) {
  if (static_cast<std::size_t>(e) >= count) r.fail("an unknown kind");
}
template <class E>
void check_enum(Writer&, E, std::size_t) {}

}  // namespace rr::packed::pack
