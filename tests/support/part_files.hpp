// Test helper: each rank's files of a trace read on their own, as a rank of a replay over ranks reads them (the
// traced nodes of its range), for graph::build_graph_part.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "graph/graph_part.hpp"
#include "parser/trace_reader.hpp"

namespace rr::testing {

struct RankFiles {
  std::optional<core::TraceRecords> records;
  graph::PartFiles files;
};

inline std::vector<RankFiles> read_by_rank(const core::TraceRecords& whole, const graph::NodeRanks& ranks) {
  std::vector<RankFiles> by_rank(ranks.ranks);
  std::vector<std::vector<std::string>> paths(ranks.ranks);
  for (std::uint32_t f = 0; f < whole.files.size(); ++f) {
    const std::int32_t node = whole.files[f].node;
    const std::uint32_t r = ranks.rank_of(node < 0 ? graph::kNoNode : static_cast<std::uint32_t>(node));
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
    }
    mine.files.records = &*mine.records;
  }
  return by_rank;
}

}  // namespace rr::testing
