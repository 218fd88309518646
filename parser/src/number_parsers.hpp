// Spirit X3 primitives for the unsigned numbers that fill every line of a trace: hexadecimal ids and decimal
// counts. Each has the language and attribute of the x3::uint_parser it replaces (one or more digits, leading
// zeros allowed, no sign or "0x"; a value beyond the type fails), with one table lookup or subtraction and one
// overflow test per digit. X3's generic digit loops were 8% (hex) and 6% (decimal) of reading a trace.
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

// Like x3::uint_parser<Unsigned, 10>.
template <typename Unsigned>
struct DecimalParser : boost::spirit::x3::parser<DecimalParser<Unsigned>> {
  using attribute_type = Unsigned;
  static bool const has_attribute = true;

  template <typename Iterator, typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, Context const&, RContext&, Attribute& attr) const {
    constexpr Unsigned kMax = static_cast<Unsigned>(~Unsigned{0});
    Iterator it = first;
    Unsigned value = 0;
    for (; it != last; ++it) {
      const unsigned digit = static_cast<unsigned>(static_cast<unsigned char>(*it)) - '0';
      if (digit > 9) break;
      if (value > (kMax - digit) / 10) return false;  // value * 10 + digit does not fit
      value = static_cast<Unsigned>(value * 10 + digit);
    }
    if (it == first) return false;
    boost::spirit::x3::traits::move_to(value, attr);
    first = it;
    return true;
  }
};

inline constexpr DecimalParser<std::uint32_t> dec_u32{};
inline constexpr DecimalParser<std::uint64_t> dec_u64{};

}  // namespace rr::parser::grammar
