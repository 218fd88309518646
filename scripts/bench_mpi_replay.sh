#!/usr/bin/env bash
# One replay over MPI ranks (docs/scale.md, "One replay over MPI ranks"): the wall time of the whole run and each
# rank's own wall time and peak resident set, at 1, 2 and 4 ranks (or those given), on one S3D trace it generates
# (heptane, mixed mapping), on Titan, without what-ifs. Each run's report is checked against one process's; with
# --timeline, each run (one process's too) also writes the timeline, checked byte for byte against one process's.
# Not run in CI: the ranks share this machine's cores, and a large trace takes minutes.
# usage: scripts/bench_mpi_replay.sh [--timeline] [NODES STEPS [SCRATCH_DIR [RANKS...]]]    (default 32 2)
set -euo pipefail
cd "$(dirname "$0")/.."
with_timeline=false
if [ "${1:-}" = --timeline ]; then
  shift
  with_timeline=true
fi
nodes=${1:-32} steps=${2:-2} dir=${3:-/tmp/rr-mpi-replay}
shift $(( $# < 3 ? $# : 3 ))
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(1 2 4)
mkdir -p "$dir"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target realm-replay realm-replay-mpi >/dev/null
rr=$PWD/build/apps/realm-replay mpi=$PWD/build/apps/realm-replay-mpi machine=$PWD/data/machines/titan.toml
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
  OMPI_MCA_hwloc_base_binding_policy=none

trace=$dir/s3d${nodes}x${steps}
[ -d "$trace" ] || "$rr" gen s3d --nodes "$nodes" --steps "$steps" --mechanism heptane --strategy mixed -o "$trace" >/dev/null
one_timeline=() mpi_timeline=()
if $with_timeline; then one_timeline=(--timeline "$dir/one.json") mpi_timeline=(--timeline "$dir/mpi.json"); fi
/usr/bin/time -f "one process: %e s, peak %M KiB" "$rr" replay -q "$trace" -m "$machine" --no-what-ifs \
  "${one_timeline[@]}" > "$dir/one.txt"
for r in "${ranks[@]}"; do
  rm -f "$dir"/rank_*
  start=$(date +%s.%N)
  # Each rank under /usr/bin/time, which writes to a file of its rank (Open MPI names it in the environment).
  mpirun -np "$r" sh -c '/usr/bin/time -o "$0/rank_$OMPI_COMM_WORLD_RANK" -f "%e s, peak %M KiB" "$@"' "$dir" \
    "$mpi" replay -q "$trace" -m "$machine" --no-what-ifs "${mpi_timeline[@]}" > "$dir/mpi.txt"
  end=$(date +%s.%N)
  cmp -s "$dir/one.txt" "$dir/mpi.txt" || { echo "$r ranks: the report differs from one process's"; exit 1; }
  ! $with_timeline || cmp -s "$dir/one.json" "$dir/mpi.json" ||
    { echo "$r ranks: the timeline differs from one process's"; exit 1; }
  printf '%d rank(s): %.2f s in all;' "$r" "$(awk "BEGIN { print $end - $start }")"
  for i in $(seq 0 $((r - 1))); do printf ' rank %d %s;' "$i" "$(tail -1 "$dir/rank_$i")"; done
  echo
done
