// libFuzzer target: arbitrary bytes as the decompressed stream of a Legion Prof log, through the reader in
// small reads and a small buffer (so records straddle refills). It must end with records that hold together
// or with a SourceError: never a crash, a hang, an out-of-bounds read or another exception.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "parser/legion_prof_reader.hpp"
#include "support/prof_invariants.hpp"
#include "support/prof_log_builder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  // The read size varies with the input so that different refill boundaries are explored.
  rr::testing::MemorySource source(bytes, 1 + (size % 997));
  rr::parser::ProfReadOptions options;
  options.buffer_bytes = 256;
  options.max_record_bytes = 1 << 16;  // a corrupt length must not make the fuzzer slow
  try {
    const rr::core::ProfileRecords p = rr::parser::read_legion_prof(source, options);
    if (p.data_bytes != size || !rr::testing::prof_invariant_violation(p).empty()) std::abort();
  } catch (const rr::parser::SourceError&) {
    // A refused input is a correct outcome.
  }
  return 0;
}
