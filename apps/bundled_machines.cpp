// Finding bundled machine files: relative to the executable (an installed program) and to the source tree.
#include "bundled_machines.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "core/nearest_name.hpp"

namespace rr::app {

namespace fs = std::filesystem;

std::vector<std::string> bundled_machine_dirs() {
  std::vector<std::string> dirs;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) dirs.push_back((exe.parent_path().parent_path() / "share" / "realm-replay" / "machines").string());
#ifdef RR_SOURCE_DIR
  dirs.push_back((fs::path(RR_SOURCE_DIR) / "data" / "machines").string());
#endif
  return dirs;
}

std::vector<std::string> bundled_machine_names() {
  std::vector<std::string> names;
  for (const auto& dir : bundled_machine_dirs()) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".toml") names.push_back(it->path().stem().string());
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

namespace {

std::string find_bundled(std::string name) {
  if (name.size() > 5 && name.ends_with(".toml")) name.resize(name.size() - 5);
  for (const auto& dir : bundled_machine_dirs()) {
    const fs::path candidate = fs::path(dir) / (name + ".toml");
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
  }
  return {};
}

}  // namespace

CLI::Validator machine_name() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::error_code ec;
        if (text.empty() || text == "traced" || text.find('/') != std::string::npos || fs::exists(text, ec)) return {};
        if (std::string found = find_bundled(text); !found.empty()) {
          text = found;
          return {};
        }
        const auto names = bundled_machine_names();
        std::string list;
        for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
        std::string base = text.ends_with(".toml") ? text.substr(0, text.size() - 5) : text;
        return "no machine file '" + text + "' and no bundled machine of that name" + core::did_you_mean(base, names) +
               "; bundled: " + (list.empty() ? "none found" : list) + ", or 'traced', or a path to a TOML file";
      },
      "FILE|NAME|traced");
}

}  // namespace rr::app
