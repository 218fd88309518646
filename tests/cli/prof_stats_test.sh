#!/usr/bin/env bash
# Legion Prof traces on the command line: `stats` counts every record type as the independent decoder does
# (its oracle, for all sample runs), and every command that reads a trace reads them.
set -uo pipefail
bin=$1 src=$2
fail=0
runs=$src/data/traces/legion-prof
for run in "$runs"/*/; do
  if ! "$bin" stats -q --json "$run" | python3 -c '
import json, sys
stats = json.load(sys.stdin)
oracle = json.load(open(sys.argv[1]))
ours = {k: v for k, v in stats["record_totals"].items() if v}
if ours != oracle["total"]:
    print("record totals differ from the oracle:", sorted(set(ours.items()) ^ set(oracle["total"].items())))
    sys.exit(1)
' "$run/decoder_counts.json"; then
    echo "FAIL: stats of $run"; fail=1
  else
    echo "ok: stats of $(basename "$run") equals the decoder's counts"
  fi
done
trace=$runs/ghost_n1024_b2_s10_cpu2_util1
titan=$src/data/machines/titan.toml
# Every command that reads a trace takes a Legion Prof trace like any other.
for cmd in "replay -m traced" "replay -m $titan" "critpath -m traced" "profile -m traced" "validate --json" "graph --json" \
           "sweep -m traced --vary processors.cpu.speed=1,2" "compare -m traced" "machine-from-trace -q"; do
  name=${cmd%% *}; args=${cmd#* }
  [ "$name" = machine-from-trace ] && name="machine from-trace"
  # shellcheck disable=SC2086
  out=$("$bin" $name "$trace" $args 2>&1 >/dev/null); rc=$?
  if [ "$rc" != 0 ]; then
    echo "FAIL ($rc): ${cmd} on a Legion Prof trace"; echo "$out"; fail=1
  else
    echo "ok: $name reads a Legion Prof trace"
  fi
done
exit $fail
