// libFuzzer target: packed traces (.rrg). The bytes are a packed file whose first byte is a flag (the signature's
// 0x89 is put back in its place): when it is odd, as in a real file, every checksum is recomputed first (tests/support/packed_trace_repair.hpp) so that mutations reach the decoder of the
// records and findings and the graph's structure check instead of stopping at a checksum. Reading must end in a
// trace or an InputError; a trace that is read must replay on its traced machine and give a critical path
// without a crash, a hang or another exception. The same file read rank by rank (packed/packed_graph_part.hpp), at
// 1 to 3 ranks, must give parts that pass their structure check or InputErrors.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "packed/packed_graph_part.hpp"
#include "session/trace_packing.hpp"
#include "support/packed_trace_repair.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string file(reinterpret_cast<const char*>(data), size);
  if (!file.empty()) {
    const bool repair = file[0] & 1;
    file[0] = static_cast<char>(0x89);  // the signature's first byte, which the flag took
    if (repair) rr::testing::repair_packed_checksums(file);
  }
  // An anonymous in-memory file: read_packed_trace maps it through its /proc path, no disk involved.
  const int fd = memfd_create("fuzz.rrg", MFD_CLOEXEC);
  if (fd < 0) return 0;
  for (std::size_t done = 0; done < file.size();) {
    const ssize_t n = write(fd, file.data() + done, file.size() - done);
    if (n <= 0) {
      close(fd);
      return 0;
    }
    done += static_cast<std::size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  auto trace = rr::session::read_packed_trace(path);
  if (trace.ok() && trace->graph().vertex_count() <= 100000) {
    auto run = rr::session::replay_trace(*trace, {"traced", {}}, {});
    (void)run;
  }
  if (auto mapped = rr::packed::MappedPackedTrace::open(path)) {
    // What a rank reads beside its part; a context read whole must hold together as the whole trace's records do.
    if (auto context = rr::packed::read_packed_context(*mapped); context && trace.ok() &&
                                                                  context->records.files.size() != trace->records.files.size())
      std::abort();
    for (std::uint32_t ranks = 1; ranks <= 3; ++ranks)
      for (std::uint32_t r = 0; r < ranks; ++r) {
        auto part = rr::packed::read_graph_part(*mapped, rr::graph::NodeRanks{ranks, mapped->graph_nodes()}, r);
        if (part && !part->structure_problem().empty()) std::abort();
      }
  }
  close(fd);
  return 0;
}
