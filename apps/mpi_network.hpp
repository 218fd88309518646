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
  // here, with exit code 0. Every rank calls it once (else the run is aborted): each tells the others it is done
  // and takes in, unread, what they still send it until each has said so, so that no send waits for a receiver that
  // will never take it in (a part build that every rank stopped half way leaves some behind).
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
  Message take(const MPI_Status& status);  // the message `status` found
  void take_done(int from);                // another rank's word that it is done (part_done)

  std::uint32_t rank_ = 0, ranks_ = 1;
  std::deque<Sending> sending_;
  bool part_over_ = false;
  std::vector<char> done_from_;  // by rank: it said it is done (part_done)
};

}  // namespace rr::app
