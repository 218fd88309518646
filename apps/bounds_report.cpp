#include "bounds_report.hpp"

#include <algorithm>

#include "text_format.hpp"

namespace rr::app {

namespace {

// Quoted for a POSIX shell when it holds anything but plain path characters.
std::string shell_word(const std::string& s) {
  const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("/._-+=:,@%").find(c) != std::string_view::npos;
  });
  if (plain) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string key_of(const std::string& assignment) { return assignment.substr(0, assignment.find('=')); }

std::string change_percent(replay::TimeNs what_if, replay::TimeNs estimate) {
  if (estimate <= 0) return "";
  const double d = 100.0 * static_cast<double>(what_if - estimate) / static_cast<double>(estimate);
  return (d >= 0 ? "+" : "") + fixed(d, 1) + "%";
}

}  // namespace

void add_what_if_flag(CLI::App* cmd, bool& no_what_ifs) {
  cmd->add_flag("--no-what-ifs", no_what_ifs,
                "name what bounds the run without replaying its what-ifs (at most 3 replays, under pool placement)");
}

machine::Placement placement_of(const OpenedReplay& opened) { return opened.run.map.placement(); }

std::vector<session::RunBound> bounds_of(const OpenedReplay& opened, bool no_what_ifs, unsigned threads) {
  std::vector<session::RunBound> bounds = session::find_bounds(opened.trace, opened.run);
  if (!no_what_ifs) session::run_what_ifs(opened.trace, opened.settings, bounds, threads);
  return bounds;
}

std::string what_if_command(const char* command, const ReplayInputs& in, const session::RunBound& bound) {
  std::string out = std::string("realm-replay ") + command;
  for (const auto& t : in.trace) out += " " + shell_word(t);
  out += " -m " + shell_word(in.machine);
  for (const auto& o : in.overrides) {
    const bool replaced = std::any_of(bound.overrides.begin(), bound.overrides.end(),
                                      [&](const std::string& n) { return key_of(n) == key_of(o); });
    if (!replaced) out += " --set " + shell_word(o);
  }
  const session::ReplayChoices& f = in.replay;
  const session::ReplayChoices defaults;
  for (const auto& m : f.map) out += " --map " + shell_word(m);
  if (!f.mapping.empty()) out += " --mapping " + shell_word(f.mapping);
  if (f.fold) out += " --fold " + std::to_string(f.fold);
  if (!f.node_map.empty()) out += " --node-map " + shell_word(f.node_map);
  if (f.unlogged_time != defaults.unlogged_time) out += " --unlogged-time " + f.unlogged_time;
  if (f.queue_order != defaults.queue_order) out += " --queue-order " + f.queue_order;
  if (const auto cores = in.reading.options.build.traced_cores) out += " --traced-cores " + std::to_string(cores);
  if (bound.pool)
    out += " --placement pool";
  else if (!f.placement.empty())
    out += " --placement " + f.placement;
  std::string in_mapping;
  for (const auto& o : bound.overrides) {
    // A count the mapping file sets is changed there: --set would leave it as it is.
    const std::string key = key_of(o);
    if (bound.count_in_mapping && key.starts_with("processors.") && key.ends_with(".count")) {
      const std::string kind = key.substr(11, key.size() - 11 - 6);
      in_mapping = " # with " + kind + " = " + o.substr(key.size() + 1) + " under [processors] in " + f.mapping;
      continue;
    }
    out += " --set " + shell_word(o);
  }
  return out + in_mapping;
}

std::string bounds_text(const char* command, const ReplayInputs& in, const std::vector<session::RunBound>& bounds,
                        replay::TimeNs estimate_ns, bool no_what_ifs, machine::Placement placement) {
  if (bounds.empty()) return "";
  std::string out = "Bounded by (shares of the critical path, and what-if replays):\n";
  for (const auto& b : bounds) {
    out += "  " + b.name + (b.kind == session::RunBound::Kind::resource ? ": waited for on " : ": its work is ") +
           share(b.path_ns, estimate_ns) + "% of the path\n";
    if (b.change.empty()) {
      out += "    no what-if gives it more\n";
      continue;
    }
    out += "    what-if: " + b.change;
    if (b.pool && placement != machine::Placement::pool) out += ", under pool placement";
    if (b.what_if_ns)
      out += " → " + ms(*b.what_if_ns) + " ms (" + change_percent(*b.what_if_ns, estimate_ns) + ")\n";
    else if (!b.what_if_error.empty())
      out += ": failed: " + b.what_if_error + "\n";
    else
      out += no_what_ifs ? " (not replayed: --no-what-ifs)\n" : "\n";
    out += "    " + what_if_command(command, in, b) + "\n";
  }
  return out;
}

nlohmann::ordered_json bounds_json(const char* command, const ReplayInputs& in,
                                   const std::vector<session::RunBound>& bounds, replay::TimeNs estimate_ns) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& b : bounds) {
    nlohmann::ordered_json e;
    e["name"] = b.name;
    e["kind"] = session::kind_name(b.kind);
    e["path_ns"] = b.path_ns;
    e["path_share"] = estimate_ns > 0 ? static_cast<double>(b.path_ns) / static_cast<double>(estimate_ns) : 0.0;
    e["change"] = b.change;
    e["overrides"] = b.overrides;
    e["placement"] = session::what_if_placement(b);
    e["what_if_ns"] = b.what_if_ns ? nlohmann::ordered_json(*b.what_if_ns) : nlohmann::ordered_json();
    if (!b.what_if_error.empty()) e["what_if_error"] = b.what_if_error;
    e["command"] = b.change.empty() ? "" : what_if_command(command, in, b);
    list.push_back(std::move(e));
  }
  return list;
}

}  // namespace rr::app
