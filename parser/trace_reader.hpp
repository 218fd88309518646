// Reads a whole trace: every input streamed, decoded and parsed in parallel chunks into TraceRecords.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "core/trace_records.hpp"
#include "parser/byte_source.hpp"

namespace rr::parser {

struct ReadOptions {
  bool keep_going = false;                 // report unreadable files and go on with the others
  std::size_t max_messages_per_file = 5;   // located messages kept for malformed lines (or records not joined)
  std::size_t chunk_bytes = 4u << 20;      // unit of parallel parsing (at least kMaxLineBytes)
  // Called after each parsed chunk with its decoded byte count, possibly from several
  // threads at once (files are read in parallel); the callee synchronises.
  std::function<void(std::uint64_t)> on_progress;
};

// Reads and parses the inputs named by `args` (see discover_inputs) on `threads` worker threads (0: every
// hardware thread). Fails with the first unreadable input (in argument order) unless keep_going is set, when
// the trace holds no records at all, when it mixes Realm text logs and Legion Prof logs, and when two Legion
// Prof logs belong to one node.
core::Expected<core::TraceRecords> read_trace(const std::vector<std::string>& args, const ReadOptions& options,
                                              unsigned threads = 0);

// Parses one already-opened stream as one log file (the building block of
// read_trace). `display_name` names the file in messages. Throws SourceError.
core::FileRecords read_log_stream(std::unique_ptr<ByteSource> source, std::string display_name,
                                const ReadOptions& options);
// The same for a Legion Prof log (decoded bytes starting with its FileType line). Its node is MachineDesc's
// node_id, else the number in `display_name`'s file name.
core::FileRecords read_prof_stream(std::unique_ptr<ByteSource> source, std::string display_name,
                                   const ReadOptions& options);

// Finishes a TraceRecords whose files are filled in: id width and era.
void summarise_trace(core::TraceRecords& trace);

}  // namespace rr::parser
