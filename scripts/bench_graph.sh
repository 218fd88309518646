#!/usr/bin/env bash
# Graph build benchmark (issue: >= 5 M records/s with 2 threads, peak parse + graph <= 80 bytes/record):
# generates the 32-node S3D trace (heptane, mixed mapping) once, then reads it and builds the event graph
# as the CLI does, 1 and 2 threads, median of 3 builds each, peak memory of the first; then the same with
# the records kept for the whole build (--keep-records), for comparison.
# usage: scripts/bench_graph.sh [SCRATCH_DIR] [STEPS]   (12 steps: 7.6 M records; 16: 10.1 M)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/rr-bench}
steps=${2:-12}
trace="$dir/s3d32_heptane_mixed_${steps}steps"

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DRR_BUILD_BENCHMARKS=ON >/dev/null
cmake --build build --target realm-replay bench_read_trace >/dev/null
if [ ! -f "$trace/node_31.log" ]; then
  mkdir -p "$dir"
  build/apps/realm-replay gen s3d --nodes 32 --mechanism heptane --strategy mixed --steps "$steps" -o "$trace" >/dev/null
  rm -f "$trace/truth.json"  # only the logs are read
fi

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB"
echo "input: $trace, $(du -sb "$trace" | cut -f1) bytes of text"
cat "$trace"/node_*.log > /dev/null  # warm the page cache
for threads in 1 2; do
  printf '%s threads: ' "$threads"
  build/tests/perf/bench_read_trace --threads "$threads" --repeat 3 --graph "$trace" | tail -1
done
printf '2 threads, records kept: '
build/tests/perf/bench_read_trace --threads 2 --repeat 3 --graph --keep-records "$trace" | tail -1
