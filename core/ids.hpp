// Strong handles for Realm ids and events, and the id bit layout (docs/realm-log-format.md, Ids).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace rr::core {

// An event as printed in the log: (id, gen). Stored as three 32-bit words so a
// record array packs events without 8-byte alignment padding (12 bytes each).
struct EventKey {
  std::uint32_t id_lo = 0;
  std::uint32_t id_hi = 0;
  std::uint32_t gen = 0;

  static constexpr EventKey make(std::uint64_t id, std::uint32_t generation) {
    return EventKey{static_cast<std::uint32_t>(id), static_cast<std::uint32_t>(id >> 32), generation};
  }
  constexpr std::uint64_t id() const { return (std::uint64_t{id_hi} << 32) | id_lo; }
  // (0,0) is NO_EVENT: "no dependence" as a precondition, "no task" as enclosing.
  constexpr bool is_none() const { return id_lo == 0 && id_hi == 0 && gen == 0; }
  friend constexpr bool operator==(const EventKey&, const EventKey&) = default;
};
static_assert(sizeof(EventKey) == 12);

// A 64-bit Realm handle (processor, group, memory, barrier id) kept in two
// 32-bit words for the same packing reason as EventKey.
struct Handle {
  std::uint32_t lo = 0;
  std::uint32_t hi = 0;
  static constexpr Handle make(std::uint64_t id) {
    return Handle{static_cast<std::uint32_t>(id), static_cast<std::uint32_t>(id >> 32)};
  }
  constexpr std::uint64_t value() const { return (std::uint64_t{hi} << 32) | lo; }
  friend constexpr bool operator==(const Handle&, const Handle&) = default;
};
static_assert(sizeof(Handle) == 8);

// The id layouts: the 2014-15 runtime's 32- or 64-bit ids (docs/realm-log-format.md, Ids), and today's Realm
// ids as Legion Prof logs them (processors and memories: owner node in bits 40-55; docs/legion-prof.md, Ids).
enum class IdWidth : std::uint8_t { unknown = 0, bits32 = 32, bits64 = 64, realm = 65 };

// Field widths of the packed id for one id width.
struct IdLayout {
  unsigned total_bits;
  unsigned node_bits;
  unsigned index_h_bits;
  unsigned index_l_bits;

  static constexpr IdLayout for_width(IdWidth width) {
    if (width == IdWidth::realm) return IdLayout{64, 16, 8, 32};
    return width == IdWidth::bits64 ? IdLayout{64, 16, 12, 32} : IdLayout{32, 5, 7, 16};
  }
  constexpr unsigned index_bits() const { return index_h_bits + index_l_bits; }
  constexpr std::uint32_t node_of(std::uint64_t id) const {
    return static_cast<std::uint32_t>((id >> index_bits()) & ((std::uint64_t{1} << node_bits) - 1));
  }
  constexpr std::uint64_t index_of(std::uint64_t id) const {
    return id & ((std::uint64_t{1} << index_bits()) - 1);
  }
};

// The owner node of a processor or memory id as today's Realm (and so Legion Prof) writes it.
constexpr std::uint32_t realm_node_of(std::uint64_t id) { return IdLayout::for_width(IdWidth::realm).node_of(id); }

// The node that created a barrier, as today's Realm packs a barrier's id: a 4-bit type, the creating node in bits
// 44-59, then the barrier's index and, in the low 20 bits, the generation.
constexpr std::uint32_t realm_barrier_node_of(std::uint64_t id) { return static_cast<std::uint32_t>((id >> 44) & 0xffff); }

// The largest node a Realm id can name (the 16-bit node field of 64-bit ids and of today's Realm ids): a node
// number beyond it, in a logger prefix, a file name or a Legion Prof MachineDesc, names no node of any run.
inline constexpr std::uint32_t kMaxNode = 65535;

// Width implied by one non-zero id's value: every valid id has a non-zero type
// nibble at the top, so a 32-bit id is < 2^32 and a 64-bit id is >= 2^60.
constexpr IdWidth width_of_value(std::uint64_t id) {
  return id > 0xffffffffull ? IdWidth::bits64 : IdWidth::bits32;
}

std::string to_string(IdWidth width);
std::string hex(std::uint64_t value);
std::string to_string(const EventKey& event);  // "(id,gen)" as in the log

}  // namespace rr::core

template <>
struct std::hash<rr::core::EventKey> {
  std::size_t operator()(const rr::core::EventKey& e) const noexcept {
    std::uint64_t h = e.id() * 0x9e3779b97f4a7c15ull ^ (std::uint64_t{e.gen} * 0xc2b2ae3d27d4eb4full);
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};
