// One rank's rows of the graph's arrays, copied from the mapping into its part.
#include "packed/src/part_rows.hpp"

#include <span>

namespace rr::packed::detail {

using namespace layout;
using graph::EdgeOffset;
using graph::OpKind;
using graph::VertexId;

namespace {

// Checks the blocks of rows [first, first + count) of array `column`, throwing when one is damaged.
template <class T>
std::span<const T> checked_rows(const OpenedFile& file, BlockChecker& checker, std::size_t column, std::uint64_t first,
                                std::uint64_t count) {
  if (!checker.check_rows<T>(column, first, count))
    throw PartDamage(kFirstColumn + column, "the checksum of " + section_name(kFirstColumn + column) + " does not match");
  return file.column<T>(column).subspan(first, count);
}

template <class T>
void append(std::vector<T>& to, std::span<const T> rows) {
  to.insert(to.end(), rows.begin(), rows.end());
}

std::string at_vertex(const char* what, std::uint64_t v) { return std::string("the graph has ") + what + " at vertex " + std::to_string(v); }

// The entry of array `column` at `index`, appended to `to`; its place there is the vertex's local payload.
template <class T>
std::uint32_t take(const OpenedFile& file, BlockChecker& checker, std::size_t column, std::uint32_t index, VertexId v,
                   std::vector<T>& to) {
  if (index >= file.column<T>(column).size())
    throw PartDamage(kFirstColumn + kPayloadsColumn, at_vertex("an attribute index out of range", v));
  to.push_back(checked_rows<T>(file, checker, column, index, 1)[0]);
  return static_cast<std::uint32_t>(to.size() - 1);
}

}  // namespace

void append_rows(const OpenedFile& file, BlockChecker& checker, const OwnRun& own, graph::GraphPart& part) {
  const std::uint64_t a = own.run.first, c = own.run.count;
  const auto nodes = checked_rows<std::uint32_t>(file, checker, kNodesColumn, a, c);
  for (std::uint64_t k = 0; k < c; ++k)
    if (nodes[k] != own.node)
      throw PartDamage(kVertexRuns, section_name(kVertexRuns) + ": vertex " + std::to_string(a + k) + " listed under node " +
                                        std::to_string(own.node) + " has node " + std::to_string(nodes[k]));
  for (std::uint64_t k = 0; k < c; ++k) part.ids.push_back(static_cast<VertexId>(a + k));
  append(part.node, nodes);
  append(part.kind, checked_rows<OpKind>(file, checker, kKindsColumn, a, c));
  append(part.event, checked_rows<core::EventKey>(file, checker, kEventsColumn, a, c));
  append(part.issuer, checked_rows<VertexId>(file, checker, kIssuersColumn, a, c));
  append(part.position, checked_rows<std::uint32_t>(file, checker, kPositionsColumn, a, c));
  append(part.payload, checked_rows<std::uint32_t>(file, checker, kPayloadsColumn, a, c));

  const auto offsets = checked_rows<EdgeOffset>(file, checker, kOffsetsColumn, a, c + 1);
  const std::uint64_t edges = file.column<VertexId>(kSuccessorsColumn).size();
  for (std::uint64_t k = 0; k < c; ++k)
    if (offsets[k + 1] < offsets[k]) throw PartDamage(kFirstColumn + kOffsetsColumn, at_vertex("successor offsets decrease", a + k + 1));
  if (offsets[c] > edges)
    throw PartDamage(kFirstColumn + kOffsetsColumn, at_vertex("successor offsets past the edge count", a + c));
  const EdgeOffset base = part.edge_offset.back();
  for (std::uint64_t k = 0; k < c; ++k) part.edge_offset.push_back(base + (offsets[k + 1] - offsets[0]));
  const std::uint64_t first_edge = offsets[0], count = offsets[c] - offsets[0];
  append(part.successors, checked_rows<VertexId>(file, checker, kSuccessorsColumn, first_edge, count));
  append(part.successor_kinds, checked_rows<graph::EdgeKind>(file, checker, kSuccessorKindsColumn, first_edge, count));
}

void append_payloads(const OpenedFile& file, BlockChecker& checker, graph::GraphPart& part) {
  std::array<std::size_t, graph::kOpKindCount> of_kind{};
  for (const OpKind k : part.kind)
    if (static_cast<std::size_t>(k) < of_kind.size()) ++of_kind[static_cast<std::size_t>(k)];
  const auto count = [&](OpKind k) { return of_kind[static_cast<std::size_t>(k)]; };
  part.tasks.reserve(count(OpKind::task) + count(OpKind::background));
  part.copies.reserve(count(OpKind::copy));
  part.phases.reserve(count(OpKind::barrier_phase));
  part.barrier_values.reserve(count(OpKind::barrier_alter) + count(OpKind::barrier_arrive));
  part.waits.reserve(count(OpKind::task_resume));
  part.local_payload.assign(part.size(), 0);
  for (std::size_t i = 0; i < part.size(); ++i) {
    const VertexId v = part.ids[i];
    const std::uint32_t p = part.payload[i];
    std::uint32_t& local = part.local_payload[i];
    switch (part.kind[i]) {
      case OpKind::task:
      case OpKind::background: {
        local = take(file, checker, kTasksColumn, p, v, part.tasks);
        // The task's first wait is read here, in the file: whether it names this task.
        const std::uint32_t first_wait = part.tasks[local].first_wait;
        if (first_wait == graph::kNoWait || part.kind[i] != OpKind::task) break;
        const bool in_range = first_wait < file.column<graph::WaitInfo>(kWaitsColumn).size();
        if (!in_range || checked_rows<graph::WaitInfo>(file, checker, kWaitsColumn, first_wait, 1)[0].task != v)
          throw PartDamage(kFirstColumn + kTasksColumn, at_vertex("a first wait that is not the task's", v));
        break;
      }
      case OpKind::copy: local = take(file, checker, kCopiesColumn, p, v, part.copies); break;
      case OpKind::barrier_phase: local = take(file, checker, kPhasesColumn, p, v, part.phases); break;
      case OpKind::barrier_alter:
      case OpKind::barrier_arrive: local = take(file, checker, kBarrierValuesColumn, p, v, part.barrier_values); break;
      case OpKind::task_resume: local = take(file, checker, kWaitsColumn, p, v, part.waits); break;
      default:
        if (static_cast<std::size_t>(part.kind[i]) >= graph::kOpKindCount)
          throw PartDamage(kFirstColumn + kKindsColumn, at_vertex("an operation of no kind", v));
        break;  // merges: an announced count; the others carry none
    }
  }
}

}  // namespace rr::packed::detail
