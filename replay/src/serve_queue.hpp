// A heap whose top is the smallest element by operator< (the one to serve first).
#pragma once

#include <queue>
#include <vector>

namespace rr::replay {

template <typename T>
struct Worse {
  bool operator()(const T& a, const T& b) const { return b < a; }
};
template <typename T>
using ServeQueue = std::priority_queue<T, std::vector<T>, Worse<T>>;

}  // namespace rr::replay
