// The pump of a replay over ranks (replay/src/network_pump.hpp), three ranks driven by hand: mail reaches its
// receiver's queue and progress every other rank; the receiver's acknowledgement waits until the third rank has
// confirmed holding the receiver's progress from after the mail, so that no rank can learn that the sender stopped
// counting the mail before it knows what the receiver made of it, even when the receiver's progress did not move;
// then every rank sees the others done.
#include <gtest/gtest.h>

#include <initializer_list>
#include <thread>

#include "replay/src/block_protocol.hpp"
#include "replay/src/network_pump.hpp"
#include "support/in_process_network.hpp"

namespace rr::replay {
namespace {

// One rank: its block's stand-ins for the others, and its pump.
struct Rank {
  Rank(rr::testing::InProcessNetwork& net, std::uint32_t me)
      : id(me), blocks(partition(), me), inbox(net.rank(me)), pump(net.rank(me), inbox, blocks) {}
  static Partition partition() {
    Partition p;
    p.count = 3;
    return p;
  }
  // What BlockLink::publish stores.
  void publish(TimeNs next) {
    blocks.progress[id].events.store(next);
    blocks.progress[id].next.store(next);
  }
  const std::uint32_t id;
  Blocks blocks;
  Inbox inbox;
  NetworkPump pump;
};

// Every rank publishes `time` and takes in the others' progress: where each test's protocol starts.
void start_at(std::initializer_list<Rank*> ranks, TimeNs time) {
  for (Rank* r : ranks) {
    r->publish(time);
    r->pump.send();
  }
  for (Rank* r : ranks) r->pump.receive(false);
}

TEST(NetworkPump, AnAcknowledgementWaitsForTheThirdRanksConfirmation) {
  rr::testing::InProcessNetwork net(3, 1, /*shy=*/false);
  Rank r0(net, 0), r1(net, 1), r2(net, 2);
  start_at({&r0, &r1, &r2}, 100);
  EXPECT_EQ(r2.blocks.progress[1].next.load(), 100);

  // Rank 0 sends rank 1 a message that takes effect at 60, and counts it in its progress.
  MailQueue& out = r0.blocks.queue(0, 1);
  out.send({60, 7, 0, 0, Mail::Kind::contribute});
  out.flush();
  r0.publish(60);
  r0.pump.send();
  ASSERT_TRUE(r1.pump.receive(false));
  // Rank 1's block takes it in, publishes that it has something at 60, and acknowledges (BlockLink::publish).
  MailQueue& in = r1.blocks.queue(0, 1);
  int taken = 0;
  in.drain([&](const Mail& m) { taken += m.time == 60 && m.a == 7; });
  EXPECT_EQ(taken, 1);
  r1.publish(60);
  in.acknowledge();
  r1.pump.send();
  // Rank 0 hears rank 1's new progress but not yet the acknowledgement: rank 2 has not confirmed.
  r0.pump.receive(false);
  EXPECT_EQ(r0.blocks.progress[1].next.load(), 60);
  EXPECT_EQ(r0.blocks.queue(0, 1).acknowledged(), 0u);
  EXPECT_FALSE(r1.pump.finished());
  // Rank 2 takes in rank 1's progress, and confirms it when it next sends.
  ASSERT_TRUE(r2.pump.receive(false));
  EXPECT_EQ(r2.blocks.progress[1].next.load(), 60);
  r2.pump.send();
  ASSERT_TRUE(r1.pump.receive(false));
  r1.pump.send();
  ASSERT_TRUE(r0.pump.receive(false));
  EXPECT_EQ(r0.blocks.queue(0, 1).acknowledged(), 1u);

  // Everyone runs out of work: each sees every rank done, and they say goodbye.
  for (Rank* r : {&r0, &r1, &r2}) {
    r->publish(kNoTime);
    r->pump.send();
  }
  for (Rank* r : {&r0, &r1, &r2}) {
    while (r->pump.receive(false)) {
    }
    EXPECT_TRUE(r->pump.finished()) << "rank " << r->id;
  }
  std::thread t1([&] { r1.pump.farewell(); }), t2([&] { r2.pump.farewell(); });
  r0.pump.farewell();
  t1.join();
  t2.join();
}

// Mail that leaves its receiver's progress where it was: the receiver acts on it below its published time and sends
// a third rank mail that counts at its own, later time. Its acknowledgement still waits until the third rank has
// confirmed a progress that came with that mail; a confirmation of the old one, which it gave before, is not enough:
// the sender would stop counting the mail while the third rank, holding the same numbers, lacks what came of it.
TEST(NetworkPump, MailThatLeavesTheProgressWhereItWasStillWaitsForTheThirdRank) {
  rr::testing::InProcessNetwork net(3, 1, /*shy=*/false);
  Rank r0(net, 0), r1(net, 1), r2(net, 2);
  start_at({&r0, &r1, &r2}, 100);
  // Rank 2 moves on, which confirms to rank 1 that it holds rank 1's progress of 100.
  r2.publish(200);
  r2.pump.send();
  ASSERT_TRUE(r1.pump.receive(false));

  // Rank 0 sends rank 1 a message that takes effect at 60.
  r0.blocks.queue(0, 1).send({60, 7, 0, 0, Mail::Kind::contribute});
  r0.blocks.queue(0, 1).flush();
  r0.publish(60);
  r0.pump.send();
  ASSERT_TRUE(r1.pump.receive(false));
  // Rank 1's block takes it in, replays 60 and sends rank 2 what takes effect at 105: its progress stays 100.
  MailQueue& in = r1.blocks.queue(0, 1);
  in.drain([](const Mail&) {});
  r1.blocks.queue(1, 2).send({105, 8, 0, 0, Mail::Kind::contribute});
  r1.blocks.queue(1, 2).flush();
  r1.publish(100);
  in.acknowledge();
  r1.pump.send();
  r0.pump.receive(false);
  EXPECT_EQ(r0.blocks.queue(0, 1).acknowledged(), 0u) << "acknowledged before rank 2 holds the mail to it";
  // Rank 2 takes in the packet with that mail and confirms it; then the acknowledgement goes.
  ASSERT_TRUE(r2.pump.receive(false));
  EXPECT_EQ(r2.blocks.queue(1, 2).written(), 1u);
  r2.publish(150);
  r2.pump.send();
  ASSERT_TRUE(r1.pump.receive(false));
  r1.pump.send();
  ASSERT_TRUE(r0.pump.receive(false));
  EXPECT_EQ(r0.blocks.queue(0, 1).acknowledged(), 1u);
}

}  // namespace
}  // namespace rr::replay
