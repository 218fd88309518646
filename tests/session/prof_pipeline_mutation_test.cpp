// Hostile input, whole pipeline: a real Legion Prof trace whose decoded records are mutated the ways a corrupt
// or unexpected log could hold them (events pointing at themselves or at each other in a cycle, launches by
// unknown events, times reversed or far apart, waits outside their task, merges of their own result) is built
// and replayed on its traced machine without a crash or a hang: every operation either completes or is
// reported stuck, the estimate is a time within the replay, and a cycle is a finding.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "replay/context_profile.hpp"
#include "session/session.hpp"

namespace rr::session {
namespace {

const std::string kRun = std::string(RR_SOURCE_DIR) + "/data/traces/legion-prof/circuit_small_cpu2_util1";

core::ProfEvent pick(std::mt19937_64& rng, const std::vector<core::ProfEvent>& pool) {
  return pool.empty() ? core::ProfEvent{} : pool[rng() % pool.size()];
}

// One random mutation of one record kind.
void mutate(core::ProfileRecords& p, std::mt19937_64& rng, const std::vector<core::ProfEvent>& events) {
  auto any = [&](auto& v) -> decltype(&v[0]) { return v.empty() ? nullptr : &v[rng() % v.size()]; };
  switch (rng() % 9) {
    case 0:  // a task waits for an event, maybe its own finish or one that comes later
      if (auto* w = any(p.work)) w->critical = rng() % 3 == 0 ? w->fevent : pick(rng, events);
      break;
    case 1:  // launched by another operation, maybe by itself
      if (auto* w = any(p.work)) w->creator = rng() % 3 == 0 ? w->fevent : pick(rng, events);
      break;
    case 2:  // times reversed, far apart, or negative
      if (auto* w = any(p.work)) {
        std::swap(w->start, w->stop);
        if (rng() % 2) w->ready = -static_cast<core::TimeNs>(rng() % 1000000);
        if (rng() % 4 == 0) w->stop += static_cast<core::TimeNs>(1) << 50;
      }
      break;
    case 3:  // a wait outside its task, on an arbitrary event
      if (auto* w = any(p.waits)) {
        w->wait_start = static_cast<core::TimeNs>(rng() % 1000000000);
        w->wait_end = w->wait_start - static_cast<core::TimeNs>(rng() % 1000);
        w->wait_event = pick(rng, events);
      }
      break;
    case 4:  // a merge of its own result, or of any event
      if (auto* m = any(p.mergers)) m->pre[rng() % 4] = rng() % 2 ? m->result : pick(rng, events);
      break;
    case 5:  // a trigger of an event another record produces
      if (auto* t = any(p.triggers)) {
        t->result = pick(rng, events);
        t->precondition = pick(rng, events);
      }
      break;
    case 6:  // two copies with one finish event
      if (auto* c = any(p.copies)) c->fevent = pick(rng, events);
      break;
    case 7:  // a completion queue fed by its own result
      if (auto* q = any(p.completion_queues)) q->pre[0] = q->result;
      break;
    default:  // a message whose send time is far from its receipt
      if (auto* s = any(p.spawns)) s->spawn = -s->spawn;
      break;
  }
}

TEST(ProfPipelineMutations, MutatedRecordsBuildAndReplayOrFailCleanly) {
  auto loaded = load_trace({kRun}, {});
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  const core::TraceRecords original = loaded->records;
  std::vector<core::ProfEvent> events;
  for (const auto& f : original.files) {
    for (const auto& w : f.profile.work) events.push_back(w.fevent);
    for (const auto& m : f.profile.mergers) events.push_back(m.result);
  }
  int replayed = 0, cycles = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    std::mt19937_64 rng(seed);
    core::TraceRecords records = original;
    for (int i = 0; i < 1 + static_cast<int>(seed % 20); ++i) mutate(records.files[0].profile, rng, events);
    auto trace = load_records(std::move(records), "mutated", {});
    ASSERT_TRUE(trace) << trace.error().to_string();
    // What a packed trace's reader demands of a graph, the builder gives even from mutated records.
    EXPECT_EQ(trace->graph().structure_problem(), "") << "seed " << seed;
    if (!trace->built.findings.cycle.empty()) ++cycles;
    auto run = replay_trace(*trace, {"traced", {}}, {});
    if (!run) continue;  // a clean error is fine
    ++replayed;
    const auto& r = run->result;
    EXPECT_EQ(r.operations + r.stuck, trace->graph().vertex_count()) << "seed " << seed;
    EXPECT_GE(r.makespan_ns, 0) << "seed " << seed;
    EXPECT_LE(r.makespan_ns, r.last_end_ns) << "seed " << seed;
    // The context profile walks issuer chains, which mutated launches can close into loops.
    const auto trie = replay::ContextTrie::build(trace->graph(), r, run->critical ? &*run->critical : nullptr);
    for (const bool critical : {false, true}) {
      std::istringstream lines(trie.folded(critical));
      for (std::string line; std::getline(lines, line);) {
        const auto space = line.rfind(' ');
        ASSERT_NE(space, std::string::npos) << line;
        EXPECT_GT(std::stoll(line.substr(space + 1)), 0) << "seed " << seed << ": " << line;
      }
    }
  }
  EXPECT_GT(replayed, 100);  // the mutations must not all be refused: the replay itself is under test
  EXPECT_GT(cycles, 0);     // and some of them made cycles, which the builder must find
}

}  // namespace
}  // namespace rr::session
