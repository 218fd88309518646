// For tests of graph parts (graph::GraphPart): a vertex as text, from the whole graph or from a part, with everything
// a part holds of it (kind, node, event, issuer, position, payload and what it names, out-edges in order), so that
// a part is compared with the whole graph restricted to its vertices line by line; and each rank's files of a 2015
// trace read on their own, as a rank of the part build reads them.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/trace_records.hpp"
#include "graph/event_graph.hpp"
#include "graph/graph_part.hpp"
#include "parser/trace_reader.hpp"

namespace rr::testing {

using graph::EventGraph;
using graph::GraphPart;
using graph::NodeRanks;
using graph::OpKind;
using graph::PartFiles;
using graph::TaskInfo;
using graph::VertexId;
using graph::WaitInfo;
using graph::kNoNode;
using graph::edge_kind_name;
using graph::op_kind_name;

// One vertex of the whole graph as text: everything a part holds of it.
inline std::string describe(const EventGraph& g, VertexId v) {
  std::ostringstream out;
  out << v << ' ' << op_kind_name(g.kind(v)) << " node " << g.node(v) << ' ' << core::to_string(g.event(v))
      << " issuer " << g.issuer(v) << " position " << g.position(v) << " payload " << g.payload(v);
  switch (g.kind(v)) {
    case OpKind::task: {
      const TaskInfo& t = g.task(v);
      out << " task " << t.func_id << ',' << t.priority << ',' << t.processor.value() << ',' << t.time_ns << ','
          << t.action_count << ',' << t.first_wait;
      break;
    }
    case OpKind::copy:
      out << " copy " << g.copy(v).src_memory.value() << ',' << g.copy(v).dst_memory.value() << ',' << g.copy(v).bytes;
      break;
    case OpKind::barrier_phase:
      out << " phase " << g.phase(v).required << ',' << g.phase(v).arrived << ',' << g.phase(v).first;
      break;
    case OpKind::barrier_alter:
    case OpKind::barrier_arrive: out << " value " << g.barrier_value(v); break;
    case OpKind::task_resume: {
      const WaitInfo& w = g.resume_wait(v);
      out << " wait " << w.task << ',' << w.resume << ',' << w.awaited << ',' << core::to_string(w.event) << ','
          << w.wait_ns << ',' << w.position;
      break;
    }
    default: break;
  }
  out << " ->";
  const auto succ = g.successors(v);
  const auto kinds = g.successor_kinds(v);
  for (std::size_t i = 0; i < succ.size(); ++i) out << ' ' << succ[i] << edge_kind_name(kinds[i]);
  return out.str();
}

// The same text from a part's local vertex i.
inline std::string describe(const GraphPart& p, std::size_t i) {
  std::ostringstream out;
  const std::uint32_t at = p.local_payload[i];
  out << p.ids[i] << ' ' << op_kind_name(p.kind[i]) << " node " << p.node[i] << ' ' << core::to_string(p.event[i])
      << " issuer " << p.issuer[i] << " position " << p.position[i] << " payload " << p.payload[i];
  switch (p.kind[i]) {
    case OpKind::task: {
      const TaskInfo& t = p.tasks[at];
      out << " task " << t.func_id << ',' << t.priority << ',' << t.processor.value() << ',' << t.time_ns << ','
          << t.action_count << ',' << t.first_wait;
      break;
    }
    case OpKind::copy:
      out << " copy " << p.copies[at].src_memory.value() << ',' << p.copies[at].dst_memory.value() << ','
          << p.copies[at].bytes;
      break;
    case OpKind::barrier_phase:
      out << " phase " << p.phases[at].required << ',' << p.phases[at].arrived << ',' << p.phases[at].first;
      break;
    case OpKind::barrier_alter:
    case OpKind::barrier_arrive: out << " value " << p.barrier_values[at]; break;
    case OpKind::task_resume: {
      const WaitInfo& w = p.waits[at];
      out << " wait " << w.task << ',' << w.resume << ',' << w.awaited << ',' << core::to_string(w.event) << ','
          << w.wait_ns << ',' << w.position;
      break;
    }
    default: break;
  }
  out << " ->";
  const auto succ = p.successors_of(i);
  const auto kinds = p.successor_kinds_of(i);
  for (std::size_t k = 0; k < succ.size(); ++k) out << ' ' << succ[k] << edge_kind_name(kinds[k]);
  return out.str();
}

// Each rank's files read on their own, as a rank reads them: the traced nodes of its range.
struct RankFiles {
  std::optional<core::TraceRecords> records;
  PartFiles files;
};

inline std::vector<RankFiles> read_by_rank(const core::TraceRecords& whole, const NodeRanks& ranks) {
  std::vector<RankFiles> by_rank(ranks.ranks);
  std::vector<std::vector<std::string>> paths(ranks.ranks);
  for (std::uint32_t f = 0; f < whole.files.size(); ++f) {
    const std::int32_t node = whole.files[f].node;
    const std::uint32_t r = ranks.rank_of(node < 0 ? kNoNode : static_cast<std::uint32_t>(node));
    paths[r].push_back(whole.files[f].path);
    by_rank[r].files.file_index.push_back(f);
  }
  for (std::uint32_t r = 0; r < ranks.ranks; ++r) {
    RankFiles& mine = by_rank[r];
    mine.files.total_files = static_cast<std::uint32_t>(whole.files.size());
    if (paths[r].empty()) {
      mine.records.emplace();
    } else {
      auto read = parser::read_trace(paths[r], {});
      if (!read) {
        ADD_FAILURE() << read.error().to_string();
        continue;
      }
      mine.records = std::move(*read);
      for (std::size_t i = 0; i < mine.records->files.size(); ++i)
        EXPECT_EQ(mine.records->files[i].path, whole.files[mine.files.file_index[i]].path);
    }
    mine.files.records = &*mine.records;
  }
  return by_rank;
}

}  // namespace rr::testing
