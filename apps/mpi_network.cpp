#include "mpi_network.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace rr::app {

namespace {

// A message under kPiece bytes goes whole (kWhole); a longer one as its length (kLong), then pieces (kPiece) that
// follow it from the same sender, which nothing else from that sender can come between. kDone, empty, is a rank's
// last message to each other rank (part_done).
constexpr int kWhole = 1, kLong = 2, kPiece = 3, kDone = 4;
constexpr std::size_t kPieceBytes = std::size_t{1} << 30;

}  // namespace

MpiNetwork::MpiNetwork() {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  rank_ = static_cast<std::uint32_t>(rank);
  ranks_ = static_cast<std::uint32_t>(size);
  done_from_.assign(ranks_, 0);
}

void MpiNetwork::send(std::uint32_t to, std::vector<std::byte> bytes) {
  complete_sends(false);
  Sending& s = sending_.emplace_back();
  s.bytes = std::move(bytes);
  const int dest = static_cast<int>(to);
  if (s.bytes.size() < kPieceBytes) {
    s.requests.resize(1);
    MPI_Isend(s.bytes.data(), static_cast<int>(s.bytes.size()), MPI_BYTE, dest, kWhole, MPI_COMM_WORLD, &s.requests[0]);
    return;
  }
  s.length = s.bytes.size();
  s.requests.resize(1 + (s.length + kPieceBytes - 1) / kPieceBytes);
  MPI_Isend(&s.length, 1, MPI_UINT64_T, dest, kLong, MPI_COMM_WORLD, &s.requests[0]);
  for (std::size_t i = 1, at = 0; at < s.length; ++i, at += kPieceBytes)
    MPI_Isend(s.bytes.data() + at, static_cast<int>(std::min(kPieceBytes, s.length - at)), MPI_BYTE, dest, kPiece,
              MPI_COMM_WORLD, &s.requests[i]);
}

// Frees the buffers of the sends that are done, oldest first; with `wait`, waits for all.
void MpiNetwork::complete_sends(bool wait) {
  while (!sending_.empty()) {
    auto& requests = sending_.front().requests;
    if (wait) {
      MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    } else {
      int done = 0;
      MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE);
      if (!done) return;
    }
    sending_.pop_front();
  }
}

// Whether a message has come (its envelope in `status`); with `wait`, waits until one has. A rank waits for the
// others' progress thousands of times in a replay, mostly for microseconds: it looks without pause for 50 us, then
// yields its core between looks (a rank that shares its core, with more ranks than cores or another program's
// work, hands it to one that has something to do), and after 5 ms, a long wait (another rank still reading),
// sleeps between looks, longer and longer up to 0.5 ms. On 2 shared cores MPI_Probe's busy wait made a replay
// at 4 ranks take 451 s instead of 9.5 s, and sleeping from the first miss 7.6 s of waiting at 2 ranks instead
// of 0.2 s (docs/scale.md, One replay over MPI ranks).
bool MpiNetwork::arrived(MPI_Status& status, bool wait) {
  using Clock = std::chrono::steady_clock;
  constexpr auto kBusyLooks = std::chrono::microseconds(50);
  constexpr auto kYieldingLooks = std::chrono::milliseconds(5);
  constexpr auto kLongestSleep = std::chrono::microseconds(500);
  const auto since = Clock::now();
  auto sleep = std::chrono::microseconds(5);
  for (;;) {
    int came = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &came, &status);
    if (came || !wait) return came != 0;
    const auto waited = Clock::now() - since;
    if (waited < kBusyLooks) continue;
    if (waited < kYieldingLooks) {
      std::this_thread::yield();
      continue;
    }
    std::this_thread::sleep_for(sleep);
    sleep = std::min(sleep * 2, kLongestSleep);
  }
}

std::optional<replay::BlockNetwork::Message> MpiNetwork::receive(bool wait) {
  complete_sends(false);
  MPI_Status status;
  for (;;) {
    if (!arrived(status, wait)) return std::nullopt;
    if (status.MPI_TAG != kDone) return take(status);
    take_done(status.MPI_SOURCE);  // (a rank done before this one: nothing for the replay)
  }
}

replay::BlockNetwork::Message MpiNetwork::take(const MPI_Status& status) {
  Message m;
  m.from = static_cast<std::uint32_t>(status.MPI_SOURCE);
  if (status.MPI_TAG == kWhole) {
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    m.bytes.resize(static_cast<std::size_t>(count));
    MPI_Recv(m.bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, kWhole, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return m;
  }
  std::uint64_t length = 0;
  MPI_Recv(&length, 1, MPI_UINT64_T, status.MPI_SOURCE, kLong, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  m.bytes.resize(length);
  for (std::size_t at = 0; at < length; at += kPieceBytes)
    MPI_Recv(m.bytes.data() + at, static_cast<int>(std::min<std::size_t>(kPieceBytes, length - at)), MPI_BYTE,
             status.MPI_SOURCE, kPiece, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return m;
}

void MpiNetwork::take_done(int from) {
  MPI_Recv(nullptr, 0, MPI_BYTE, from, kDone, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  done_from_[static_cast<std::size_t>(from)] = 1;
}

void MpiNetwork::note(std::string_view text) {
  const std::string line = "realm-replay-mpi: note: " + std::string(text) + "\n";
  std::fputs(line.c_str(), stderr);
}

void MpiNetwork::part_done() {
  if (part_over_) return;
  for (std::uint32_t r = 0; r < ranks_; ++r) {
    if (r == rank_) continue;
    Sending& s = sending_.emplace_back();
    s.requests.resize(1);
    MPI_Isend(nullptr, 0, MPI_BYTE, static_cast<int>(r), kDone, MPI_COMM_WORLD, &s.requests[0]);
  }
  // What another rank sends before its word is in before it (messages from one rank come in order): taken, unread.
  while (std::count(done_from_.begin(), done_from_.end(), 1) + 1 < static_cast<std::ptrdiff_t>(ranks_)) {
    MPI_Status status;
    arrived(status, true);
    if (status.MPI_TAG == kDone) take_done(status.MPI_SOURCE);
    else take(status);
    complete_sends(false);
  }
  complete_sends(true);
  part_over_ = true;
  if (rank_ == 0) return;
  std::fflush(nullptr);
  MPI_Finalize();
  std::exit(0);
}

}  // namespace rr::app
