// The parallel reader: a TBB pipeline per file (serial read/decode, parallel parse, in-order merge), files in parallel.
#include "parser/trace_reader.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>

#include "parser/legion_prof_reader.hpp"
#include "parser/line_parser.hpp"
#include "parser/trace_inputs.hpp"
#include "platform/usable_threads.hpp"

namespace rr::parser {
namespace {

struct Chunk {
  std::unique_ptr<char[]> buffer;  // chunk_bytes, left uninitialised: a small file touches only the pages it fills
  std::size_t length = 0;
  bool overlong = false;  // the buffer holds the head of one line longer than the buffer
  std::uint32_t line_count = 0;
  core::RecordBatch batch;
  core::FileStats stats;
};

// Buffers are reused: a fresh multi-megabyte allocation per chunk costs page faults.
// The pool owns every chunk, so chunks in flight are freed even when a stage throws.
class ChunkPool {
 public:
  explicit ChunkPool(std::size_t bytes) : bytes_(bytes) {}
  Chunk* take() {
    std::lock_guard lock(mutex_);
    if (free_.empty()) {
      all_.push_back(std::make_unique<Chunk>());
      all_.back()->buffer = std::make_unique_for_overwrite<char[]>(bytes_);
      return all_.back().get();
    }
    Chunk* c = free_.back();
    free_.pop_back();
    return c;
  }
  void give(Chunk* c) {
    c->length = 0;
    c->overlong = false;
    c->line_count = 0;
    c->batch = core::RecordBatch{};
    c->stats = core::FileStats{};
    std::lock_guard lock(mutex_);
    free_.push_back(c);
  }

 private:
  std::size_t bytes_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Chunk>> all_;
  std::vector<Chunk*> free_;
};

void parse_chunk(Chunk& chunk, std::size_t max_messages, const core::RecordBatch::Sizes* like, std::uint64_t like_bytes) {
  // Sized from an earlier chunk of the file: growing arrays by doubling (and shrinking them after) would
  // copy every record two or three times.
  if (like) chunk.batch.reserve_like(*like, like_bytes, chunk.length);
  LineParser parser(chunk.batch, chunk.stats, max_messages);
  if (chunk.overlong) {
    parser.note_overlong_line(std::string_view(chunk.buffer.get(), std::min<std::size_t>(chunk.length, 200)), 0);
    chunk.line_count = 1;
    return;
  }
  chunk.line_count = parser.parse_text(std::string_view(chunk.buffer.get(), chunk.length));
  chunk.stats.text_bytes = chunk.length;
  chunk.batch.shrink_if_loose();
}

void merge_stats(core::FileStats& into, core::FileStats&& from, std::uint64_t first_line, std::size_t max_messages) {
  into.records += from.records;
  into.counts += from.counts;
  into.malformed_by_kind += from.malformed_by_kind;
  for (auto& [name, count] : from.other_categories) into.other_categories[name] += count;
  into.era += from.era;
  into.lines += from.lines;
  into.text_bytes += from.text_bytes;
  into.null_args += from.null_args;
  into.unexpected_level += from.unexpected_level;
  // Appended here, combined once in settle_node: a search per entry made a file with many distinct
  // [node - thread] prefixes quadratic.
  into.prefix_nodes.insert(into.prefix_nodes.end(), from.prefix_nodes.begin(), from.prefix_nodes.end());
  into.min_nonzero_id = std::min(into.min_nonzero_id, from.min_nonzero_id);
  into.max_id = std::max(into.max_id, from.max_id);
  into.threads.insert(into.threads.end(), from.threads.begin(), from.threads.end());
  for (auto& d : from.first_messages) {
    if (into.first_messages.size() >= max_messages) break;
    d.where.line += first_line;
    into.first_messages.push_back(std::move(d));
  }
}

// Reads whole lines into chunks: the serial first stage of the pipeline.
class ChunkReader {
 public:
  ChunkReader(ByteSource& source, ChunkPool& pool, std::size_t chunk_bytes)
      : source_(source), pool_(pool), chunk_bytes_(chunk_bytes) {}

  Chunk* next() {
    if (done_) return nullptr;
    Chunk* chunk = pool_.take();
    char* buf = chunk->buffer.get();
    std::size_t len = carry_.size();
    std::memcpy(buf, carry_.data(), len);
    carry_.clear();
    bool eof = false;
    while (len < chunk_bytes_) {
      std::size_t n = source_.read(buf + len, chunk_bytes_ - len);
      if (n == 0) {
        eof = true;
        break;
      }
      check_text(buf + len, n);
      len += n;
      if (skipping_) len = drop_until_newline(buf, len);
    }
    if (eof) {
      done_ = true;
      if (len == 0) {
        pool_.give(chunk);
        return nullptr;
      }
      chunk->length = len;
      return chunk;
    }
    // The buffer is full: cut after the last newline and carry the partial line over.
    const char* last_nl = static_cast<const char*>(memrchr(buf, '\n', len));
    if (last_nl == nullptr) {
      chunk->overlong = true;
      chunk->length = len;
      skipping_ = true;
      return chunk;
    }
    std::size_t cut = static_cast<std::size_t>(last_nl - buf) + 1;
    carry_.assign(buf + cut, len - cut);
    chunk->length = cut;
    return chunk;
  }

 private:
  // Drops the rest of an overlong line (already reported) up to and including its newline.
  std::size_t drop_until_newline(char* buf, std::size_t len) {
    const char* nl = static_cast<const char*>(std::memchr(buf, '\n', len));
    if (nl == nullptr) return 0;
    skipping_ = false;
    std::size_t keep = len - static_cast<std::size_t>(nl + 1 - buf);
    std::memmove(buf, nl + 1, keep);
    return keep;
  }

  // A log is text: NUL bytes at the start mean a binary file, not a damaged line. A packed trace saved under a
  // log's name (node_0.log in a folder) is named as what it is, so that its owner knows to give it alone.
  void check_text(const char* data, std::size_t n) {
    // The first bytes may arrive over several reads (a byte order mark is looked for first).
    if (head_.size() < kPackedTraceSignature.size()) {
      head_.append(data, std::min(n, kPackedTraceSignature.size() - head_.size()));
      if (content_of(head_) == Content::packed)
        throw SourceError("a packed trace (realm-replay pack), not a text log: a packed trace is a whole trace; give it "
                          "alone as the trace, under its own name (FILE.rrg)",
                          0);
    }
    constexpr std::uint64_t kSniff = 64 * 1024;
    if (text_offset_ < kSniff) {
      std::size_t look = static_cast<std::size_t>(std::min<std::uint64_t>(n, kSniff - text_offset_));
      if (const void* nul = std::memchr(data, '\0', look))
        throw SourceError("binary data, not a text log (NUL byte at decoded offset " +
                              std::to_string(text_offset_ + static_cast<std::size_t>(
                                                                static_cast<const char*>(nul) - data)) +
                              ")",
                          source_.stored_offset());
    }
    text_offset_ += n;
  }

  ByteSource& source_;
  ChunkPool& pool_;
  std::size_t chunk_bytes_;
  std::string carry_;
  std::string head_;  // the stream's first bytes, up to a packed trace's signature
  bool done_ = false;
  bool skipping_ = false;
  std::uint64_t text_offset_ = 0;
};

std::int32_t node_from_name(const std::string& path) {
  int node = -1;
  if (is_node_log_name(std::filesystem::path(path).filename().string(), &node) && node <= static_cast<int>(core::kMaxNode))
    return node;
  return -1;  // a number beyond any node an id names is no node (core::kMaxNode)
}

// The node a file belongs to: the prefix node of most of its lines, else its name.
void settle_node(core::FileRecords& file) {
  auto& nodes = file.stats.prefix_nodes;
  // Each chunk counted its own nodes and threads: sum the counts per node, keep each thread once.
  std::sort(nodes.begin(), nodes.end());
  std::size_t kept = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (kept > 0 && nodes[kept - 1].first == nodes[i].first)
      nodes[kept - 1].second += nodes[i].second;
    else
      nodes[kept++] = nodes[i];
  }
  nodes.resize(kept);
  auto& threads = file.stats.threads;
  std::sort(threads.begin(), threads.end());
  threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
  if (nodes.empty()) {
    file.node = node_from_name(file.path);
    return;
  }
  auto best = std::max_element(nodes.begin(), nodes.end(),
                               [](const auto& a, const auto& b) { return a.second < b.second; });
  file.node = static_cast<std::int32_t>(best->first);
}

// Reads the data of the current libarchive entry.
class ArchiveEntrySource final : public ByteSource {
 public:
  explicit ArchiveEntrySource(archive* a) : a_(a) {}
  std::size_t read(char* data, std::size_t size) override {
    la_ssize_t n = archive_read_data(a_, data, size);
    if (n < 0) throw SourceError(archive_error_string(a_) ? archive_error_string(a_) : "archive read error",
                                 stored_offset());
    return static_cast<std::size_t>(n);
  }
  std::uint64_t stored_offset() const override {
    return static_cast<std::uint64_t>(archive_filter_bytes(a_, -1));
  }

 private:
  archive* a_;
};

struct ArchiveCloser {
  void operator()(archive* a) const { archive_read_free(a); }
};

// The format of an archive member from its decoded first bytes: a Legion Prof log whatever its name, or a
// text log named node_<N>.log; nothing (skipped) otherwise. `source` is replaced by one that replays them.
std::optional<core::TraceFormat> member_format(std::unique_ptr<ByteSource>& source, const std::string& base) {
  std::string head;
  try {
    source = peek_head(std::move(source), kSniffBytes, head);
  } catch (const SourceError&) {
    // A member that is no node log by name is skipped, as before formats were read from content.
    if (!is_node_log_name(base)) return std::nullopt;
    throw;
  }
  if (content_of(head) == Content::legion_prof) return core::TraceFormat::legion_prof;
  if (is_node_log_name(base)) return core::TraceFormat::realm_text;
  return std::nullopt;
}

// Every trace member of a tar archive (node_<N>.log, or Legion Prof logs found by content), in archive
// order, each parsed as a file.
std::vector<core::FileRecords> read_archive(const std::string& path, const ReadOptions& options) {
  std::unique_ptr<archive, ArchiveCloser> a(archive_read_new());
  archive_read_support_filter_all(a.get());
  archive_read_support_format_tar(a.get());
  if (archive_read_open_filename(a.get(), path.c_str(), 1 << 16) != ARCHIVE_OK)
    throw SourceError(std::string("cannot open archive: ") + archive_error_string(a.get()), 0);
  std::vector<core::FileRecords> files;
  for (;;) {
    archive_entry* entry = nullptr;
    int rc = archive_read_next_header(a.get(), &entry);
    if (rc == ARCHIVE_EOF) break;
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN)
      throw SourceError(std::string("archive: ") + archive_error_string(a.get()),
                        static_cast<std::uint64_t>(archive_filter_bytes(a.get(), -1)));
    std::string member = archive_entry_pathname(entry) ? archive_entry_pathname(entry) : "";
    std::string base = std::filesystem::path(member).filename().string();
    if (archive_entry_filetype(entry) != AE_IFREG) continue;
    core::Compression compression = core::Compression::none;
    std::unique_ptr<ByteSource> source = open_decoded(std::make_unique<ArchiveEntrySource>(a.get()), &compression);
    const auto format = member_format(source, base);
    if (!format) continue;
    core::FileRecords file;
    try {
      file = *format == core::TraceFormat::legion_prof ? read_prof_stream(std::move(source), path + ":" + member, options)
                                                       : read_log_stream(std::move(source), path + ":" + member, options);
    } catch (const SourceError& e) {
      // The location names the archive; the message must name the member.
      if (!e.decoded_offset()) throw;
      throw SourceError("member " + member + ": " + e.what(), e.offset(), *e.decoded_offset());
    }
    file.compression = compression;
    file.stored_bytes = static_cast<std::uint64_t>(archive_entry_size(entry));
    if (file.node < 0) file.node = node_from_name(base);
    files.push_back(std::move(file));
  }
  if (files.empty()) throw SourceError("archive holds no node_<N>.log[.gz|.xz|.zst] member and no Legion Prof log", 0);
  for (const auto& f : files)
    if (f.format != files.front().format)
      throw SourceError("archive mixes Realm event-graph logs and Legion Prof logs (" + files.front().path + ", " +
                            f.path + "); a trace is one format or the other",
                        0);
  // The same node twice (node_3.log and node_3.log.gz) would be counted twice.
  for (std::size_t i = 0; i < files.size(); ++i)
    for (std::size_t j = i + 1; j < files.size(); ++j)
      if (files[i].node >= 0 && files[i].node == files[j].node)
        throw SourceError("members " + files[i].path + " and " + files[j].path + " both hold node " +
                              std::to_string(files[i].node),
                          0);
  return files;
}

// Counts the stored bytes read through it: a stream's size is known only once it has been read.
class CountingSource final : public ByteSource {
 public:
  CountingSource(std::unique_ptr<ByteSource> inner, std::uint64_t& count) : inner_(std::move(inner)), count_(count) {}
  std::size_t read(char* data, std::size_t size) override {
    const std::size_t n = inner_->read(data, size);
    count_ = inner_->stored_offset();
    return n;
  }
  std::uint64_t stored_offset() const override { return inner_->stored_offset(); }

 private:
  std::unique_ptr<ByteSource> inner_;
  std::uint64_t& count_;
};

core::FileRecords read_plain_input(const TraceInput& input, const ReadOptions& options) {
  const std::string& path = input.path;
  core::Compression compression = core::Compression::none;
  std::uint64_t stored = 0;
  auto source = open_decoded(std::make_unique<CountingSource>(open_file(path), stored), &compression);
  core::TraceFormat format = input.format;
  if (input.stream) {
    // Opened once: the format comes from the first decoded bytes of this very opening.
    std::string head;
    source = peek_head(std::move(source), kSniffBytes, head);
    const Content content = content_of(head);
    if (content == Content::tar)
      throw SourceError("a tar archive read from a pipe or device; save it to a file and give that", 0);
    if (content == Content::packed)
      throw SourceError("a packed trace read from a pipe or device (it is mapped); save it to a file and give that", 0);
    format = content == Content::legion_prof ? core::TraceFormat::legion_prof : core::TraceFormat::realm_text;
  }
  core::FileRecords file = format == core::TraceFormat::legion_prof ? read_prof_stream(std::move(source), path, options)
                                                                    : read_log_stream(std::move(source), path, options);
  file.compression = compression;
  file.stored_bytes = stored;
  return file;
}

}  // namespace

core::FileRecords read_log_stream(std::unique_ptr<ByteSource> source, std::string display_name,
                                const ReadOptions& options) {
  const std::size_t chunk_bytes = std::max(options.chunk_bytes, kMaxLineBytes);
  core::FileRecords file;
  file.path = std::move(display_name);
  // A UTF-8 byte order mark (an editor's save) is not part of the first line: left in, it hid the first record.
  std::string head;
  source = peek_head(std::move(source), 3, head);
  if (head == "\xEF\xBB\xBF") {
    char bom[3];
    for (std::size_t got = 0; got < 3;) got += source->read(bom + got, 3 - got);
  }
  ChunkPool pool(chunk_bytes);
  ChunkReader reader(*source, pool, chunk_bytes);
  std::uint64_t next_line = 1;
  core::RecordBatch::Sizes model{};  // array lengths of the first full chunk, to size the others
  std::uint64_t model_bytes = 0;
  std::atomic<bool> model_ready{false};
  const std::size_t tokens = std::max<std::size_t>(4, 2 * static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()));
  tbb::parallel_pipeline(
      tokens,
      tbb::make_filter<void, Chunk*>(tbb::filter_mode::serial_in_order,
                                     [&](tbb::flow_control& fc) -> Chunk* {
                                       Chunk* chunk = reader.next();
                                       if (!chunk) fc.stop();
                                       return chunk;
                                     }) &
          tbb::make_filter<Chunk*, Chunk*>(tbb::filter_mode::parallel,
                                           [&](Chunk* chunk) {
                                             // The first full chunk of the file is the size model for
                                             // the chunks parsed after it was merged (published once).
                                             const core::RecordBatch::Sizes* like =
                                                 model_ready.load(std::memory_order_acquire) ? &model : nullptr;
                                             parse_chunk(*chunk, options.max_messages_per_file, like, model_bytes);
                                             return chunk;
                                           }) &
          tbb::make_filter<Chunk*, void>(tbb::filter_mode::serial_in_order, [&](Chunk* chunk) {
            if (!model_ready.load(std::memory_order_relaxed) && chunk->length >= chunk_bytes / 2) {
              model = chunk->batch.sizes();
              model_bytes = chunk->length;
              model_ready.store(true, std::memory_order_release);
            }
            chunk->batch.first_line = next_line;
            merge_stats(file.stats, std::move(chunk->stats), next_line, options.max_messages_per_file);
            next_line += chunk->line_count;
            if (options.on_progress) options.on_progress(chunk->length);
            if (chunk->batch.record_count() > 0 || chunk->batch.group_members.size() > 0)
              file.batches.push_back(std::move(chunk->batch));
            pool.give(chunk);
          }));
  for (auto& d : file.stats.first_messages) d.where.file = file.path;
  settle_node(file);
  return file;
}

core::FileRecords read_prof_stream(std::unique_ptr<ByteSource> source, std::string display_name,
                                   const ReadOptions& options) {
  ProfReadOptions prof;
  prof.max_messages_per_file = options.max_messages_per_file;
  prof.on_progress = options.on_progress;
  core::FileRecords file;
  file.path = std::move(display_name);
  file.format = core::TraceFormat::legion_prof;
  file.profile = read_legion_prof(*source, prof);
  file.stats.text_bytes = file.profile.data_bytes;
  for (auto& d : file.profile.join_messages) d.where.file = file.path;
  int number = -1;
  if (file.profile.machine && file.profile.machine->node_id <= core::kMaxNode)
    file.node = static_cast<std::int32_t>(file.profile.machine->node_id);
  else if (number_in_name(std::filesystem::path(file.path).filename().string(), &number) &&
           number <= static_cast<int>(core::kMaxNode))
    file.node = number;
  return file;
}

void summarise_trace(core::TraceRecords& trace) {
  std::uint64_t min_id = ~std::uint64_t{0};
  std::uint64_t max_id = 0;
  bool machine_records = false;
  bool graph_records = false;
  trace.era_evidence = {};
  for (const auto& f : trace.files) {
    min_id = std::min(min_id, f.stats.min_nonzero_id);
    max_id = std::max(max_id, f.stats.max_id);
    trace.era_evidence += f.stats.era;
    machine_records |= f.stats.records[core::RecordKind::processor] + f.stats.records[core::RecordKind::memory] > 0;
    graph_records |= f.stats.records.total() > 0;
  }
  if (max_id == 0) {
    trace.width = core::IdWidth::unknown;
  } else {
    trace.width = core::width_of_value(max_id);
    // A 64-bit trace has no id below 2^60; one below 2^32 beside it means mixed widths.
    trace.mixed_widths = trace.width == core::IdWidth::bits64 && min_id <= 0xffffffffull;
  }
  trace.era = core::classify_era(trace.era_evidence, machine_records, graph_records);
}

namespace {

// Legion Prof logs of one run agree on its process count; logs that do not are of two runs, and merging them
// would replay work that never ran together. The error names the first file that disagrees and the one before.
std::optional<core::InputError> logs_of_another_run(const core::TraceRecords& trace) {
  const core::FileRecords* first = nullptr;
  for (const auto& f : trace.files) {
    if (!f.profile.machine) continue;
    if (!first) {
      first = &f;
      continue;
    }
    const std::uint32_t want = first->profile.machine->num_nodes;
    const std::uint32_t have = f.profile.machine->num_nodes;
    if (have != want)
      return core::InputError{core::SourceLocation{f.path, 0, std::nullopt, std::nullopt},
                              "its MachineDesc gives a run of " + std::to_string(have) + " node(s), " + first->path +
                                  "'s a run of " + std::to_string(want) +
                                  ": the logs are of different runs; give the logs of one run"};
  }
  return std::nullopt;
}

}  // namespace

core::Expected<core::TraceRecords> read_trace(const std::vector<std::string>& args, const ReadOptions& options,
                                              unsigned threads) {
  auto inputs = discover_inputs(args);
  if (!inputs) return inputs.error();

  const int workers = threads == 0 ? static_cast<int>(platform::usable_threads())
                                   : static_cast<int>(threads);
  // Each input yields its files or its error; slots keep the argument order whatever the schedule.
  struct Slot {
    std::vector<core::FileRecords> files;
    std::optional<core::InputError> error;
  };
  std::vector<Slot> slots(inputs->size());
  tbb::task_arena arena(workers);
  arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, inputs->size(), [&](std::size_t i) {
      const TraceInput& input = (*inputs)[i];
      try {
        if (input.is_archive)
          slots[i].files = read_archive(input.path, options);
        else
          slots[i].files.push_back(read_plain_input(input, options));
      } catch (const SourceError& e) {
        // A binary record is found by its decoded offset; the compressed one would not locate it.
        slots[i].error = core::InputError{
            core::SourceLocation{input.path, 0, e.decoded_offset() ? std::nullopt : std::optional(e.offset()),
                                 e.decoded_offset()},
            e.what()};
      } catch (const std::bad_alloc&) {
        slots[i].error =
            core::InputError{core::SourceLocation{input.path, 0, std::nullopt, std::nullopt}, "out of memory"};
      }
    });
  });

  core::TraceRecords trace;
  for (auto& slot : slots) {
    if (slot.error) {
      if (!options.keep_going) return *slot.error;
      trace.failed_files.push_back(std::move(*slot.error));
      continue;
    }
    for (auto& f : slot.files) trace.files.push_back(std::move(f));
  }
  if (!trace.files.empty()) trace.format = trace.files.front().format;
  const std::string where = args.size() == 1 ? args.front() : "(trace)";
  for (const auto& f : trace.files)
    if (f.format != trace.format)
      return core::InputError{core::SourceLocation{where, 0, std::nullopt, std::nullopt},
                              "mixes Realm event-graph logs and Legion Prof logs (" + trace.files.front().path + ", " +
                                  f.path + "); a trace is one format or the other"};
  // Each node (each process) writes one log: two of one node are a copy, or logs of two runs, and merging them
  // would count the node's work twice.
  std::map<std::int32_t, std::size_t> file_of_node;
  for (std::size_t j = 0; j < trace.files.size(); ++j) {
    const auto& f = trace.files[j];
    if (f.node < 0) continue;
    const auto [it, first] = file_of_node.emplace(f.node, j);
    if (first) continue;
    const std::string how = trace.format == core::TraceFormat::legion_prof ? " (MachineDesc)" : " (its lines' [node - thread] prefix)";
    return core::InputError{core::SourceLocation{f.path, 0, std::nullopt, std::nullopt},
                            "holds node " + std::to_string(f.node) + how + ", as " + trace.files[it->second].path +
                                " does; give one log per node"};
  }
  if (auto other_run = logs_of_another_run(trace)) return *other_run;
  // Every node's log lists the whole machine: kept once, the copies are counted only.
  core::drop_repeated_machine_records(trace);
  summarise_trace(trace);
  if (trace.record_count() == 0) {
    std::string what = trace.files.empty()                                      ? "no readable input"
                       : trace.format == core::TraceFormat::legion_prof ? "no records in any Legion Prof log"
                                                                        : "no Realm event-graph records in any file";
    return core::InputError{core::SourceLocation{args.empty() ? "(trace)" : args.front(), 0, std::nullopt, std::nullopt},
                          "empty trace: " + what};
  }
  return trace;
}

}  // namespace rr::parser
