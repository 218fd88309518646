// Log formatting (the exact E2c line format of the spec), compression with zlib/liblzma/libzstd, and the
// truth and machine files.
#include "log_writer.hpp"

#include "random.hpp"

#include <lzma.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <array>
#include <cstdio>
#include <string_view>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace rr::gen {

namespace {

namespace fs = std::filesystem;

// Ids by the layout of spec §5: 32-bit (5 node bits) up to 32 nodes, else 64-bit (16 node bits).
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

std::string hex(std::uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
  return b;
}

std::string compress(const std::string& text, Compression c, const std::string& name) {
  if (c == Compression::none) return text;
  std::string out;
  if (c == Compression::zstd) {
    out.resize(ZSTD_compressBound(text.size()));
    std::size_t n = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
    if (ZSTD_isError(n)) throw std::runtime_error(name + ": zstd: " + ZSTD_getErrorName(n));
    out.resize(n);
  } else if (c == Compression::gzip) {
    z_stream z{};
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
      throw std::runtime_error(name + ": cannot initialise zlib");
    out.resize(deflateBound(&z, text.size()));
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    int rc = deflate(&z, Z_FINISH);
    deflateEnd(&z);
    if (rc != Z_STREAM_END) throw std::runtime_error(name + ": gzip compression failed");
    out.resize(z.total_out);
  } else {
    out.resize(lzma_stream_buffer_bound(text.size()));
    std::size_t pos = 0;
    if (lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(text.data()),
                                text.size(), reinterpret_cast<std::uint8_t*>(out.data()), &pos, out.size()) != LZMA_OK)
      throw std::runtime_error(name + ": xz compression failed");
    out.resize(pos);
  }
  return out;
}

void write_whole(const fs::path& path, const std::string& data) {
  const fs::path temp = path.string() + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::binary);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out) throw std::runtime_error(path.string() + ": cannot write");
  }
  std::error_code ec;
  fs::rename(temp, path, ec);
  if (ec) {
    fs::remove(temp);
    throw std::runtime_error(path.string() + ": cannot rename into place: " + ec.message());
  }
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
  // Every op's event: created on its node, one table index per op there, generation 1.
  std::vector<std::uint32_t> next_index(p.nodes, 1);
  std::vector<std::string> event(p.ops.size());
  for (std::size_t i = 0; i < p.ops.size(); ++i)
    event[i] = "(" + hex(ids.make(2, p.ops[i].node, next_index[p.ops[i].node]++)) + ",1)";

  WriteResult result;
  std::vector<std::string> files(p.nodes);
  const char* threads[] = {"7fffe221a6c0", "7fffe20196c0", "7fffe241b6c0", "7fffc24196c0"};
  SplitMix quirk_rng{p.seed ^ 0x5bd1e995u};  // its own stream: quirks never change the program
  auto chance = [&](double rate) { return rate > 0 && quirk_rng.uniform() < rate; };
  // "[<node> - <thread>] {" for every node and thread, built once; each file's text reserved up front
  // (about 100 bytes a line) so it grows without copying.
  std::vector<std::array<std::string, 4>> prefixes(p.nodes);
  std::vector<std::uint64_t> lines_of(p.nodes, 0);
  for (const auto& op : p.ops) lines_of[op.node] += 2 + op.inputs.size();
  for (std::uint32_t node = 0; node < p.nodes; ++node) {
    for (int t = 0; t < 4; ++t) prefixes[node][t] = "[" + std::to_string(node) + " - " + threads[t] + "] {";
    files[node].reserve((lines_of[node] + p.processors.size() + 3 * p.nodes) * 100);
  }
  std::map<std::string_view, std::uint64_t> counts;  // record kind -> lines written
  auto line = [&](std::uint32_t node, std::size_t op, int level, std::string_view kind, const std::string& rest) {
    const std::string& prefix = prefixes[node][op % 4];
    std::string& f = files[node];
    if (chance(q.other_categories)) {
      f.append(prefix).append("2}{task}: task ").append(std::to_string(op)).append(" mapped\n");
      ++result.injected["other_categories"];
    }
    f.append(prefix).push_back(static_cast<char>('0' + level));
    f.append("}{graph}: ").append(kind).append(": ").append(rest).push_back('\n');
    ++counts[kind];
  };
  // Every node logs every processor and memory at start-up (spec §6). Memory::Kind 1 system,
  // 5 GPU framebuffer, 4 zero-copy; Processor::Kind 0 GPU, 1 CPU.
  auto ordinal = [](std::uint8_t kind) { return kind == 5 ? 1u : kind == 4 ? 2u : 0u; };
  for (std::uint32_t node = 0; node < p.nodes; ++node) {
    for (const auto& proc : p.processors)
      line(node, 0, 2, "Processor", hex(ids.processor(proc.node, proc.index)) + (proc.gpu ? " 0" : " 1"));
    for (std::uint32_t n = 0; n < p.nodes; ++n) {
      line(node, 0, 2, "Memory", hex(ids.memory(n, 0)) + " 1");
      if (p.gpus_per_node > 0) {
        line(node, 0, 2, "Memory", hex(ids.memory(n, 1)) + " 5");
        line(node, 0, 2, "Memory", hex(ids.memory(n, 2)) + " 4");
      }
    }
  }
  // An event no operation produces (for externals and orphan sizes): a fresh index on the node.
  auto fresh_event = [&](std::uint32_t node) { return "(" + hex(ids.make(2, node, next_index[node]++)) + ",1)"; };
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const GenOp& op = p.ops[i];
    std::string pre = op.inputs.empty() ? "(0,0)" : event[op.inputs.front()];
    switch (op.kind) {
      case GenKind::task: {
        if (op.inputs.empty() && chance(q.external_preconditions)) {
          pre = fresh_event(op.node);
          ++result.injected["external_preconditions"];
        }
        std::string args;
        if (chance(q.nil_args)) {
          args = "(nil)";
          ++result.injected["nil_args"];
        } else {
          args = "0x7fffe" + hex(0x2000000 + (i * 0x38) % 0xffffff);
        }
        const GenProcessor& proc = p.processors[op.processor];
        line(op.node, i, 2, "Task Request",
             std::to_string(op.func) + " " + hex(ids.processor(proc.node, proc.index)) + " " + event[i] + " " + pre +
                 " (0,0) " + std::to_string(op.priority) + " " + args + " 24");
        line(op.node, i, 1, "Task Time", event[i] + " " + std::to_string(op.busy_us));
        break;
      }
      case GenKind::copy:
        line(op.node, i, 2, "Copy Request",
             event[i] + " " + pre + " (0,0) " + hex(ids.memory(op.node, ordinal(op.src_memory))) + " " +
                 hex(ids.memory(op.dst_node, ordinal(op.dst_memory))));
        line(op.node, i, 1, "Copy Size", event[i] + " " + std::to_string(op.bytes));
        if (chance(q.orphan_copy_sizes)) {
          line(op.node, i, 1, "Copy Size", fresh_event(op.node) + " 0");
          ++result.injected["orphan_copy_sizes"];
        }
        break;
      case GenKind::merge:
        line(op.node, i, 2, "Event Merge", event[i] + " " + std::to_string(op.inputs.size()));
        for (auto in : op.inputs) {
          std::string input = event[in];
          if (chance(q.spaced_preconditions)) {
            input.insert(input.find(',') + 1, " ");
            ++result.injected["spaced_preconditions"];
          }
          line(op.node, i, 2, "Event Precondition", event[i] + " " + input);
        }
        break;
    }
  }
  for (const auto& [kind, n] : counts) result.records[std::string(kind)] = n;
  if (q.pending_dump) {
    for (std::uint32_t node = 0; node < p.nodes; ++node) {
      files[node] += "PRINTING ALL PENDING EVENTS:\nEvent " + hex(ids.make(2, node, 1)) +
                     ": gen=1 subscr=0 local=0 remote=1\n  [2] R: 1\nDONE\n";
      result.injected["pending_dump_lines"] += 4;
    }
  }
  if (q.truncate_last_line && !files[0].empty()) {
    // Cut the last line in half: the run died while writing it.
    std::string& f = files[0];
    const std::size_t start = f.rfind('\n', f.size() - 2) + 1;
    // The record on that line no longer counts as one.
    const std::size_t tag = f.find("{graph}: ", start);
    if (tag != std::string::npos) {
      const std::size_t name = tag + 9;
      --result.records[f.substr(name, f.find(':', name) - name)];
    }
    f.resize(start + (f.size() - start) / 2);
    result.injected["truncated_lines"] = 1;
  }
  for (std::uint32_t node = 0; node < p.nodes; ++node) {
    result.text_bytes += files[node].size();
    const fs::path path = fs::path(dir) / ("node_" + std::to_string(node) + ".log" + extension(compression));
    write_whole(path, compress(files[node], compression, path.string()));
  }

  auto injected_json = [&] {
    std::string out;
    for (const auto& [quirk, n] : result.injected)
      out += (out.empty() ? "\"" : ", \"") + quirk + "\": " + std::to_string(n);
    return out;
  };
  // truth.json: the parameters, the machine, the makespan and every operation's start and end.
  std::string truth_json = "{\n  \"schema\": \"realm-replay/truth\",\n  \"schema_version\": 1,\n  \"parameters\": {\"generator\": \"" +
                           p.generator + "\", \"seed\": " + std::to_string(p.seed) + ", \"nodes\": " +
                           std::to_string(p.nodes) + ", \"cpus_per_node\": " + std::to_string(p.cpus_per_node) +
                           ", \"gpus_per_node\": " + std::to_string(p.gpus_per_node) + ", \"operations\": " + std::to_string(p.ops.size()) +
                           (p.description.empty() ? "" : ", " + p.description) + "},\n  \"injected\": {" + injected_json() +
                           "},\n  \"machine\": \"machine.toml\",\n" +
                           "  \"makespan_ns\": " + std::to_string(truth.makespan_ns) + ",\n  \"operations\": [";
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    static const char* kinds[] = {"task", "copy", "merge"};
    truth_json += std::string(i ? ",\n" : "\n") + "    {\"event\": \"" + event[i] + "\", \"kind\": \"" +
                  kinds[static_cast<int>(p.ops[i].kind)] + "\", \"node\": " + std::to_string(p.ops[i].node) +
                  ", \"start_ns\": " + std::to_string(truth.start[i]) + ", \"end_ns\": " + std::to_string(truth.end[i]) + "}";
  }
  truth_json += "\n  ]\n}\n";
  write_whole(fs::path(dir) / "truth.json", truth_json);

  // The machine the truth was scheduled on, in the replay's format, so the two can be compared.
  std::string toml = "# The machine realm-replay gen scheduled this trace's ground truth on (see truth.json).\n"
                     "[machine]\nname = \"gen-truth\"\ndescription = \"the generator's truth machine\"\n"
                     "[processors.gpu]\ncount = " + std::to_string(p.gpus_per_node) +
                     "\n[processors.cpu]\ncount = " + std::to_string(p.cpus_per_node) +
                     "\n[processors.utility]\ncount = 0\n"
                     "[channels.memcpy]\nlatency_ns = " + std::to_string(m.memcpy_latency_ns) +
                     "\nbandwidth_gbs = 1.0\nlanes = " + std::to_string(m.lanes) +
                     "\n[channels.nic]\nlatency_ns = " + std::to_string(m.nic_latency_ns) +
                     "\nbandwidth_gbs = 1.0\nlanes = " + std::to_string(m.lanes) +
                     "\n[[paths]]\nsrc = [\"system\", \"zero_copy\", \"framebuffer\"]\ndst = [\"system\", \"zero_copy\", \"framebuffer\"]\nscope = \"local\"\nhops = [\"memcpy\"]\n"
                     "[[paths]]\nsrc = [\"system\", \"zero_copy\", \"framebuffer\"]\ndst = [\"system\", \"zero_copy\", \"framebuffer\"]\nscope = \"remote\"\nhops = [\"nic\"]\n"
                     "[network]\nlatency_ns = " + std::to_string(m.network_latency_ns) +
                     "\n[runtime]\ntask_launch_ns = 0\ntrigger_local_ns = " + std::to_string(m.trigger_local_ns) +
                     "\ntrigger_remote_ns = " + std::to_string(m.trigger_remote_ns) +
                     "\nmerge_ns = " + std::to_string(m.merge_ns) + "\nbarrier_arrival_ns = 0\n";
  write_whole(fs::path(dir) / "machine.toml", toml);
  return result;
}

}  // namespace rr::gen
