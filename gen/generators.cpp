// Program generators: a seed gives the same program everywhere (random.hpp).
#include "generators.hpp"

#include "random.hpp"

#include <algorithm>
#include <array>
#include <map>

namespace rr::gen {

namespace {

Program base(const char* name, const SmallOptions& o) {
  Program p;
  p.generator = name;
  p.seed = o.seed;
  p.nodes = o.nodes == 0 ? 1 : o.nodes;
  p.cpus_per_node = o.cpus_per_node == 0 ? 1 : o.cpus_per_node;
  for (std::uint32_t n = 0; n < p.nodes; ++n)
    for (std::uint32_t c = 0; c < p.cpus_per_node; ++c) p.processors.push_back({n, c});
  return p;
}

std::uint32_t add_task(Program& p, std::uint32_t processor, std::int64_t busy_us, std::vector<std::uint32_t> inputs,
                       std::uint32_t func, std::int32_t priority = 0) {
  GenOp op;
  op.kind = GenKind::task;
  op.processor = processor;
  op.node = p.processors[processor].node;
  op.busy_us = busy_us;
  op.func = func;
  op.priority = priority;
  op.inputs = std::move(inputs);
  p.ops.push_back(std::move(op));
  return static_cast<std::uint32_t>(p.ops.size() - 1);
}

std::uint32_t add_merge(Program& p, std::uint32_t node, std::vector<std::uint32_t> inputs) {
  GenOp op;
  op.kind = GenKind::merge;
  op.node = node;
  op.inputs = std::move(inputs);
  p.ops.push_back(std::move(op));
  return static_cast<std::uint32_t>(p.ops.size() - 1);
}

}  // namespace

Program make_chain(std::uint32_t length, const SmallOptions& o) {
  Program p = base("chain", o);
  SplitMix rng{o.seed};
  for (std::uint32_t i = 0; i < length; ++i) {
    const std::uint32_t node = i % p.nodes;
    std::vector<std::uint32_t> inputs;
    if (i > 0) inputs.push_back(i - 1);
    add_task(p, node * p.cpus_per_node, 10 + static_cast<std::int64_t>(rng.below(90)), inputs, 5);
  }
  return p;
}

Program make_fork_join(std::uint32_t width, std::uint32_t stages, const SmallOptions& o) {
  Program p = base("fork-join", o);
  SplitMix rng{o.seed};
  std::vector<std::uint32_t> previous;
  for (std::uint32_t s = 0; s < stages; ++s) {
    std::vector<std::uint32_t> inputs = previous;
    const std::uint32_t fork = add_task(p, 0, 5 + static_cast<std::int64_t>(rng.below(10)), inputs, 5, 1);
    std::vector<std::uint32_t> branch;
    for (std::uint32_t w = 0; w < width; ++w) {
      const auto proc = static_cast<std::uint32_t>(w % p.processors.size());
      branch.push_back(add_task(p, proc, 20 + static_cast<std::int64_t>(rng.below(80)), {fork}, 6));
    }
    previous = {add_merge(p, 0, branch)};
  }
  return p;
}

Program make_random_dag(std::uint32_t count, const SmallOptions& o) {
  Program p = base("random-dag", o);
  SplitMix rng{o.seed};
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint64_t r = rng.below(100);
    auto earlier = [&]() { return static_cast<std::uint32_t>(rng.below(i)); };
    if (i >= 2 && r < 20) {
      std::vector<std::uint32_t> inputs;
      const std::uint64_t fan_in = 2 + rng.below(5);
      for (std::uint64_t k = 0; k < fan_in; ++k) inputs.push_back(earlier());
      add_merge(p, static_cast<std::uint32_t>(rng.below(p.nodes)), inputs);
    } else if (i >= 1 && r < 35) {
      GenOp op;
      op.kind = GenKind::copy;
      op.node = static_cast<std::uint32_t>(rng.below(p.nodes));
      op.dst_node = static_cast<std::uint32_t>(rng.below(p.nodes));
      op.bytes = 64 + rng.below(1u << 16);
      if (rng.below(4) != 0) op.inputs.push_back(earlier());
      p.ops.push_back(std::move(op));
    } else {
      std::vector<std::uint32_t> inputs;
      if (i > 0 && rng.below(5) != 0) inputs.push_back(earlier());
      add_task(p, static_cast<std::uint32_t>(rng.below(p.processors.size())), 1 + static_cast<std::int64_t>(rng.below(500)),
               inputs, 5 + static_cast<std::uint32_t>(rng.below(8)), static_cast<std::int32_t>(rng.below(3)) - 1);
    }
  }
  return p;
}

Program make_stencil(std::uint32_t dims, std::uint32_t steps, const SmallOptions& o) {
  Program p = base("stencil", o);
  p.parameters = {{"dims", dims}, {"steps", steps}};
  SplitMix rng{o.seed};
  // Nodes on a line (1-D) or on the most cubic grid (3-D); neighbours differ by one in one coordinate.
  std::array<std::uint32_t, 3> grid{p.nodes, 1, 1};
  if (dims == 3) {
    std::uint32_t best = p.nodes;
    for (std::uint32_t x = 1; x <= p.nodes; ++x)
      for (std::uint32_t y = 1; x * y <= p.nodes; ++y)
        if (p.nodes % (x * y) == 0) {
          const std::uint32_t z = p.nodes / (x * y);
          const std::uint32_t spread = std::max({x, y, z}) - std::min({x, y, z});
          if (spread < best) best = spread, grid = {x, y, z};
        }
  }
  auto neighbours = [&](std::uint32_t n) {
    std::vector<std::uint32_t> out;
    const std::array<std::uint32_t, 3> c{n % grid[0], (n / grid[0]) % grid[1], n / grid[0] / grid[1]};
    for (int d = 0; d < 3; ++d)
      for (int side : {-1, 1}) {
        auto e = c;
        const int v = static_cast<int>(e[d]) + side;
        if (v < 0 || v >= static_cast<int>(grid[d])) continue;
        e[d] = static_cast<std::uint32_t>(v);
        out.push_back(e[0] + grid[0] * (e[1] + grid[1] * e[2]));
      }
    return out;
  };
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> barrier_of;  // (from, to) -> barrier
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> phase_of;    // (barrier, step) -> op
  auto add = [&](GenOp op) {
    p.ops.push_back(std::move(op));
    return static_cast<std::uint32_t>(p.ops.size() - 1);
  };
  std::vector<std::uint32_t> compute(p.nodes, kNoOp);
  std::vector<std::vector<std::uint32_t>> received(p.nodes);
  for (std::uint32_t step = 0; step < steps; ++step) {
    std::vector<std::uint32_t> previous = compute;
    for (std::uint32_t n = 0; n < p.nodes; ++n) {
      std::vector<std::uint32_t> inputs = received[n];
      if (previous[n] != kNoOp) inputs.push_back(previous[n]);
      if (inputs.size() > 1) inputs = {add_merge(p, n, inputs)};
      compute[n] = add_task(p, n * p.cpus_per_node + step % p.cpus_per_node, 50 + static_cast<std::int64_t>(rng.below(50)),
                            inputs, 7);
      received[n].clear();
    }
    for (std::uint32_t n = 0; n < p.nodes; ++n)
      for (std::uint32_t m : neighbours(n)) {  // n sends its halo to m
        auto [it, fresh] = barrier_of.try_emplace({n, m}, static_cast<std::uint32_t>(p.barriers.size()));
        if (fresh) p.barriers.push_back({m, 2});
        const std::uint32_t bar = it->second;
        GenOp phase;
        phase.kind = GenKind::phase;
        phase.node = m;
        phase.barrier = bar;
        phase.generation = step + 1;
        if (step > 0) phase.inputs = {phase_of.at({bar, step - 1})};
        const std::uint32_t ph = add(phase);
        phase_of[{bar, step}] = ph;
        GenOp ready;  // the sender's data is ready
        ready.kind = GenKind::arrive;
        ready.node = n;
        ready.barrier = bar;
        ready.generation = step + 1;
        ready.inputs = {compute[n]};
        add(ready);
        GenOp freed;  // the receiver is done with the previous halo (or, at first, needs one arrival fewer)
        freed.kind = step == 0 ? GenKind::alter : GenKind::arrive;
        freed.node = m;
        freed.barrier = bar;
        freed.generation = step + 1;
        freed.amount = step == 0 ? -1 : 1;
        if (step > 0) freed.inputs = {previous[m]};
        add(freed);
        GenOp halo;
        halo.kind = GenKind::copy;
        halo.node = n;
        halo.dst_node = m;
        halo.bytes = 4096 + rng.below(4096);
        halo.inputs = {ph};
        received[m].push_back(add(halo));
      }
  }
  return p;
}

bool inject_cycle(Program& p) {
  // The cycle: a task with no inputs and no issuer gets, as its precondition, the event of a later op that
  // depends on it. That op must be one whose event a record produces (a task, copy or merge): an arrival's or
  // alter's event is named by no record, so waiting on it made no cycle at all (a stencil's latest op that
  // depends on a first task through first inputs alone is an arrival). Dependence runs through any input.
  constexpr std::uint32_t kNone = kNoOp;
  std::vector<std::uint32_t> root(p.ops.size(), kNone);  // a first task this op depends on, if any
  for (std::uint32_t i = 0; i < p.ops.size(); ++i) {
    const GenOp& op = p.ops[i];
    if (op.inputs.empty()) {
      if (op.kind == GenKind::task && op.issuer == kNoOp) root[i] = i;
      continue;
    }
    for (std::uint32_t in : op.inputs)
      if (in < i && root[in] != kNone) {
        root[i] = root[in];
        break;
      }
  }
  for (std::uint32_t b = static_cast<std::uint32_t>(p.ops.size()); b-- > 0;) {
    const GenKind k = p.ops[b].kind;
    if (k != GenKind::task && k != GenKind::copy && k != GenKind::merge) continue;
    if (root[b] == kNone || root[b] == b) continue;
    p.cycle_from = root[b];
    p.cycle_to = b;
    return true;
  }
  return false;
}

}  // namespace rr::gen
