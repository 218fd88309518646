// Resources to revisit at the end of an instant, visited in ascending index order (deterministic) without
// the cost of a tree: a flag per resource and a list sorted once per instant.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace rr::replay {

class DirtySet {
 public:
  void resize(std::size_t n) { flag_.assign(n, 0); }
  void insert(std::uint32_t i) {
    if (i >= flag_.size()) flag_.resize(i + 1, 0);
    if (!flag_[i]) {
      flag_[i] = 1;
      items_.push_back(i);
    }
  }
  template <typename F>
  void drain(F&& visit) {
    while (!items_.empty()) {
      visiting_.swap(items_);  // both keep their capacity: no allocation per instant
      items_.clear();
      std::sort(visiting_.begin(), visiting_.end());
      for (auto i : visiting_) {
        flag_[i] = 0;
        visit(i);
      }
      visiting_.clear();
    }
  }

 private:
  std::vector<char> flag_;
  std::vector<std::uint32_t> items_;
  std::vector<std::uint32_t> visiting_;
};

}  // namespace rr::replay
