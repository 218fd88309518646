// S3D per RK stage and node (docs/s3d.md: dependence order, counts and durations, B = 4 fields per stencil
// batch, duration scale k_t = 1.5): primitives -> temperature -> thermo -> {viscosity, conductivity,
// diffusion, chemistry} and ghost exchange A -> gradients -> fluxes -> ghost exchange B -> divergence ->
// rhs_sum x2 -> rk_update. Durations are lognormal around the table's means with its spread.
//
// The runtime layer (docs/s3d.md): a long-lived driver task per node (function 3, on a CPU of its own) issues,
// step by step, the first meta-task (function 4, utility processors) of every operation and, after issuing
// step s, waits (Task Wait) for step s−2 to end: a run-ahead window of two steps. An application task's
// chain is dependence analysis -> mapping (which triggers a user event the task also waits for) -> launch
// (issues the task) -> completion (after the task) -> commit; a copy's is one meta-task that issues it and,
// for every other copy, a completion meta-task. Ghost exchanges go through phase barriers, one per
// (exchange, neighbour, direction): the producer's node arrives when the data is ready, the consumer's node
// when it has finished with the previous stage's ghosts (in the first stage an Alter lowers the count).
#include "s3d.hpp"

#include "random.hpp"
#include "platform/huge_pages.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>
#include <stdexcept>

namespace rr::gen {

namespace {

// Mean and standard deviation in ms (before k_t), heptane and DME (docs/s3d.md, Tasks and durations).
struct Duration {
  double heptane, heptane_sd, dme, dme_sd;
};
enum Kind { prim, temp, thermo, visc, cond, diff, chem, grad_uvwt, grad_species, flux_me, flux_species, divergence,
            rhs_sum, rk_update, kKinds };
// The task function ids of the trace: the driver, the runtime's meta-tasks, and one per Kind from kFirstKindFunction.
constexpr std::uint32_t kDriverFunction = 3, kMetaFunction = 4, kFirstKindFunction = 10;
// What names.toml calls them (docs/generator.md names the tasks so).
constexpr std::array<const char*, kKinds> kKindNames = {
    "primitives", "temperature", "thermo", "viscosity", "conductivity", "diffusion", "chemistry", "gradient_uvwt",
    "gradient_species", "flux_momentum_energy", "flux_species", "divergence", "rhs_sum", "rk_update"};
constexpr std::array<Duration, kKinds> kGpu = {{{0.60, 0.03, 0.37, 0.02}, {0.70, 0.04, 0.48, 0.03}, {0.70, 0.03, 0.49, 0.02},
                                                {8.0, 0.2, 3.0, 0.1},     {1.0, 0.03, 0.5, 0.02},   {12.0, 0.3, 4.0, 0.1},
                                                {10.0, 0.3, 4.0, 0.1},    {0.065, 0.01, 0.065, 0.01}, {0.065, 0.01, 0.065, 0.01},
                                                {0.17, 0.02, 0.17, 0.02}, {0.11, 0.015, 0.11, 0.015}, {0.065, 0.01, 0.065, 0.01},
                                                {0.60, 0.04, 0.37, 0.03}, {1.47, 0.06, 0.90, 0.04}}};
constexpr Duration kCpuGradSpecies{3.4, 0.7, 3.4, 0.7};
constexpr Duration kCpuFluxSpecies{7.2, 1.5, 7.2, 1.5};
constexpr double kScale = 1.5;  // k_t (docs/s3d.md, Tasks and durations)

// Meta-task mean durations in µs (docs/s3d.md, The runtime layer): dependence analysis, mapping, launch,
// completion, commit; copies.
constexpr std::array<double, 5> kTaskMeta = {30, 120, 20, 15, 15};
constexpr double kCopyMeta = 40, kCopyCompletion = 25;
constexpr double kMetaCv = 0.8;

class Builder {
 public:
  Builder(const S3dOptions& o, Program& p) : o_(o), p_(p), rng_{o.seed * 0x2545f4914f6cdd1dull + 1} {}

  std::vector<std::uint32_t> driver_;  // per node: its long-lived top-level task

  // A meta-task on one of the node's utility processors, issued by `issuer`, after `input` if any.
  std::uint32_t meta(std::uint32_t node, std::uint32_t issuer, double mean_us, std::uint32_t input = kNoOp) {
    const double sigma = std::sqrt(std::log(1.0 + kMetaCv * kMetaCv));
    GenOp op;
    op.kind = GenKind::task;
    op.node = node;
    op.processor = utility_of(node, next_utility_[node]++);
    op.func = kMetaFunction;
    op.busy_us = std::max<std::int64_t>(1, std::llround(mean_us * std::exp(sigma * rng_.normal() - sigma * sigma / 2)));
    op.issuer = issuer;
    if (input != kNoOp) op.inputs = {input};
    return add(std::move(op));
  }

  std::uint32_t add(GenOp op) {
    p_.ops.push_back(std::move(op));
    return static_cast<std::uint32_t>(p_.ops.size() - 1);
  }

  // The meta-task that launched an application task (it also issues that task's barrier arrivals).
  std::uint32_t launcher(std::uint32_t task) const { return launcher_.at(task); }

  std::uint32_t task(std::uint32_t node, Kind kind, bool on_cpu, std::vector<std::uint32_t> inputs) {
    const std::uint32_t analysis = meta(node, driver_[node], kTaskMeta[0]);
    const std::uint32_t mapping = meta(node, analysis, kTaskMeta[1]);
    GenOp mapped;  // Legion's deferred trigger: a user event the mapping stage triggers
    mapped.kind = GenKind::trigger;
    mapped.node = node;
    mapped.issuer = mapping;
    inputs.push_back(add(std::move(mapped)));
    const std::uint32_t launch = meta(node, mapping, kTaskMeta[2]);
    const std::uint32_t x = app_task(node, kind, on_cpu, std::move(inputs), launch);
    launcher_[x] = launch;
    const std::uint32_t completion = meta(node, launch, kTaskMeta[3], x);
    meta(node, completion, kTaskMeta[4]);
    return x;
  }

  std::uint32_t app_task(std::uint32_t node, Kind kind, bool on_cpu, std::vector<std::uint32_t> inputs, std::uint32_t issuer) {
    const bool heptane = o_.mechanism == "heptane";
    const Duration d = on_cpu ? (kind == grad_species ? kCpuGradSpecies : kCpuFluxSpecies) : kGpu[kind];
    const double mean = heptane ? d.heptane : d.dme;
    const double sd = heptane ? d.heptane_sd : d.dme_sd;
    const double sigma = std::sqrt(std::log(1.0 + (sd / mean) * (sd / mean)));
    double ms = mean * std::exp(sigma * rng_.normal() - sigma * sigma / 2) * kScale;
    if (o_.points == 64) ms *= 2.37;
    if (on_cpu) ms /= o_.cpu_speed;
    GenOp op;
    op.kind = GenKind::task;
    op.node = node;
    op.processor = on_cpu ? cpu_of(node, next_cpu_[node]++) : gpu_of(node);
    op.busy_us = std::max<std::int64_t>(1, std::llround(ms * 1000.0));
    op.func = kFirstKindFunction + static_cast<std::uint32_t>(kind);
    op.inputs = join(node, std::move(inputs));
    op.issuer = issuer;
    return add(std::move(op));
  }

  // A copy requested by the source node, after `input`, issued by its meta-task.
  std::uint32_t copy(std::uint32_t src, std::uint32_t dst, std::uint8_t src_mem, std::uint8_t dst_mem,
                     std::uint64_t bytes, std::uint32_t input) {
    const std::uint32_t issue = meta(src, driver_[src], kCopyMeta);
    GenOp op;
    op.issuer = issue;
    op.kind = GenKind::copy;
    op.node = src;
    op.dst_node = dst;
    op.src_memory = src_mem;
    op.dst_memory = dst_mem;
    op.bytes = bytes;
    op.inputs = {input};
    const std::uint32_t c = add(std::move(op));
    if (copies_++ % 2 == 0) meta(src, issue, kCopyCompletion, c);  // 1.5 meta-tasks per copy
    return c;
  }

  std::vector<std::uint32_t> next_cpu_;
  std::vector<std::uint32_t> next_utility_;

  // Each node's processors: its CPUs, the driver's CPU, the GPU, the utility processors.
  std::uint32_t per_node() const { return p_.cpus_per_node + p_.drivers_per_node + p_.gpus_per_node + p_.utility_per_node; }
  std::uint32_t cpu_of(std::uint32_t node, std::uint32_t k) const { return node * per_node() + k % p_.cpus_per_node; }

 private:
  // More than one input: merged on the waiting node, in a tree of fan-in at most 8 (docs/s3d.md).
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
  std::uint32_t gpu_of(std::uint32_t node) const { return node * per_node() + p_.cpus_per_node + p_.drivers_per_node; }
  std::uint32_t utility_of(std::uint32_t node, std::uint32_t k) const {
    return node * per_node() + p_.cpus_per_node + p_.drivers_per_node + p_.gpus_per_node + k % p_.utility_per_node;
  }

  const S3dOptions& o_;
  Program& p_;
  SplitMix rng_;
  std::map<std::uint32_t, std::uint32_t> launcher_;
  std::uint64_t copies_ = 0;
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


// The program's structure, stage by stage, over the Builder's tasks and copies. Operations are added in the order
// the generator has always added them: the bytes of a seed's trace depend on it.
class Stages {
 public:
  Stages(const S3dOptions& o, Program& p, Builder& b)
      : o_(o), p_(p), b_(b), mixed_(o.mapping == "mixed"), grid_(decompose(p.nodes)), last_(p.nodes, -1),
        step_end_(o.steps), thermo_of_(p.nodes), transport_(p.nodes), flux_of_(p.nodes) {
    const std::uint32_t species = o.mechanism == "heptane" ? 52 : 30;
    field_batches_ = (species + 4 + 3) / 4;  // gradient / divergence batches per direction (species + u, v, w, T)
    species_batches_ = (species + 3) / 4;
    uvwt_batches_ = field_batches_ - species_batches_;
    ghost_bytes_ = o.points == 64 ? 512 * 1024 : 288 * 1024;
    batch_bytes_ = o.points == 64 ? 8u << 20 : 3481600;  // 3.4 MiB / 8 MiB (docs/s3d.md, Copies)
    if (o.host_copy_bytes) batch_bytes_ = o.host_copy_bytes;
  }

  void add_drivers() {
    for (std::uint32_t n = 0; n < p_.nodes; ++n) {
      GenOp driver;
      driver.kind = GenKind::task;
      driver.node = n;
      driver.processor = b_.cpu_of(n, 0) + p_.cpus_per_node;  // the CPU after the application's
      driver.func = kDriverFunction;
      b_.driver_.push_back(b_.add(std::move(driver)));
    }
  }

  void add_stage(std::uint32_t stage) {
    const std::uint32_t step = stage / 6;
    if (stage % 6 == 0 && step >= 2)  // the run-ahead window: step s is issued once step s-2 is over
      for (std::uint32_t n = 0; n < p_.nodes; ++n)
        p_.waits.push_back({b_.driver_[n], step_end_[step - 2][n], static_cast<std::uint32_t>(p_.ops.size())});
    free_previous_ghosts(stage);
    for (std::uint32_t n = 0; n < p_.nodes; ++n) thermodynamics(n);
    // Exchange A's data is ready on the producer once its thermo task is done.
    each_link([&](std::uint32_t m, std::uint32_t n, int) {
      barrier_record(GenKind::arrive, m, b_.launcher(thermo_of_[m]), barrier(0, m, n), stage, 1, thermo_of_[m]);
    });
    for (std::uint32_t n = 0; n < p_.nodes; ++n) gradients_and_fluxes(n, stage);
    // Exchange B's data is ready once the producer's momentum/energy flux of that direction is done.
    each_link([&](std::uint32_t m, std::uint32_t n, int dir) {
      const std::uint32_t flux = flux_of_[m][dir][0];
      barrier_record(GenKind::arrive, m, b_.launcher(flux), barrier(1, m, n), stage, 1, flux);
    });
    for (std::uint32_t n = 0; n < p_.nodes; ++n) divergence_and_update(n, stage);
    if (stage % 6 == 5) step_end_[step].assign(last_.begin(), last_.end());
  }

  // The drivers wait for the last steps, and are busy a few microseconds per operation they issue.
  void finish() {
    for (std::uint32_t step = o_.steps >= 2 ? o_.steps - 2 : 0; step < o_.steps; ++step)
      for (std::uint32_t n = 0; n < p_.nodes; ++n)
        p_.waits.push_back({b_.driver_[n], step_end_[step][n], static_cast<std::uint32_t>(p_.ops.size())});
    std::stable_sort(p_.waits.begin(), p_.waits.end(), [](const GenWait& a, const GenWait& w) { return a.task < w.task; });
    std::vector<std::int64_t> issued(p_.nodes, 0);
    for (const GenOp& op : p_.ops)
      if (op.issuer != kNoOp && op.issuer < p_.nodes) ++issued[op.issuer];
    for (std::uint32_t n = 0; n < p_.nodes; ++n) p_.ops[b_.driver_[n]].busy_us = 10 + 2 * issued[n];
  }

 private:
  static constexpr std::uint8_t kFramebuffer = 5, kSystem = 1;

  // The consumer frees the previous stage's ghosts: it arrives after its last rk_update, or, in the first stage,
  // lowers the count by one.
  void free_previous_ghosts(std::uint32_t stage) {
    each_link([&](std::uint32_t m, std::uint32_t n, int) {
      for (int x = 0; x < 2; ++x) {
        const std::uint32_t bar = barrier(x, m, n);
        if (stage == 0)
          barrier_record(GenKind::alter, n, b_.driver_[n], bar, stage, -1, kNoOp);
        else
          barrier_record(GenKind::arrive, n, b_.launcher(static_cast<std::uint32_t>(last_[n])), bar, stage, 1,
                         static_cast<std::uint32_t>(last_[n]));
        phase(bar, stage);
      }
    });
  }

  // primitives -> temperature -> thermo -> the four transport tasks.
  void thermodynamics(std::uint32_t n) {
    std::vector<std::uint32_t> start;
    if (last_[n] >= 0) start.push_back(static_cast<std::uint32_t>(last_[n]));
    auto pr = b_.task(n, prim, false, start);
    auto te = b_.task(n, temp, false, {pr});
    thermo_of_[n] = b_.task(n, thermo, false, {te});
    for (int k = 0; k < 4; ++k) transport_[n][k] = b_.task(n, static_cast<Kind>(visc + k), false, {thermo_of_[n]});
  }

  // Gradients: per direction, u/v/w/T batches and species batches, each after two ghost copies (exchange A); then
  // the fluxes.
  void gradients_and_fluxes(std::uint32_t n, std::uint32_t stage) {
    const std::uint8_t fb = kFramebuffer, sys = kSystem;
    std::vector<std::uint32_t> y_down(species_batches_), d_down(species_batches_);
    if (mixed_)  // species mass fractions and diffusion coefficients go to the host for the CPU tasks
      for (std::uint32_t i = 0; i < species_batches_; ++i) {
        y_down[i] = b_.copy(n, n, fb, sys, batch_bytes_, thermo_of_[n]);
        d_down[i] = b_.copy(n, n, fb, sys, batch_bytes_, transport_[n][2]);
      }
    flux_of_[n] = {};
    for (int dir = 0; dir < 3; ++dir) {
      auto nb = neighbours(n, dir);
      std::vector<std::uint32_t> uvwt, species_grad;
      for (std::uint32_t i = 0; i < field_batches_; ++i) {
        const bool is_species = i >= uvwt_batches_;
        const bool cpu = mixed_ && is_species;
        std::vector<std::uint32_t> in{cpu ? y_down[i - uvwt_batches_] : thermo_of_[n]};
        for (auto m : nb) in.push_back(b_.copy(m, n, cpu ? sys : fb, cpu ? sys : fb, ghost_bytes_, phase(barrier(0, m, n), stage)));
        (is_species ? species_grad : uvwt).push_back(b_.task(n, is_species ? grad_species : grad_uvwt, cpu, in));
      }
      std::vector<std::uint32_t> me_in = uvwt;
      me_in.push_back(transport_[n][0]);
      me_in.push_back(transport_[n][1]);
      flux_of_[n][dir].push_back(b_.task(n, flux_me, false, me_in));
      for (std::uint32_t i = 0; i < species_batches_; ++i) {
        std::uint32_t f = b_.task(n, flux_species, mixed_, {species_grad[i], mixed_ ? d_down[i] : transport_[n][2]});
        if (mixed_) f = b_.copy(n, n, sys, fb, batch_bytes_, f);  // the species fluxes go back to the GPU
        flux_of_[n][dir].push_back(f);
      }
    }
  }

  // Divergence: per direction and batch, after the fluxes and two ghost copies of them (exchange B); then the sums
  // and the update.
  void divergence_and_update(std::uint32_t n, std::uint32_t stage) {
    std::vector<std::uint32_t> div;
    for (int dir = 0; dir < 3; ++dir) {
      auto nb = neighbours(n, dir);
      for (std::uint32_t i = 0; i < field_batches_; ++i) {
        std::vector<std::uint32_t> in{flux_of_[n][dir][std::min<std::size_t>(i < uvwt_batches_ ? 0 : i - uvwt_batches_ + 1,
                                                                             flux_of_[n][dir].size() - 1)]};
        for (auto m : nb)
          in.push_back(b_.copy(m, n, kFramebuffer, kFramebuffer, ghost_bytes_, phase(barrier(1, m, n), stage)));
        div.push_back(b_.task(n, divergence, false, in));
      }
    }
    div.push_back(transport_[n][3]);  // chemistry joins at the sum
    auto s1 = b_.task(n, rhs_sum, false, div);
    auto s2 = b_.task(n, rhs_sum, false, {s1});
    last_[n] = b_.task(n, rk_update, false, {s2});
  }

  std::array<std::uint32_t, 3> coords(std::uint32_t n) const {
    return {n % grid_[0], (n / grid_[0]) % grid_[1], n / grid_[0] / grid_[1]};
  }
  std::vector<std::uint32_t> neighbours(std::uint32_t n, int dir) const {
    std::vector<std::uint32_t> out;
    const auto c = coords(n);
    for (int side : {-1, 1}) {
      auto d = c;
      const int v = static_cast<int>(d[dir]) + side;
      if (v < 0 || v >= static_cast<int>(grid_[dir])) continue;  // no neighbour beyond the domain's boundary
      d[dir] = static_cast<std::uint32_t>(v);
      out.push_back(d[0] + grid_[0] * (d[1] + grid_[1] * d[2]));
    }
    return out;
  }
  // Every neighbour pair, both ways, for both exchanges.
  template <class Visit>
  void each_link(Visit&& visit) const {
    for (std::uint32_t n = 0; n < p_.nodes; ++n)
      for (int dir = 0; dir < 3; ++dir)
        for (auto m : neighbours(n, dir)) visit(m, n, dir);
  }

  // Phase barriers of the ghost exchanges: one per (exchange, from, to), owned by the consumer; the producer and
  // the consumer arrive.
  std::uint32_t barrier(int exchange, std::uint32_t from, std::uint32_t to) {
    auto [it, fresh] = barrier_of_.try_emplace({exchange, from, to}, static_cast<std::uint32_t>(p_.barriers.size()));
    if (fresh) p_.barriers.push_back({to, 2});
    return it->second;
  }
  // The barrier's phase of `stage` (its generation stage + 1), after the phase before it.
  std::uint32_t phase(std::uint32_t bar, std::uint32_t stage) {
    auto it = phase_op_.find({bar, stage});
    if (it != phase_op_.end()) return it->second;
    GenOp ph;
    ph.kind = GenKind::phase;
    ph.node = p_.barriers[bar].node;
    ph.barrier = bar;
    ph.generation = stage + 1;
    if (stage > 0) ph.inputs = {phase_op_.at({bar, stage - 1})};
    const std::uint32_t op = b_.add(std::move(ph));
    phase_op_[{bar, stage}] = op;
    return op;
  }
  void barrier_record(GenKind kind, std::uint32_t node, std::uint32_t issuer, std::uint32_t bar, std::uint32_t stage,
                      std::int32_t amount, std::uint32_t input) {
    GenOp r;
    r.kind = kind;
    r.node = node;
    r.issuer = issuer;
    r.barrier = bar;
    r.generation = stage + 1;
    r.amount = amount;
    if (input != kNoOp) r.inputs = {input};
    b_.add(std::move(r));
  }

  const S3dOptions& o_;
  Program& p_;
  Builder& b_;
  bool mixed_;
  std::uint32_t field_batches_ = 0, species_batches_ = 0, uvwt_batches_ = 0;
  std::uint64_t ghost_bytes_ = 0, batch_bytes_ = 0;
  std::array<std::uint32_t, 3> grid_;
  std::map<std::tuple<int, std::uint32_t, std::uint32_t>, std::uint32_t> barrier_of_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> phase_op_;  // (barrier, stage) -> op
  std::vector<std::int64_t> last_;                     // each node's rk_update of the previous stage
  std::vector<std::vector<std::uint32_t>> step_end_;   // per step, each node's last rk_update
  std::vector<std::uint32_t> thermo_of_;               // this stage, per node
  std::vector<std::array<std::uint32_t, 4>> transport_;
  std::vector<std::array<std::vector<std::uint32_t>, 3>> flux_of_;
};

}  // namespace

Program make_s3d(const S3dOptions& o) {
  if (o.mechanism != "dme" && o.mechanism != "heptane") throw std::invalid_argument("mechanism must be dme or heptane");
  if (o.mapping != "all" && o.mapping != "mixed") throw std::invalid_argument("mapping must be all or mixed");
  if (o.points != 48 && o.points != 64) throw std::invalid_argument("points must be 48 or 64");
  if (!(o.cpu_speed > 0) || !std::isfinite(o.cpu_speed)) throw std::invalid_argument("cpu_speed must be positive");
  Program p;
  p.generator = "s3d";
  p.seed = o.seed;
  p.nodes = std::max(1u, o.nodes);
  const bool mixed = o.mapping == "mixed";
  p.cpus_per_node = mixed ? 12 : 2;  // 12 CPU processors for mixed, 1-2 for all (docs/s3d.md, Mappings)
  p.drivers_per_node = 1;
  p.gpus_per_node = 1;
  p.utility_per_node = std::max(1u, o.utility);
  p.function_names = {{kDriverFunction, "driver"}, {kMetaFunction, "meta_task"}};
  for (std::uint32_t k = 0; k < kKinds; ++k) p.function_names[kFirstKindFunction + k] = kKindNames[k];
  p.parameters = {{"mechanism", o.mechanism}, {"mapping", o.mapping}, {"steps", o.steps}, {"points", o.points}};
  // Written only when not the default, so that the default's truth.json keeps its bytes.
  if (p.utility_per_node != 2) p.parameters.emplace_back("utility", std::int64_t{p.utility_per_node});
  if (o.cpu_speed != 1.0) {
    char speed[32];
    std::snprintf(speed, sizeof speed, "%g", o.cpu_speed);
    p.parameters.emplace_back("cpu_speed", std::string(speed));
  }
  if (o.host_copy_bytes) p.parameters.emplace_back("host_copy_bytes", static_cast<std::int64_t>(o.host_copy_bytes));
  for (std::uint32_t n = 0; n < p.nodes; ++n) {
    std::uint32_t index = 0;
    for (std::uint32_t c = 0; c < p.cpus_per_node + p.drivers_per_node; ++c) p.processors.push_back({n, index++, GenProcKind::cpu});
    p.processors.push_back({n, index++, GenProcKind::gpu});
    for (std::uint32_t u = 0; u < p.utility_per_node; ++u) p.processors.push_back({n, index++, GenProcKind::utility});
  }
  // About 1,600 ops per node and stage for heptane mixed (fewer for DME or all): reserved so the ops
  // are not moved as the program grows.
  platform::reserve_on_huge_pages(p.ops, std::size_t{p.nodes} * o.steps * 6 * (mixed ? 1700 : 1300) + p.nodes);
  Builder b(o, p);
  b.next_cpu_.assign(p.nodes, 0);
  b.next_utility_.assign(p.nodes, 0);
  Stages stages(o, p, b);
  stages.add_drivers();
  for (std::uint32_t stage = 0; stage < o.steps * 6; ++stage) stages.add_stage(stage);
  stages.finish();
  return p;
}

}  // namespace rr::gen
