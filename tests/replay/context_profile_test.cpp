// The context trie against a naive oracle (a stack string built per operation), on hand-made and real traces.
#include <gtest/gtest.h>

#include <map>

#include "replay/context_profile.hpp"
#include "support/replay_fixture.hpp"

namespace rr::replay {
namespace {

using graph::OpKind;
using graph::VertexId;

// The oracle: for every task segment, walk the issuer chain, build the string, add the busy time.
std::string naive_folded(const graph::EventGraph& g, const ReplayResult& r) {
  std::map<std::string, TimeNs> sums;
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    if (g.kind(v) != OpKind::task && g.kind(v) != OpKind::task_resume) continue;
    if (r.end(v) == kNever) continue;
    VertexId task = g.kind(v) == OpKind::task ? v : g.resume_wait(v).task;
    std::vector<std::uint32_t> funcs;
    for (VertexId u = task; u != graph::kNoVertex; u = g.issuer(u)) funcs.push_back(g.task(u).func_id);
    std::string stack;
    for (auto it = funcs.rbegin(); it != funcs.rend(); ++it) stack += (stack.empty() ? "" : ";") + g.function_name(*it);
    sums[stack] += r.end(v) - r.start(v);
  }
  std::string out;
  for (const auto& [s, ns] : sums)
    if ((ns + 500) / 1000 > 0) out += s + " " + std::to_string((ns + 500) / 1000) + "\n";
  return out;
}

TEST(ContextProfile, NestedTasksFoldIntoTheirStacks) {
  auto r = testing::replay_lines({testing::task(4, "80000000", "(20000001,1)"),
                                  testing::task(17, "80000001", "(20000002,1)", "(0,0)", "(20000001,1)"),
                                  testing::task(23, "80000001", "(20000003,1)", "(0,0)", "(20000002,1)"),
                                  testing::task(23, "80000001", "(20000004,1)", "(0,0)", "(20000002,1)"),
                                  "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 20",
                                  "Task Time: (20000003,1) 30", "Task Time: (20000004,1) 5"});
  auto trie = ContextTrie::build(r.graph(), r.run.result, nullptr);
  EXPECT_EQ(trie.folded(false), "f4 10\nf4;f17 20\nf4;f17;f23 35\n");
  EXPECT_EQ(trie.size(), 4u);  // root, f4, f4;f17, f4;f17;f23
  EXPECT_EQ(trie.folded(false), naive_folded(r.graph(), r.run.result));
}

TEST(ContextProfile, FramesAreTheFunctionsNames) {
  auto r = testing::replay_lines({testing::task(4, "80000000", "(20000001,1)"),
                                  testing::task(17, "80000001", "(20000002,1)", "(0,0)", "(20000001,1)"),
                                  testing::task(23, "80000001", "(20000003,1)", "(0,0)", "(20000002,1)"),
                                  testing::task(24, "80000001", "(20000004,1)", "(0,0)", "(20000002,1)"),
                                  "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 20",
                                  "Task Time: (20000003,1) 30", "Task Time: (20000004,1) 5"});
  // A ';' in a name would split its frame in two; two functions of one name would fold into one frame.
  r.trace.built.graph.set_function_names({{4, "main"}, {17, "a;b"}, {23, "leaf"}, {24, "leaf"}});
  auto trie = ContextTrie::build(r.graph(), r.run.result, nullptr);
  EXPECT_EQ(trie.folded(false), "main 10\nmain;a%3Bb 20\nmain;a%3Bb;leaf#23 30\nmain;a%3Bb;leaf#24 5\n");
  EXPECT_EQ(trie.folded(false), naive_folded(r.graph(), r.run.result));
  // Unnamed functions keep their ids.
  r.trace.built.graph.set_function_names({{4, "main"}});
  EXPECT_EQ(ContextTrie::build(r.graph(), r.run.result, nullptr).folded(false),
            "main 10\nmain;f17 20\nmain;f17;f23 30\nmain;f17;f24 5\n");
}

TEST(ContextProfile, CriticalPathTimeIsChargedToContexts) {
  auto r = testing::replay_lines({testing::task(4, "80000000", "(20000001,1)"),
                                  testing::task(17, "80000001", "(20000002,1)", "(0,0)", "(20000001,1)"),
                                  "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 20"},
                                 {"runtime.issue_point=end"});
  auto cp = critical_path(r.graph(), r.run.map, r.run.model, r.run.result);
  auto trie = ContextTrie::build(r.graph(), r.run.result, &cp);
  // f4 runs 10 us and issues f17 at its end; f17 runs 20 us: all 30 us are on the path.
  EXPECT_EQ(trie.folded(true), "f4 10\nf4;f17 20\n");
}

TEST(ContextProfile, DifferentialFormListsBothRuns) {
  auto base = testing::replay_lines({testing::task(4, "80000000", "(20000001,1)"), "Task Time: (20000001,1) 10"});
  auto fast = testing::replay_lines({testing::task(4, "80000000", "(20000001,1)"), "Task Time: (20000001,1) 10"},
                                    {"processors.cpu.speed=2"});
  auto a = ContextTrie::build(base.graph(), base.run.result, nullptr);
  auto b = ContextTrie::build(fast.graph(), fast.run.result, nullptr);
  EXPECT_EQ(folded_diff(a, b, false), "f4 10 5\n");
}

TEST(ContextProfile, RealTracesMatchTheNaiveOracle) {
  for (const char* name : {"full_ghost_b2_cpu2", "full_circuit_2node_p4_cpu2"}) {
    auto r = testing::replay_real(name);
    auto trie = ContextTrie::build(r.graph(), r.run.result, nullptr);
    EXPECT_EQ(trie.folded(false), naive_folded(r.graph(), r.run.result)) << name;
    EXPECT_GT(trie.size(), 3u) << name;
  }
}

TEST(ContextProfile, GeneratedSamplesMatchTheNaiveOracle) {
  for (const char* name : {"dme_all_4n", "dme_mixed_2n"}) {
    const std::string dir = std::string(RR_SOURCE_DIR "/data/traces/s3d/") + name;
    auto r = testing::replay_path(dir, RR_SOURCE_DIR "/data/machines/titan.toml");
    auto trie = ContextTrie::build(r.graph(), r.run.result, nullptr);
    EXPECT_EQ(trie.folded(false), naive_folded(r.graph(), r.run.result)) << name;
    EXPECT_GT(trie.size(), 10u) << name;  // one context per task function
  }
}

}  // namespace
}  // namespace rr::replay
