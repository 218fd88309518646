// Turns decoded Legion Prof records into ProfileRecords: children joined, names interned, repeats dropped.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/prof_records.hpp"
#include "parser/src/legion_prof_schema.hpp"

namespace rr::parser::prof {

class ProfRecordStore {
 public:
  ProfRecordStore(core::ProfileRecords& out, std::size_t max_messages) : out_(out), max_messages_(max_messages) {}

  // A record of a kept type; `offset` is where it starts in the decompressed stream (for messages).
  void add(Kept kept, const FieldView& f, std::uint64_t offset);
  // A record of a type the reader does not keep: it ends the run of children of the record before it.
  void other() { parent_ = Parent{}; }
  // Releases spare capacity of the arrays.
  void finish();

 private:
  // The record children attach to: the last work item, copy or fill, as long as only its children follow.
  struct Parent {
    enum class Of : std::uint8_t { nothing, work, copy, fill } of = Of::nothing;
    std::uint32_t index = core::kNoIndex;
  };

  std::uint32_t intern(std::string_view s);
  void add_work(core::ProfWorkKind kind, const FieldView& f, std::uint64_t offset);
  void add_wait(bool task_wait, const FieldView& f, std::uint64_t offset);
  void add_copy(const FieldView& f, std::uint64_t offset);
  void add_fill(const FieldView& f, std::uint64_t offset);
  void add_instance(const FieldView& f, std::uint64_t offset);
  void add_copy_inst(const FieldView& f, std::uint64_t offset);
  void add_fill_inst(const FieldView& f, std::uint64_t offset);
  // Refuses a MachineDesc whose node count or node no Realm run can have (SourceError at `offset`).
  void check_machine(const FieldView& f, std::uint64_t offset) const;
  void add_machine_record(Kept kept, const FieldView& f, std::uint64_t offset);
  void add_names(Kept kept, const FieldView& f);
  void add_events(Kept kept, const FieldView& f, std::uint64_t offset);
  // Counts a record as `stat` (one of core::unjoined_record_stats()) and keeps its first messages.
  void note(core::Stat stat, std::uint64_t offset, std::string message);

  core::ProfileRecords& out_;
  std::size_t max_messages_;
  Parent parent_;
  std::unordered_map<std::string, std::uint32_t> strings_;
  std::unordered_map<std::uint32_t, std::uint32_t> task_kind_index_;  // task_id -> task_kinds
  std::unordered_map<std::uint64_t, std::uint32_t> processors_;  // id -> processors
  std::unordered_map<std::uint64_t, std::uint32_t> memories_;    // id -> memories
  std::unordered_set<std::uint64_t> variants_;  // (task_id << 32) | variant_id
  struct PairHash {
    std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& p) const noexcept {
      return std::hash<std::uint64_t>()(p.first * 0x9e3779b97f4a7c15ull ^ p.second);
    }
  };
  std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, std::uint32_t, PairHash> affinities_;
};

}  // namespace rr::parser::prof
