// What ranks other than 0 of realm-replay-mpi print: nothing on standard output (rank 0 prints the report), and
// their standard error kept aside, shown (each line marked with the rank) only when the rank fails.
#pragma once

#include <cstdint>
#include <string_view>

namespace rr::app {

class RankOutput {
 public:
  // Rank 0 keeps its outputs as they are.
  explicit RankOutput(std::uint32_t rank);
  ~RankOutput();
  RankOutput(const RankOutput&) = delete;
  RankOutput& operator=(const RankOutput&) = delete;

  // Writes what this rank kept of its standard error, each line after "rank N: ", then `line`, on the standard
  // error the program started with.
  void show_failure(std::string_view line);

 private:
  std::uint32_t rank_;
  int real_stderr_ = -1;  // -1 on rank 0
  int kept_ = -1;         // the unlinked file standard error goes to
};

}  // namespace rr::app
