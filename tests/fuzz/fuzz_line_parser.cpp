// libFuzzer target: arbitrary bytes, split into lines, through the line parser. It must never crash,
// and every line must be accounted for exactly once (a record, a skipped line or a malformed line).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "parser/line_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rr::ir::RecordBatch batch;
  rr::ir::FileStats stats;
  rr::parser::LineParser parser(batch, stats, 3);
  const char* p = reinterpret_cast<const char*>(data);
  const char* const end = p + size;
  std::uint32_t line = 0;
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* line_end = nl ? nl : end;
    parser.parse_line(std::string_view(p, static_cast<std::size_t>(line_end - p)), line++);
    p = nl ? nl + 1 : end;
  }
  const std::uint64_t accounted = stats.records.total() + stats.skipped.total() + stats.malformed.total();
  if (accounted != stats.lines || stats.records.total() != batch.record_count()) std::abort();
  return 0;
}
