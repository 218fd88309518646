#!/usr/bin/env bash
# Legion Prof traces on the command line: `stats` counts every record type as the independent decoder does
# (its oracle, for all sample runs), and every command that needs the event graph refuses them clearly.
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
for cmd in "replay -m $titan" "critpath -m $titan" "profile -m $titan" "validate --json" "graph --json" \
           "sweep -m $titan --vary processors.cpu.speed=1,2" "compare -m $titan"; do
  # shellcheck disable=SC2086
  out=$("$bin" ${cmd%% *} "$trace" ${cmd#* } 2>&1 >/dev/null); rc=$?
  if [ "$rc" != 1 ] || ! grep -q "Legion Prof logs: the event graph of this format is not built yet" <<<"$out"; then
    echo "FAIL ($rc): ${cmd%% *} on a Legion Prof trace"; echo "$out"; fail=1
  else
    echo "ok: ${cmd%% *} refuses a Legion Prof trace"
  fi
done
exit $fail
