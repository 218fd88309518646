// A replay over ranks (replay/block_network.hpp) with its ranks as threads of one process: what one rank sends
// another arrives in the order sent, but messages from different ranks come in an order a seeded generator picks,
// and a rank that does not wait often finds nothing although something has come, as over a slow network (unless
// told not to be so shy).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "replay/block_network.hpp"

namespace rr::testing {

class InProcessNetwork {
 public:
  // `shy`: a look that does not wait finds nothing one time in four, come or not.
  InProcessNetwork(std::uint32_t ranks, std::uint64_t seed, bool shy = true) : boxes_(ranks), shy_(shy) {
    for (std::uint32_t r = 0; r < ranks; ++r) {
      boxes_[r].from.resize(ranks);
      boxes_[r].random.seed(seed * 1000 + r);
    }
    for (std::uint32_t r = 0; r < ranks; ++r) ends_.emplace_back(*this, r);
    sent_.resize(ranks);
  }
  replay::BlockNetwork& rank(std::uint32_t r) { return ends_[r]; }
  std::vector<std::string> notes() const {
    const std::lock_guard lock(mutex_);
    return notes_;
  }
  std::uint32_t parts_done() const {
    const std::lock_guard lock(mutex_);
    return parts_done_;
  }
  // Messages rank `r` has sent so far.
  std::uint64_t sent_by(std::uint32_t r) const {
    const std::lock_guard lock(mutex_);
    return sent_[r];
  }

 private:
  struct Box {
    std::vector<std::deque<std::vector<std::byte>>> from;  // by sender, in the order sent
    std::mt19937_64 random;
    std::condition_variable arrived;
  };

  class End final : public replay::BlockNetwork {
   public:
    End(InProcessNetwork& net, std::uint32_t rank) : net_(net), rank_(rank) {}
    std::uint32_t ranks() const override { return static_cast<std::uint32_t>(net_.boxes_.size()); }
    std::uint32_t rank() const override { return rank_; }
    void send(std::uint32_t to, std::vector<std::byte> bytes) override {
      const std::lock_guard lock(net_.mutex_);
      net_.boxes_[to].from[rank_].push_back(std::move(bytes));
      ++net_.sent_[rank_];
      net_.boxes_[to].arrived.notify_one();
    }
    std::optional<Message> receive(bool wait) override {
      std::unique_lock lock(net_.mutex_);
      Box& box = net_.boxes_[rank_];
      for (;;) {
        std::vector<std::uint32_t> senders;
        for (std::uint32_t s = 0; s < box.from.size(); ++s)
          if (!box.from[s].empty()) senders.push_back(s);
        // Not waiting: one look in four finds nothing, come or not.
        if (!senders.empty() && (wait || !net_.shy_ || box.random() % 4 != 0)) {
          const std::uint32_t s = senders[box.random() % senders.size()];
          Message m{s, std::move(box.from[s].front())};
          box.from[s].pop_front();
          return m;
        }
        if (!wait) return std::nullopt;
        box.arrived.wait(lock);
      }
    }
    void note(std::string_view text) override {
      const std::lock_guard lock(net_.mutex_);
      net_.notes_.emplace_back(text);
    }
    void part_done() override {
      const std::lock_guard lock(net_.mutex_);
      ++net_.parts_done_;
    }

   private:
    InProcessNetwork& net_;
    const std::uint32_t rank_;
  };

  mutable std::mutex mutex_;
  std::deque<Box> boxes_;
  const bool shy_;
  std::deque<End> ends_;
  std::vector<std::string> notes_;
  std::uint32_t parts_done_ = 0;
  std::vector<std::uint64_t> sent_;
};

}  // namespace rr::testing
