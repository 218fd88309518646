// How a block of a split replay reads the others' progress (replay/src/block_protocol.hpp): all at one moment. A
// block paused between two reads, while a receiver takes in a message and its sender hears the acknowledgement,
// must not replay as if the message were counted nowhere.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>

#include "replay/src/block_protocol.hpp"
#include "replay/src/engine.hpp"

namespace rr::replay {
namespace {

// A block's engine with one event, at `at`, that counts the rounds it replays.
class OneEvent final : public Engine {
 public:
  explicit OneEvent(TimeNs at) : at_(at) {}
  std::optional<std::pair<graph::VertexId, core::InputError>> init_block() override { return std::nullopt; }
  void run_alone() override {}
  void run_round() override {
    ++rounds;
    done_ = true;
  }
  BlockOutput take_output() override { return {}; }
  bool has_events() const override { return !done_; }
  TimeNs next_event_time() override { return done_ ? kNoTime : at_; }
  bool before_next_round(TimeNs, std::uint32_t) override { return true; }
  bool began() const override { return rounds > 0; }
  TimeNs now() const override { return at_; }
  void contribute(graph::VertexId, TimeNs, graph::VertexId, Release) override {}
  void push(TimeNs, graph::VertexId, EventType, std::uint32_t) override {}
  std::uint32_t instance(std::uint32_t, std::uint32_t) override { return 0; }
  void change_lanes(const Deferred&) override {}
  void give_lanes(std::uint32_t, TimeNs) override {}

  int rounds = 0;

 private:
  TimeNs at_;
  bool done_ = false;
};

constexpr std::uint32_t kNoBlock = ~0u;

// What BlockLink::publish stores for `block`, with the acknowledgement of the mail it took from `from`.
void publish(Blocks& b, std::uint32_t block, TimeNs next, std::uint32_t from = kNoBlock) {
  std::atomic<std::uint64_t>& version = b.progress[block].version;
  const std::uint64_t v = version.load();
  version.store(v + 1);
  b.progress[block].events.store(next);
  b.progress[block].next.store(next);
  if (from != kNoBlock) b.queue(from, block).acknowledge();
  version.store(v + 2);
}

Partition three_blocks() {
  Partition p;
  p.count = 3;
  p.lookahead = 100;
  return p;
}

TEST(BlockLink, ReadsTheOthersProgressAtOneMoment) {
  Blocks b(three_blocks());
  // Block 2 has sent block 1 a message that takes effect at 200, and counts it; block 1 has nothing before 1000.
  b.queue(2, 1).send({200, 7, 0, 0, Mail::Kind::contribute});
  b.queue(2, 1).flush();
  publish(b, 1, 1000);
  publish(b, 2, 200);
  BlockLink link(b, 0);
  OneEvent engine(500);  // what block 1 makes of the message may reach block 0 at 300
  // Block 0 reads block 1's progress, and stops. Block 1 takes the message in and acknowledges it; block 2 hears
  // it and has nothing left before 1000. Then block 0 reads block 2's.
  bool paused = false;
  b.between_reads = [&](std::uint32_t, std::uint32_t other) {
    if (other != 1 || paused) return;
    paused = true;
    b.queue(2, 1).drain([](const Mail&) {});
    publish(b, 1, 200, 2);
    publish(b, 2, 1000);
  };
  link.step(engine);
  EXPECT_TRUE(paused);
  EXPECT_EQ(engine.rounds, 0) << "replayed 500 while block 1 may still reach it at 300";
  // Once block 1 is past the message, block 0 goes on.
  b.between_reads = nullptr;
  publish(b, 1, 1000);
  link.step(engine);
  EXPECT_EQ(engine.rounds, 1);
}

}  // namespace
}  // namespace rr::replay
