// A Legion Prof merger (or completion queue) of more than four inputs is logged as several consecutive records of
// one result; the whole build and the build in parts read them alike.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/prof_records.hpp"

namespace rr::graph {

// Calls each(first, inputs) once per result, in the records' order: `first` is the index of its first record,
// `inputs` its distinct inputs in ascending order (some records list an input twice).
template <class Each>
void for_each_merged_result(const std::vector<core::ProfEventMerger>& records, Each&& each) {
  for (std::size_t i = 0; i < records.size();) {
    std::size_t j = i;
    std::vector<std::uint64_t> inputs;
    while (j < records.size() && records[j].result == records[i].result) {
      for (const auto& pre : records[j].pre)
        if (!pre.is_none()) inputs.push_back(pre.id);
      ++j;
    }
    std::sort(inputs.begin(), inputs.end());
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    each(i, inputs);
    i = j;
  }
}

}  // namespace rr::graph
