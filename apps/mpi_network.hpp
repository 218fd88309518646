// The network of one replay over MPI ranks (replay/block_network.hpp) on MPI_COMM_WORLD: messages as MPI byte
// messages, sent without waiting; a message of 1 GiB or more (a block's part of the result, gathered on rank 0)
// goes as its length, then pieces.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <string_view>
#include <vector>

#include "replay/block_network.hpp"

namespace rr::app {

class MpiNetwork final : public replay::BlockNetwork {
 public:
  MpiNetwork();  // after MPI_Init
  std::uint32_t ranks() const override { return ranks_; }
  std::uint32_t rank() const override { return rank_; }
  void send(std::uint32_t to, std::vector<std::byte> bytes) override;
  std::optional<Message> receive(bool wait) override;
  void note(std::string_view text) override;
  // Rank 0 goes on to its report. Any other rank has nothing left to do: it leaves MPI and its process ends
  // here, with exit code 0.
  void part_done() override;
  // Whether this rank's part in the replay is over (past it, a failure of this rank stops no other).
  bool part_over() const { return part_over_; }

 private:
  struct Sending {
    std::vector<std::byte> bytes;
    std::uint64_t length = 0;  // what a long message's first MPI message says
    std::vector<MPI_Request> requests;
  };
  void complete_sends(bool wait);
  bool arrived(MPI_Status& status, bool wait);

  std::uint32_t rank_ = 0, ranks_ = 1;
  std::deque<Sending> sending_;
  bool part_over_ = false;
};

}  // namespace rr::app
