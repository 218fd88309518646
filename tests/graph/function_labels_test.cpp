// The one rule by which every output names a function: escaping, "name#id" for shared names, f<id> otherwise.
#include <gtest/gtest.h>

#include "graph/event_graph.hpp"
#include "graph/function_labels.hpp"

namespace rr::graph {
namespace {

TEST(FunctionLabels, EscapesWhatWouldSplitAFrameOrALine) {
  EXPECT_EQ(escape_function_name("calc_new_currents"), "calc_new_currents");
  EXPECT_EQ(escape_function_name("a;b"), "a%3Bb");           // ';' separates frames of a folded stack
  EXPECT_EQ(escape_function_name("50%"), "50%25");           // the escape character itself: reversible
  EXPECT_EQ(escape_function_name("two\nlines"), "two%0Alines");  // a newline would end a folded line
  EXPECT_EQ(escape_function_name(std::string("nul\0x", 5)), "nul%00x");
  EXPECT_EQ(escape_function_name("tab\there\x7f"), "tab%09here%7F");
  // Spaces, '#', quotes and bytes of UTF-8 are kept: a folded line's value follows its last space.
  EXPECT_EQ(escape_function_name("Trigger Task Mapping"), "Trigger Task Mapping");
  EXPECT_EQ(escape_function_name("x#1 \"q\" \xc3\xa9"), "x#1 \"q\" \xc3\xa9");
}

TEST(FunctionLabels, SharedNamesCarryTheirIds) {
  const FunctionNames labels = function_labels({{2, "main"}, {5, "solve"}, {9, "solve"}, {14, ""}, {20, "other"}});
  const FunctionNames expected = {{2, "main"}, {5, "solve#5"}, {9, "solve#9"}, {20, "other"}};
  EXPECT_EQ(labels, expected);  // the empty name is left out: function 14 prints as f14
}

TEST(FunctionLabels, NamesAreComparedAsPrinted) {
  // With '%' escaped too, "a;b" and "a%3Bb" print differently and stay plain.
  EXPECT_EQ(function_labels({{1, "a;b"}, {2, "a%3Bb"}}), (FunctionNames{{1, "a%3Bb"}, {2, "a%253Bb"}}));
  EXPECT_EQ(function_labels({{1, "x\n"}, {2, "x\n"}}), (FunctionNames{{1, "x%0A#1"}, {2, "x%0A#2"}}));
}

TEST(FunctionLabels, ANameThatReadsAsAnotherFunctionsIdCarriesItsOwn) {
  EXPECT_EQ(function_labels({{5, "f7"}}), (FunctionNames{{5, "f7#5"}}));
  EXPECT_EQ(function_labels({{5, "f5"}}), (FunctionNames{{5, "f5"}}));    // its own: no other function prints it
  EXPECT_EQ(function_labels({{5, "f07"}}), (FunctionNames{{5, "f07"}}));  // no function prints f07
  EXPECT_EQ(function_labels({{5, "f99999999999"}}), (FunctionNames{{5, "f99999999999"}}));  // past 32 bits
  EXPECT_EQ(function_labels({{5, "f"}}), (FunctionNames{{5, "f"}}));
}

TEST(FunctionLabels, MergeLetsTheOverrideWin) {
  const FunctionNames merged = merge_function_names({{1, "a"}, {2, "b"}}, {{2, "B"}, {3, "c"}});
  EXPECT_EQ(merged, (FunctionNames{{1, "a"}, {2, "B"}, {3, "c"}}));
}

TEST(FunctionLabels, TheGraphPrintsEveryFunctionByTheRule) {
  VertexTable v;
  v.function_names = {{9, "solve"}, {5, "solve"}, {3, "main"}};
  const EventGraph g = EventGraph::freeze(std::move(v), {});
  EXPECT_EQ(g.function_name(3), "main");
  EXPECT_EQ(g.function_name(5), "solve#5");
  EXPECT_EQ(g.function_name(9), "solve#9");
  EXPECT_EQ(g.function_name(4), "f4");
  EXPECT_EQ(g.function_names().front(), (std::pair<std::uint32_t, std::string>{3, "main"}));  // sorted, as given

  EventGraph renamed = g;
  renamed.set_function_names(merge_function_names(g.function_names(), {{9, "relax"}, {4, "setup"}}));
  EXPECT_EQ(renamed.function_name(5), "solve");  // no longer shared
  EXPECT_EQ(renamed.function_name(9), "relax");
  EXPECT_EQ(renamed.function_name(4), "setup");
  EXPECT_EQ(g.function_name(5), "solve#5");  // the copy it came from keeps its names
}

}  // namespace
}  // namespace rr::graph
