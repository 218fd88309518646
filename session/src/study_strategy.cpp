// --strategy text to a study's strategy (session/study_strategy.hpp).
#include "session/study_strategy.hpp"

#include <algorithm>
#include <cctype>

namespace rr::session {

namespace {

const char* kForms = "NAME=MAPPING_FILE, NAME:KEY=VALUE,... (keys: placement, map, set, node-map, mapping) or traced";

core::InputError strategy_error(const std::string& text, const std::string& problem) {
  return core::InputError{core::SourceLocation{"--strategy " + text, 0, std::nullopt}, problem};
}

bool name_character(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '+';
}

// The inline options after "NAME:", one KEY=VALUE between commas, into the strategy; a problem when one is wrong.
std::optional<std::string> read_inline(const std::string& options, StudyStrategy& s) {
  if (options.empty()) return "no options after ':' (give KEY=VALUE,... or use NAME=MAPPING_FILE)";
  for (std::size_t start = 0; start <= options.size();) {
    const std::size_t comma = std::min(options.find(',', start), options.size());
    const std::string item = options.substr(start, comma - start);
    start = comma + 1;
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      return "'" + item + "' is no KEY=VALUE (keys: placement, map, set, node-map, mapping)";
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "placement") {
      if (auto problem = placement_choice().problem(value)) return "placement: " + *problem;
      s.choices.placement = value;
    } else if (key == "map") {
      s.choices.map.push_back(value);
    } else if (key == "set") {
      if (value.find('=') == std::string::npos) return "set takes a machine value KEY=VALUE, not '" + value + "'";
      s.overrides.push_back(value);
    } else if (key == "node-map") {
      s.choices.node_map = value;
    } else if (key == "mapping") {
      s.choices.mapping = value;
    } else if (key == "fold") {
      return "a strategy has no fold: the study's node counts come from --fold, --nodes or its traces";
    } else {
      return "unknown key '" + key + "' (keys: placement, map, set, node-map, mapping)";
    }
  }
  return std::nullopt;
}

}  // namespace

StudyStrategy traced_strategy() {
  StudyStrategy s;
  s.name = kTracedStrategyName;
  s.choices.placement = machine::placement_name(machine::Placement::traced);
  return s;
}

core::Expected<StudyStrategy> parse_strategy(const std::string& text) {
  if (text == kTracedStrategyName) {
    StudyStrategy s = traced_strategy();
    s.text = text;
    return s;
  }
  const std::size_t split = text.find_first_of("=:");
  if (split == std::string::npos)
    return strategy_error(text, "no '=' or ':' after the name; a strategy is " + std::string(kForms));
  const std::string name = text.substr(0, split);
  if (name.empty() || !std::all_of(name.begin(), name.end(), name_character))
    return strategy_error(text, "the name '" + name + "' is not letters, digits and _ - . + (a strategy is " +
                                    kForms + ")");
  StudyStrategy s;
  s.name = name;
  s.text = text;
  const std::string rest = text.substr(split + 1);
  if (text[split] == '=') {
    if (rest.empty()) return strategy_error(text, "no mapping file after '='");
    s.choices.mapping = rest;
  } else if (auto problem = read_inline(rest, s)) {
    return strategy_error(text, *problem);
  }
  return s;
}

std::optional<std::string> duplicate_strategy(const std::vector<StudyStrategy>& strategies) {
  for (std::size_t i = 0; i < strategies.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (strategies[i].name == strategies[j].name)
        return "two strategies are named '" + strategies[i].name + "' (--strategy " +
               (strategies[j].text.empty() ? strategies[j].name : strategies[j].text) + " and --strategy " +
               (strategies[i].text.empty() ? strategies[i].name : strategies[i].text) + "): give each its own name";
  return std::nullopt;
}

}  // namespace rr::session
