// Reads one Legion Prof binary log as a stream: its text header, then every record, sized from the header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "core/prof_records.hpp"
#include "parser/byte_source.hpp"

namespace rr::parser {

struct ProfReadOptions {
  std::size_t buffer_bytes = 1 << 20;        // decoded bytes held at once (grown for a longer record)
  std::size_t max_record_bytes = 64u << 20;  // a record, or the header, longer than this is an error
  std::size_t max_messages_per_file = 5;     // located messages kept about records that could not be joined
  // Called with each block of decoded bytes as it is read.
  std::function<void(std::uint64_t)> on_progress;
};

// Reads a whole Legion Prof log from `source`, which yields decompressed bytes (see open_decoded). Every
// record type the header declares is sized and counted; the ones realm-replay uses are decoded into the
// arrays of ProfileRecords. Throws SourceError, with SourceError::decoded_offset() the offset in the
// decompressed stream, for: a first line other than `FileType: BinaryLegionProf v: 1.0`, a malformed
// header or one without its empty line, a record type realm-replay decodes whose layout it does not know
// (a missing field, another type or width), a record id the header does not declare, a record cut short
// by the end of the data, a record longer than max_record_bytes. Errors of the source itself (corrupt or
// truncated compressed data) pass through with their stored offset.
core::ProfileRecords read_legion_prof(ByteSource& source, const ProfReadOptions& options = {});

}  // namespace rr::parser
