#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan+UBSan) and fuzzes each for N seconds (default 60): the line
# parser, seeded with the lines of the bundled real traces; the Legion Prof reader, seeded with the start of the
# bundled Legion Prof logs (decompressed); machine files (TOML, then --set overrides after a "--set" line),
# seeded with the bundled machines; and the whole pipeline (a small multi-file trace -> graph -> traced machine
# -> replay -> critical path, 10 s per input at most), seeded with small generated traces and the start of the
# real ones; and packed traces (.rrg, checksums repaired for half the inputs), seeded with small packed traces.
# usage: scripts/fuzz.sh [SECONDS] [line|prof|machine|pipeline|packed|text|all]
# Extra arguments after the target go to libFuzzer (e.g. -runs=10000000 -jobs=2). RR_FUZZ_SANITIZERS=undefined
# builds without AddressSanitizer (in build-fuzz-ubsan): several times more inputs per second.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
which=${2:-all}
case "$which" in line|prof|machine|pipeline|packed|text|all) ;;
  *) echo "usage: scripts/fuzz.sh [SECONDS] [line|prof|machine|pipeline|packed|text|all] [libFuzzer options]" >&2; exit 2;; esac
shift $(( $# < 2 ? $# : 2 ))
extra=("$@")

scripts/install_deps.sh
command -v clang++ >/dev/null || { apt-get install -y -qq clang libclang-rt-14-dev >/dev/null; }
sanitizers=${RR_FUZZ_SANITIZERS:-address,undefined}
out=build-fuzz
[ "$sanitizers" = "address,undefined" ] || out=build-fuzz-${sanitizers//,/-}
CXX=clang++ cmake -S . -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRR_BUILD_FUZZERS=ON \
  -DRR_FUZZ_SANITIZERS="$sanitizers" -DRR_BUILD_TESTS=ON -DRR_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$out" --parallel 2 --target fuzz_line_parser fuzz_prof_reader fuzz_machine_file fuzz_pipeline fuzz_packed_trace fuzz_text_inputs realm-replay

# Writes a 2-node trace of each generator family into DIR/FAMILY; prints the families it wrote (seeds).
generate_small_traces() {
  for g in stencil fork-join chain random-dag s3d; do
    "$out"/apps/realm-replay gen "$g" --nodes 2 -o "$1/$g" >/dev/null 2>&1 && echo "$g"
  done
}

if [ "$which" = line ] || [ "$which" = all ]; then
  corpus="$out"/corpus
  mkdir -p "$corpus"
  if [ -z "$(ls -A "$corpus")" ]; then
    # One seed file per record kind and per kind of skipped line, taken from the real traces.
    for f in data/traces/real/*/node_*.log.zst; do zstd -dc "$f"; done | awk '
      { key = $0; sub(/^\[[^]]*\] \{[0-9]\}\{graph\}: /, "", key); sub(/:.*/, "", key); sub(/ [0-9a-f(].*/, "", key)
        if (seen[key]++ < 3) { n++; print > ("'"$corpus"'/seed_" n) } }'
  fi
  "$out"/tests/fuzz/fuzz_line_parser -max_total_time="$seconds" -max_len=4096 "${extra[@]}" "$corpus"
fi
if [ "$which" = prof ] || [ "$which" = all ]; then
  corpus="$out"/corpus-prof
  mkdir -p "$corpus"
  if [ -z "$(ls -A "$corpus")" ]; then
    # The header and the first records of each sample log: mutations then reach the record decoder.
    n=0
    for f in data/traces/legion-prof/*/prof_*.gz; do
      n=$((n + 1))
      gzip -dc "$f" | head -c 12000 > "$corpus/seed_$n" || true
    done
  fi
  "$out"/tests/fuzz/fuzz_prof_reader -max_total_time="$seconds" -max_len=32768 "${extra[@]}" "$corpus"
fi
if [ "$which" = machine ] || [ "$which" = all ]; then
  corpus="$out"/corpus-machine
  mkdir -p "$corpus"
  if [ -z "$(ls -A "$corpus")" ]; then
    for f in data/machines/*.toml; do cp "$f" "$corpus/$(basename "$f")"; done
    { cat data/machines/titan.toml; printf '\n--set\nprocessors.cpu.count=4\nnetwork.latency_ns=100\n'; } > "$corpus/titan_set"
  fi
  "$out"/tests/fuzz/fuzz_machine_file -max_total_time="$seconds" -max_len=8192 "${extra[@]}" "$corpus"
fi
if [ "$which" = pipeline ] || [ "$which" = all ]; then
  corpus="$out"/corpus-pipeline
  mkdir -p "$corpus"
  if [ -z "$(ls -A "$corpus")" ]; then
    # Small generated traces of each family (their files joined by form feeds) and the real traces' first lines.
    gen=$(mktemp -d)
    for g in $(generate_small_traces "$gen"); do
      for f in "$gen/$g"/node_*.log; do head -c 3000 "$f"; printf '\f'; done > "$corpus/gen_$g"
    done
    rm -rf "$gen"
    n=0
    for f in data/traces/real/*/node_*.log.zst; do n=$((n + 1)); zstd -dc "$f" | head -c 6000 > "$corpus/real_$n"; done
  fi
  # -entropic=0: libFuzzer's entropic scheduling spent two thirds of the time on this large target's coverage.
  "$out"/tests/fuzz/fuzz_pipeline -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=4096 -entropic=0 \
    "${extra[@]}" "$corpus"
fi
if [ "$which" = packed ] || [ "$which" = all ]; then
  # One corpus per format version: the seeds of another version stop at the version check.
  version=$(sed -n 's/.*kPackedTraceVersion = \([0-9]*\);.*/\1/p' packed/packed_trace.hpp)
  corpus="$out"/corpus-packed-v$version
  mkdir -p "$corpus"
  if [ -z "$(ls -A "$corpus")" ]; then
    # Small generated traces of each family, packed.
    gen=$(mktemp -d)
    for g in $(generate_small_traces "$gen"); do "$out"/apps/realm-replay pack -q "$gen/$g" -o "$corpus/$g.rrg" || true; done
    rm -rf "$gen"
  fi
  "$out"/tests/fuzz/fuzz_packed_trace -max_total_time="$seconds" -max_len=262144 -timeout=10 -rss_limit_mb=4096 \
    "${extra[@]}" "$corpus"
fi
if [ "$which" = text ] || [ "$which" = all ]; then
  corpus="$out"/corpus-text
  mkdir -p "$corpus"
  if [ -z "$(ls -A "$corpus")" ]; then
    # The first byte picks the input (0 mapping file, 1 runs TOML, 2 runs CSV, 3 --map, 4 --node-map, 5 --vary lines).
    { printf '\000'; printf 'placement = "pool"\nfold = 2\n[[move]]\nfunction = 7\nto = "gpu"\nfactor = 0.5\n'; } > "$corpus/mapping"
    { printf '\001'; cat data/traces/real/measured.toml; } > "$corpus/runs_toml"
    { printf '\002'; printf 'trace,measured_s,how\nfull_ghost_b2_cpu2,3.48,wall\n'; } > "$corpus/runs_csv"
    { printf '\003'; printf '18=gpu:0.0191'; } > "$corpus/move"
    { printf '\004'; printf 'block'; } > "$corpus/node_map"
    { printf '\005'; printf 'processors.cpu.speed=1,2,4\nnetwork.latency_ns=1000,10000'; } > "$corpus/grid"
  fi
  "$out"/tests/fuzz/fuzz_text_inputs -max_total_time="$seconds" -max_len=4096 "${extra[@]}" "$corpus"
fi
