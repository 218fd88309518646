// Input discovery: folder listing by node number, glob expansion, formats (tar, Legion Prof, text) from the
// decoded first bytes.
#include "parser/trace_inputs.hpp"

#include <glob.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <system_error>
#include <tuple>

#include "parser/byte_source.hpp"
#include "parser/legion_prof_header.hpp"

namespace rr::parser {
namespace fs = std::filesystem;

Content content_of(std::string_view head) {
  if (head.size() >= kPackedTraceSignature.size() &&
      std::equal(kPackedTraceSignature.begin(), kPackedTraceSignature.end(), head.begin(),
                 [](unsigned char a, char b) { return a == static_cast<unsigned char>(b); }))
    return Content::packed;
  if (is_legion_prof_head(head)) return Content::legion_prof;
  // A tar archive has "ustar" at offset 257 of its first 512-byte header.
  if (head.size() >= 512 && head.substr(257, 5) == "ustar") return Content::tar;
  return Content::other;
}

namespace {

// Whether the file's own first bytes (not decompressed) are a packed trace's signature.
bool starts_with_packed_signature(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(kPackedTraceSignature.size(), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return content_of(head) == Content::packed;
}

std::string_view without_compression_suffix(std::string_view s) {
  for (std::string_view suffix : {".gz", ".xz", ".zst"}) {
    if (s.ends_with(suffix)) {
      s.remove_suffix(suffix.size());
      break;
    }
  }
  return s;
}
}  // namespace

bool number_in_name(const std::string& name, int* number) {
  const std::string_view s = without_compression_suffix(name);
  const std::size_t last = s.find_last_of("0123456789");
  if (last == std::string_view::npos) return false;
  std::size_t first = last;
  while (first > 0 && s[first - 1] >= '0' && s[first - 1] <= '9') --first;
  if (last - first >= 9) return false;
  *number = std::stoi(std::string(s.substr(first, last - first + 1)));
  return true;
}

bool is_node_log_name(const std::string& name, int* node) {
  std::string_view s = without_compression_suffix(name);
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

// The content of a file from its first decoded bytes; throws SourceError when they cannot be decoded.
Content sniff(const std::string& path) {
  std::string head;
  peek_head(open_decoded(open_file(path)), kSniffBytes, head);
  return content_of(head);
}

std::string name_of(const std::string& path) { return fs::path(path).filename().string(); }

// "node_0.log, node_1.log and 2 more"
std::string some_names(const std::vector<std::string>& paths) {
  std::string out;
  for (std::size_t i = 0; i < paths.size() && i < 2; ++i) out += (i ? ", " : "") + name_of(paths[i]);
  if (paths.size() > 2) out += " and " + std::to_string(paths.size() - 2) + " more";
  return out;
}

core::InputError mixed_formats(const std::string& where, const std::vector<std::string>& text,
                               const std::vector<std::string>& prof) {
  return core::InputError{core::SourceLocation{where, 0, std::nullopt, std::nullopt},
                          "mixes Realm event-graph logs (" + some_names(text) + ") and Legion Prof logs (" +
                              some_names(prof) + "); a trace is one format or the other"};
}

core::InputError error_for(const std::string& path, std::string message) {
  return core::InputError{core::SourceLocation{path, 0, std::nullopt, std::nullopt}, std::move(message)};
}

// A folder's trace files: node logs by name, Legion Prof logs by content. A file whose first bytes cannot
// be decoded joins the Legion Prof logs of a folder that has some, so that its error is reported, not
// skipped.
core::Expected<std::vector<TraceInput>> folder_inputs(const std::string& path) {
  std::error_code ec;
  std::vector<std::pair<int, TraceInput>> logs;
  std::vector<std::tuple<int, std::string, bool>> profs;  // (number in name, path, decodable)
  for (const auto& entry : fs::directory_iterator(path, ec)) {
    const std::string file = entry.path().string();
    const std::string name = entry.path().filename().string();
    int number = -1;
    std::error_code status_error;
    const auto status = fs::status(entry.path(), status_error);  // follows symlinks; never throws
    if (!fs::is_regular_file(status)) {
      // A node log by name that is no regular file: a FIFO is read as a stream; a dangling symlink, a loop or
      // a folder is kept so that reading it says what is wrong (--keep-going then skips it, reported).
      if (is_node_log_name(name, &number))
        logs.push_back({number, TraceInput{file, false, core::TraceFormat::realm_text,
                                           fs::exists(status) && !fs::is_directory(status)}});
      continue;
    }
    Content content = Content::other;
    bool decodable = true;
    try {
      content = sniff(file);
    } catch (const SourceError&) {
      decodable = false;
    }
    if (content == Content::legion_prof || !decodable) {
      if (!decodable && is_node_log_name(name, &number)) {
        logs.push_back({number, TraceInput{file}});
        continue;
      }
      if (!number_in_name(name, &number)) number = -1;
      profs.emplace_back(number, file, decodable);
    } else if (is_node_log_name(name, &number)) {
      logs.push_back({number, TraceInput{file}});
    }
  }
  if (ec) return error_for(path, "cannot list directory: " + ec.message());
  std::sort(logs.begin(), logs.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first, a.second.path) < std::tie(b.first, b.second.path);
  });
  std::sort(profs.begin(), profs.end());
  std::vector<std::string> prof_paths;
  for (const auto& [number, file, decodable] : profs)
    if (decodable) prof_paths.push_back(file);
  if (!logs.empty() && !prof_paths.empty()) {
    std::vector<std::string> log_paths;
    for (const auto& l : logs) log_paths.push_back(l.second.path);
    return mixed_formats(path, log_paths, prof_paths);
  }
  std::vector<TraceInput> out;
  if (!prof_paths.empty()) {
    for (const auto& [number, file, decodable] : profs) out.push_back({file, false, core::TraceFormat::legion_prof});
    return out;
  }
  if (logs.empty())
    return error_for(path, "directory holds no node_<N>.log[.gz|.xz|.zst] files and no Legion Prof logs");
  // node_3.log beside node_3.log.gz (a decompression with -k) would count node 3 twice.
  for (std::size_t i = 1; i < logs.size(); ++i)
    if (logs[i].first == logs[i - 1].first)
      return error_for(path, "both " + name_of(logs[i - 1].second.path) + " and " + name_of(logs[i].second.path) +
                                 " hold node " + std::to_string(logs[i].first) + "; keep one of them");
  for (const auto& log : logs) out.push_back(log.second);
  return out;
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
  auto add = [&](const TraceInput& input) {
    std::error_code ec;
    const auto canonical = fs::weakly_canonical(input.path, ec);
    if (seen.insert(ec ? input.path : canonical.string()).second) inputs.push_back(input);
  };
  for (const auto& path : paths) {
    std::error_code ec;
    auto status = fs::status(path, ec);
    if (!fs::exists(status)) {
      std::error_code link_error;
      if (fs::is_symlink(fs::symlink_status(path, link_error)))
        return error_for(path, ec && ec != std::errc::no_such_file_or_directory
                                   ? "cannot follow symbolic link: " + ec.message()
                                   : "dangling symbolic link (it names a file that does not exist)");
      return error_for(path, ec && ec != std::errc::no_such_file_or_directory ? ec.message()
                                                                              : "no such file or directory");
    }
    if (!fs::is_directory(status) && !fs::is_regular_file(status)) {
      // A FIFO, pipe or device: it cannot be opened twice, so it is not sniffed here.
      add({path, false, core::TraceFormat::realm_text, true});
      continue;
    }
    if (fs::is_directory(status)) {
      auto found = folder_inputs(path);
      if (!found) return found.error();
      for (const auto& input : *found) add(input);
      continue;
    }
    Content content = Content::other;
    try {
      content = sniff(path);
    } catch (const SourceError&) {
      // Unreadable or corrupt: the reader reports it with its offset (and --keep-going applies).
    }
    if (content == Content::packed) {
      // Compressed, it was found only once decompressed: it may well have been given alone.
      if (!starts_with_packed_signature(path))
        return error_for(path, "a compressed packed trace: decompress it and give the packed file itself (it is read in "
                               "place, never decompressed)");
      return error_for(path, "a packed trace is a whole trace: give it alone, not with other files");
    }
    add({path, content == Content::tar,
         content == Content::legion_prof ? core::TraceFormat::legion_prof : core::TraceFormat::realm_text});
  }
  // Archives are not opened here: their members' formats are checked when they are read.
  std::vector<std::string> text, prof;
  for (const auto& input : inputs)
    if (!input.is_archive) (input.format == core::TraceFormat::legion_prof ? prof : text).push_back(input.path);
  if (!text.empty() && !prof.empty()) return mixed_formats(args.size() == 1 ? args.front() : "(trace)", text, prof);
  return inputs;
}

}  // namespace rr::parser
