#!/usr/bin/env bash
# Legion Prof reader benchmark: builds a large log once (a sample run's header, then its records again and again
# up to SIZE_MB, default 512), plain and gzip (level 6, as Legion's zlib writes), then reads each on one thread,
# median of 3 runs: MB/s of decompressed and of stored bytes. `gzip -dc` of the same file is the floor of the
# gzip case. usage: scripts/bench_prof.sh [SCRATCH_DIR] [SIZE_MB]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/rr-bench-prof}
size=${2:-512}
sample=data/traces/legion-prof/circuit_medium_cpu2_util1/prof_0.gz

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DRR_BUILD_BENCHMARKS=ON >/dev/null
cmake --build build --parallel 2 --target bench_prof_reader >/dev/null
mkdir -p "$dir"
plain=$dir/prof_${size}MB.log
[ -f "$plain" ] || build/tests/perf/bench_prof_reader --make-input "$size" "$plain" "$sample"
[ -f "$plain.gz" ] || gzip -6 -c "$plain" > "$plain.gz"

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "input: $(stat -c %s "$plain") bytes decompressed; gzip: $(stat -c %s "$plain.gz") bytes"
cat "$plain" "$plain.gz" > /dev/null  # warm the page cache

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
floor=$(for i in 1 2 3; do /usr/bin/time -f %e gzip -dc "$plain.gz" 2>&1 >/dev/null | tail -1; done | median)
echo "gzip -dc (floor of the gzip case): median ${floor} s"
build/tests/perf/bench_prof_reader --repeat 3 "$plain" "$plain.gz"
