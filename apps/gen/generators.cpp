// Program generators: a seed gives the same program everywhere (random.hpp).
#include "generators.hpp"

#include "random.hpp"

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

}  // namespace rr::gen
