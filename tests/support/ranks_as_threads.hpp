// Test helper: runs one function per rank, each on a thread of its own with its end of an in-process network
// (in_process_network.hpp), as the processes of a replay over ranks would; their results in rank order.
#pragma once

#include <cstdint>
#include <optional>
#include <thread>
#include <vector>

#include "support/in_process_network.hpp"

namespace rr::testing {

template <typename Run>
auto on_ranks(InProcessNetwork& net, std::uint32_t ranks, Run&& run) {
  using Result = decltype(run(std::uint32_t{0}, net.rank(0)));
  std::vector<std::optional<Result>> results(ranks);
  std::vector<std::thread> threads;
  for (std::uint32_t r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] { results[r].emplace(run(r, net.rank(r))); });
  for (auto& t : threads) t.join();
  std::vector<Result> out;
  for (auto& result : results) out.push_back(std::move(*result));
  return out;
}

}  // namespace rr::testing
