// Aggregates per-file statistics by node, and the graph builder's timing tallies by processor kind.
#include "parser/trace_summary.hpp"

#include <stdexcept>
#include <string>
#include <unordered_map>

#include "core/saturating.hpp"

namespace rr::parser {

std::string_view time_kind_key(std::size_t index) {
  static constexpr std::string_view keys[kTimeKindCount] = {"gpu", "cpu", "utility", "unknown_kind",
                                                            "unattributed"};
  return keys[index];
}

void CountsBlock::add(const CountsBlock& o) {
  records += o.records;
  stats += o.stats;
  malformed_by_kind += o.malformed_by_kind;
  for (const auto& [k, v] : o.other_categories) other_categories[k] += v;
  lines += o.lines;
  text_bytes += o.text_bytes;
  stored_bytes += o.stored_bytes;
  threads += o.threads;
  null_args += o.null_args;
  unexpected_level += o.unexpected_level;
  lines_from_other_nodes += o.lines_from_other_nodes;
  copy_bytes = core::saturating_sum(copy_bytes, o.copy_bytes);
  zero_byte_copy_sizes += o.zero_byte_copy_sizes;
  for (std::size_t i = 0; i < kTimeKindCount; ++i) task_time_us[i] = core::saturating_sum(task_time_us[i], o.task_time_us[i]);
}

namespace {

std::size_t time_index(core::ProcessorKind kind) {
  switch (kind) {
    case core::ProcessorKind::gpu: return 0;
    case core::ProcessorKind::cpu: return 1;
    case core::ProcessorKind::utility: return 2;
    default: return 3;
  }
}
constexpr std::size_t kUnattributed = 4;

}  // namespace

TraceSummary summarise(const core::TraceRecords& trace, std::span<const core::FileTimingTally> timing) {
  if (timing.size() != trace.files.size())
    throw std::invalid_argument("summarise: a timing tally per file is needed (" + std::to_string(timing.size()) +
                                " for " + std::to_string(trace.files.size()) + " files)");
  TraceSummary s;
  s.width = trace.width;
  s.mixed_widths = trace.mixed_widths;
  s.era = trace.era;
  s.era_evidence = trace.era_evidence;
  s.failed_files = trace.failed_files;

  // Machine description: every node repeats it, so dedupe by id (docs/realm-log-format.md, Order).
  std::unordered_map<std::uint64_t, core::ProcessorKind> processor_kind;
  std::unordered_map<std::uint64_t, core::MemoryKind> memory_kind;
  std::unordered_map<std::uint64_t, std::uint64_t> group_first_member;
  for (const auto& f : trace.files) {
    for (const auto& b : f.batches) {
      for (const auto& p : b.processors) processor_kind.emplace(p.id.value(), p.kind);
      for (const auto& m : b.memories) memory_kind.emplace(m.id.value(), m.kind);
      for (const auto& g : b.groups) {
        if (group_first_member.emplace(g.id.value(), g.member_count ? b.group_members[g.first_member] : 0).second)
          s.group_members += g.member_count;
      }
    }
  }
  for (const auto& [id, kind] : processor_kind) ++s.processors_by_kind[std::string(core::processor_kind_name(kind))];
  for (const auto& [id, kind] : memory_kind) ++s.memories_by_kind[std::string(core::memory_kind_name(kind))];
  s.groups = group_first_member.size();

  auto kind_of_target = [&](std::uint64_t target) {
    auto g = group_first_member.find(target);
    if (g != group_first_member.end()) target = g->second;  // a group runs tasks on its members
    auto p = processor_kind.find(target);
    return p == processor_kind.end() ? core::ProcessorKind::unknown : p->second;
  };

  std::map<std::int32_t, NodeSummary> by_node;
  for (std::uint32_t fi = 0; fi < trace.files.size(); ++fi) {
    const auto& f = trace.files[fi];
    s.files.push_back(f.path);
    NodeSummary& node = by_node[f.node];
    node.node = f.node;
    node.files.push_back(f.path);
    CountsBlock c;
    const auto& st = f.stats;
    c.records = st.records;
    c.stats = st.counts;
    c.malformed_by_kind = st.malformed_by_kind;
    for (const auto& [k, v] : st.other_categories) c.other_categories[k] += v;
    c.lines = st.lines;
    c.text_bytes = st.text_bytes;
    c.stored_bytes = f.stored_bytes;
    c.threads = st.threads.size();
    c.null_args = st.null_args;
    c.unexpected_level = st.unexpected_level;
    for (const auto& [n, count] : st.prefix_nodes)
      if (static_cast<std::int32_t>(n) != f.node) c.lines_from_other_nodes += count;
    // Task time per kind of the processor (or the group's first member) its task's request named.
    for (const auto& [target, micros] : timing[fi].task_time_us_by_target) {
      std::uint64_t& sum = c.task_time_us[time_index(kind_of_target(target))];
      sum = core::saturating_sum(sum, micros);
    }
    c.task_time_us[kUnattributed] = timing[fi].task_time_us_without_task;
    c.copy_bytes = timing[fi].copy_bytes;
    c.zero_byte_copy_sizes = timing[fi].zero_byte_copy_sizes;
    node.counts.add(c);
    s.messages.insert(s.messages.end(), st.first_messages.begin(), st.first_messages.end());
  }
  for (auto& [n, node] : by_node) {
    s.total.add(node.counts);
    s.nodes.push_back(std::move(node));
  }
  return s;
}

}  // namespace rr::parser
