// One read-only array of a frozen graph: owned when the graph was built in memory, a view into a memory-mapped
// packed trace (packed/packed_trace) when it was loaded from one. Reads cost the same either way.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace rr::graph {

template <class T>
class Column {
 public:
  using value_type = T;

  Column() = default;
  explicit Column(std::vector<T> owned) : owned_(std::move(owned)), data_(owned_.data()), size_(owned_.size()) {}
  // A view of `size` elements at `data`, kept alive by `keeper` (the mapping it lies in).
  static Column viewing(const T* data, std::size_t size, std::shared_ptr<const void> keeper) {
    Column c;
    c.data_ = data;
    c.size_ = size;
    c.keeper_ = std::move(keeper);
    return c;
  }

  Column(const Column& o) : owned_(o.owned_), keeper_(o.keeper_) { point_like(o); }
  // Moving a vector keeps its buffer, so an owned column's pointer stays valid.
  Column(Column&& o) noexcept
      : owned_(std::move(o.owned_)), data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)),
        keeper_(std::move(o.keeper_)) {}
  Column& operator=(Column o) noexcept {
    owned_.swap(o.owned_);
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    keeper_.swap(o.keeper_);
    return *this;
  }

  const T& operator[](std::size_t i) const { return data_[i]; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  std::span<const T> span() const { return {data_, size_}; }
  operator std::span<const T>() const { return span(); }

 private:
  void point_like(const Column& o) {
    data_ = o.keeper_ ? o.data_ : owned_.data();
    size_ = o.size_;
  }

  std::vector<T> owned_;
  const T* data_ = nullptr;
  std::size_t size_ = 0;
  std::shared_ptr<const void> keeper_;  // set when the column views memory it does not own
};

}  // namespace rr::graph
