#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan+UBSan) and fuzzes each for N seconds (default 60): the line
# parser, seeded with the lines of the bundled real traces, and the Legion Prof reader, seeded with the start
# of the bundled Legion Prof logs (decompressed). usage: scripts/fuzz.sh [SECONDS] [line|prof|all]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
which=${2:-all}
case "$which" in line|prof|all) ;; *) echo "usage: scripts/fuzz.sh [SECONDS] [line|prof|all]" >&2; exit 2;; esac

scripts/install_deps.sh
command -v clang++ >/dev/null || { apt-get install -y -qq clang libclang-rt-14-dev >/dev/null; }
CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRR_BUILD_FUZZERS=ON \
  -DRR_BUILD_TESTS=ON -DRR_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-fuzz --parallel 2 --target fuzz_line_parser fuzz_prof_reader

if [ "$which" != prof ]; then
  corpus=build-fuzz/corpus
  mkdir -p "$corpus"
  if [ -z "$(ls -A "$corpus")" ]; then
    # One seed file per record kind and per kind of skipped line, taken from the real traces.
    for f in data/traces/real/*/node_*.log.zst; do zstd -dc "$f"; done | awk '
      { key = $0; sub(/^\[[^]]*\] \{[0-9]\}\{graph\}: /, "", key); sub(/:.*/, "", key); sub(/ [0-9a-f(].*/, "", key)
        if (seen[key]++ < 3) { n++; print > ("'"$corpus"'/seed_" n) } }'
  fi
  build-fuzz/tests/fuzz/fuzz_line_parser -max_total_time="$seconds" -max_len=4096 "$corpus"
fi
if [ "$which" != line ]; then
  corpus=build-fuzz/corpus-prof
  mkdir -p "$corpus"
  if [ -z "$(ls -A "$corpus")" ]; then
    # The header and the first records of each sample log: mutations then reach the record decoder.
    n=0
    for f in data/traces/legion-prof/*/prof_*.gz; do
      n=$((n + 1))
      gzip -dc "$f" | head -c 12000 > "$corpus/seed_$n" || true
    done
  fi
  build-fuzz/tests/fuzz/fuzz_prof_reader -max_total_time="$seconds" -max_len=32768 "$corpus"
fi
