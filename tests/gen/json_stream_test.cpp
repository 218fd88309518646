// The streaming JSON writer: the layout it promises, escaping that any JSON reader undoes, and misuse caught.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "gen/json_stream.hpp"
#include "support/test_dir.hpp"

namespace rr::gen {
namespace {

std::string written(const std::function<void(JsonStream&)>& write) {
  const rr::testing::TestDir dir("rr_json_stream");
  const auto path = dir.path() / "out.json";
  CompressedOutput out(path, Compression::none);
  JsonStream json(out);
  write(json);
  json.finish();
  out.commit();
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(JsonStream, MultiLineContainersIndentAndOneLineContainersStayOnOneLine) {
  const std::string text = written([](JsonStream& j) {
    j.begin_object().member("a", 1).key("inline").begin_object(true).member("x", -2).member("y", "z").end_object();
    j.key("list").begin_array();
    j.begin_object(true).member("n", 3u).end_object();
    j.begin_object(true).end_object();
    j.end_array().key("empty").begin_array().end_array().end_object();
  });
  EXPECT_EQ(text,
            "{\n  \"a\": 1,\n  \"inline\": {\"x\": -2, \"y\": \"z\"},\n  \"list\": [\n    {\"n\": 3},\n    {}\n  ],\n"
            "  \"empty\": []\n}\n");
}

TEST(JsonStream, StringsRoundTripThroughAJsonReader) {
  const std::string nasty = std::string("quote \" backslash \\ newline \n tab \t nul ") + '\0' + " bell \x07 é";
  const std::string text = written([&](JsonStream& j) { j.begin_object().member(nasty, nasty).end_object(); });
  const auto parsed = nlohmann::json::parse(text);
  ASSERT_TRUE(parsed.contains(nasty));
  EXPECT_EQ(parsed[nasty].get<std::string>(), nasty);
}

TEST(JsonStream, IntegersKeepEveryDigit) {
  const std::string text = written([](JsonStream& j) {
    j.begin_array(true).value(std::numeric_limits<std::int64_t>::min()).value(std::numeric_limits<std::uint64_t>::max());
    j.end_array();
  });
  EXPECT_EQ(text, "[-9223372036854775808, 18446744073709551615]\n");
}

TEST(JsonStream, MisuseIsALogicError) {
  const rr::testing::TestDir dir("rr_json_stream");
  CompressedOutput out(dir.path() / "bad.json", Compression::none);
  {
    JsonStream j(out);
    j.begin_object();
    EXPECT_THROW(j.value(1), std::logic_error);  // a value where a key is due
  }
  {
    JsonStream j(out);
    j.begin_array();
    EXPECT_THROW(j.key("k"), std::logic_error);  // a key in an array
    EXPECT_THROW(j.end_object(), std::logic_error);
    EXPECT_THROW(j.finish(), std::logic_error);  // not complete
  }
}

}  // namespace
}  // namespace rr::gen
