#!/usr/bin/env bash
# Where the serial engine's time per operation goes as the trace widens (docs/performance.md, "The replay
# engine"): generates and packs S3D traces of about the same size on 4 and 32 nodes and the two of the
# performance issue (32 nodes x 12 steps, 128 nodes x 3 steps), then times the engine alone on each
# (`bench_replay --replay-only`, a median of 5). With --instructions it also counts, under callgrind, the
# instructions one engine run executes per operation on the two small traces (valgrind needed; ~5 minutes).
# usage: scripts/bench_engine_scaling.sh [--instructions] [SCRATCH_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
instructions=false
if [ "${1:-}" = "--instructions" ]; then
  instructions=true
  shift
fi
dir=${1:-/tmp/rr-engine-scaling}
mkdir -p "$dir"

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DRR_BUILD_BENCHMARKS=ON >/dev/null
cmake --build build --target realm-replay bench_replay >/dev/null
rr=build/apps/realm-replay
machine=data/machines/titan.toml

# nodes x steps; the first two have about the same number of operations (541 K and 599 K).
shapes=("4 16" "32 2" "32 12" "128 3")
for shape in "${shapes[@]}"; do
  read -r nodes steps <<<"$shape"
  name="s3d${nodes}x${steps}"
  if [ ! -f "$dir/$name.rrg" ]; then
    "$rr" gen s3d --nodes "$nodes" --steps "$steps" --mechanism heptane --strategy mixed -o "$dir/$name" >/dev/null
    "$rr" pack "$dir/$name" -o "$dir/$name.rrg" --no-fit >/dev/null
    rm -rf "${dir:?}/$name"
  fi
done

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB"
for shape in "${shapes[@]}"; do
  read -r nodes steps <<<"$shape"
  name="s3d${nodes}x${steps}"
  printf '%-10s ' "$name"
  build/tests/perf/bench_replay --machine "$machine" --replay-only --repeat 5 "$dir/$name.rrg" | grep '^engine:'
done

if $instructions; then
  command -v valgrind >/dev/null || { echo "--instructions needs valgrind" >&2; exit 1; }
  for name in s3d4x16 s3d32x2; do
    out="$dir/$name.callgrind"
    # Counted inside run_replay only (the engine with its set-up and summing up); bench_replay calls it twice
    # with --repeat 1 (replay_trace, then the engine alone). Its own output gives the operation count.
    ops=$(valgrind --tool=callgrind --toggle-collect='rr::replay::run_replay*' --callgrind-out-file="$out" \
      build/tests/perf/bench_replay --machine "$machine" --replay-only --repeat 1 "$dir/$name.rrg" 2>/dev/null |
      sed -n 's/^replay: \([0-9]*\) operations.*/\1/p')
    total=$(sed -n 's/^summary: *//p' "$out")
    printf '%-10s %d instructions per operation (run_replay, %s operations)\n' "$name" $((total / 2 / ops)) "$ops"
  done
fi
