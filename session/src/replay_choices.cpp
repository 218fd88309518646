// Text to replay settings: the names each choice takes come from the enums' own names, so that a new value
// is accepted wherever it is named.
#include "session/replay_choices.hpp"

#include <algorithm>

namespace rr::session {

std::string NamedChoice::listed() const {
  // The way CLI11 lists a set, so that help and errors read as they do for CLI11's own checks.
  std::string out = "{";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? "," : "") + names[i];
  return out + "}";
}

std::optional<std::string> NamedChoice::problem(std::string_view name) const {
  if (std::find(names.begin(), names.end(), name) != names.end()) return std::nullopt;
  return std::string(name) + " not in " + listed();
}

const NamedChoice& placement_choice() {
  using machine::Placement;
  static const NamedChoice choice{{machine::placement_name(Placement::traced), machine::placement_name(Placement::pool),
                                   machine::placement_name(Placement::eft)}};
  return choice;
}

const NamedChoice& unlogged_time_choice() {
  using replay::UnloggedTime;
  static const NamedChoice choice{
      {replay::unlogged_time_name(UnloggedTime::measured), replay::unlogged_time_name(UnloggedTime::instant)}};
  return choice;
}

const NamedChoice& queue_order_choice() {
  using replay::QueueOrder;
  static const NamedChoice choice{
      {replay::queue_order_name(QueueOrder::observed), replay::queue_order_name(QueueOrder::ready)}};
  return choice;
}

std::optional<std::string> fold_problem(std::int64_t model_nodes) {
  if (model_nodes >= 1 && model_nodes <= machine::kMaxFold) return std::nullopt;
  return "Value " + std::to_string(model_nodes) + " not in range 1 to " + std::to_string(machine::kMaxFold);
}

namespace {

core::InputError option_error(const std::string& option, std::string problem) {
  return core::InputError{core::SourceLocation{option, 0, std::nullopt}, std::move(problem)};
}

// The first name or fold its check refuses, as an error named after the option.
std::optional<core::InputError> refused_value(const ReplayChoices& choices) {
  if (!choices.placement.empty())
    if (auto problem = placement_choice().problem(choices.placement)) return option_error("--placement", *problem);
  if (choices.fold != 0)
    if (auto problem = fold_problem(choices.fold)) return option_error("--fold", *problem);
  if (auto problem = unlogged_time_choice().problem(choices.unlogged_time))
    return option_error("--unlogged-time", *problem);
  if (auto problem = queue_order_choice().problem(choices.queue_order)) return option_error("--queue-order", *problem);
  return std::nullopt;
}

}  // namespace

core::Expected<ReplaySettings> replay_settings(const ReplayChoices& choices) {
  if (auto refused = refused_value(choices)) return *refused;
  ReplaySettings settings;
  machine::MappingSpec& mapping = settings.mapping;
  if (!choices.mapping.empty()) {
    auto spec = machine::load_mapping(choices.mapping);
    if (!spec) return spec.error();
    mapping = std::move(*spec);
  }
  if (!choices.placement.empty()) mapping.placement = machine::placement_from_name(choices.placement);
  for (const auto& text : choices.map) {
    auto move = machine::parse_move(text);
    if (!move) return move.error();
    if (mapping.moves_function(move->function))
      return option_error("--map " + text, "function " + std::to_string(move->function) + " is moved twice");
    mapping.moves.push_back(std::move(*move));
  }
  if (choices.fold) mapping.fold = choices.fold;
  if (!choices.node_map.empty()) {
    auto nodes = machine::parse_node_map(choices.node_map);
    if (!nodes) return nodes.error();
    mapping.nodes = std::move(*nodes);
  }
  replay::ReplayRules& rules = settings.engine.rules;
  rules.unlogged = choices.unlogged_time == replay::unlogged_time_name(replay::UnloggedTime::instant)
                       ? replay::UnloggedTime::instant
                       : replay::UnloggedTime::measured;
  rules.queue_order = choices.queue_order == replay::queue_order_name(replay::QueueOrder::ready)
                          ? replay::QueueOrder::ready
                          : replay::QueueOrder::observed;
  return settings;
}

}  // namespace rr::session
