// A Spirit X3 primitive for the hexadecimal ids that fill every line of a trace: the same language and
// attribute as x3::uint_parser<std::uint64_t, 16> (one or more hex digits, any case, leading zeros allowed,
// no "0x"; a value beyond 64 bits fails), by table lookup and one overflow test per digit. X3's generic digit
// loop was 8% of a whole replay.
#pragma once

#include <array>
#include <cstdint>

#include <boost/spirit/home/x3.hpp>

namespace rr::parser::grammar {

inline constexpr std::array<std::uint8_t, 256> kHexDigit = [] {
  std::array<std::uint8_t, 256> t{};
  for (auto& v : t) v = 0xff;
  for (int c = '0'; c <= '9'; ++c) t[c] = static_cast<std::uint8_t>(c - '0');
  for (int c = 'a'; c <= 'f'; ++c) t[c] = static_cast<std::uint8_t>(c - 'a' + 10);
  for (int c = 'A'; c <= 'F'; ++c) t[c] = static_cast<std::uint8_t>(c - 'A' + 10);
  return t;
}();

struct HexU64Parser : boost::spirit::x3::parser<HexU64Parser> {
  using attribute_type = std::uint64_t;
  static bool const has_attribute = true;

  template <typename Iterator, typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, Context const&, RContext&, Attribute& attr) const {
    Iterator it = first;
    std::uint64_t value = 0;
    for (; it != last; ++it) {
      const std::uint8_t digit = kHexDigit[static_cast<unsigned char>(*it)];
      if (digit > 15) break;
      if (value >> 60) return false;  // a 17th significant digit: does not fit 64 bits
      value = value << 4 | digit;
    }
    if (it == first) return false;
    boost::spirit::x3::traits::move_to(value, attr);
    first = it;
    return true;
  }
};

inline constexpr HexU64Parser hex_u64{};

}  // namespace rr::parser::grammar
