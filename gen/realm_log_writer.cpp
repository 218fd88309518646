// One node's log: start-up records (processors, memories, barriers), then its operations in program order with the
// waits of its tasks between them, then the Task Time of tasks that waited (a task that waits logs its time when it
// ends). Numbers and events are appended to a line buffer without temporary strings.
#include "realm_log_writer.hpp"

#include <array>
#include <charconv>
#include <string>

namespace rr::gen {

namespace {

constexpr std::size_t kFlushBytes = 1 << 20;
// The thread ids in line prefixes: an op's lines (and those of what it issues) use one thread, as one thread runs a
// task and logs its actions.
constexpr const char* kThreads[] = {"7fffe221a6c0", "7fffe20196c0", "7fffe241b6c0", "7fffc24196c0"};

// Memory::Kind 1 system, 5 GPU framebuffer, 4 zero-copy → the memory's ordinal on its node.
unsigned memory_ordinal(std::uint8_t kind) { return kind == 5 ? 1u : kind == 4 ? 2u : 0u; }

}  // namespace

class RealmLogWriter::NodeLog {
 public:
  NodeLog(RealmLogWriter& w, std::uint32_t node, const std::filesystem::path& path, Compression compression)
      : w_(w), p_(w.program_), node_(node), out_(path, compression) {
    buffer_.reserve(kFlushBytes + 4096);
    for (int t = 0; t < 4; ++t) prefixes_[t] = "[" + std::to_string(node) + " - " + kThreads[t] + "] {";
  }

  void write() {
    start_up();
    std::size_t next_wait = 0;
    const auto& waits = w_.waits_of_[node_];
    std::vector<std::uint32_t> deferred_times;
    for (std::uint32_t i : w_.ops_of_[node_]) {
      while (next_wait < waits.size() && p_.waits[waits[next_wait]].before_op <= i) task_wait(waits[next_wait++]);
      if (p_.ops[i].kind == GenKind::task && w_.waits_[i]) deferred_times.push_back(i);
      operation(i);
    }
    while (next_wait < waits.size()) task_wait(waits[next_wait++]);
    for (std::uint32_t i : deferred_times) {
      line(i, 1, "Task Time");
      event(i).sp().dec(p_.ops[i].busy_us + w_.waited_us_[i]).lit("\n");
    }
    if (w_.quirks_.pending_dump) {
      lit("PRINTING ALL PENDING EVENTS:\nEvent ").hex(w_.events_.ids().event(node_, 1));
      lit(": gen=1 subscr=0 local=0 remote=1\n  [2] R: 1\nDONE\n");
      w_.result_.injected["pending_dump_lines"] += 4;
    }
    if (w_.quirks_.truncate_last_line && node_ == 0 && !buffer_.empty()) truncate_last_line();
    flush();
    out_.commit();
  }

 private:
  // Every node logs every processor and memory at start-up. Memory::Kind 1 system, 5 GPU framebuffer,
  // 4 zero-copy; Processor::Kind 0 GPU, 1 CPU, 2 utility.
  void start_up() {
    const IdMaker& ids = w_.events_.ids();
    for (const auto& proc : p_.processors)
      line(0, 2, "Processor").hex(ids.processor(proc.node, proc.index)).sp().dec(static_cast<int>(proc.kind)).lit("\n");
    for (std::uint32_t other = 0; other < p_.nodes; ++other) {
      line(0, 2, "Memory").hex(ids.memory(other, 0)).lit(" 1\n");
      if (p_.gpus_per_node > 0) {
        line(0, 2, "Memory").hex(ids.memory(other, 1)).lit(" 5\n");
        line(0, 2, "Memory").hex(ids.memory(other, 2)).lit(" 4\n");
      }
    }
    for (std::uint32_t b = 0; b < p_.barriers.size(); ++b)
      if (p_.barriers[b].node == node_)
        line(0, 2, "Barrier Creation").hex(w_.events_.barrier(b)).sp().dec(p_.barriers[b].arrivals).lit("\n");
  }

  void operation(std::uint32_t i) {
    const GenOp& op = p_.ops[i];
    switch (op.kind) {
      case GenKind::task: return task(i);
      case GenKind::copy: return copy(i);
      case GenKind::merge: return merge(i);
      case GenKind::trigger:
        line(thread(i), 2, "Event Trigger");
        event(i).sp();
        precondition(i).sp();
        enclosing(i).lit("\n");
        return;
      case GenKind::arrive:
        line(thread(i), 2, "Barrier Arrive").event(w_.events_.barrier(op.barrier), op.generation).sp();
        precondition(i).sp();
        enclosing(i).sp().dec(op.amount).lit("\n");
        return;
      case GenKind::alter:
        line(thread(i), 2, "Barrier Alter").event(w_.events_.barrier(op.barrier), op.generation).sp();
        enclosing(i).sp().dec(op.amount).lit("\n");
        return;
      case GenKind::phase: return;
    }
  }

  void task(std::uint32_t i) {
    const GenOp& op = p_.ops[i];
    const GenProcessor& proc = p_.processors[op.processor];
    line(thread(i), 2, "Task Request").dec(op.func).sp().hex(w_.events_.ids().processor(proc.node, proc.index)).sp();
    event(i).sp();
    if (op.inputs.empty() && i != p_.cycle_from && chance(w_.quirks_.external_preconditions)) {
      fresh_event(op.node);
      ++w_.result_.injected["external_preconditions"];
    } else {
      precondition(i);
    }
    sp();
    enclosing(i).sp().dec(op.priority).sp();
    if (chance(w_.quirks_.nil_args)) {
      lit("(nil)");
      ++w_.result_.injected["nil_args"];
    } else {
      lit("0x7fffe").hex(0x2000000 + (i * 0x38) % 0xffffff);
    }
    lit(" 24\n");
    if (!w_.waits_[i]) {
      line(i, 1, "Task Time");
      event(i).sp().dec(op.busy_us).lit("\n");
    }
  }

  void copy(std::uint32_t i) {
    const GenOp& op = p_.ops[i];
    const IdMaker& ids = w_.events_.ids();
    line(thread(i), 2, "Copy Request");
    event(i).sp();
    precondition(i).sp();
    enclosing(i).sp().hex(ids.memory(op.node, memory_ordinal(op.src_memory))).sp();
    hex(ids.memory(op.dst_node, memory_ordinal(op.dst_memory))).lit("\n");
    line(i, 1, "Copy Size");
    event(i).sp().dec(op.bytes).lit("\n");
    if (chance(w_.quirks_.orphan_copy_sizes)) {
      line(i, 1, "Copy Size");
      fresh_event(op.node).lit(" 0\n");
      ++w_.result_.injected["orphan_copy_sizes"];
    }
  }

  void merge(std::uint32_t i) {
    const GenOp& op = p_.ops[i];
    line(i, 2, "Event Merge");
    event(i).sp().dec(op.inputs.size()).lit("\n");
    for (auto in : op.inputs) {
      line(i, 2, "Event Precondition");
      event(i).sp();
      if (chance(w_.quirks_.spaced_preconditions)) {
        lit("(").hex(w_.events_.id(in)).lit(", ").dec(w_.events_.generation(in)).lit(")");
        ++w_.result_.injected["spaced_preconditions"];
      } else {
        event(in);
      }
      lit("\n");
    }
  }

  void task_wait(std::uint32_t w) {
    const GenWait& gw = p_.waits[w];
    line(gw.task, 1, "Task Wait");
    event(gw.task).sp();
    event(gw.awaited).sp().dec(w_.truth_.wait_us[w]).lit("\n");
  }

  // Cuts the last line in half: the run died while writing it. The record on that line no longer counts as one.
  void truncate_last_line() {
    const std::size_t start = buffer_.size() >= 2 ? buffer_.rfind('\n', buffer_.size() - 2) + 1 : 0;
    const std::size_t tag = buffer_.find("{graph}: ", start);
    if (tag != std::string::npos) {
      const std::size_t name = tag + 9;
      --w_.counts_[std::string_view(buffer_).substr(name, buffer_.find(':', name) - name)];
    }
    buffer_.resize(start + (buffer_.size() - start) / 2);
    w_.result_.injected["truncated_lines"] = 1;
  }

  // Starts a line of `kind` at `level` on the thread of op `thread_of`. Flushing happens before a line, so the
  // last line stays in the buffer (for --truncate-last-line).
  NodeLog& line(std::size_t thread_of, int level, std::string_view kind) {
    if (buffer_.size() >= kFlushBytes) flush();
    const std::string& prefix = prefixes_[thread_of % 4];
    if (chance(w_.quirks_.other_categories)) {
      lit(prefix).lit("2}{task}: task ").dec(thread_of).lit(" mapped\n");
      ++w_.result_.injected["other_categories"];
    }
    buffer_.append(prefix).push_back(static_cast<char>('0' + level));
    lit("}{graph}: ").lit(kind).lit(": ");
    ++w_.counts_[kind];
    return *this;
  }

  void flush() {
    out_.write(buffer_);
    w_.result_.text_bytes += buffer_.size();
    buffer_.clear();
  }

  bool chance(double rate) { return rate > 0 && w_.quirk_rng_.uniform() < rate; }
  std::uint32_t thread(std::uint32_t op) const { return p_.ops[op].issuer == kNoOp ? op : p_.ops[op].issuer; }

  NodeLog& event(std::uint32_t op) { return event(w_.events_.id(op), w_.events_.generation(op)); }
  NodeLog& enclosing(std::uint32_t op) { return p_.ops[op].issuer == kNoOp ? lit("(0,0)") : event(p_.ops[op].issuer); }
  // The precondition: the op's single input, or the later op of an injected cycle.
  NodeLog& precondition(std::uint32_t op) {
    if (op == p_.cycle_from) return event(p_.cycle_to);
    return p_.ops[op].inputs.empty() ? lit("(0,0)") : event(p_.ops[op].inputs.front());
  }
  NodeLog& fresh_event(std::uint32_t on) { return event(w_.events_.fresh(on), 1); }

  NodeLog& event(std::uint64_t id, std::uint32_t gen) {
    if (id == 0 && gen == 0) return lit("(0,0)");
    buffer_.push_back('(');
    hex(id);
    buffer_.push_back(',');
    dec(gen);
    buffer_.push_back(')');
    return *this;
  }
  NodeLog& hex(std::uint64_t v) {
    char b[20];
    buffer_.append(b, std::to_chars(b, b + sizeof b, v, 16).ptr);
    return *this;
  }
  template <class Int>
  NodeLog& dec(Int v) {
    char b[24];
    buffer_.append(b, std::to_chars(b, b + sizeof b, v).ptr);
    return *this;
  }
  NodeLog& lit(std::string_view v) {
    buffer_.append(v);
    return *this;
  }
  NodeLog& sp() {
    buffer_.push_back(' ');
    return *this;
  }

  RealmLogWriter& w_;
  const Program& p_;
  std::uint32_t node_;
  CompressedOutput out_;
  std::string buffer_;
  std::array<std::string, 4> prefixes_;
};

RealmLogWriter::RealmLogWriter(const Program& p, const Truth& truth, ProgramEvents& events, const Quirks& quirks,
                               WriteResult& result)
    : program_(p),
      truth_(truth),
      events_(events),
      quirks_(quirks),
      result_(result),
      quirk_rng_{p.seed ^ 0x5bd1e995u},  // its own stream: quirks never change the program
      waited_us_(p.ops.size(), 0),
      waits_(p.ops.size(), 0),
      ops_of_(p.nodes),
      waits_of_(p.nodes) {
  // Task Time = busy time + the waits (a task's busy time is its Task Time less its Task Waits).
  for (std::size_t w = 0; w < p.waits.size(); ++w) {
    waited_us_[p.waits[w].task] += truth.wait_us[w];
    waits_[p.waits[w].task] = 1;
  }
  // An op is logged by its own node (the issuer's), a wait by its task's.
  for (std::uint32_t i = 0; i < p.ops.size(); ++i)
    if (p.ops[i].kind != GenKind::phase) ops_of_[p.ops[i].node].push_back(i);
  for (std::uint32_t w = 0; w < p.waits.size(); ++w) waits_of_[p.ops[p.waits[w].task].node].push_back(w);
}

void RealmLogWriter::write_node(std::uint32_t node, const std::filesystem::path& path, Compression compression) {
  NodeLog(*this, node, path, compression).write();
  for (const auto& [kind, count] : counts_) {  // whole lines so far: a truncated line no longer counts
    if (count) result_.records[std::string(kind)] = count;
    else result_.records.erase(std::string(kind));
  }
}

}  // namespace rr::gen
