// One rank's part of a packed trace's graph (packed/packed_graph_part.hpp) against the whole graph: the time to open
// the file and read one rank's part, and which of the file's pages that read, against packed::read_packed_trace.
// Before each read the file's pages are dropped from the page cache (posix_fadvise, this file only), so that the
// pages the page cache holds after it (mincore on a mapping of the file that is never touched) are the pages that
// read asked for; the growth of the process's file-backed resident set (RssFile) is the pages it mapped. Cold: right
// after the drop; warm: the same read again. Medians of --repeat runs. Also the whole graph read as the part of one
// rank (the same reads, every row): what the part reader costs beyond the rows it reads.
//   usage: bench_packed_part [--repeat R] [--ranks N] [--rank I] FILE.rrg
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "bench_timing.hpp"
#include "packed/packed_graph_part.hpp"
#include "packed/packed_trace.hpp"
#include "proc_status.hpp"

namespace {

using rr::bench::Clock;
using rr::bench::median;
using rr::bench::seconds_since;

// The file's pages in the page cache, of all of its pages.
struct Pages {
  std::uint64_t cached = 0, total = 0;
};

void drop_from_page_cache(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  ::fdatasync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

Pages cached_pages(const std::string& path) {
  Pages p;
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return p;
  const off_t size = ::lseek(fd, 0, SEEK_END);
  const long page = ::sysconf(_SC_PAGESIZE);
  void* at = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (at == MAP_FAILED) return p;
  p.total = (static_cast<std::uint64_t>(size) + page - 1) / page;
  std::vector<unsigned char> in_core(p.total);
  if (::mincore(at, static_cast<std::size_t>(size), in_core.data()) == 0)
    for (unsigned char c : in_core) p.cached += c & 1;
  ::munmap(at, static_cast<std::size_t>(size));
  return p;
}

struct Runs {
  std::vector<double> cold, warm, cached_pages, mapped_kib;
  std::uint64_t total_pages = 0;
};

// `read` returns after its mapping's pages are counted (it measures RssFile itself, before unmapping).
void measure(const std::string& path, int repeat, Runs& runs, const std::function<std::uint64_t()>& read) {
  for (int i = 0; i < repeat; ++i) {
    drop_from_page_cache(path);
    Clock::time_point t = Clock::now();
    const std::uint64_t mapped = read();
    runs.cold.push_back(seconds_since(t));
    const Pages pages = cached_pages(path);
    runs.cached_pages.push_back(static_cast<double>(pages.cached));
    runs.total_pages = pages.total;
    runs.mapped_kib.push_back(static_cast<double>(mapped));
    t = Clock::now();
    read();
    runs.warm.push_back(seconds_since(t));
  }
}

void print(const char* what, const Runs& r) {
  std::printf("%-22s cold %.4f s, warm %.4f s; pages read %.0f of %llu (%.1f%%); mapped +%.0f KiB\n", what,
              median(r.cold), median(r.warm), median(r.cached_pages), static_cast<unsigned long long>(r.total_pages),
              100.0 * median(r.cached_pages) / static_cast<double>(r.total_pages), median(r.mapped_kib));
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 5;
  std::uint32_t ranks = 4, rank = 0;
  std::string path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) repeat = std::atoi(argv[++i]);
    else if (a == "--ranks" && i + 1 < argc) ranks = static_cast<std::uint32_t>(std::atoi(argv[++i]));
    else if (a == "--rank" && i + 1 < argc) rank = static_cast<std::uint32_t>(std::atoi(argv[++i]));
    else path = a;
  }
  if (path.empty() || repeat < 1 || rank >= ranks) {
    std::fprintf(stderr, "usage: bench_packed_part [--repeat R] [--ranks N] [--rank I] FILE.rrg\n");
    return 2;
  }
  std::size_t part_vertices = 0, part_edges = 0;
  Runs part, one_part, whole;
  bool failed = false;
  const auto fail = [&](const rr::core::InputError& e) -> std::uint64_t {
    failed = true;
    std::fprintf(stderr, "%s\n", e.to_string().c_str());
    return 0;
  };
  // Rank `r` of `count`: its part read, the growth of the file-backed resident set while the mapping is open.
  const auto read_part = [&](std::uint32_t count, std::uint32_t r) -> std::uint64_t {
    const std::uint64_t before = rr::bench::status_kib("RssFile:");
    auto mapped = rr::packed::MappedPackedTrace::open(path);
    if (!mapped) return fail(mapped.error());
    auto p = rr::packed::read_graph_part(*mapped, rr::graph::NodeRanks{count, mapped->graph_nodes()}, r);
    if (!p) return fail(p.error());
    if (count == ranks) {
      part_vertices = p->size();
      part_edges = p->successors.size();
    }
    return rr::bench::status_kib("RssFile:") - before;
  };
  measure(path, repeat, part, [&] { return read_part(ranks, rank); });
  measure(path, repeat, one_part, [&] { return read_part(1, 0); });
  std::uint64_t vertices = 0, edges = 0;
  measure(path, repeat, whole, [&]() -> std::uint64_t {
    const std::uint64_t before = rr::bench::status_kib("RssFile:");
    auto t = rr::packed::read_packed_trace(path);
    if (!t) return fail(t.error());
    vertices = t->graph.vertex_count();
    edges = t->graph.edge_count();
    return rr::bench::status_kib("RssFile:") - before;
  });
  if (failed) return 1;
  std::printf("%s: %llu vertices, %llu edges; rank %u of %u: %zu vertices, %zu edges; medians of %d\n", path.c_str(),
              static_cast<unsigned long long>(vertices), static_cast<unsigned long long>(edges), rank, ranks,
              part_vertices, part_edges, repeat);
  print("one rank's part", part);
  print("all as one part", one_part);
  print("the whole trace", whole);
  return 0;
}
