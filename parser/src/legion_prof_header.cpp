// Parsing the Legion Prof text header: the FileType line, one `Name {id:N, field:type:size, ...}` per type.
#include "parser/legion_prof_header.hpp"

#include <charconv>
#include <cstring>
#include <unordered_set>

#include "parser/byte_source.hpp"

namespace rr::parser {
namespace {

[[noreturn]] void fail(std::string message, std::uint64_t offset) {
  throw SourceError("Legion Prof header: " + std::move(message), 0, offset);
}

// The type names of docs/legion-prof.md (Container and header); anything else with a positive size is read as
// an unsigned integer.
ProfFieldType classify(std::string_view type, bool& known) {
  known = true;
  if (type == "string") return ProfFieldType::string;
  if (type == "point") return ProfFieldType::point;
  if (type == "array") return ProfFieldType::array;
  if (type == "uuid") return ProfFieldType::uuid;
  if (type == "uuid_size") return ProfFieldType::uuid_size;
  if (type == "bool") return ProfFieldType::boolean;
  if (type == "timestamp_t" || type == "long long") return ProfFieldType::signed_int;
  static constexpr std::string_view kUnsigned[] = {
      "unsigned", "TaskID", "VariantID", "MapperID", "ProcKind", "MemKind", "MappingCallKind", "RuntimeCallKind",
      "DepPartOpKind", "maxdim", "unsigned long long", "UniqueID", "IDType", "ProcID", "MemID", "InstID"};
  for (std::string_view u : kUnsigned)
    if (type == u) return ProfFieldType::unsigned_int;
  known = false;
  return ProfFieldType::unsigned_int;
}

bool parse_int(std::string_view text, std::int32_t& value) {
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

std::string quoted(std::string_view line) {
  constexpr std::size_t kMax = 120;
  std::string out(line.substr(0, kMax));
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  return "'" + out + (line.size() > kMax ? "...'" : "'");
}

ProfField parse_field(std::string_view item, std::string_view record, std::uint64_t offset) {
  // name:type:size, where the type may hold blanks ("unsigned long long") but no colon.
  const std::size_t first = item.find(':');
  const std::size_t last = item.rfind(':');
  if (first == std::string_view::npos || first == last || first == 0)
    fail("record type " + std::string(record) + ": field " + quoted(item) + " is not name:type:size", offset);
  ProfField f;
  f.name = std::string(item.substr(0, first));
  f.type = std::string(item.substr(first + 1, last - first - 1));
  if (!parse_int(item.substr(last + 1), f.size))
    fail("record type " + std::string(record) + ": field " + quoted(item) + " has no integer size", offset);
  f.kind = classify(f.type, f.known_type);
  const bool sized_by_header = f.kind != ProfFieldType::string && f.kind != ProfFieldType::uuid;
  if (sized_by_header && f.size <= 0)
    fail("record type " + std::string(record) + ": field '" + f.name + "' of type '" + f.type + "' has size " +
             std::to_string(f.size) + ", so its records cannot be sized",
         offset);
  return f;
}

ProfRecordLayout parse_record_line(std::string_view line, std::uint64_t offset) {
  const std::size_t brace = line.find(" {");
  if (brace == std::string_view::npos || brace == 0 || !line.ends_with("}") ||
      line.substr(0, brace).find_first_of(" \t{}:,") != std::string_view::npos)
    fail("line " + quoted(line) + " is not 'Name {id:N, field:type:size, ...}' (is the empty line after the header missing?)",
         offset);
  ProfRecordLayout r;
  r.name = std::string(line.substr(0, brace));
  r.offset = offset;
  std::string_view body = line.substr(brace + 2, line.size() - brace - 3);
  if (!body.starts_with("id:"))
    fail("record type " + r.name + ": the line does not start with its id ('" + r.name + " {id:N, ...}')", offset);
  std::size_t comma = body.find(", ");
  if (!parse_int(body.substr(3, comma == std::string_view::npos ? std::string_view::npos : comma - 3), r.id) ||
      r.id < 0)
    fail("record type " + r.name + ": id " + quoted(body.substr(0, comma)) + " is not a number >= 0", offset);
  bool seen_uuid_size = false;
  while (comma != std::string_view::npos) {
    body.remove_prefix(comma + 2);
    comma = body.find(", ");
    ProfField f = parse_field(body.substr(0, comma), r.name, offset);
    if (f.kind == ProfFieldType::uuid && !seen_uuid_size)
      fail("record type " + r.name + ": uuid field '" + f.name + "' has no uuid_size field before it to give its length",
           offset);
    seen_uuid_size |= f.kind == ProfFieldType::uuid_size;
    r.fields.push_back(std::move(f));
  }
  return r;
}

}  // namespace

bool is_legion_prof_head(std::string_view head) { return head.starts_with(kLegionProfMagic); }

int ProfRecordLayout::field_index(std::string_view field_name) const {
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == field_name) return static_cast<int>(i);
  return -1;
}

const ProfRecordLayout* ProfHeader::find(std::string_view record_name) const {
  for (const auto& r : records)
    if (r.name == record_name) return &r;
  return nullptr;
}

std::size_t find_prof_header_end(std::string_view data, std::size_t from) {
  // Resume one byte early: the previous prefix may have ended between the two newlines.
  std::size_t at = data.find("\n\n", from == 0 ? 0 : from - 1);
  return at == std::string_view::npos ? std::string_view::npos : at + 2;
}

ProfHeader parse_prof_header(std::string_view text) {
  ProfHeader h;
  std::size_t nl = text.find('\n');
  const std::string_view first = text.substr(0, nl);
  const std::string expected = std::string(kLegionProfMagic) + " v: ";
  if (!first.starts_with(expected))
    fail("not a Legion Prof log: the first line is " + quoted(first) + ", not 'FileType: BinaryLegionProf v: 1.0'", 0);
  h.version = std::string(first.substr(expected.size()));
  if (h.version != kLegionProfFileVersion)
    fail("FileType version " + quoted(h.version) + " is not the one this reader (and Legion Prof) knows, 1.0", 0);
  if (nl == std::string_view::npos) fail("the header ends after its first line", 0);

  std::unordered_set<std::string> names;
  std::unordered_set<std::int32_t> ids;
  std::size_t pos = nl + 1;
  for (;;) {
    nl = text.find('\n', pos);
    if (nl == std::string_view::npos) fail("no empty line ends the header", pos);
    std::string_view line = text.substr(pos, nl - pos);
    if (line.empty()) break;
    ProfRecordLayout r = parse_record_line(line, pos);
    if (!ids.insert(r.id).second) fail("record id " + std::to_string(r.id) + " is declared twice (" + r.name + ")", pos);
    if (!names.insert(r.name).second) fail("record type " + r.name + " is declared twice", pos);
    h.records.push_back(std::move(r));
    pos = nl + 1;
  }
  h.bytes = nl + 1;
  return h;
}

}  // namespace rr::parser
