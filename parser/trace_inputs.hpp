// Turns command-line trace arguments (folders, files, globs, tar archives) into an ordered list of inputs.
#pragma once

#include <string>
#include <vector>

#include "core/result.hpp"

namespace rr::parser {

struct TraceInput {
  std::string path;
  bool is_archive = false;  // a tar archive (plain or compressed) holding per-node logs
};

// True for "node_<N>.log" with an optional .gz/.xz/.zst suffix; sets *node to N.
bool is_node_log_name(const std::string& file_name, int* node = nullptr);

// A folder contributes its node_<N>.log[.gz|.xz|.zst] files, ordered by N. A file is
// taken as given; it is an archive if its decoded bytes start with a tar header.
// An argument that does not exist but has * ? or [ is expanded as a glob.
// Inputs keep argument order; the same path given twice is read once.
core::Expected<std::vector<TraceInput>> discover_inputs(const std::vector<std::string>& args);

}  // namespace rr::parser
