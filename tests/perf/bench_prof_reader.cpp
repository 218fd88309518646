// Legion Prof reading benchmark. `--make-input MB OUT LOG.gz` writes a large log: the header of a real log
// once, then its records over and over up to MB megabytes (real logs are a few MB). Otherwise reads each
// FILE (plain or gzip) R times on one thread: median time, MB/s of decompressed and of stored bytes,
// records/s, and the peak resident memory of the first run, as JSON.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "parser/byte_source.hpp"
#include "parser/legion_prof_header.hpp"
#include "parser/trace_reader.hpp"
#include "proc_status.hpp"

namespace {

int make_input(std::uint64_t megabytes, const std::string& out_path, const std::string& log) {
  auto source = rr::parser::open_decoded(rr::parser::open_file(log));
  std::string decoded;
  char buf[1 << 16];
  for (std::size_t n; (n = source->read(buf, sizeof buf)) > 0;) decoded.append(buf, n);
  const std::size_t end = rr::parser::find_prof_header_end(decoded);
  if (end == std::string::npos) {
    std::fprintf(stderr, "%s: no Legion Prof header\n", log.c_str());
    return 1;
  }
  std::ofstream out(out_path, std::ios::binary);
  out.write(decoded.data(), static_cast<std::streamsize>(end));
  const std::string_view records = std::string_view(decoded).substr(end);
  std::uint64_t written = end;
  std::uint64_t copies = 0;
  // Whole copies of the record part, so the file ends between records as a real log does.
  while (written < megabytes * 1000000) {
    out.write(records.data(), static_cast<std::streamsize>(records.size()));
    written += records.size();
    ++copies;
  }
  std::printf("wrote %s: %llu bytes (header + %llu copies of the %zu record bytes of %s)\n", out_path.c_str(),
              static_cast<unsigned long long>(written), static_cast<unsigned long long>(copies), records.size(),
              log.c_str());
  return out ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 3;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--make-input" && i + 3 < argc) return make_input(std::stoull(argv[i + 1]), argv[i + 2], argv[i + 3]);
    if (a == "--repeat" && i + 1 < argc) repeat = std::stoi(argv[++i]);
    else inputs.push_back(a);
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "usage: bench_prof_reader [--repeat R] FILE...\n"
                         "       bench_prof_reader --make-input MB OUT LOG.gz\n");
    return 2;
  }
  const std::uint64_t baseline_kib = rr::bench::status_kib("VmRSS:");
  std::uint64_t peak_kib = 0;
  for (const auto& input : inputs) {
    std::vector<double> seconds;
    std::uint64_t decoded = 0, records = 0;
    const std::uint64_t stored = std::filesystem::file_size(input);
    for (int r = 0; r < repeat; ++r) {
      rr::parser::ReadOptions o;
      const auto t0 = std::chrono::steady_clock::now();
      try {
        const rr::core::FileRecords f =
            rr::parser::read_prof_stream(rr::parser::open_decoded(rr::parser::open_file(input)), input, o);
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        decoded = f.profile.data_bytes;
        records = f.profile.record_count();
        if (r == 0) peak_kib = std::max(peak_kib, rr::bench::status_kib("VmHWM:"));
      } catch (const rr::parser::SourceError& e) {
        std::fprintf(stderr, "%s: %s\n", input.c_str(), e.what());
        return 1;
      }
    }
    std::sort(seconds.begin(), seconds.end());
    const double median = seconds[seconds.size() / 2];
    std::printf("{\"file\": \"%s\", \"runs\": %d, \"decoded_bytes\": %llu, \"stored_bytes\": %llu, \"records\": %llu, "
                "\"median_s\": %.3f, \"min_s\": %.3f, \"max_s\": %.3f, \"decoded_MB_per_s\": %.1f, "
                "\"stored_MB_per_s\": %.1f, \"records_per_s\": %.0f, \"peak_rss_MiB\": %.1f, "
                "\"bytes_per_record\": %.1f}\n",
                std::filesystem::path(input).filename().c_str(), repeat, static_cast<unsigned long long>(decoded),
                static_cast<unsigned long long>(stored), static_cast<unsigned long long>(records), median,
                seconds.front(), seconds.back(), static_cast<double>(decoded) / 1e6 / median,
                static_cast<double>(stored) / 1e6 / median, static_cast<double>(records) / median,
                static_cast<double>(peak_kib) / 1024.0,
                static_cast<double>((peak_kib - baseline_kib) * 1024) / static_cast<double>(records));
  }
  return 0;
}
