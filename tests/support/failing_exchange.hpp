// Test helper: a rank's exchange (graph::RankExchange) that loses its network at its `fail_at`-th all-to-all
// (counted from 1, 0 for never), before sending anything, as a rank whose link dies mid-build or mid-replay; every
// other call goes to the exchange it wraps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "graph/rank_exchange.hpp"

namespace rr::testing {

class FailingExchange final : public graph::RankExchange {
 public:
  FailingExchange(graph::RankExchange& inner, std::uint32_t fail_at) : inner_(inner), fail_at_(fail_at) {}
  std::uint32_t ranks() const override { return inner_.ranks(); }
  std::uint32_t rank() const override { return inner_.rank(); }
  std::vector<std::vector<std::byte>> all_to_all(std::vector<std::vector<std::byte>> to_each) override {
    if (++calls_ == fail_at_) throw std::runtime_error("the network went away");
    return inner_.all_to_all(std::move(to_each));
  }
  void send_to_all(const std::vector<std::byte>& bytes) override { inner_.send_to_all(bytes); }

 private:
  graph::RankExchange& inner_;
  const std::uint32_t fail_at_;
  std::uint32_t calls_ = 0;
};

}  // namespace rr::testing
