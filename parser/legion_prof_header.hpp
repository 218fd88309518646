// The self-describing text header of a Legion Prof binary log: record types, their ids and their fields.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rr::parser {

// The start of every Legion Prof log, after decompression.
inline constexpr std::string_view kLegionProfMagic = "FileType: BinaryLegionProf";
// The only FileType version Legion Prof accepts (the format's real version is MachineDesc's `version`).
inline constexpr std::string_view kLegionProfFileVersion = "1.0";

// True when decoded bytes start like a Legion Prof log.
bool is_legion_prof_head(std::string_view decoded_head);

// How a field's bytes are read (docs/legion-prof.md, Container and header). Everything but the last five is a
// little-endian integer of the width the header gives.
enum class ProfFieldType : std::uint8_t {
  unsigned_int,  // the format's unsigned type names, and any name it does not list (sized by the header)
  signed_int,    // timestamp_t, long long
  boolean,       // 0 = false
  string,        // bytes up to and including a NUL
  point,         // MAX_DIM elements of the header's size (MAX_DIM from the MaxDimDesc record)
  array,         // 2 x MAX_DIM elements: lower bounds, then upper bounds
  uuid,          // as many bytes as the value of the uuid_size field before it
  uuid_size,     // an unsigned integer: the length of the next uuid
};

struct ProfField {
  std::string name;
  std::string type;       // as written ("unsigned long long")
  std::int32_t size = 0;  // as written (-1 for strings)
  ProfFieldType kind = ProfFieldType::unsigned_int;
  bool known_type = true;  // a type name the format lists; unknown ones are read as unsigned, for sizing only
};

struct ProfRecordLayout {
  std::string name;
  std::int32_t id = 0;
  std::vector<ProfField> fields;
  std::uint64_t offset = 0;  // of its header line in the decompressed stream

  // Index of the field with this name, or -1.
  int field_index(std::string_view field_name) const;
};

struct ProfHeader {
  std::string version;                    // the FileType line's version ("1.0")
  std::vector<ProfRecordLayout> records;  // in header order
  std::uint64_t bytes = 0;                // the header's length, the empty line included

  const ProfRecordLayout* find(std::string_view record_name) const;
};

// The length of the header at the start of `data` (up to and including its first "\n\n"), or npos when
// `data` does not hold all of it yet. `from` is where an earlier call with a shorter prefix stopped.
std::size_t find_prof_header_end(std::string_view data, std::size_t from = 0);

// Parses a whole header (`text` ends with the empty line). Throws SourceError naming the line and its
// offset in the decompressed stream: a first line other than the FileType line of version 1.0, a line
// that is not `Name {id:N, field:type:size, ...}`, ids or names given twice, a field that cannot be
// sized (a size <= 0 of a non-string type, a uuid without a uuid_size field before it).
ProfHeader parse_prof_header(std::string_view text);

}  // namespace rr::parser
