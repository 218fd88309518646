// One replay split over processes (MPI ranks, docs/scale.md): the messages its blocks exchange, and what a process
// does once its part is over. The replay knows no MPI: a program that runs over ranks hands run_replay an
// implementation of this (ReplayExecution::network), and tests an in-process one.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string_view>
#include <vector>

namespace rr::replay {

class BlockNetwork {
 public:
  struct Message {
    std::uint32_t from = 0;
    std::vector<std::byte> bytes;
  };

  virtual ~BlockNetwork() = default;
  virtual std::uint32_t ranks() const = 0;
  virtual std::uint32_t rank() const = 0;
  // Sends `bytes` to rank `to` without waiting for it to be received. What one rank sends another arrives in the
  // order it was sent.
  virtual void send(std::uint32_t to, std::vector<std::byte> bytes) = 0;
  // A message that has arrived, from any rank; nothing when none has. With `wait`, waits until one has.
  virtual std::optional<Message> receive(bool wait) = 0;
  // Rank 0 says something about how the replay runs (it runs on rank 0 alone, and why).
  virtual void note(std::string_view text) = 0;
  // This rank's part in the command is over: rank 0 holds all it needs from it (the replay, its critical path and
  // its what-ifs are done). The command calls it, not the replay, which is followed by more work over the ranks.
  // Rank 0 goes on with the command (its report); a program may end any other rank's process here.
  virtual void part_done() = 0;

  // Messages taken in before the stage that wants them (a replay, the critical path's walk, the next replay), by
  // their first byte, in the order they came. The network keeps them, not a stage: a fast rank's first message of
  // the next stage may come while this rank is still in the one before.
  std::array<std::deque<Message>, 16> kept;
};

}  // namespace rr::replay
