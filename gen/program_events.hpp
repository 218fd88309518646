// The Realm ids a generated trace's logs name: processors, memories and every operation's event, packed by the
// 2014–2015 runtime's id layout (core::IdLayout).
#pragma once

#include <cstdint>
#include <vector>

#include "core/ids.hpp"
#include "program.hpp"

namespace rr::gen {

// 32-bit ids (5 node bits) up to 32 nodes, else 64-bit ids (16 node bits): type nibble, owner node, index.
struct IdMaker {
  core::IdLayout layout;
  explicit IdMaker(std::uint32_t nodes)
      : layout(core::IdLayout::for_width(nodes > 32 ? core::IdWidth::bits64 : core::IdWidth::bits32)) {}
  std::uint64_t make(unsigned type, std::uint32_t node, std::uint64_t index) const {
    return (std::uint64_t{type} << (layout.total_bits - 4)) | (std::uint64_t{node} << layout.index_bits()) | index;
  }
  // Memory ordinal on its node (index_h): 0 system memory, 1 GPU framebuffer, 2 zero-copy.
  std::uint64_t memory(std::uint32_t node, unsigned ordinal = 0) const {
    return make(6, node, std::uint64_t{ordinal} << layout.index_l_bits);
  }
  std::uint64_t processor(std::uint32_t node, std::uint32_t index) const { return make(8, node, index); }
  std::uint64_t event(std::uint32_t node, std::uint64_t index) const { return make(2, node, index); }
};

// Every op's event: created on its node, one table index per op there, generation 1. Barriers take event slots of
// their owner after those (barriers are events); a phase's event is (barrier, its generation).
class ProgramEvents {
 public:
  explicit ProgramEvents(const Program& program);

  const IdMaker& ids() const { return ids_; }
  std::uint64_t id(std::uint32_t op) const { return event_id_[op]; }
  std::uint32_t generation(std::uint32_t op) const {
    return program_.ops[op].kind == GenKind::phase ? program_.ops[op].generation : 1u;
  }
  std::uint64_t barrier(std::uint32_t b) const { return barrier_id_[b]; }
  // An event of `node` that no operation has (for the quirks that name an unknown event): the next free index.
  std::uint64_t fresh(std::uint32_t node) { return ids_.event(node, next_index_[node]++); }

 private:
  const Program& program_;
  IdMaker ids_;
  std::vector<std::uint32_t> next_index_;
  std::vector<std::uint64_t> event_id_;
  std::vector<std::uint64_t> barrier_id_;
};

}  // namespace rr::gen
