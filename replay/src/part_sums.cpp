#include "replay/part_sums.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <stdexcept>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/saturating.hpp"
#include "replay/byte_wire.hpp"
#include "replay/src/network_pump.hpp"

namespace rr::replay {

namespace {

// The counters, in one fixed order: what adds up over ranks, then what is the latest.
constexpr std::size_t kAdded = 11;
std::array<std::uint64_t*, kAdded> added(ReplayResult& r) {
  return {&r.operations,          &r.stuck,          &r.tasks_without_time, &r.outside_work,
          &r.after_untimed,       &r.measured_waits, &r.copies_default_size, &r.copies_retargeted,
          &r.copies_removed,      &r.implied_copies, &r.clamped_waits};
}

std::vector<std::byte> sums_message(ReplayResult& r) {
  ByteWriter w;
  w.put(WireKind::result);
  for (std::uint64_t* n : added(r)) w.put(*n);
  w.put(r.measured_wait_ns);
  w.put(r.implied_copy_ns);
  w.put(r.makespan_ns);
  w.put(r.last_end_ns);
  w.put_all<ProcessorUsage>(r.processors);
  w.put_all<ChannelUsage>(r.channels);
  w.put<std::uint64_t>(r.paths.size());
  for (const auto& [name, usage] : r.paths) {
    w.put_text(name);
    w.put(usage);
  }
  w.put<std::uint64_t>(r.stuck_examples.size());
  for (const StuckExample& s : r.stuck_examples) {
    w.put(s.vertex);
    w.put_text(s.reason);
  }
  return w.take();
}

// Rank 0: another rank's sums laid onto its own.
void add_sums(ReplayResult& r, ByteReader& in, std::uint32_t from) {
  for (std::uint64_t* n : added(r)) *n += in.get<std::uint64_t>();
  r.measured_wait_ns = core::saturating_add(r.measured_wait_ns, in.get<TimeNs>());
  r.implied_copy_ns = core::saturating_add(r.implied_copy_ns, in.get<TimeNs>());
  r.makespan_ns = std::max(r.makespan_ns, in.get<TimeNs>());
  r.last_end_ns = std::max(r.last_end_ns, in.get<TimeNs>());
  const std::vector<ProcessorUsage> processors = in.get_all<ProcessorUsage>();
  if (processors.size() != r.processors.size())
    throw std::logic_error("replay from parts: rank " + std::to_string(from) + " has " +
                           std::to_string(processors.size()) + " processors, rank 0 " +
                           std::to_string(r.processors.size()));
  for (std::size_t p = 0; p < processors.size(); ++p) {
    r.processors[p].busy_ns = core::saturating_add(r.processors[p].busy_ns, processors[p].busy_ns);
    r.processors[p].segments += processors[p].segments;
  }
  // An instance is one rank's (its node's); a rank that recorded intervals lists every rank's already, with their
  // use (the timeline's tracks), so an instance rank 0 lists is not added twice.
  std::set<std::pair<std::uint32_t, std::uint32_t>> listed;
  for (const ChannelUsage& c : r.channels) listed.emplace(c.channel, c.node);
  for (const ChannelUsage& c : in.get_all<ChannelUsage>())
    if (listed.emplace(c.channel, c.node).second) r.channels.push_back(c);
  for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
    PathUsage& sum = r.paths[in.get_text()];
    sum.add(in.get<PathUsage>());
  }
  for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
    StuckExample s;
    s.vertex = in.get<graph::VertexId>();
    s.reason = in.get_text();
    r.stuck_examples.push_back(std::move(s));
  }
}

}  // namespace

void gather_part_sums(ReplayResult& r, BlockNetwork& net, std::size_t stuck_examples) {
  if (net.ranks() < 2) return;
  if (net.rank() != 0) {
    net.send(0, sums_message(r));
    return;
  }
  Inbox inbox(net);
  for (std::uint32_t heard = 1; heard < net.ranks(); ++heard) {
    const auto m = inbox.next(WireKind::result, true);
    ByteReader in(m->bytes);
    in.get<WireKind>();
    add_sums(r, in, m->from);
  }
  // Orders that do not depend on which rank said what first: one engine's.
  std::sort(r.channels.begin(), r.channels.end(),
            [](const ChannelUsage& a, const ChannelUsage& b) { return std::tie(a.channel, a.node) < std::tie(b.channel, b.node); });
  std::sort(r.stuck_examples.begin(), r.stuck_examples.end(),
            [](const StuckExample& a, const StuckExample& b) { return a.vertex < b.vertex; });
  if (r.stuck_examples.size() > stuck_examples) r.stuck_examples.resize(stuck_examples);
}

}  // namespace rr::replay
