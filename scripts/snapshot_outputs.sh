#!/usr/bin/env bash
# Writes what the replay commands print for the bundled traces and a few generated ones, under many option sets,
# into one folder: run it with the build before a change and after it, then `diff -r OLD NEW`. A change to the
# engine's speed must leave every file byte-identical (docs/performance.md).
# usage: scripts/snapshot_outputs.sh OUTDIR [REALM_REPLAY] [-jN]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/snapshot_outputs.sh OUTDIR [REALM_REPLAY] [-jN]}
rr=${2:-build/apps/realm-replay}
threads=${3:--j1}
mkdir -p "$out"
# Generated traces live in the build folder, so that every snapshot names the same inputs.
gen=build/snapshot-traces
mkdir -p "$gen"

# Generated traces, one per family, with their default seeds (same seed, same bytes).
[ -d "$gen/chain" ] || "$rr" gen chain --length 40 -o "$gen/chain" >/dev/null
[ -d "$gen/forkjoin" ] || "$rr" gen fork-join -o "$gen/forkjoin" >/dev/null
[ -d "$gen/stencil" ] || "$rr" gen stencil --dims 3 --nodes 8 --steps 6 -o "$gen/stencil" >/dev/null
[ -d "$gen/dag" ] || "$rr" gen random-dag --ops 4000 --nodes 4 -o "$gen/dag" >/dev/null
[ -d "$gen/s3d16" ] || "$rr" gen s3d --mechanism heptane --strategy mixed --nodes 16 --steps 1 -o "$gen/s3d16" >/dev/null

traces=(data/traces/real/full_circuit_2node_p4_cpu2 data/traces/real/full_ghost_b2_cpu2)
for t in data/traces/s3d/* data/traces/legion-prof/*/; do traces+=("${t%/}"); done
traces+=("$gen/chain" "$gen/forkjoin" "$gen/stencil" "$gen/dag" "$gen/s3d16")

M=data/machines
options=(
  "-m $M/titan.toml"
  "-m $M/modern_multigpu.toml"
  "-m traced"
  "-m $M/titan.toml --placement eft"
  "-m $M/titan.toml --placement traced"
  "-m $M/titan_fastgpu.toml --fold 1"
  "-m $M/titan.toml --unlogged-time instant --queue-order ready"
  "-m $M/titan.toml --set network.latency_ns=100 --set processors.cpu.speed=3"
  "-m $M/titan.toml --map 18=gpu:0.0191 --map 20=gpu:0.0153"
)

n=0
for t in "${traces[@]}"; do
  name=$(basename "$t")
  for i in "${!options[@]}"; do
    o=${options[$i]}
    base=$out/$name.$i
    # shellcheck disable=SC2086
    { "$rr" "$threads" replay "$t" -q $o --json --timeline "$base.timeline.json" || echo "exit $?"; } >"$base.replay.json" 2>&1
    # shellcheck disable=SC2086
    { "$rr" "$threads" critpath "$t" -q $o || echo "exit $?"; } >"$base.critpath.txt" 2>&1
    # shellcheck disable=SC2086
    { "$rr" "$threads" profile "$t" -q $o || echo "exit $?"; } >"$base.profile.txt" 2>&1
    n=$((n + 3))
  done
  # shellcheck disable=SC2086
  { "$rr" "$threads" replay "$t" -q -m $M/titan.toml --perturb 0.2 --samples 4 || echo "exit $?"; } >"$out/$name.perturb.txt" 2>&1
  rm -f "$out/$name.db"
  { "$rr" "$threads" export "$t" -q -m $M/titan.toml --sqlite "$out/$name.db" || echo "exit $?"; } >"$out/$name.export.txt" 2>&1
  if [ -f "$out/$name.db" ]; then
    python3 -c 'import sqlite3, sys
for line in sqlite3.connect(sys.argv[1]).iterdump(): print(line)' "$out/$name.db" >"$out/$name.sql"
    rm -f "$out/$name.db"
  fi
  n=$((n + 2))
done
echo "$n outputs of ${#traces[@]} traces in $out"
