// Turns command-line trace arguments (folders, files, globs, tar archives) into an ordered list of inputs.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "core/trace_records.hpp"

namespace rr::parser {

struct TraceInput {
  std::string path;
  bool is_archive = false;  // a tar archive (plain or compressed) holding per-node logs
  core::TraceFormat format = core::TraceFormat::realm_text;  // of a plain input; an archive's members decide theirs
  // A FIFO, a pipe (`<(...)`, /dev/stdin) or another file that cannot be read twice: its format is read from the
  // same opening that reads it, never sniffed first.
  bool stream = false;
};

// What a stream holds, from its first decoded bytes (at least kSniffBytes of them when there are so many).
// `packed`: realm-replay's own packed trace (packed/packed_trace.hpp), a whole trace that is read alone.
enum class Content : std::uint8_t { other, legion_prof, tar, packed };
// The first bytes of a packed trace ("\x89RRG\r\n\x1a\n").
inline constexpr std::array<unsigned char, 8> kPackedTraceSignature = {0x89, 'R', 'R', 'G', '\r', '\n', 0x1a, '\n'};
inline constexpr std::size_t kSniffBytes = 512;
Content content_of(std::string_view decoded_head);

// True for "node_<N>.log" with an optional .gz/.xz/.zst suffix; sets *node to N.
bool is_node_log_name(const std::string& file_name, int* node = nullptr);
// The last number in a file name, compression suffixes aside ("prof_3.gz" -> 3): the node of a Legion Prof
// log whose MachineDesc record is missing.
bool number_in_name(const std::string& file_name, int* number);

// A folder contributes its node_<N>.log[.gz|.xz|.zst] files, ordered by N, or its Legion Prof logs (any
// file whose decoded bytes start with `FileType: BinaryLegionProf`), ordered by the number in their name;
// a folder holding both is an error. A folder entry named like a node log that is no readable file (a
// dangling symlink, a folder) is kept, so that reading it reports why. A file is taken as given, its format read from its decoded first
// bytes (a tar archive, a Legion Prof log, or else a text log). An argument that does not exist but has
// * ? or [ is expanded as a glob. Inputs keep argument order; the same path given twice is read once.
// Plain inputs of both formats are an error, and so is a packed trace among the inputs (the session reads a
// packed trace given alone before it comes here).
core::Expected<std::vector<TraceInput>> discover_inputs(const std::vector<std::string>& args);

}  // namespace rr::parser
