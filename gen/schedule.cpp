// The generator's own scheduler for the ground truth: a small discrete-event simulation, written apart from
// the replay engine so that replaying the generated logs measures the replay's fidelity. The rules are those
// of docs/generator.md ("What the truth assumes").
#include <algorithm>
#include <map>
#include <queue>
#include <set>
#include <vector>

#include "platform/huge_pages.hpp"
#include "program.hpp"

namespace rr::gen {

namespace {

enum class What : std::uint8_t { ready, segment_end, copy_done, fire, arrival };

struct Event {
  std::int64_t time;
  std::uint32_t id;  // op, or for a resume segment ops.size() + wait index
  What what;
  std::uint32_t aux = 0;  // segment_end: the processor; arrival: the arriving op
  bool operator>(const Event& o) const {
    if (time != o.time) return time > o.time;
    if (id != o.id) return id > o.id;
    return what > o.what;
  }
};

// A task segment waiting for its processor: highest priority, then earliest ready, then the lowest id
// (ops in program order, then resumes in wait order, as the trace's vertices are numbered).
struct Waiting {
  std::int32_t priority;
  std::int64_t ready;
  std::uint32_t id;
  bool operator<(const Waiting& o) const {
    if (priority != o.priority) return priority < o.priority;
    if (ready != o.ready) return ready > o.ready;
    return id > o.id;
  }
};

class Scheduler {
 public:
  Scheduler(const Program& p, const TruthMachine& m) : p_(p), m_(m), n_(static_cast<std::uint32_t>(p.ops.size())) {}

  Truth run() {
    prepare();
    while (!events_.empty()) {
      now_ = events_.top().time;
      while (!events_.empty() && events_.top().time == now_) {
        Event e = events_.top();
        events_.pop();
        handle(e);
      }
      for (std::uint32_t proc : dirty_procs_) dispatch(proc);
      dirty_procs_.clear();
      for (std::uint32_t channel : dirty_channels_) start_copies(channel);
      dirty_channels_.clear();
    }
    for (std::uint32_t i = 0; i < n_; ++i)
      if (t_.end[i] < 0) ++t_.never_ran;
    return std::move(t_);
  }

 private:
  // ---- the program's shape -----------------------------------------------------------------

  void prepare() {
    // Large flat arrays go on huge pages: filling them page by page costs more than the simulation.
    using platform::assign_on_huge_pages;
    assign_on_huge_pages(t_.start, n_, std::int64_t{-1});
    assign_on_huge_pages(t_.end, n_, std::int64_t{-1});
    t_.wait_us.assign(p_.waits.size(), 0);
    assign_on_huge_pages(ready_, n_ + p_.waits.size(), std::int64_t{0});
    assign_on_huge_pages(missing_, n_ + p_.waits.size(), 0u);
    assign_on_huge_pages(consumer_begin_, n_ + 1, 0u);
    for (std::uint32_t i = 0; i < n_; ++i) {
      for (auto in : p_.ops[i].inputs) ++consumer_begin_[in + 1];
      missing_[i] = static_cast<std::uint32_t>(p_.ops[i].inputs.size()) + (p_.ops[i].issuer != kNoOp);
    }
    if (p_.cycle_from != kNoOp) {
      ++consumer_begin_[p_.cycle_to + 1];
      ++missing_[p_.cycle_from];
    }
    for (std::uint32_t i = 0; i < n_; ++i) consumer_begin_[i + 1] += consumer_begin_[i];
    consumers_.resize(consumer_begin_[n_]);
    std::vector<std::uint32_t> fill(consumer_begin_.begin(), consumer_begin_.end() - 1);
    for (std::uint32_t i = 0; i < n_; ++i)
      for (auto in : p_.ops[i].inputs) consumers_[fill[in]++] = i;
    if (p_.cycle_from != kNoOp) consumers_[fill[p_.cycle_to]++] = p_.cycle_from;

    // Program order of every task's actions: the ops it issues, in op order, with its waits in between.
    assign_on_huge_pages(position_, n_, 0u);
    assign_on_huge_pages(action_count_, n_, 0u);
    assign_on_huge_pages(segment_of_, n_, 0u);
    assign_on_huge_pages(first_wait_, n_, kNoOp);
    assign_on_huge_pages(wait_count_, n_, 0u);
    wait_position_.assign(p_.waits.size(), 0);
    for (std::uint32_t w = 0; w < p_.waits.size(); ++w) {
      const GenWait& gw = p_.waits[w];
      if (first_wait_[gw.task] == kNoOp) first_wait_[gw.task] = w;
      ++wait_count_[gw.task];
      awaited_by_.emplace(gw.awaited, w);
      missing_[n_ + w] = 2;  // the previous segment's end and the awaited event
    }
    std::vector<std::uint32_t> next_wait(n_, 0);  // waits of the task passed so far
    for (std::uint32_t i = 0; i < n_; ++i) {
      const std::uint32_t t = p_.ops[i].issuer;
      if (t == kNoOp) continue;
      while (next_wait[t] < wait_count_[t] && p_.waits[first_wait_[t] + next_wait[t]].before_op <= i)
        wait_position_[first_wait_[t] + next_wait[t]++] = action_count_[t]++;
      segment_of_[i] = next_wait[t];
      position_[i] = action_count_[t]++;
    }
    for (std::uint32_t t = 0; t < n_; ++t)
      for (; next_wait[t] < wait_count_[t]; ++next_wait[t]) wait_position_[first_wait_[t] + next_wait[t]] = action_count_[t]++;

    assign_on_huge_pages(issued_begin_, n_ + 1, 0u);
    for (std::uint32_t i = 0; i < n_; ++i)
      if (p_.ops[i].issuer != kNoOp) ++issued_begin_[p_.ops[i].issuer + 1];
    for (std::uint32_t i = 0; i < n_; ++i) issued_begin_[i + 1] += issued_begin_[i];
    issued_.resize(issued_begin_[n_]);
    std::vector<std::uint32_t> cursor(issued_begin_.begin(), issued_begin_.end() - 1);
    for (std::uint32_t i = 0; i < n_; ++i)
      if (p_.ops[i].issuer != kNoOp) issued_[cursor[p_.ops[i].issuer]++] = i;
    blocked_since_.assign(p_.waits.size(), 0);

    // Barrier phases by (barrier, generation); required arrivals are the expected ones plus the alters.
    for (std::uint32_t i = 0; i < n_; ++i)
      if (p_.ops[i].kind == GenKind::phase) phase_of_[{p_.ops[i].barrier, p_.ops[i].generation}] = i;
    assign_on_huge_pages(required_, n_, std::int64_t{0});
    assign_on_huge_pages(arrived_, n_, std::int64_t{0});
    previous_done_.assign(n_, false);
    for (std::uint32_t i = 0; i < n_; ++i) {
      const GenOp& op = p_.ops[i];
      if (op.kind == GenKind::phase) required_[i] += p_.barriers[op.barrier].arrivals;
      if (op.kind == GenKind::alter) required_[phase(op)] += op.amount;
    }

    proc_queue_.resize(p_.processors.size());
    proc_busy_.assign(p_.processors.size(), false);
    proc_dirty_flag_.assign(p_.processors.size(), false);
    for (std::uint32_t i = 0; i < n_; ++i)
      if (missing_[i] == 0) events_.push({0, i, What::ready});
  }

  std::uint32_t phase(const GenOp& op) const { return phase_of_.at({op.barrier, op.generation}); }

  std::uint32_t node_of(std::uint32_t op) const {
    const GenOp& o = p_.ops[op];
    return o.kind == GenKind::phase ? p_.barriers[o.barrier].node : o.node;
  }

  // An event from node a seen on node b: the network latency and remote trigger cost across nodes.
  std::int64_t seen_after(std::uint32_t a, std::uint32_t b) const {
    return a == b ? m_.trigger_local_ns : m_.network_latency_ns + m_.trigger_remote_ns;
  }

  void contribute(std::uint32_t id, std::int64_t at) {
    ready_[id] = std::max(ready_[id], at);
    if (--missing_[id] == 0) events_.push({ready_[id], id, What::ready});
  }

  // ---- events ----------------------------------------------------------------------------

  void handle(const Event& e) {
    switch (e.what) {
      case What::ready: on_ready(e.id); break;
      case What::segment_end: on_segment_end(e.id, e.aux); break;
      case What::copy_done:
        ++free_lanes_[channel_of(e.id)];
        dirty_channels_.push_back(channel_of(e.id));
        fire(e.id);
        break;
      case What::fire: fire(e.id); break;
      case What::arrival: {
        arrived_[e.id] += p_.ops[e.aux].amount;
        try_fire_phase(e.id);
        break;
      }
    }
  }

  void on_ready(std::uint32_t id) {
    if (id >= n_) {  // a resume segment
      enqueue(id, p_.waits[id - n_].task);
      return;
    }
    const GenOp& op = p_.ops[id];
    switch (op.kind) {
      case GenKind::task: enqueue(id, id); break;
      case GenKind::copy: {
        const std::uint32_t c = channel_of(id);
        waiting_copies_[c].insert({now_, id});
        dirty_channels_.push_back(c);
        break;
      }
      case GenKind::merge:
        t_.start[id] = now_;
        events_.push({now_ + m_.merge_ns, id, What::fire});
        break;
      case GenKind::trigger:
      case GenKind::alter:
      case GenKind::arrive:
        t_.start[id] = now_;
        fire(id);
        break;
      case GenKind::phase:
        t_.start[id] = now_;
        previous_done_[id] = true;
        try_fire_phase(id);
        break;
    }
  }

  void try_fire_phase(std::uint32_t phase_op) {
    if (t_.end[phase_op] >= 0 || !previous_done_[phase_op] || arrived_[phase_op] < required_[phase_op]) return;
    fire(phase_op);
  }

  void fire(std::uint32_t id) {
    t_.end[id] = now_;
    if (t_.start[id] < 0) t_.start[id] = now_;
    t_.makespan_ns = std::max(t_.makespan_ns, now_);
    const GenOp& op = p_.ops[id];
    const std::uint32_t from = node_of(id);
    if (op.kind == GenKind::arrive) {
      const std::uint32_t ph = phase(op);
      events_.push({now_ + seen_after(from, node_of(ph)), ph, What::arrival, id});
    }
    for (std::uint32_t k = consumer_begin_[id]; k < consumer_begin_[id + 1]; ++k) {
      const std::uint32_t c = consumers_[k];
      const bool phase_order = op.kind == GenKind::phase && p_.ops[c].kind == GenKind::phase;
      contribute(c, now_ + (phase_order ? 0 : seen_after(from, node_of(c))));
    }
    for (auto [it, end] = awaited_by_.equal_range(id); it != end; ++it) {
      const std::uint32_t w = it->second;
      contribute(n_ + w, now_ + seen_after(from, node_of(p_.waits[w].task)));
    }
  }

  // ---- tasks -----------------------------------------------------------------------------

  void enqueue(std::uint32_t segment, std::uint32_t task) {
    const std::uint32_t proc = p_.ops[task].processor;
    proc_queue_[proc].push({p_.ops[task].priority, ready_[segment], segment});
    if (!proc_dirty_flag_[proc]) {
      proc_dirty_flag_[proc] = true;
      dirty_procs_.push_back(proc);
    }
  }

  // Busy offset of action k of K: (k+1)/(K+1) of the busy time, rounded down.
  static std::int64_t offset(std::int64_t busy, std::uint32_t k, std::uint32_t count) {
    __extension__ using Wide = __int128;
    return static_cast<std::int64_t>(static_cast<Wide>(busy) * (k + 1) / (count + 1));
  }

  // A segment id (an op for a task's first segment, ops.size() + wait index after a wait) as its task and
  // its segment number within that task.
  std::pair<std::uint32_t, std::uint32_t> decode(std::uint32_t segment) const {
    if (segment < n_) return {segment, 0};
    const std::uint32_t task = p_.waits[segment - n_].task;
    return {task, segment - n_ - first_wait_[task] + 1};
  }

  void dispatch(std::uint32_t proc) {
    proc_dirty_flag_[proc] = false;
    if (proc_busy_[proc] || proc_queue_[proc].empty()) return;
    const std::uint32_t segment = proc_queue_[proc].top().id;
    proc_queue_[proc].pop();
    proc_busy_[proc] = true;
    const auto [task, index] = decode(segment);
    const bool first = index == 0;
    const std::int64_t busy = p_.ops[task].busy_us * 1000;
    const std::uint32_t waits = wait_count_[task];
    const std::uint32_t count = action_count_[task];
    const std::int64_t begin = index == 0 ? 0 : offset(busy, wait_position_[first_wait_[task] + index - 1], count);
    const std::int64_t end = std::max(begin, index == waits ? busy : offset(busy, wait_position_[first_wait_[task] + index], count));
    if (first) t_.start[task] = now_;
    else t_.wait_us[segment - n_] = (now_ - blocked_since_[segment - n_] + 999) / 1000;
    // The ops it issues in this segment (they come in segment order, so the scan stops early).
    for (std::uint32_t k = issued_begin_[task]; k < issued_begin_[task + 1]; ++k) {
      const std::uint32_t op = issued_[k];
      if (segment_of_[op] < index) continue;
      if (segment_of_[op] > index) break;
      const std::int64_t at = now_ + std::clamp(offset(busy, position_[op], count), begin, end) - begin;
      contribute(op, at + (node_of(op) == node_of(task) ? 0 : m_.network_latency_ns));
    }
    events_.push({now_ + (end - begin), segment, What::segment_end, proc});
  }

  void on_segment_end(std::uint32_t segment, std::uint32_t proc) {
    proc_busy_[proc] = false;
    if (!proc_dirty_flag_[proc]) {
      proc_dirty_flag_[proc] = true;
      dirty_procs_.push_back(proc);
    }
    const auto [task, index] = decode(segment);
    if (index < wait_count_[task]) {  // blocks in its next wait
      const std::uint32_t w = first_wait_[task] + index;
      blocked_since_[w] = now_;
      contribute(n_ + w, now_);
      return;
    }
    t_.end[task] = now_;
    fire(task);
  }

  // ---- copies ----------------------------------------------------------------------------

  // One channel per node and scope: memcpy inside a node, the NIC across nodes; the source node's.
  std::uint32_t channel_of(std::uint32_t copy) const {
    const GenOp& op = p_.ops[copy];
    return op.node * 2 + (op.dst_node != op.node ? 1 : 0);
  }

  void start_copies(std::uint32_t channel) {
    auto& queue = waiting_copies_[channel];
    auto lanes = free_lanes_.try_emplace(channel, m_.lanes).first;
    while (lanes->second > 0 && !queue.empty()) {
      const std::uint32_t copy = queue.begin()->second;
      queue.erase(queue.begin());
      --lanes->second;
      t_.start[copy] = now_;
      const std::int64_t latency = channel % 2 ? m_.nic_latency_ns : m_.memcpy_latency_ns;
      events_.push({now_ + latency + static_cast<std::int64_t>(p_.ops[copy].bytes), copy, What::copy_done});
    }
  }

  const Program& p_;
  const TruthMachine& m_;
  const std::uint32_t n_;
  Truth t_;
  std::int64_t now_ = 0;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::vector<std::int64_t> ready_;     // by op, then by resume segment
  std::vector<std::uint32_t> missing_;  // inputs not yet in
  std::vector<std::uint32_t> consumer_begin_, consumers_;
  std::multimap<std::uint32_t, std::uint32_t> awaited_by_;  // op -> waits blocked on it
  std::vector<std::uint32_t> position_, action_count_, segment_of_, first_wait_, wait_count_, wait_position_;
  std::vector<std::uint32_t> issued_begin_, issued_;
  std::vector<std::int64_t> blocked_since_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> phase_of_;
  std::vector<std::int64_t> required_, arrived_;
  std::vector<bool> previous_done_;
  std::vector<std::priority_queue<Waiting>> proc_queue_;
  std::vector<bool> proc_busy_, proc_dirty_flag_;
  std::vector<std::uint32_t> dirty_procs_, dirty_channels_;
  std::map<std::uint32_t, std::uint32_t> free_lanes_;
  std::map<std::uint32_t, std::set<std::pair<std::int64_t, std::uint32_t>>> waiting_copies_;
};

}  // namespace

Truth schedule(const Program& program, const TruthMachine& machine) { return Scheduler(program, machine).run(); }

}  // namespace rr::gen
