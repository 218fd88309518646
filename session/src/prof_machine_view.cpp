#include "session/src/prof_machine_view.hpp"

#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "replay/byte_wire.hpp"

namespace rr::session {

namespace {

std::vector<std::byte> own_machines(const core::TraceRecords& own, const std::vector<std::uint32_t>& file_index) {
  replay::ByteWriter w;
  w.put<std::uint64_t>(own.files.size());
  for (std::size_t f = 0; f < own.files.size(); ++f) {
    const core::FileRecords& file = own.files[f];
    w.put(file_index.at(f));
    w.put(file.node);
    w.put_text(file.path);
    w.put<std::uint8_t>(file.profile.machine ? 1 : 0);
    w.put(file.profile.machine.value_or(core::ProfMachine{}));
    w.put_all<core::ProfProcessor>(file.profile.processors);
    w.put_all<core::ProfMemory>(file.profile.memories);
    w.put_all<core::ProfAffinity>(file.profile.affinities);
  }
  return w.take();
}

void take_machines(const std::vector<std::byte>& bytes, core::TraceRecords& out) {
  replay::ByteReader in(bytes);
  for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
    const auto f = in.get<std::uint32_t>();
    if (f >= out.files.size()) throw std::logic_error("Legion Prof parts: a file past the trace's files");
    core::FileRecords& file = out.files[f];
    file.format = core::TraceFormat::legion_prof;
    file.node = in.get<std::int32_t>();
    file.path = in.get_text();
    const bool described = in.get<std::uint8_t>() != 0;
    const auto machine = in.get<core::ProfMachine>();
    if (described) file.profile.machine = machine;
    file.profile.processors = in.get_all<core::ProfProcessor>();
    file.profile.memories = in.get_all<core::ProfMemory>();
    file.profile.affinities = in.get_all<core::ProfAffinity>();
  }
}

}  // namespace

core::TraceRecords every_file_machine(const core::TraceRecords& own, const std::vector<std::uint32_t>& file_index,
                                      std::uint32_t total_files, graph::RankExchange& exchange) {
  core::TraceRecords out;
  out.format = core::TraceFormat::legion_prof;
  out.width = core::IdWidth::realm;  // (as the whole trace's Legion Prof build reads ids: session::load_records)
  out.files.resize(total_files);
  const std::vector<std::byte> mine = own_machines(own, file_index);
  const std::vector<std::vector<std::byte>> came =
      exchange.all_to_all(std::vector<std::vector<std::byte>>(exchange.ranks(), mine));
  for (std::uint32_t r = 0; r < came.size(); ++r) take_machines(r == exchange.rank() ? mine : came[r], out);
  return out;
}

}  // namespace rr::session
