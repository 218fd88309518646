// Aggregates per-file statistics by node and joins Task Time to Task Request to account time by processor kind.
#include "parser/trace_summary.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <stdexcept>
#include <unordered_map>

#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

namespace rr::parser {

std::string_view time_kind_key(std::size_t index) {
  static constexpr std::string_view keys[kTimeKindCount] = {"gpu", "cpu", "utility", "unknown_kind",
                                                            "unattributed"};
  return keys[index];
}

void CountsBlock::add(const CountsBlock& o) {
  records += o.records;
  skipped += o.skipped;
  malformed += o.malformed;
  malformed_by_kind += o.malformed_by_kind;
  for (const auto& [k, v] : o.other_categories) other_categories[k] += v;
  lines += o.lines;
  text_bytes += o.text_bytes;
  stored_bytes += o.stored_bytes;
  threads += o.threads;
  null_args += o.null_args;
  unexpected_level += o.unexpected_level;
  lines_from_other_nodes += o.lines_from_other_nodes;
  copy_bytes += o.copy_bytes;
  zero_byte_copy_sizes += o.zero_byte_copy_sizes;
  for (std::size_t i = 0; i < kTimeKindCount; ++i) task_time_us[i] += o.task_time_us[i];
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

// Task Time records joined to the Task Request with the same finish event, by sorting both on the event
// (a trace has millions of tasks: a node-based map of them was most of `stats`' time and memory). Each record
// sorts as one 128-bit key, (event id, generation, its index in input order), compared in one instruction; what
// else it carries stays in arrays by that index. The first request of an event, in input order, names its
// processor.
__extension__ using SortKey = unsigned __int128;
SortKey sort_key(const core::EventKey& e, std::uint32_t index) {
  return static_cast<SortKey>(e.id()) << 64 | static_cast<SortKey>(e.gen) << 32 | index;
}
SortKey event_of(SortKey k) { return k >> 32; }
std::uint32_t index_of(SortKey k) { return static_cast<std::uint32_t>(k); }

}  // namespace

TraceSummary summarise(const core::TraceRecords& trace) {
  TraceSummary s;
  s.width = trace.width;
  s.mixed_widths = trace.mixed_widths;
  s.era = trace.era;
  s.era_evidence = trace.era_evidence;
  s.failed_files = trace.failed_files;

  // Machine description: every node repeats it, so dedupe by id (spec §6).
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

  // Task time per kind of the processor its request named; "unattributed" without a request. Each file's
  // records go to their own range of the two arrays (input order is the range's offset), in parallel.
  std::vector<std::size_t> request_at(trace.files.size() + 1), timed_at(trace.files.size() + 1);
  for (std::size_t fi = 0; fi < trace.files.size(); ++fi) {
    request_at[fi + 1] = request_at[fi];
    timed_at[fi + 1] = timed_at[fi];
    for (const auto& b : trace.files[fi].batches) {
      request_at[fi + 1] += b.task_requests.size();
      timed_at[fi + 1] += b.task_times.size();
    }
  }
  // Not zeroed first (every element is written): the pages are touched once, by the threads that fill them.
  const std::size_t request_count = request_at.back(), timed_count = timed_at.back();
  if (request_count > UINT32_MAX || timed_count > UINT32_MAX)
    throw std::length_error("more than 2^32 Task Request or Task Time records");
  auto requests = std::make_unique_for_overwrite<SortKey[]>(request_count);
  auto request_kind = std::make_unique_for_overwrite<std::uint8_t[]>(request_count);
  auto times = std::make_unique_for_overwrite<SortKey[]>(timed_count);
  auto time_micros = std::make_unique_for_overwrite<std::uint64_t[]>(timed_count);
  tbb::parallel_for(std::size_t{0}, trace.files.size(), [&](std::size_t fi) {
    // A file's requests name a few hundred processors over and over: their kinds are remembered in a small
    // direct-mapped table instead of two hash-map lookups each.
    std::array<std::pair<std::uint64_t, std::uint8_t>, 256> seen{};
    std::array<bool, 256> filled{};
    auto kind_index = [&](std::uint64_t target) {
      const std::size_t slot = (target * 0x9e3779b97f4a7c15ull) >> 56;
      if (!filled[slot] || seen[slot].first != target) {
        seen[slot] = {target, static_cast<std::uint8_t>(time_index(kind_of_target(target)))};
        filled[slot] = true;
      }
      return seen[slot].second;
    };
    std::size_t r = request_at[fi], t = timed_at[fi];
    for (const auto& b : trace.files[fi].batches) {
      for (const auto& q : b.task_requests) {
        requests[r] = sort_key(q.finish, static_cast<std::uint32_t>(r));
        request_kind[r++] = kind_index(q.target.value());
      }
      for (const auto& tt : b.task_times) {
        times[t] = sort_key(tt.finish, static_cast<std::uint32_t>(t));
        time_micros[t++] = tt.micros;
      }
    }
  });
  const std::span<SortKey> by_event(requests.get(), request_count), timed(times.get(), timed_count);
  tbb::parallel_sort(by_event.begin(), by_event.end());
  tbb::parallel_sort(timed.begin(), timed.end());
  std::vector<std::array<std::uint64_t, kTimeKindCount>> time_by_file(trace.files.size());
  std::size_t request = 0;
  for (const SortKey t : timed) {
    // The first request of each event comes first among its equals: skip past earlier events only.
    while (request < request_count && event_of(by_event[request]) < event_of(t)) ++request;
    const bool found = request < request_count && event_of(by_event[request]) == event_of(t);
    const std::uint32_t at = index_of(t);
    const auto file = static_cast<std::size_t>(std::upper_bound(timed_at.begin(), timed_at.end(), at) - timed_at.begin()) - 1;
    time_by_file[file][found ? request_kind[index_of(by_event[request])] : 4] += time_micros[at];
  }
  requests.reset();
  request_kind.reset();
  times.reset();
  time_micros.reset();

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
    c.skipped = st.skipped;
    c.malformed = st.malformed;
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
    for (const auto& b : f.batches) {
      for (const auto& cs : b.copy_sizes) {
        c.copy_bytes += cs.bytes;
        if (cs.bytes == 0) ++c.zero_byte_copy_sizes;
      }
    }
    c.task_time_us = time_by_file[fi];
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
