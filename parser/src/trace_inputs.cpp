// Input discovery: folder listing by node number, glob expansion, tar detection from the decoded header.
#include "parser/trace_inputs.hpp"

#include <glob.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>
#include <system_error>

#include "parser/byte_source.hpp"

namespace rr::parser {
namespace fs = std::filesystem;

bool is_node_log_name(const std::string& name, int* node) {
  std::string_view s = name;
  for (std::string_view suffix : {".gz", ".xz", ".zst"}) {
    if (s.ends_with(suffix)) {
      s.remove_suffix(suffix.size());
      break;
    }
  }
  if (!s.starts_with("node_") || !s.ends_with(".log")) return false;
  std::string_view digits = s.substr(5, s.size() - 9);
  if (digits.empty() || digits.size() > 9 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  if (node) *node = std::stoi(std::string(digits));
  return true;
}

namespace {

bool has_glob_chars(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

// A tar archive has "ustar" at offset 257 of its first 512-byte header.
bool looks_like_tar(const std::string& path) {
  auto source = open_decoded(open_file(path));
  char header[512];
  std::size_t got = 0;
  while (got < sizeof header) {
    std::size_t n = source->read(header + got, sizeof header - got);
    if (n == 0) break;
    got += n;
  }
  return got == sizeof header && std::memcmp(header + 257, "ustar", 5) == 0;
}

core::InputError error_for(const std::string& path, std::string message) {
  return core::InputError{core::SourceLocation{path, 0, std::nullopt}, std::move(message)};
}

}  // namespace

core::Expected<std::vector<TraceInput>> discover_inputs(const std::vector<std::string>& args) {
  std::vector<std::string> paths;
  for (const auto& arg : args) {
    std::error_code ec;
    if (!fs::exists(arg, ec) && has_glob_chars(arg)) {
      glob_t g{};
      int rc = ::glob(arg.c_str(), 0, nullptr, &g);
      if (rc != 0) {
        globfree(&g);
        return error_for(arg, "no file matches this pattern");
      }
      for (std::size_t i = 0; i < g.gl_pathc; ++i) paths.emplace_back(g.gl_pathv[i]);
      globfree(&g);
      continue;
    }
    paths.push_back(arg);
  }
  if (paths.empty()) return error_for("(trace)", "no input given");

  std::vector<TraceInput> inputs;
  std::set<std::string> seen;
  auto add = [&](const std::string& path, bool archive) {
    if (seen.insert(fs::weakly_canonical(path).string()).second) inputs.push_back({path, archive});
  };
  for (const auto& path : paths) {
    std::error_code ec;
    auto status = fs::status(path, ec);
    if (ec || !fs::exists(status)) return error_for(path, "no such file or directory");
    if (fs::is_directory(status)) {
      std::vector<std::pair<int, std::string>> logs;
      for (const auto& entry : fs::directory_iterator(path, ec)) {
        int node = 0;
        if (entry.is_regular_file() && is_node_log_name(entry.path().filename().string(), &node))
          logs.emplace_back(node, entry.path().string());
      }
      if (ec) return error_for(path, "cannot list directory: " + ec.message());
      if (logs.empty()) return error_for(path, "directory holds no node_<N>.log[.gz|.xz|.zst] files");
      std::sort(logs.begin(), logs.end());
      // node_3.log beside node_3.log.gz (a decompression with -k) would count node 3 twice.
      for (std::size_t i = 1; i < logs.size(); ++i)
        if (logs[i].first == logs[i - 1].first)
          return error_for(path, "both " + fs::path(logs[i - 1].second).filename().string() + " and " +
                                     fs::path(logs[i].second).filename().string() + " hold node " +
                                     std::to_string(logs[i].first) + "; keep one of them");
      for (const auto& [node, file] : logs) add(file, false);
      continue;
    }
    bool archive = false;
    try {
      archive = looks_like_tar(path);
    } catch (const SourceError&) {
      // Unreadable or corrupt: the reader reports it with its offset (and --keep-going applies).
    }
    add(path, archive);
  }
  return inputs;
}

}  // namespace rr::parser
