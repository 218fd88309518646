// S3D per RK stage and node (spec §2 dependence order, §11a counts and durations, B = 4 fields per stencil
// batch, duration scale k_t = 1.5): primitives -> temperature -> thermo -> {viscosity, conductivity,
// diffusion, chemistry} and ghost exchange A -> gradients -> fluxes -> ghost exchange B -> divergence ->
// rhs_sum x2 -> rk_update. Everything is issued at t = 0 (no meta-tasks yet), so the ground truth needs no
// issue-point model. Durations are lognormal around the table's means with its spread.
#include "s3d.hpp"

#include "random.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace rr::gen {

namespace {

// Mean and standard deviation in ms (before k_t), heptane and DME, from §11a.
struct Duration {
  double heptane, heptane_sd, dme, dme_sd;
};
enum Kind { prim, temp, thermo, visc, cond, diff, chem, grad_uvwt, grad_species, flux_me, flux_species, divergence,
            rhs_sum, rk_update, kKinds };
constexpr std::array<Duration, kKinds> kGpu = {{{0.60, 0.03, 0.37, 0.02}, {0.70, 0.04, 0.48, 0.03}, {0.70, 0.03, 0.49, 0.02},
                                                {8.0, 0.2, 3.0, 0.1},     {1.0, 0.03, 0.5, 0.02},   {12.0, 0.3, 4.0, 0.1},
                                                {10.0, 0.3, 4.0, 0.1},    {0.065, 0.01, 0.065, 0.01}, {0.065, 0.01, 0.065, 0.01},
                                                {0.17, 0.02, 0.17, 0.02}, {0.11, 0.015, 0.11, 0.015}, {0.065, 0.01, 0.065, 0.01},
                                                {0.60, 0.04, 0.37, 0.03}, {1.47, 0.06, 0.90, 0.04}}};
constexpr Duration kCpuGradSpecies{3.4, 0.7, 3.4, 0.7};
constexpr Duration kCpuFluxSpecies{7.2, 1.5, 7.2, 1.5};
constexpr double kScale = 1.5;  // k_t of §11a

class Builder {
 public:
  Builder(const S3dOptions& o, Program& p) : o_(o), p_(p), rng_{o.seed * 0x2545f4914f6cdd1dull + 1} {}

  std::uint32_t task(std::uint32_t node, Kind kind, bool on_cpu, std::vector<std::uint32_t> inputs) {
    const bool heptane = o_.mechanism == "heptane";
    const Duration d = on_cpu ? (kind == grad_species ? kCpuGradSpecies : kCpuFluxSpecies) : kGpu[kind];
    const double mean = heptane ? d.heptane : d.dme;
    const double sd = heptane ? d.heptane_sd : d.dme_sd;
    const double sigma = std::sqrt(std::log(1.0 + (sd / mean) * (sd / mean)));
    double ms = mean * std::exp(sigma * rng_.normal() - sigma * sigma / 2) * kScale;
    if (o_.points == 64) ms *= 2.37;
    GenOp op;
    op.kind = GenKind::task;
    op.node = node;
    op.processor = on_cpu ? cpu_of(node, next_cpu_[node]++) : gpu_of(node);
    op.busy_us = std::max<std::int64_t>(1, std::llround(ms * 1000.0));
    op.func = 10 + static_cast<std::uint32_t>(kind);
    op.inputs = join(node, std::move(inputs));
    p_.ops.push_back(std::move(op));
    return static_cast<std::uint32_t>(p_.ops.size() - 1);
  }

  // A copy requested by the source node, after `input`.
  std::uint32_t copy(std::uint32_t src, std::uint32_t dst, std::uint8_t src_mem, std::uint8_t dst_mem,
                     std::uint64_t bytes, std::uint32_t input) {
    GenOp op;
    op.kind = GenKind::copy;
    op.node = src;
    op.dst_node = dst;
    op.src_memory = src_mem;
    op.dst_memory = dst_mem;
    op.bytes = bytes;
    op.inputs = {input};
    p_.ops.push_back(std::move(op));
    return static_cast<std::uint32_t>(p_.ops.size() - 1);
  }

  std::vector<std::uint32_t> next_cpu_;

 private:
  // More than one input: merged on the waiting node, in a tree of fan-in at most 8 (§11a).
  std::vector<std::uint32_t> join(std::uint32_t node, std::vector<std::uint32_t> inputs) {
    while (inputs.size() > 1) {
      std::vector<std::uint32_t> level;
      for (std::size_t i = 0; i < inputs.size(); i += 8) {
        std::vector<std::uint32_t> group(inputs.begin() + static_cast<std::ptrdiff_t>(i),
                                         inputs.begin() + static_cast<std::ptrdiff_t>(std::min(inputs.size(), i + 8)));
        if (group.size() == 1) {
          level.push_back(group[0]);
          continue;
        }
        GenOp m;
        m.kind = GenKind::merge;
        m.node = node;
        m.inputs = std::move(group);
        p_.ops.push_back(std::move(m));
        level.push_back(static_cast<std::uint32_t>(p_.ops.size() - 1));
      }
      if (level.size() == 1) return level;
      inputs = std::move(level);
    }
    return inputs;
  }
  std::uint32_t cpu_of(std::uint32_t node, std::uint32_t k) const {
    return node * (p_.cpus_per_node + p_.gpus_per_node) + k % p_.cpus_per_node;
  }
  std::uint32_t gpu_of(std::uint32_t node) const { return node * (p_.cpus_per_node + p_.gpus_per_node) + p_.cpus_per_node; }

  const S3dOptions& o_;
  Program& p_;
  SplitMix rng_;
};

// The most cubic px*py*pz = n.
std::array<std::uint32_t, 3> decompose(std::uint32_t n) {
  std::array<std::uint32_t, 3> best{n, 1, 1};
  std::uint32_t best_spread = n;
  for (std::uint32_t x = 1; x <= n; ++x) {
    if (n % x) continue;
    for (std::uint32_t y = 1; y <= n / x; ++y) {
      if ((n / x) % y) continue;
      std::uint32_t z = n / x / y;
      std::uint32_t spread = std::max({x, y, z}) - std::min({x, y, z});
      if (spread < best_spread) {
        best_spread = spread;
        best = {x, y, z};
      }
    }
  }
  return best;
}

}  // namespace

Program make_s3d(const S3dOptions& o) {
  if (o.mechanism != "dme" && o.mechanism != "heptane") throw std::invalid_argument("mechanism must be dme or heptane");
  if (o.mapping != "all" && o.mapping != "mixed") throw std::invalid_argument("mapping must be all or mixed");
  if (o.points != 48 && o.points != 64) throw std::invalid_argument("points must be 48 or 64");
  Program p;
  p.generator = "s3d";
  p.seed = o.seed;
  p.nodes = std::max(1u, o.nodes);
  const bool mixed = o.mapping == "mixed";
  p.cpus_per_node = mixed ? 12 : 2;  // §11b: 12 CPU processors for mixed, 1-2 for all
  p.gpus_per_node = 1;
  p.description = "\"mechanism\": \"" + o.mechanism + "\", \"mapping\": \"" + o.mapping + "\", \"steps\": " +
                  std::to_string(o.steps) + ", \"points\": " + std::to_string(o.points);
  for (std::uint32_t n = 0; n < p.nodes; ++n) {
    for (std::uint32_t c = 0; c < p.cpus_per_node; ++c) p.processors.push_back({n, c, false});
    p.processors.push_back({n, p.cpus_per_node, true});
  }
  const std::uint32_t species = o.mechanism == "heptane" ? 52 : 30;
  const std::uint32_t fields = species + 4;
  const std::uint32_t field_batches = (fields + 3) / 4;    // gradient / divergence batches per direction
  const std::uint32_t species_batches = (species + 3) / 4;
  const std::uint32_t uvwt_batches = field_batches - species_batches;  // the u, v, w, T part
  const std::uint64_t ghost_bytes = o.points == 64 ? 512 * 1024 : 288 * 1024;
  const std::uint64_t batch_bytes = o.points == 64 ? 8u << 20 : 3481600;  // 3.4 MiB / 8 MiB (§11a)
  const auto grid = decompose(p.nodes);
  auto coords = [&](std::uint32_t n) { return std::array<std::uint32_t, 3>{n % grid[0], (n / grid[0]) % grid[1], n / grid[0] / grid[1]}; };
  auto neighbours = [&](std::uint32_t n, int dir) {
    std::vector<std::uint32_t> out;
    auto c = coords(n);
    for (int side : {-1, 1}) {
      auto d = c;
      const int v = static_cast<int>(d[dir]) + side;
      if (v < 0 || v >= static_cast<int>(grid[dir])) continue;  // no neighbour beyond the domain's boundary
      d[dir] = static_cast<std::uint32_t>(v);
      out.push_back(d[0] + grid[0] * (d[1] + grid[1] * d[2]));
    }
    return out;
  };
  const std::uint8_t fb = 5, sys = 1;
  Builder b(o, p);
  b.next_cpu_.assign(p.nodes, 0);
  std::vector<std::int64_t> last(p.nodes, -1);  // each node's rk_update of the previous stage
  for (std::uint32_t stage = 0; stage < o.steps * 6; ++stage) {
    std::vector<std::uint32_t> thermo_of(p.nodes);
    std::vector<std::array<std::uint32_t, 4>> transport(p.nodes);
    for (std::uint32_t n = 0; n < p.nodes; ++n) {
      std::vector<std::uint32_t> start;
      if (last[n] >= 0) start.push_back(static_cast<std::uint32_t>(last[n]));
      auto pr = b.task(n, prim, false, start);
      auto te = b.task(n, temp, false, {pr});
      thermo_of[n] = b.task(n, thermo, false, {te});
      for (int k = 0; k < 4; ++k) transport[n][k] = b.task(n, static_cast<Kind>(visc + k), false, {thermo_of[n]});
    }
    // Gradients: per direction, u/v/w/T batches and species batches, each after two ghost copies (exchange A).
    std::vector<std::array<std::vector<std::uint32_t>, 3>> flux_of(p.nodes);
    for (std::uint32_t n = 0; n < p.nodes; ++n) {
      std::vector<std::uint32_t> y_down(species_batches), d_down(species_batches);
      if (mixed)  // species mass fractions and diffusion coefficients go to the host for the CPU tasks
        for (std::uint32_t i = 0; i < species_batches; ++i) {
          y_down[i] = b.copy(n, n, fb, sys, batch_bytes, thermo_of[n]);
          d_down[i] = b.copy(n, n, fb, sys, batch_bytes, transport[n][2]);
        }
      for (int dir = 0; dir < 3; ++dir) {
        auto nb = neighbours(n, dir);
        std::vector<std::uint32_t> uvwt, species_grad;
        for (std::uint32_t i = 0; i < field_batches; ++i) {
          const bool is_species = i >= uvwt_batches;
          const bool cpu = mixed && is_species;
          std::vector<std::uint32_t> in{cpu ? y_down[i - uvwt_batches] : thermo_of[n]};
          for (auto m : nb) in.push_back(b.copy(m, n, cpu ? sys : fb, cpu ? sys : fb, ghost_bytes, thermo_of[m]));
          (is_species ? species_grad : uvwt).push_back(b.task(n, is_species ? grad_species : grad_uvwt, cpu, in));
        }
        std::vector<std::uint32_t> me_in = uvwt;
        me_in.push_back(transport[n][0]);
        me_in.push_back(transport[n][1]);
        flux_of[n][dir].push_back(b.task(n, flux_me, false, me_in));
        for (std::uint32_t i = 0; i < species_batches; ++i) {
          std::uint32_t f = b.task(n, flux_species, mixed, {species_grad[i], mixed ? d_down[i] : transport[n][2]});
          if (mixed) f = b.copy(n, n, sys, fb, batch_bytes, f);  // the species fluxes go back to the GPU
          flux_of[n][dir].push_back(f);
        }
      }
    }
    // Divergence: per direction and batch, after the fluxes and two ghost copies of them (exchange B).
    for (std::uint32_t n = 0; n < p.nodes; ++n) {
      std::vector<std::uint32_t> div;
      for (int dir = 0; dir < 3; ++dir) {
        auto nb = neighbours(n, dir);
        for (std::uint32_t i = 0; i < field_batches; ++i) {
          std::vector<std::uint32_t> in{flux_of[n][dir][std::min<std::size_t>(i < uvwt_batches ? 0 : i - uvwt_batches + 1,
                                                                               flux_of[n][dir].size() - 1)]};
          for (auto m : nb) in.push_back(b.copy(m, n, fb, fb, ghost_bytes, flux_of[m][dir][0]));
          div.push_back(b.task(n, divergence, false, in));
        }
      }
      div.push_back(transport[n][3]);  // chemistry joins at the sum
      auto s1 = b.task(n, rhs_sum, false, div);
      auto s2 = b.task(n, rhs_sum, false, {s1});
      last[n] = b.task(n, rk_update, false, {s2});
    }
  }
  return p;
}

}  // namespace rr::gen
