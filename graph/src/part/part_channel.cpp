// The exchanges of a part build, and how a rank that stops says so.
#include "graph/src/part/part_channel.hpp"

#include <cstring>
#include <stdexcept>

namespace rr::graph::part_detail {

namespace {
constexpr std::byte kGoing{0}, kFailed{1};
}  // namespace

std::vector<std::vector<std::byte>> PartChannel::exchange(std::vector<std::vector<std::byte>> to_each) {
  for (std::uint32_t r = 0; r < to_each.size(); ++r)
    if (r != rank()) {
      if (to_each[r].empty()) to_each[r].push_back(kGoing);
      bytes_sent_ += to_each[r].size();
    }
  std::vector<std::vector<std::byte>> from_each = exchange_.all_to_all(std::move(to_each));
  for (std::uint32_t r = 0; r < from_each.size(); ++r) {
    if (r == rank()) continue;
    const std::vector<std::byte>& bytes = from_each[r];
    if (bytes.empty()) throw std::runtime_error("part build: rank " + std::to_string(r) + " sent an empty message");
    if (bytes.front() == kFailed) {
      failure_sent_ = true;  // the failed rank told every rank itself
      const auto* text = reinterpret_cast<const char*>(bytes.data() + 1);
      throw std::runtime_error("rank " + std::to_string(r) + " of " + std::to_string(ranks()) +
                               " stopped building its part of the graph: " + std::string(text, bytes.size() - 1));
    }
  }
  return from_each;
}

void PartChannel::send_failure(const std::string& what) {
  if (failure_sent_) return;
  failure_sent_ = true;
  std::vector<std::byte> bytes(what.size() + 1);
  bytes[0] = kFailed;
  std::memcpy(bytes.data() + 1, what.data(), what.size());
  exchange_.send_to_all(bytes);
}

}  // namespace rr::graph::part_detail
