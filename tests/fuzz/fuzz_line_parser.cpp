// libFuzzer target: arbitrary bytes, split into lines, through the line parser. It must never crash,
// and every line must be accounted for exactly once (a record, a skipped line or a malformed line).
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "parser/line_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rr::core::RecordBatch batch;
  rr::core::FileStats stats;
  rr::parser::LineParser parser(batch, stats, 3);
  parser.parse_text(std::string_view(reinterpret_cast<const char*>(data), size));
  const std::uint64_t accounted = stats.records.total() + stats.skipped_total() + stats.malformed_total();
  if (accounted != stats.lines || stats.records.total() != batch.record_count()) std::abort();
  return 0;
}
