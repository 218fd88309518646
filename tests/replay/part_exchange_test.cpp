// The graph's exchanges over a replay's network (replay/part_exchange.hpp): each call takes one message from every
// other rank, in the order each sent them; a message that comes from a rank whose message of this call is already in
// belongs to what that rank does next, and is kept for the next call, and a message of another stage (the replay's)
// is kept in the network for that stage. A message of a call this rank has passed (it stopped and sent its error
// instead of taking that call's messages) is dropped.
#include <gtest/gtest.h>

#include <deque>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "replay/part_exchange.hpp"
#include "replay/byte_wire.hpp"
#include "replay/src/network_pump.hpp"

namespace rr::replay {
namespace {

std::vector<std::byte> bytes(const std::string& text) {
  std::vector<std::byte> out;
  for (char c : text) out.push_back(static_cast<std::byte>(c));
  return out;
}

std::string text(const std::vector<std::byte>& b) {
  std::string out;
  for (std::byte x : b) out.push_back(static_cast<char>(x));
  return out;
}

// What a rank's exchange sends for call `call`.
std::vector<std::byte> exchanged(std::uint64_t call, const std::string& content) {
  ByteWriter w;
  w.put(WireKind::exchange);
  w.put(call);
  std::vector<std::byte> out = w.take();
  const std::vector<std::byte> rest = bytes(content);
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

// A message of the replay.
std::vector<std::byte> packet(const std::string& content) {
  std::vector<std::byte> out{static_cast<std::byte>(WireKind::packet)};
  const std::vector<std::byte> rest = bytes(content);
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

// Rank 0 of three, whose messages come in a scripted order; what it sends is recorded.
class ScriptedNetwork final : public BlockNetwork {
 public:
  explicit ScriptedNetwork(std::deque<Message> script) : script_(std::move(script)) {}
  std::uint32_t ranks() const override { return 3; }
  std::uint32_t rank() const override { return 0; }
  void send(std::uint32_t to, std::vector<std::byte> b) override { sent.emplace_back(to, b); }
  std::optional<Message> receive(bool wait) override {
    if (script_.empty()) {
      EXPECT_FALSE(wait) << "waits for a message that never comes";
      return std::nullopt;
    }
    Message m = std::move(script_.front());
    script_.pop_front();
    return m;
  }
  void note(std::string_view) override {}
  void part_done() override {}
  std::vector<std::pair<std::uint32_t, std::vector<std::byte>>> sent;

 private:
  std::deque<Message> script_;
};

TEST(NetworkRankExchange, OneMessageFromEachRankPerCallInTheOrderSent) {
  // Rank 1 is quick: its message of the second call, and its replay's first packet, come before rank 2's of the
  // first call.
  ScriptedNetwork net({{1, exchanged(1, "a1")},
                       {1, exchanged(2, "b1")},
                       {1, packet("replay1")},
                       {2, exchanged(1, "a2")},
                       {2, exchanged(2, "b2")}});
  NetworkRankExchange exchange(net);
  auto first = exchange.all_to_all({bytes("a0"), bytes("to1"), bytes("to2")});
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(text(first[0]), "a0");
  EXPECT_EQ(text(first[1]), "a1");
  EXPECT_EQ(text(first[2]), "a2");
  using Sent = std::vector<std::pair<std::uint32_t, std::vector<std::byte>>>;
  EXPECT_EQ(net.sent, (Sent{{1, exchanged(1, "to1")}, {2, exchanged(1, "to2")}}));
  auto second = exchange.all_to_all({bytes("b0"), bytes("x"), bytes("y")});
  EXPECT_EQ(text(second[1]), "b1");  // kept from before, not the later message
  EXPECT_EQ(text(second[2]), "b2");
  // What rank 1 sent after its last exchange waits in the network for the replay, in order.
  const auto& kept = net.kept[static_cast<std::size_t>(WireKind::packet)];
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept.front().from, 1u);
  EXPECT_EQ(kept.front().bytes, packet("replay1"));
  EXPECT_TRUE(net.kept[static_cast<std::size_t>(WireKind::exchange)].empty());
}

// The next replay's exchanges begin on a rank while this one still replays: their messages wait in the network.
TEST(NetworkRankExchange, TakesWhatAnEarlierStageKeptFirst) {
  ScriptedNetwork net({{2, exchanged(1, "a2")}});
  net.kept[static_cast<std::size_t>(WireKind::exchange)].push_back({1, exchanged(1, "a1")});
  net.kept[static_cast<std::size_t>(WireKind::exchange)].push_back({1, exchanged(2, "b1")});
  NetworkRankExchange exchange(net);
  auto first = exchange.all_to_all({bytes("a0"), bytes("to1"), bytes("to2")});
  EXPECT_EQ(text(first[1]), "a1");
  EXPECT_EQ(text(first[2]), "a2");
  const auto& kept = net.kept[static_cast<std::size_t>(WireKind::exchange)];
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept.front().bytes, exchanged(2, "b1"));
}

// This rank stopped at call 1 and said so; the others' messages of that call, which it never took, are not its
// next call's.
TEST(NetworkRankExchange, AStoppedCallsMessagesAreNotTheNextCalls) {
  ScriptedNetwork net(
      {{1, exchanged(1, "a1")}, {2, exchanged(1, "a2")}, {2, exchanged(2, "b2")}, {1, exchanged(2, "b1")}});
  NetworkRankExchange exchange(net);
  exchange.send_to_all(bytes("stop"));
  auto next = exchange.all_to_all({bytes("b0"), bytes("x"), bytes("y")});
  EXPECT_EQ(text(next[1]), "b1");
  EXPECT_EQ(text(next[2]), "b2");
  EXPECT_TRUE(net.kept[static_cast<std::size_t>(WireKind::exchange)].empty());
}

TEST(NetworkRankExchange, SendToAllSendsEveryOtherRankAndWaitsForNone) {
  ScriptedNetwork net({});
  NetworkRankExchange exchange(net);
  exchange.send_to_all(bytes("stop"));
  using Sent = std::vector<std::pair<std::uint32_t, std::vector<std::byte>>>;
  EXPECT_EQ(net.sent, (Sent{{1, exchanged(1, "stop")}, {2, exchanged(1, "stop")}}));
}

TEST(NetworkRankExchange, AMessageOfNoKnownKindIsABrokenProtocol) {
  ScriptedNetwork net({{1, bytes("?")}});
  NetworkRankExchange exchange(net);
  EXPECT_THROW(exchange.all_to_all({bytes("a0"), bytes("to1"), bytes("to2")}), std::logic_error);
}

}  // namespace
}  // namespace rr::replay
