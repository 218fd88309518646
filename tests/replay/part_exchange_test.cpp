// The graph's exchanges over a replay's network (replay/part_exchange.hpp): each call takes one message from every
// other rank, in the order each sent them; a message that comes from a rank whose message of this call is already in
// belongs to what that rank does next, and is kept for the next call, or for whoever reads the network next.
#include <gtest/gtest.h>

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "replay/part_exchange.hpp"

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

// Rank 0 of three, whose messages come in a scripted order; what it sends is recorded.
class ScriptedNetwork final : public BlockNetwork {
 public:
  explicit ScriptedNetwork(std::deque<Message> script) : script_(std::move(script)) {}
  std::uint32_t ranks() const override { return 3; }
  std::uint32_t rank() const override { return 0; }
  void send(std::uint32_t to, std::vector<std::byte> b) override { sent.emplace_back(to, text(b)); }
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
  std::vector<std::pair<std::uint32_t, std::string>> sent;

 private:
  std::deque<Message> script_;
};

TEST(NetworkRankExchange, OneMessageFromEachRankPerCallInTheOrderSent) {
  // Rank 1 is quick: its message of the second call, and one after it, come before rank 2's of the first.
  ScriptedNetwork net({{1, bytes("a1")}, {1, bytes("b1")}, {1, bytes("replay1")}, {2, bytes("a2")}, {2, bytes("b2")}});
  NetworkRankExchange exchange(net);
  auto first = exchange.all_to_all({bytes("a0"), bytes("to1"), bytes("to2")});
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(text(first[0]), "a0");
  EXPECT_EQ(text(first[1]), "a1");
  EXPECT_EQ(text(first[2]), "a2");
  EXPECT_EQ(net.sent, (std::vector<std::pair<std::uint32_t, std::string>>{{1, "to1"}, {2, "to2"}}));
  auto second = exchange.all_to_all({bytes("b0"), bytes("x"), bytes("y")});
  EXPECT_EQ(text(second[1]), "b1");  // kept from before, not the later message
  EXPECT_EQ(text(second[2]), "b2");
  // What rank 1 sent after its last exchange is handed on, in order.
  auto early = exchange.take_early();
  ASSERT_EQ(early.size(), 3u);
  ASSERT_EQ(early[1].size(), 1u);
  EXPECT_EQ(text(early[1].front()), "replay1");
  EXPECT_TRUE(early[2].empty());
}

TEST(NetworkRankExchange, SendToAllSendsEveryOtherRankAndWaitsForNone) {
  ScriptedNetwork net({});
  NetworkRankExchange exchange(net);
  exchange.send_to_all(bytes("stop"));
  EXPECT_EQ(net.sent, (std::vector<std::pair<std::uint32_t, std::string>>{{1, "stop"}, {2, "stop"}}));
}

}  // namespace
}  // namespace rr::replay
