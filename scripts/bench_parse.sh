#!/usr/bin/env bash
# Parser benchmark: generates a >= 1 GB S3D-like 4-node trace with `gen` (plain and zstd) once, then measures
# `wc -l` (the floor), reading with 1 and 2 threads, plain and zstd, and the graph build; median of 3 runs.
# usage: scripts/bench_parse.sh [SCRATCH_DIR] [SIZE_MB]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/rr-bench}
size=${2:-1100}

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DRR_BUILD_BENCHMARKS=ON >/dev/null
cmake --build build --target realm-replay bench_read_trace bench_line_parser >/dev/null
if [ ! -f "$dir/plain/node_3.log" ]; then
  # A 4-node S3D trace of about SIZE_MB: one step's size, measured, sets the step count. Some Task Requests print
  # "(nil)" args and some merge inputs "(id, gen)", as real logs do.
  mkdir -p "$dir"
  rm -rf "$dir/probe"
  build/apps/realm-replay gen s3d --nodes 4 --steps 1 -o "$dir/probe" >/dev/null
  step_bytes=$(cat "$dir"/probe/node_*.log | wc -c)
  steps=$(( (size * 1048576 + step_bytes - 1) / step_bytes ))
  rm -rf "$dir/probe"
  build/apps/realm-replay gen s3d --nodes 4 --steps "$steps" --nil-args 0.3 --spaced-preconditions 0.05 \
    -o "$dir/plain" > "$dir/counts.txt"
  rm -f "$dir/plain/truth.json" "$dir/plain/machine.toml" "$dir/plain/names.toml"  # only the logs are read
fi
if [ ! -f "$dir/zstd/node_3.log.zst" ]; then
  mkdir -p "$dir/zstd"
  for f in "$dir"/plain/node_*.log; do zstd -q -T2 -3 -f "$f" -o "$dir/zstd/$(basename "$f").zst"; done
fi

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB"
echo "input: $(cat "$dir"/plain/node_*.log | wc -c) bytes of text in 4 files; zstd: $(cat "$dir"/zstd/node_*.zst | wc -c) bytes"
cat "$dir"/plain/node_*.log > /dev/null  # warm the page cache

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
wc_times=$(for i in 1 2 3; do /usr/bin/time -f %e wc -l "$dir"/plain/node_*.log 2>&1 >/dev/null | tail -1; done | median)
echo "wc -l (floor): median ${wc_times} s"
for input in plain zstd; do
  for threads in 1 2; do
    printf '%-6s %s threads: ' "$input" "$threads"
    build/tests/perf/bench_read_trace --threads "$threads" --repeat 3 "$dir/$input"
  done
done
printf 'graph build (2 threads): '
build/tests/perf/bench_read_trace --threads 2 --repeat 1 --graph "$dir/plain" | tail -1
