// The Chrome-trace / Perfetto timeline of a replay (`replay --timeline`): one track per processor and channel
// instance, the critical path as a process of its own, and the observed run beside it (Legion Prof logs).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "platform/output_target.hpp"
#include "replay_report.hpp"

namespace rr::app {

struct TimelineFilter {
  std::optional<replay::TimeNs> from_ns;
  std::optional<replay::TimeNs> to_ns;
  std::set<std::uint32_t> nodes;  // empty: all
};

// Chrome trace event format (chrome://tracing, ui.perfetto.dev), written event by event to `out`, so that memory
// stays that of one event (over ranks: a few batches of them) whatever the file's size. Over ranks every rank
// calls it: rank 0 writes the timeline, each other rank streams the events of its own operations to rank 0
// (replay/timeline_stream.hpp) and writes nothing.
void write_timeline(const ReplayView& v, const TimelineFilter& filter, const std::function<void(std::string_view)>& out);

// The --timeline file, written before the report is made (over ranks, while every rank still takes part) and put in
// place with it: whole or not at all, and not at all when the command fails in between.
class TimelineFile {
 public:
  // Writes `v`'s timeline to `path`; over ranks, on a rank other than 0, streams its part to rank 0 instead. When
  // the file cannot be opened, the timeline is still gone through (the other ranks' parts taken in), and commit
  // says why.
  void write(const std::string& path, const ReplayView& v, const TimelineFilter& filter);
  // An empty string, or why the file could not be written.
  std::string commit();

 private:
  platform::OutputTarget target_;
  std::string error_;
};

}  // namespace rr::app
