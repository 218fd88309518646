// The part build's entry point, its steps in order, and the exchanges between them.
#include "graph/graph_part.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "graph/src/part/part_builder.hpp"

namespace rr::graph {

std::uint32_t NodeRanks::rank_of_model(std::uint32_t node) const {
  if (node == kNoNode || nodes == 0) return 0;
  const std::uint64_t n = std::min(node, nodes - 1);
  return static_cast<std::uint32_t>(n * ranks / nodes);
}

std::size_t GraphPart::local(VertexId v) const {
  const auto it = std::lower_bound(ids.begin(), ids.end(), v);
  return it != ids.end() && *it == v ? static_cast<std::size_t>(it - ids.begin()) : ids.size();
}

namespace part_detail {

GraphPart PartBuilder::build() {
  try {
    // What reading freed (the repeated machine records, dropped once every file is read) stays in the heap until it
    // is trimmed, under every step's peak: 79 MiB on a rank of the 1,024-node S3D trace at four ranks.
    platform::FreedMemory::give_back();
    const auto ended = [&](const char* step) {
      if (after_step_) after_step_(step);
    };
    lay_out();
    ended("layout");
    resolve_references();
    ended("directory");
    deliver();
    ended("deliveries");
    order_tasks();
    ended("tasks");
    GraphPart part = assemble();
    ended("assembly");
    log_.append_to(part.findings);
    part.findings.external_references = external_references_;
    part.findings.pre_first_phase_references = pre_first_phase_references_;
    traffic_.phases = phase_keys_.size();
    traffic_.waiting_tasks = waits_before_.size();
    traffic_.bytes_sent = channel_.bytes_sent();
    part.traffic = traffic_;
    return part;
  } catch (const std::exception& e) {
    // The others wait for this rank's next message: a failure in its place stops them too.
    channel_.send_failure(e.what());
    throw;
  }
}

std::uint32_t PartBuilder::home_of(const core::EventKey& e) const {
  if (width_ == core::IdWidth::unknown) return static_cast<std::uint32_t>(e.id() % ranks_.ranks);
  return owner_of_node(owner_node(e.id()));
}

std::vector<std::vector<std::byte>> PartBuilder::exchange(std::vector<std::vector<std::byte>> to_each) {
  return channel_.exchange(std::move(to_each));
}

}  // namespace part_detail

GraphPart build_graph_part(const PartFiles& files, const NodeRanks& ranks, RankExchange& exchange,
                           const BuildOptions& options, const std::function<void(const char*)>& after_step) {
  return part_detail::PartBuilder(files, ranks, exchange, options, after_step).build();
}

}  // namespace rr::graph
