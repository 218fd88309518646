#!/usr/bin/env bash
# One rank's part of a packed trace read alone (docs/packed-trace.md, "Reading one rank's part"): packs a generated
# S3D trace (heptane, mixed mapping) and times reading one rank's part of four against reading the whole graph, with
# the pages of the file each read (build/tests/perf/bench_packed_part; medians of 5, page cache dropped for this file
# before each cold read).
# usage: scripts/bench_packed_part.sh [NODES STEPS [SCRATCH_DIR [RANKS [RANK]]]]    (default 32 2, rank 0 of 4)
set -euo pipefail
cd "$(dirname "$0")/.."
nodes=${1:-32} steps=${2:-2} dir=${3:-/tmp/rr-packed-part} ranks=${4:-4} rank=${5:-0}
mkdir -p "$dir"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target realm-replay bench_packed_part >/dev/null
rr=$PWD/build/apps/realm-replay
trace=$dir/s3d${nodes}x${steps}
[ -d "$trace" ] || "$rr" gen s3d --nodes "$nodes" --steps "$steps" --mechanism heptane --strategy mixed -o "$trace" >/dev/null
[ -f "$trace.rrg" ] || "$rr" pack -q --no-fit "$trace" -o "$trace.rrg"
echo "input: $(du -sb "$trace" | cut -f1) bytes of logs, $(stat -c %s "$trace.rrg") bytes packed"
build/tests/perf/bench_packed_part --repeat 5 --ranks "$ranks" --rank "$rank" "$trace.rrg"
