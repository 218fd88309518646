#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan+UBSan) and fuzzes the line parser for N seconds (default 60),
# seeded with the lines of the bundled real traces.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}

scripts/install_deps.sh
command -v clang++ >/dev/null || { apt-get install -y -qq clang libclang-rt-14-dev >/dev/null; }
CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRR_BUILD_FUZZERS=ON \
  -DRR_BUILD_TESTS=ON -DRR_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-fuzz --target fuzz_line_parser

corpus=build-fuzz/corpus
mkdir -p "$corpus"
if [ -z "$(ls -A "$corpus")" ]; then
  # One seed file per record kind and per kind of skipped line, taken from the real traces.
  for f in data/traces/real/*/node_*.log.zst; do zstd -dc "$f"; done | awk '
    { key = $0; sub(/^\[[^]]*\] \{[0-9]\}\{graph\}: /, "", key); sub(/:.*/, "", key); sub(/ [0-9a-f(].*/, "", key)
      if (seen[key]++ < 3) { n++; print > ("'"$corpus"'/seed_" n) } }'
fi
build-fuzz/tests/fuzz/fuzz_line_parser -max_total_time="$seconds" -max_len=4096 "$corpus"
