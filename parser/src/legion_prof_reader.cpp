// The Legion Prof framing loop: records sized by their plan from a refilled buffer of decompressed bytes.
#include "parser/legion_prof_reader.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "parser/legion_prof_header.hpp"
#include "parser/src/legion_prof_schema.hpp"
#include "parser/src/legion_prof_store.hpp"

namespace rr::parser {
namespace {

using prof::RecordPlan;

// Realm builds have MAX_DIM up to 9; anything far above it is a corrupt MaxDimDesc.
constexpr std::uint32_t kMaxDimLimit = 32;

std::string mib(std::size_t bytes) {
  return bytes % (1u << 20) == 0 ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " bytes";
}

class ProfReader {
 public:
  ProfReader(ByteSource& source, const ProfReadOptions& options, core::ProfileRecords& out)
      : source_(source), o_(options), out_(out), store_(out, options.max_messages_per_file) {
    buf_.resize(std::max<std::size_t>(options.buffer_bytes, 64));
  }

  void run() {
    read_header();
    read_records();
    out_.data_bytes = base_ + pos_;
    out_.record_types.reserve(header_.records.size());
    for (std::size_t i = 0; i < header_.records.size(); ++i)
      out_.record_types.push_back({header_.records[i].name, header_.records[i].id, counts_[i], bytes_[i]});
    store_.finish();
  }

 private:
  std::size_t avail() const { return len_ - pos_; }
  std::uint64_t offset() const { return base_ + pos_; }  // decoded offset of the current record

  [[noreturn]] void fail(const std::string& message, std::uint64_t decoded_offset) const {
    throw SourceError(message, source_.stored_offset(), decoded_offset);
  }

  // Makes at least `want` bytes available from pos_, keeping the bytes already there (the start of a record
  // that straddles the refill) at the front of the buffer. False when the data ends first.
  bool fill(std::size_t want) {
    if (avail() >= want) return true;
    if (want > o_.max_record_bytes + 4)
      fail("a record longer than the reader's limit of " + mib(o_.max_record_bytes) +
               " starts here (a string without its NUL, or a corrupt length?)",
           offset());
    if (pos_ > 0) {
      std::memmove(buf_.data(), buf_.data() + pos_, avail());
      base_ += pos_;
      len_ -= pos_;
      pos_ = 0;
    }
    if (want > buf_.size()) buf_.resize(std::max(want, std::min(2 * buf_.size(), o_.max_record_bytes + 4)));
    while (len_ < want && !eof_) {
      const std::size_t n = source_.read(buf_.data() + len_, buf_.size() - len_);
      if (n == 0) {
        eof_ = true;
      } else {
        len_ += n;
        if (o_.on_progress) o_.on_progress(n);
      }
    }
    return len_ >= want;
  }

  void read_header() {
    std::size_t scanned = 0;
    for (;;) {
      const std::string_view have(buf_.data(), len_);
      // Another format is refused as soon as its first bytes are in, not after a search for "\n\n".
      if ((have.size() >= kLegionProfMagic.size() || eof_) && !is_legion_prof_head(have)) parse_prof_header(have);
      const std::size_t end = find_prof_header_end(have, scanned);
      if (end != std::string_view::npos) {
        header_ = parse_prof_header(have.substr(0, end));
        pos_ = end;
        break;
      }
      scanned = have.size();
      if (have.size() >= o_.max_record_bytes)
        fail("Legion Prof header: no empty line ends the header within its first " + mib(o_.max_record_bytes), 0);
      if (!fill(have.size() + 1))
        fail("Legion Prof header: no empty line ends the header before the end of the data", base_ + len_);
    }
    out_.file_type_version = header_.version;
    out_.header_bytes = pos_;
    plans_ = prof::build_plans(header_);
    counts_.assign(plans_.size(), 0);
    bytes_.assign(plans_.size(), 0);
    std::size_t fields = 0;
    for (std::size_t i = 0; i < plans_.size(); ++i) {
      fields = std::max(fields, plans_[i].kinds.size());
      const std::int32_t id = plans_[i].id;
      if (id < kDenseIds) {
        if (static_cast<std::size_t>(id) >= dense_.size()) dense_.resize(static_cast<std::size_t>(id) + 1, 0);
        dense_[static_cast<std::size_t>(id)] = static_cast<std::uint32_t>(i) + 1;
      } else {
        sparse_[id] = static_cast<std::uint32_t>(i);
      }
    }
    scratch_.assign(fields + 1, 0);
  }

  RecordPlan* plan_of(std::int32_t id) {
    if (id >= 0 && id < kDenseIds) {
      const std::size_t i = static_cast<std::size_t>(id);
      return i < dense_.size() && dense_[i] != 0 ? &plans_[dense_[i] - 1] : nullptr;
    }
    auto it = sparse_.find(id);
    return it == sparse_.end() ? nullptr : &plans_[it->second];
  }

  void read_records() {
    for (;;) {
      if (avail() < 4 && !fill(4)) {
        if (avail() == 0) return;  // the data ends between records: done
        fail("truncated record: the data ends " + std::to_string(avail()) + " byte(s) into a record's 4-byte type id",
             offset());
      }
      std::int32_t id;
      std::memcpy(&id, buf_.data() + pos_, sizeof id);
      RecordPlan* plan = plan_of(id);
      if (plan == nullptr)
        fail("record id " + std::to_string(id) +
                 " is not declared in the header (corrupt data, or a header that does not describe this file)",
             offset());
      if (!plan->sized)
        fail(plan->layout->name + " record has point or array fields, but no MaxDimDesc record came before it "
                                  "to give MAX_DIM",
             offset());
      std::size_t body;
      const std::uint32_t* offsets;
      if (plan->variable) {
        body = measure(*plan);
        offsets = scratch_.data();
      } else {
        body = plan->fixed_size;
        if (avail() < 4 + body && !fill(4 + body))
          fail("truncated " + plan->layout->name + " record: it needs " + std::to_string(body) +
                   " bytes after its id, the data ends after " + std::to_string(avail() - 4),
               offset());
        offsets = plan->offsets.data();
      }
      const prof::FieldView fields(buf_.data() + pos_ + 4, offsets, *plan);
      if (plan->kept == prof::Kept::max_dim_desc)
        set_max_dim(fields.u32(prof::Role::max_dim));
      if (plan->kept != prof::Kept::none)
        store_.add(plan->kept, fields, offset());
      else
        store_.other();
      ++counts_[plan->slot];
      bytes_[plan->slot] += 4 + body;
      pos_ += 4 + body;
    }
  }

  // The body length of a record with strings or uuids, filling scratch_ with its field offsets. Reads on
  // when the record runs past the buffer's end.
  std::size_t measure(const RecordPlan& plan) {
    for (;;) {
      const char* body = buf_.data() + pos_ + 4;
      const std::size_t have = avail() - 4;
      std::size_t at = 0;
      std::uint64_t uuid_bytes = 0;
      std::size_t cut = plan.kinds.size();  // the field the data ends in, if it does
      for (std::size_t i = 0; i < plan.kinds.size() && cut == plan.kinds.size(); ++i) {
        scratch_[i] = static_cast<std::uint32_t>(at);
        switch (plan.kinds[i]) {
          case ProfFieldType::string: {
            const void* nul = std::memchr(body + at, 0, have - at);
            if (nul == nullptr) cut = i;
            else at = static_cast<std::size_t>(static_cast<const char*>(nul) - body) + 1;
            break;
          }
          case ProfFieldType::uuid:
            if (uuid_bytes > have - at) cut = i;
            else at += static_cast<std::size_t>(uuid_bytes);
            break;
          case ProfFieldType::uuid_size: {
            const std::size_t w = plan.widths[i];
            if (w > have - at) {
              cut = i;
            } else {
              uuid_bytes = 0;
              std::memcpy(&uuid_bytes, body + at, std::min<std::size_t>(w, sizeof uuid_bytes));
              at += w;
            }
            break;
          }
          default:
            if (plan.widths[i] > have - at) cut = i;
            else at += plan.widths[i];
        }
      }
      if (cut == plan.kinds.size()) return at;
      if (!fill(avail() + 1)) {
        const ProfField& f = plan.layout->fields[cut];
        fail("truncated " + plan.layout->name + " record: " +
                 (f.kind == ProfFieldType::string ? "string field '" + f.name + "' has no NUL before the end of the data"
                                                  : "field '" + f.name + "' is cut by the end of the data"),
             offset());
      }
    }
  }

  void set_max_dim(std::uint32_t max_dim) {
    if (max_dim == 0 || max_dim > kMaxDimLimit)
      fail("MaxDimDesc gives MAX_DIM = " + std::to_string(max_dim) + ", not a dimension count from 1 to " +
               std::to_string(kMaxDimLimit),
           offset());
    if (out_.max_dim != 0) {
      if (out_.max_dim != max_dim)
        fail("a second MaxDimDesc changes MAX_DIM from " + std::to_string(out_.max_dim) + " to " +
                 std::to_string(max_dim),
             offset());
      return;
    }
    out_.max_dim = max_dim;
    for (RecordPlan& p : plans_)
      if (p.needs_max_dim) p.size_with(max_dim);
  }

  static constexpr std::int32_t kDenseIds = 1 << 16;

  ByteSource& source_;
  const ProfReadOptions& o_;
  core::ProfileRecords& out_;
  prof::ProfRecordStore store_;
  std::vector<char> buf_;
  std::size_t pos_ = 0;
  std::size_t len_ = 0;
  std::uint64_t base_ = 0;  // decoded offset of buf_[0]
  bool eof_ = false;
  ProfHeader header_;
  std::vector<RecordPlan> plans_;
  std::vector<std::uint32_t> dense_;  // id -> plan index + 1, 0 when undeclared
  std::unordered_map<std::int32_t, std::uint32_t> sparse_;  // ids beyond the dense table
  std::vector<std::uint64_t> counts_;
  std::vector<std::uint64_t> bytes_;
  std::vector<std::uint32_t> scratch_;  // field offsets of the record being measured
};

}  // namespace

core::ProfileRecords read_legion_prof(ByteSource& source, const ProfReadOptions& options) {
  core::ProfileRecords out;
  ProfReader(source, options, out).run();
  return out;
}

}  // namespace rr::parser
