// The S3D-like workload of docs/s3d.md: per node and Runge–Kutta stage, the task kinds
// and counts of the RHS evaluation, ghost exchanges with the neighbours of a 3-D decomposition, and for the
// mixed mapping the host-device copies around the CPU species tasks.
#pragma once

#include <cstdint>
#include <string>

#include "program.hpp"

namespace rr::gen {

struct S3dOptions {
  std::string mechanism = "dme";  // dme (30 species) or heptane (52)
  std::string mapping = "all";    // all (every RHS task on the GPU) or mixed (species stencils and fluxes on CPUs)
  std::uint32_t nodes = 2;
  std::uint32_t steps = 1;        // 6 RK stages each
  std::uint32_t points = 48;      // 48 or 64 per side per node
  std::uint64_t seed = 1;
  std::uint32_t utility = 2;      // utility processors per node (meta-tasks go round-robin over them)
  // Planted changes for studies (docs/generator.md): the CPU tasks of the mixed mapping run cpu_speed times as fast
  // (their busy time divided by it), and its device-host copies move host_copy_bytes each (0: the model's size).
  double cpu_speed = 1.0;
  std::uint64_t host_copy_bytes = 0;
};

Program make_s3d(const S3dOptions& options);

}  // namespace rr::gen
