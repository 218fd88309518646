// The one builder of the JSON context block.
#include "run_context.hpp"

namespace rr::app {

nlohmann::ordered_json context_json(const RunContext& ctx) {
  nlohmann::ordered_json j;
  j["tool"] = "realm-replay";
  j["version"] = RR_VERSION;
  j["command"] = ctx.command;
  j["inputs"] = ctx.inputs;
  if (ctx.machine)
    j["machine"] = {{"name", ctx.machine->name}, {"file", ctx.machine->file}, {"overrides", ctx.machine->overrides}};
  nlohmann::ordered_json options = {{"threads", ctx.threads}, {"keep_going", ctx.keep_going}, {"strict", ctx.strict}};
  for (const auto& [key, value] : ctx.options.items()) options[key] = value;
  j["options"] = options;
  return j;
}

}  // namespace rr::app
