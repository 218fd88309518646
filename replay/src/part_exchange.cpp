#include "replay/part_exchange.hpp"

#include <cstring>
#include <deque>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "replay/byte_wire.hpp"
#include "replay/src/network_pump.hpp"

namespace rr::replay {

namespace {

constexpr std::size_t kHead = 1 + sizeof(std::uint64_t);  // the kind, the call

// Laid out by hand: appending to a ByteWriter's bytes trips a false -Warray-bounds of GCC 12.
std::vector<std::byte> framed(std::uint64_t call, std::span<const std::byte> bytes) {
  std::vector<std::byte> out(kHead + bytes.size());
  out[0] = static_cast<std::byte>(WireKind::exchange);
  std::memcpy(out.data() + 1, &call, sizeof call);
  if (!bytes.empty()) std::memcpy(out.data() + kHead, bytes.data(), bytes.size());
  return out;
}

std::uint64_t call_of(const BlockNetwork::Message& m) {
  if (m.bytes.size() < kHead)
    throw std::logic_error("graph exchange: a message from rank " + std::to_string(m.from) + " ends too soon");
  ByteReader in(std::span<const std::byte>(m.bytes).subspan(1, sizeof(std::uint64_t)));
  return in.get<std::uint64_t>();
}

// One call's messages as they come in: at most one from each rank.
class CallMessages {
 public:
  CallMessages(std::uint32_t ranks, std::uint32_t me, std::uint64_t call)
      : from_each_(ranks), have_(ranks, 0), missing_(ranks - 1), call_(call) {
    have_[me] = 1;
  }
  bool complete() const { return missing_ == 0; }
  std::vector<std::vector<std::byte>> take() { return std::move(from_each_); }
  std::vector<std::byte>& mine(std::uint32_t me) { return from_each_[me]; }

  // Takes m if it is this call's and its sender's first; else says whether it belongs to a later call.
  enum class Fate { taken, later, stale };
  Fate offer(BlockNetwork::Message& m) {
    const std::uint64_t call = call_of(m);
    if (call < call_) return Fate::stale;
    if (call > call_ || have_[m.from]) return Fate::later;
    from_each_[m.from].assign(m.bytes.begin() + kHead, m.bytes.end());
    have_[m.from] = 1;
    --missing_;
    return Fate::taken;
  }

 private:
  std::vector<std::vector<std::byte>> from_each_;
  std::vector<char> have_;
  std::uint32_t missing_;
  const std::uint64_t call_;
};

}  // namespace

std::vector<std::vector<std::byte>> NetworkRankExchange::all_to_all(std::vector<std::vector<std::byte>> to_each) {
  const std::uint32_t ranks = network_.ranks(), me = network_.rank();
  if (to_each.size() != ranks) throw std::invalid_argument("all_to_all: one message per rank");
  const std::uint64_t call = ++calls_;
  for (std::uint32_t r = 0; r < ranks; ++r)
    if (r != me) network_.send(r, framed(call, to_each[r]));
  CallMessages got(ranks, me, call);
  got.mine(me) = std::move(to_each[me]);

  // What came while this rank was in an earlier stage, in the order it came: a sender's earlier message first.
  auto& kept = network_.kept[static_cast<std::size_t>(WireKind::exchange)];
  std::deque<BlockNetwork::Message> later;
  for (BlockNetwork::Message& m : kept)
    if (got.offer(m) == CallMessages::Fate::later) later.push_back(std::move(m));
  kept = std::move(later);
  while (!got.complete()) {
    std::optional<BlockNetwork::Message> m = network_.receive(true);
    if (!m) continue;
    const auto kind = m->bytes.empty() ? kWireKinds : std::to_integer<std::uint8_t>(m->bytes[0]);
    if (kind >= kWireKinds)
      throw std::logic_error("graph exchange: a message of no known kind from rank " + std::to_string(m->from));
    if (kind != static_cast<std::uint8_t>(WireKind::exchange)) {
      network_.kept[kind].push_back(std::move(*m));  // the replay's, or another stage's that came early
      continue;
    }
    if (got.offer(*m) == CallMessages::Fate::later) kept.push_back(std::move(*m));
  }
  return got.take();
}

void NetworkRankExchange::send_to_all(const std::vector<std::byte>& bytes) {
  const std::vector<std::byte> message = framed(++calls_, bytes);
  for (std::uint32_t r = 0; r < network_.ranks(); ++r)
    if (r != network_.rank()) network_.send(r, message);
}

}  // namespace rr::replay
