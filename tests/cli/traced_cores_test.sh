#!/usr/bin/env bash
# Cores and work from spans on the real runs of one app at five processor and core counts
# (data/traces/legion-prof-configs): each run, replayed on its traced machine with the cores it had
# (--traced-cores), reproduces its observed makespan within 10% (all but one within 4%); the traced machine says those cores; asking for the
# traced counts and cores reproduces the traced replay byte for byte; a packed trace keeps its cores and refuses
# others; more cores than threads change nothing, one core slows a run down.
set -uo pipefail
bin=$1 src=$2
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
configs="$src/data/traces/legion-prof-configs"
for run in "$configs"/*/; do
  name=$(basename "$run")
  cores=$(sed -n 's/^cores_used: \([0-9]*\) of.*/\1/p' "$run/meta.txt")
  [ -n "$cores" ] || { echo "FAIL: $name: no cores_used in meta.txt"; fail=1; continue; }
  "$bin" replay "$run" -m traced --traced-cores "$cores" --against-observed --json -q -o "$tmp/r.json" ||
    { echo "FAIL: replay of $name"; fail=1; continue; }
  python3 - "$tmp/r.json" "$name" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
e = r["against_observed"]["error"]
if abs(e) > 0.10 or r["stuck"]:
    sys.exit(f"FAIL: {sys.argv[2]}: error {e:+.3f} (bar 10%), stuck {r['stuck']}")
PY
  "$bin" machine from-trace "$run" --traced-cores "$cores" -q -o "$tmp/m.toml" || { echo "FAIL: from-trace $name"; fail=1; }
  grep -q "^cores = $cores " "$tmp/m.toml" || { echo "FAIL: $name: the traced machine does not say cores = $cores"; fail=1; }
done

# The traced counts and cores asked for explicitly: the traced replay, byte for byte (but for the settings named).
run="$configs/circuit_small_cpu2_util1_2cores"
# The context and the what-ifs' commands name the options given, which differ; the rest must not.
without_context() { python3 -c 'import json,sys; d=json.load(sys.stdin); d.pop("context"); [b.pop("command") for b in d["bounded_by"]]; print(json.dumps(d, indent=1))'; }
"$bin" replay "$run" -m traced --traced-cores 2 --json -q | without_context > "$tmp/traced.json"
"$bin" replay "$run" -m traced --traced-cores 2 --set node.cores=2 --set processors.cpu.count=2 \
  --set processors.utility.count=1 --json -q | without_context > "$tmp/asked.json"
cmp -s "$tmp/traced.json" "$tmp/asked.json" || { echo "FAIL: asking for the traced counts changed the replay"; diff "$tmp/traced.json" "$tmp/asked.json" | head; fail=1; }

# More cores than threads change nothing; one core for the same work is slower.
est() { "$bin" replay "$run" -m traced --traced-cores 2 "$@" --json -q | python3 -c 'import json,sys; print(json.load(sys.stdin)["estimated_time_ns"])'; }
many=$(est --set node.cores=64); none=$(est --set node.cores=0); one=$(est --set node.cores=1)
[ "$many" = "$none" ] || { echo "FAIL: 64 cores ($many) differ from a core per thread ($none)"; fail=1; }
[ "$one" -gt "$many" ] || { echo "FAIL: one core ($one) is not slower than 64 ($many)"; fail=1; }

# A packed trace keeps the cores it was read with, and the work its spans became.
"$bin" pack "$run" --traced-cores 2 -q -o "$tmp/p.rrg" || { echo "FAIL: pack"; fail=1; }
packed=$("$bin" replay "$tmp/p.rrg" -m traced --json -q | python3 -c 'import json,sys; print(json.load(sys.stdin)["estimated_time_ns"])')
[ "$packed" = "$(est)" ] || { echo "FAIL: the packed trace replays $packed, the logs $(est)"; fail=1; }
if "$bin" replay "$tmp/p.rrg" -m traced --traced-cores 1 -q > /dev/null 2> "$tmp/err"; then
  echo "FAIL: a packed trace read with other cores"; fail=1
elif ! grep -q "packed with --traced-cores 2.*pack the logs again with --traced-cores 1" "$tmp/err"; then
  echo "FAIL: unclear error:"; cat "$tmp/err"; fail=1
fi
# The program's own thread is its own kind: listed in the mapping, not a CPU, and no --map target.
"$bin" replay "$run" -m traced -q > "$tmp/text.txt" || fail=1
grep -q "traced node 0 CPU: 2 processor(s)" "$tmp/text.txt" || { echo "FAIL: -ll:cpu 2 is not 2 CPUs"; fail=1; }
grep -q "traced node 0 external: 1 processor(s)" "$tmp/text.txt" || { echo "FAIL: no external processor listed"; fail=1; }
if "$bin" replay "$run" -m traced --map 1=external -q > /dev/null 2> "$tmp/err"; then
  echo "FAIL: --map accepted the external kind"; fail=1
fi
[ $fail -eq 0 ] && echo "traced cores: all checks passed"
exit $fail
