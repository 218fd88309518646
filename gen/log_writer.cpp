// Log formatting (the exact E2c line format: docs/realm-log-format.md), compression with zlib/liblzma/libzstd, and the
// truth and machine files.
#include "log_writer.hpp"

#include "core/toml_string.hpp"
#include "platform/output_target.hpp"
#include "random.hpp"

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>
#include <cstdio>
#include <string_view>
#include <filesystem>
#include <stdexcept>
#include <utility>
#include <vector>

namespace rr::gen {

namespace {

namespace fs = std::filesystem;

// Ids by Realm's layout (docs/realm-log-format.md): 32-bit (5 node bits) up to 32 nodes, else 64-bit (16 bits).
struct IdMaker {
  bool wide;
  std::uint64_t make(unsigned type, std::uint32_t node, std::uint64_t index) const {
    return wide ? (std::uint64_t{type} << 60) | (std::uint64_t{node} << 44) | index
                : (std::uint64_t{type} << 28) | (std::uint64_t{node} << 23) | index;
  }
  // Memory ordinal on its node (index_h): 0 system memory, 1 GPU framebuffer, 2 zero-copy.
  std::uint64_t memory(std::uint32_t node, unsigned ordinal = 0) const {
    return make(6, node, std::uint64_t{ordinal} << (wide ? 32 : 16));
  }
  std::uint64_t processor(std::uint32_t node, std::uint32_t index) const { return make(8, node, index); }
};

// A file written through a streaming compressor into a platform::OutputTarget (a temporary name renamed into
// place by commit(), removed if never committed or on a signal), so a failed run leaves no partial file behind.
class OutputFile {
 public:
  OutputFile(fs::path path, Compression c) : path_(std::move(path)), c_(c) {
    if (auto err = target_.open(path_.string()); !err.empty()) throw std::runtime_error(err);
    if (c_ == Compression::zstd) {
      zstd_ = ZSTD_createCCtx();
      ZSTD_CCtx_setParameter(zstd_, ZSTD_c_compressionLevel, 3);
      // Frames carry their content checksum, as the zstd tool writes them: a damaged file is then detected.
      ZSTD_CCtx_setParameter(zstd_, ZSTD_c_checksumFlag, 1);
    } else if (c_ == Compression::gzip) {
      if (deflateInit2(&z_, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) fail("cannot initialise zlib");
    } else if (c_ == Compression::xz) {
      if (lzma_easy_encoder(&xz_, 6, LZMA_CHECK_CRC64) != LZMA_OK) fail("cannot initialise liblzma");
    }
  }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile() {
    if (zstd_) ZSTD_freeCCtx(zstd_);
    if (c_ == Compression::gzip) deflateEnd(&z_);
    if (c_ == Compression::xz) lzma_end(&xz_);
  }

  void write(std::string_view text) { encode(text, false); }

  // Ends the stream and moves the file into place.
  void commit() {
    encode({}, true);
    if (auto err = target_.commit(); !err.empty()) throw std::runtime_error(err);
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw std::runtime_error(path_.string() + ": " + why); }

  void put(const void* data, std::size_t n) {
    if (n && !target_.write(std::string_view(static_cast<const char*>(data), n)))
      fail(std::string("cannot write: ") + std::strerror(errno));
  }

  void encode(std::string_view text, bool last) {
    if (c_ == Compression::none) return put(text.data(), text.size());
    std::array<char, 1 << 16> out;
    if (c_ == Compression::zstd) {
      ZSTD_inBuffer in{text.data(), text.size(), 0};
      for (;;) {
        ZSTD_outBuffer o{out.data(), out.size(), 0};
        const std::size_t left = ZSTD_compressStream2(zstd_, &o, &in, last ? ZSTD_e_end : ZSTD_e_continue);
        if (ZSTD_isError(left)) fail(std::string("zstd: ") + ZSTD_getErrorName(left));
        put(out.data(), o.pos);
        if (last ? left == 0 : in.pos == in.size) break;
      }
    } else if (c_ == Compression::gzip) {
      z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
      z_.avail_in = static_cast<uInt>(text.size());
      for (;;) {
        z_.next_out = reinterpret_cast<Bytef*>(out.data());
        z_.avail_out = static_cast<uInt>(out.size());
        const int rc = deflate(&z_, last ? Z_FINISH : Z_NO_FLUSH);
        if (rc == Z_STREAM_ERROR) fail("gzip compression failed");
        put(out.data(), out.size() - z_.avail_out);
        if (last ? rc == Z_STREAM_END : z_.avail_in == 0 && z_.avail_out != 0) break;
      }
    } else {
      xz_.next_in = reinterpret_cast<const std::uint8_t*>(text.data());
      xz_.avail_in = text.size();
      for (;;) {
        xz_.next_out = reinterpret_cast<std::uint8_t*>(out.data());
        xz_.avail_out = out.size();
        const lzma_ret rc = lzma_code(&xz_, last ? LZMA_FINISH : LZMA_RUN);
        if (rc != LZMA_OK && rc != LZMA_STREAM_END) fail("xz compression failed");
        put(out.data(), out.size() - xz_.avail_out);
        if (last ? rc == LZMA_STREAM_END : xz_.avail_in == 0 && xz_.avail_out != 0) break;
      }
    }
  }

  fs::path path_;
  Compression c_;
  platform::OutputTarget target_;
  ZSTD_CCtx* zstd_ = nullptr;
  z_stream z_{};
  lzma_stream xz_ = LZMA_STREAM_INIT;
};

void write_whole(const fs::path& path, const std::string& data) {
  OutputFile out(path, Compression::none);
  out.write(data);
  out.commit();
}

// Appends numbers and events to a line without temporary strings.
struct Text {
  std::string& s;
  Text& hex(std::uint64_t v) {
    char b[20];
    s.append(b, std::to_chars(b, b + sizeof b, v, 16).ptr);
    return *this;
  }
  template <class Int>
  Text& dec(Int v) {
    char b[24];
    s.append(b, std::to_chars(b, b + sizeof b, v).ptr);
    return *this;
  }
  Text& event(std::uint64_t id, std::uint32_t gen) {
    if (id == 0 && gen == 0) return lit("(0,0)");
    s.push_back('(');
    hex(id);
    s.push_back(',');
    dec(gen);
    s.push_back(')');
    return *this;
  }
  Text& lit(std::string_view v) {
    s.append(v);
    return *this;
  }
  Text& sp() {
    s.push_back(' ');
    return *this;
  }
};


// names.toml: what each task function of the program stands for, since the logs give only ids.
std::string names_toml(const std::map<std::uint32_t, std::string>& names) {
  std::string out = "# The task functions of this generated trace, by id: realm-replay reads names.toml beside the logs.\n";
  for (const auto& [func, name] : names) out += std::to_string(func) + " = " + core::toml_string(name) + "\n";
  return out;
}

const char* extension(Compression c) {
  switch (c) {
    case Compression::gzip: return ".gz";
    case Compression::xz: return ".xz";
    case Compression::zstd: return ".zst";
    case Compression::none: break;
  }
  return "";
}

}  // namespace

WriteResult write_trace(const Program& p, const Truth& truth, const TruthMachine& m, const std::string& dir,
                        Compression compression, const Quirks& q) {
  fs::create_directories(dir);
  const IdMaker ids{p.nodes > 32};
  const std::size_t n = p.ops.size();
  // Every op's event: created on its node, one table index per op there, generation 1. Barriers take
  // event slots of their owner after those (E2: barriers are events); a phase's event is (barrier, gen).
  std::vector<std::uint32_t> next_index(p.nodes, 1);
  std::vector<std::uint64_t> event_id(n);
  for (std::size_t i = 0; i < n; ++i)
    if (p.ops[i].kind != GenKind::phase) event_id[i] = ids.make(2, p.ops[i].node, next_index[p.ops[i].node]++);
  std::vector<std::uint64_t> barrier_id(p.barriers.size());
  for (std::size_t b = 0; b < p.barriers.size(); ++b) barrier_id[b] = ids.make(2, p.barriers[b].node, next_index[p.barriers[b].node]++);
  for (std::size_t i = 0; i < n; ++i)
    if (p.ops[i].kind == GenKind::phase) event_id[i] = barrier_id[p.ops[i].barrier];
  auto gen_of = [&](std::size_t i) { return p.ops[i].kind == GenKind::phase ? p.ops[i].generation : 1u; };

  // Task Time = busy time + the waits (docs/replay.md, Replay rules: busy = Task Time − Σ Task Wait).
  std::vector<std::int64_t> waited_us(n, 0);
  std::vector<char> waits_task(n, 0);
  for (std::size_t w = 0; w < p.waits.size(); ++w) {
    waited_us[p.waits[w].task] += truth.wait_us[w];
    waits_task[p.waits[w].task] = 1;
  }

  // Ops and waits by the node whose file logs them: an op on its own node (the issuer's), a wait on its task's.
  std::vector<std::vector<std::uint32_t>> ops_of(p.nodes), waits_of(p.nodes);
  for (std::uint32_t i = 0; i < n; ++i)
    if (p.ops[i].kind != GenKind::phase) ops_of[p.ops[i].node].push_back(i);
  for (std::uint32_t w = 0; w < p.waits.size(); ++w) waits_of[p.ops[p.waits[w].task].node].push_back(w);

  WriteResult result;
  const char* threads[] = {"7fffe221a6c0", "7fffe20196c0", "7fffe241b6c0", "7fffc24196c0"};
  SplitMix quirk_rng{p.seed ^ 0x5bd1e995u};  // its own stream: quirks never change the program
  auto chance = [&](double rate) { return rate > 0 && quirk_rng.uniform() < rate; };
  std::map<std::string_view, std::uint64_t> counts;  // record kind -> lines written
  auto ordinal = [](std::uint8_t kind) { return kind == 5 ? 1u : kind == 4 ? 2u : 0u; };
  constexpr std::size_t kFlushBytes = 1 << 20;

  for (std::uint32_t node = 0; node < p.nodes; ++node) {
    const fs::path path = fs::path(dir) / ("node_" + std::to_string(node) + ".log" + extension(compression));
    OutputFile out(path, compression);
    std::string buffer;
    buffer.reserve(kFlushBytes + 4096);
    // "[<node> - <thread>] {" for each of four threads; an op's lines (and those of what it issues) use
    // one thread, as one thread runs a task and logs its actions.
    std::array<std::string, 4> prefixes;
    for (int t = 0; t < 4; ++t) prefixes[t] = "[" + std::to_string(node) + " - " + threads[t] + "] {";
    Text text{buffer};
    // Starts a line of `kind` at `level`; flushing happens before a line, so the last line stays in the buffer.
    auto line = [&](std::size_t thread_of, int level, std::string_view kind) -> Text& {
      if (buffer.size() >= kFlushBytes) {
        out.write(buffer);
        result.text_bytes += buffer.size();
        buffer.clear();
      }
      const std::string& prefix = prefixes[thread_of % 4];
      if (chance(q.other_categories)) {
        text.lit(prefix).lit("2}{task}: task ").dec(thread_of).lit(" mapped\n");
        ++result.injected["other_categories"];
      }
      buffer.append(prefix).push_back(static_cast<char>('0' + level));
      text.lit("}{graph}: ").lit(kind).lit(": ");
      ++counts[kind];
      return text;
    };
    auto event = [&](std::uint32_t op) -> Text& { return text.event(event_id[op], gen_of(op)); };
    auto enclosing = [&](std::uint32_t op) -> Text& {
      return p.ops[op].issuer == kNoOp ? text.lit("(0,0)") : event(p.ops[op].issuer);
    };
    auto thread = [&](std::uint32_t op) { return p.ops[op].issuer == kNoOp ? op : p.ops[op].issuer; };
    // The precondition: the op's single input, or the later op of an injected cycle.
    auto precondition = [&](std::uint32_t op) -> Text& {
      if (op == p.cycle_from) return event(p.cycle_to);
      return p.ops[op].inputs.empty() ? text.lit("(0,0)") : event(p.ops[op].inputs.front());
    };
    auto fresh_event = [&](std::uint32_t on) -> Text& { return text.event(ids.make(2, on, next_index[on]++), 1); };

    // Every node logs every processor and memory at start-up (docs/realm-log-format.md, Order). Memory::Kind 1 system,
    // 5 GPU framebuffer, 4 zero-copy; Processor::Kind 0 GPU, 1 CPU, 2 utility.
    for (const auto& proc : p.processors)
      line(0, 2, "Processor").hex(ids.processor(proc.node, proc.index)).sp().dec(static_cast<int>(proc.kind)).lit("\n");
    for (std::uint32_t other = 0; other < p.nodes; ++other) {
      line(0, 2, "Memory").hex(ids.memory(other, 0)).lit(" 1\n");
      if (p.gpus_per_node > 0) {
        line(0, 2, "Memory").hex(ids.memory(other, 1)).lit(" 5\n");
        line(0, 2, "Memory").hex(ids.memory(other, 2)).lit(" 4\n");
      }
    }
    for (std::size_t b = 0; b < p.barriers.size(); ++b)
      if (p.barriers[b].node == node) line(0, 2, "Barrier Creation").hex(barrier_id[b]).sp().dec(p.barriers[b].arrivals).lit("\n");

    std::size_t next_wait = 0;
    auto task_wait = [&](std::uint32_t w) {
      const GenWait& gw = p.waits[w];
      line(gw.task, 1, "Task Wait");
      event(gw.task).sp();
      event(gw.awaited).sp().dec(truth.wait_us[w]).lit("\n");
    };
    std::vector<std::uint32_t> deferred_times;  // tasks that wait log their Task Time at their end
    for (std::uint32_t i : ops_of[node]) {
      while (next_wait < waits_of[node].size() && p.waits[waits_of[node][next_wait]].before_op <= i)
        task_wait(waits_of[node][next_wait++]);
      const GenOp& op = p.ops[i];
      switch (op.kind) {
        case GenKind::task: {
          const GenProcessor& proc = p.processors[op.processor];
          Text& t = line(thread(i), 2, "Task Request").dec(op.func).sp().hex(ids.processor(proc.node, proc.index)).sp();
          event(i).sp();
          if (op.inputs.empty() && i != p.cycle_from && chance(q.external_preconditions)) {
            fresh_event(op.node);
            ++result.injected["external_preconditions"];
          } else {
            precondition(i);
          }
          t.sp();
          enclosing(i).sp().dec(op.priority).sp();
          if (chance(q.nil_args)) {
            t.lit("(nil)");
            ++result.injected["nil_args"];
          } else {
            t.lit("0x7fffe").hex(0x2000000 + (i * 0x38) % 0xffffff);
          }
          t.lit(" 24\n");
          if (waits_task[i]) {
            deferred_times.push_back(i);
          } else {
            line(i, 1, "Task Time");
            event(i).sp().dec(op.busy_us).lit("\n");
          }
          break;
        }
        case GenKind::copy:
          line(thread(i), 2, "Copy Request");
          event(i).sp();
          precondition(i).sp();
          enclosing(i).sp().hex(ids.memory(op.node, ordinal(op.src_memory))).sp();
          text.hex(ids.memory(op.dst_node, ordinal(op.dst_memory))).lit("\n");
          line(i, 1, "Copy Size");
          event(i).sp().dec(op.bytes).lit("\n");
          if (chance(q.orphan_copy_sizes)) {
            line(i, 1, "Copy Size");
            fresh_event(op.node).lit(" 0\n");
            ++result.injected["orphan_copy_sizes"];
          }
          break;
        case GenKind::merge:
          line(i, 2, "Event Merge");
          event(i).sp().dec(op.inputs.size()).lit("\n");
          for (auto in : op.inputs) {
            line(i, 2, "Event Precondition");
            event(i).sp();
            if (chance(q.spaced_preconditions)) {
              text.lit("(").hex(event_id[in]).lit(", ").dec(gen_of(in)).lit(")");
              ++result.injected["spaced_preconditions"];
            } else {
              event(in);
            }
            text.lit("\n");
          }
          break;
        case GenKind::trigger:
          line(thread(i), 2, "Event Trigger");
          event(i).sp();
          precondition(i).sp();
          enclosing(i).lit("\n");
          break;
        case GenKind::arrive: {
          line(thread(i), 2, "Barrier Arrive").event(barrier_id[op.barrier], op.generation).sp();
          precondition(i).sp();
          enclosing(i).sp().dec(op.amount).lit("\n");
          break;
        }
        case GenKind::alter:
          line(thread(i), 2, "Barrier Alter").event(barrier_id[op.barrier], op.generation).sp();
          enclosing(i).sp().dec(op.amount).lit("\n");
          break;
        case GenKind::phase: break;
      }
    }
    while (next_wait < waits_of[node].size()) task_wait(waits_of[node][next_wait++]);
    for (std::uint32_t i : deferred_times) {
      line(i, 1, "Task Time");
      event(i).sp().dec(p.ops[i].busy_us + waited_us[i]).lit("\n");
    }
    if (q.pending_dump) {
      text.lit("PRINTING ALL PENDING EVENTS:\nEvent ").hex(ids.make(2, node, 1)).lit(": gen=1 subscr=0 local=0 remote=1\n  [2] R: 1\nDONE\n");
      result.injected["pending_dump_lines"] += 4;
    }
    if (q.truncate_last_line && node == 0 && !buffer.empty()) {
      // Cut the last line in half: the run died while writing it.
      const std::size_t start = buffer.size() >= 2 ? buffer.rfind('\n', buffer.size() - 2) + 1 : 0;
      const std::size_t tag = buffer.find("{graph}: ", start);
      if (tag != std::string::npos) {  // the record on that line no longer counts as one
        const std::size_t name = tag + 9;
        --counts[std::string_view(buffer).substr(name, buffer.find(':', name) - name)];
      }
      buffer.resize(start + (buffer.size() - start) / 2);
      result.injected["truncated_lines"] = 1;
    }
    out.write(buffer);
    result.text_bytes += buffer.size();
    out.commit();
  }
  for (const auto& [kind, count] : counts)
    if (count) result.records[std::string(kind)] = count;

  auto injected_json = [&] {
    std::string out;
    for (const auto& [quirk, count] : result.injected)
      out += (out.empty() ? "\"" : ", \"") + quirk + "\": " + std::to_string(count);
    return out;
  };
  // truth.json: the parameters, the machine, the makespan and every operation's start and end.
  std::string truth_json = "{\n  \"schema\": \"realm-replay/truth\",\n  \"schema_version\": 1,\n  \"parameters\": {\"generator\": \"" +
                           p.generator + "\", \"seed\": " + std::to_string(p.seed) + ", \"nodes\": " +
                           std::to_string(p.nodes) + ", \"cpus_per_node\": " + std::to_string(p.cpus_per_node) +
                           ", \"gpus_per_node\": " + std::to_string(p.gpus_per_node) +
                           ", \"utility_per_node\": " + std::to_string(p.utility_per_node) +
                           ", \"drivers_per_node\": " + std::to_string(p.drivers_per_node) +
                           ", \"operations\": " + std::to_string(n) +
                           (p.description.empty() ? "" : ", " + p.description) + "},\n  \"injected\": {" + injected_json() +
                           "},\n  \"machine\": \"machine.toml\",\n" +
                           "  \"makespan_ns\": " + std::to_string(truth.makespan_ns) +
                           ",\n  \"never_ran\": " + std::to_string(truth.never_ran) + ",\n  \"operations\": [";
  truth_json.reserve(truth_json.size() + n * 110);
  Text t{truth_json};
  for (std::size_t i = 0; i < n; ++i) {
    t.lit(i ? ",\n" : "\n").lit("    {\"event\": \"").event(event_id[i], gen_of(i)).lit("\", \"kind\": \"");
    t.lit(kGenKindNames[static_cast<int>(p.ops[i].kind)]).lit("\", \"node\": ").dec(p.ops[i].node);
    t.lit(", \"start_ns\": ").dec(truth.start[i]).lit(", \"end_ns\": ").dec(truth.end[i]).lit("}");
  }
  truth_json += "\n  ]\n}\n";
  write_whole(fs::path(dir) / "truth.json", truth_json);

  // The machine the truth was scheduled on, in the replay's format, so the two can be compared.
  std::string toml = "# The machine realm-replay gen scheduled this trace's ground truth on (see truth.json).\n"
                     "[machine]\nname = \"gen-truth\"\ndescription = \"the generator's truth machine\"\n"
                     "[processors.gpu]\ncount = " + std::to_string(p.gpus_per_node) +
                     "\n[processors.cpu]\ncount = " + std::to_string(p.cpus_per_node + p.drivers_per_node) +
                     "\n[processors.utility]\ncount = " + std::to_string(p.utility_per_node) + "\n"
                     "[channels.memcpy]\nlatency_ns = " + std::to_string(m.memcpy_latency_ns) +
                     "\nbandwidth_gbs = 1.0\nlanes = " + std::to_string(m.lanes) +
                     "\n[channels.nic]\nlatency_ns = " + std::to_string(m.nic_latency_ns) +
                     "\nbandwidth_gbs = 1.0\nlanes = " + std::to_string(m.lanes) +
                     "\n[[paths]]\nsrc = [\"system\", \"zero_copy\", \"framebuffer\"]\ndst = [\"system\", \"zero_copy\", \"framebuffer\"]\nscope = \"local\"\nhops = [\"memcpy\"]\n"
                     "[[paths]]\nsrc = [\"system\", \"zero_copy\", \"framebuffer\"]\ndst = [\"system\", \"zero_copy\", \"framebuffer\"]\nscope = \"remote\"\nhops = [\"nic\"]\n"
                     "[network]\nlatency_ns = " + std::to_string(m.network_latency_ns) +
                     "\n[runtime]\ntask_launch_ns = 0\ntrigger_local_ns = " + std::to_string(m.trigger_local_ns) +
                     "\ntrigger_remote_ns = " + std::to_string(m.trigger_remote_ns) +
                     "\nmerge_ns = " + std::to_string(m.merge_ns) + "\nbarrier_arrival_ns = 0\n"
                     "wait_frees_processor = true\nissue_point = \"interpolate\"\n"
                     "placement = \"traced\"   # the truth runs each task on its traced processor\n";
  write_whole(fs::path(dir) / "machine.toml", toml);
  if (!p.function_names.empty()) write_whole(fs::path(dir) / "names.toml", names_toml(p.function_names));
  return result;
}

}  // namespace rr::gen
