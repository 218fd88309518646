// The number primitives against X3's own uint_parsers (the oracles they replace): the same verdict, value and
// end position on hand-picked edges and on random strings of digits and other bytes.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "parser/src/number_parsers.hpp"

namespace rr::parser::grammar {
namespace {

namespace x3 = boost::spirit::x3;

struct Outcome {
  bool ok;
  std::uint64_t value;
  std::size_t consumed;
};

template <typename Value = std::uint64_t, typename Parser>
Outcome run(const Parser& p, const std::string& s) {
  auto it = s.begin();
  Value value = 0;
  const bool ok = x3::parse(it, s.end(), p, value);
  return {ok, ok ? value : 0, static_cast<std::size_t>(it - s.begin())};
}

// The same verdict, value and end position from the primitive and from X3's parser on s.
template <typename Value, typename Mine, typename Oracle>
void expect_agree(const Mine& mine_parser, const Oracle& oracle_parser, const std::string& s) {
  const Outcome mine = run<Value>(mine_parser, s);
  const Outcome oracle = run<Value>(oracle_parser, s);
  EXPECT_EQ(mine.ok, oracle.ok) << '"' << s << '"';
  EXPECT_EQ(mine.value, oracle.value) << '"' << s << '"';
  EXPECT_EQ(mine.consumed, oracle.consumed) << '"' << s << '"';
}

void expect_same(const std::string& s) {
  expect_agree<std::uint64_t>(hex_u64, x3::uint_parser<std::uint64_t, 16>{}, s);
}

template <typename Unsigned>
void expect_same_decimal(const std::string& s) {
  expect_agree<Unsigned>(DecimalParser<Unsigned>{}, x3::uint_parser<Unsigned, 10>{}, s);
}

// Up to max_length characters drawn from alphabet.
std::string random_string(std::mt19937_64& rng, const std::string& alphabet, std::size_t max_length) {
  std::string s;
  const std::size_t length = rng() % max_length;
  for (std::size_t k = 0; k < length; ++k) s += alphabet[rng() % alphabet.size()];
  return s;
}

TEST(HexParser, Edges) {
  for (const char* s : {"", "0", "f", "F", "g", "-1", "+1", " 1", "0x1", "1x", "ffffffffffffffff", "FFFFFFFFFFFFFFFF",
                        "10000000000000000", "0000000000000000000000ffffffffffffffff", "00000000000000000000000000",
                        "1fffffffffffffff)", "7fffe2219ca0,", "deadBEEF 12", "ffffffffffffffff0", "g123"})
    expect_same(s);
  EXPECT_EQ(run(hex_u64, "7fffe2219ca0 rest").value, 0x7fffe2219ca0u);
  EXPECT_FALSE(run(hex_u64, "10000000000000000").ok);  // 2^64: does not fit
}

TEST(HexParser, RandomStringsAgreeWithX3) {
  std::mt19937_64 rng(7);
  const std::string alphabet = "0123456789abcdefABCDEF0000ffff xg,()-";
  for (int i = 0; i < 200000; ++i) {
    expect_same(random_string(rng, alphabet, 24));
    if (HasFailure()) return;
  }
}

TEST(DecimalParser, Edges) {
  for (const char* s : {"", "0", "9", "a", "-1", "+1", " 1", "007", "4294967295", "4294967296", "4294967290x",
                        "00000000000000004294967295", "18446744073709551615", "18446744073709551616",
                        "99999999999999999999", "12 34", "1)"}) {
    expect_same_decimal<std::uint32_t>(s);
    expect_same_decimal<std::uint64_t>(s);
  }
  EXPECT_FALSE(run<std::uint32_t>(dec_u32, "4294967296").ok);
  EXPECT_EQ(run<std::uint64_t>(dec_u64, "18446744073709551615").value, ~std::uint64_t{0});
}

TEST(DecimalParser, RandomStringsAgreeWithX3) {
  std::mt19937_64 rng(11);
  const std::string alphabet = "01234567899999 a-+,)";
  for (int i = 0; i < 200000; ++i) {
    const std::string s = random_string(rng, alphabet, 26);
    expect_same_decimal<std::uint32_t>(s);
    expect_same_decimal<std::uint64_t>(s);
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace rr::parser::grammar
