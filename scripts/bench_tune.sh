#!/usr/bin/env bash
# The speed of `realm-replay tune` (docs/performance.md, Tuning): candidates replayed per second by its search, median
# of 3 repeats of at least SECONDS each (default 3), on every bundled Legion Prof log on its traced machine, and on
# the 32-node 12-step S3D trace (`gen s3d --nodes 32 --steps 12`, packed) on Titan; -j THREADS (default: every
# core). The trace is read and the machine fitted once, outside the timing. usage:
# scripts/bench_tune.sh [SCRATCH_DIR] [SECONDS] [THREADS]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/rr-bench-tune}
seconds=${2:-3}
threads=${3:-0}

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DRR_BUILD_BENCHMARKS=ON >/dev/null
cmake --build build --parallel 2 --target bench_tune realm-replay >/dev/null
mkdir -p "$dir"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for trace in data/traces/legion-prof/*/; do
  build/tests/perf/bench_tune --machine traced --threads "$threads" --seconds "$seconds" --repeat 3 "$trace"
done
s3d=$dir/s3d32x12
if [ ! -f "$s3d.rrg" ]; then
  build/apps/realm-replay gen s3d --nodes 32 --steps 12 -o "$s3d" >/dev/null
  build/apps/realm-replay pack -q "$s3d" -o "$s3d.rrg"
  rm -rf "$s3d"
fi
echo "input: $(stat -c %s "$s3d.rrg") bytes packed"
build/tests/perf/bench_tune --machine data/machines/titan.toml --threads "$threads" --seconds "$seconds" --repeat 3 "$s3d.rrg"
