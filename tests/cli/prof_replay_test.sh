#!/usr/bin/env bash
# Legion Prof sample runs replayed on their traced machine against the run they observed: the observed
# makespan equals the independent decoder's span (first start to last stop, data/.../decoder_span.json), the
# estimate is within 5% of it on one process and 15% on two (the issue's bar), nothing is stuck, and the
# report (but for its thread count) and the side-by-side timeline are byte-identical with 1 and 2 threads;
# validate leaves nothing unexplained on one process and notes a log made without the event graph; processors
# twice as fast give a clearly shorter estimate.
set -uo pipefail
bin=$1 src=$2
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for run in "$src"/data/traces/legion-prof/*/; do
  name=$(basename "$run")
  processes=$(ls "$run"prof_*.gz | wc -l)
  bound=0.05; [ "$processes" -gt 1 ] && bound=0.15
  for threads in 1 2; do
    if ! "$bin" replay "$run" -m traced --against-observed --json -q --threads $threads \
         --timeline "$tmp/timeline$threads.json" -o "$tmp/report$threads.json"; then
      echo "FAIL: replay of $name with $threads thread(s)"; fail=1; continue 2
    fi
  done
  # The context names the thread count; everything else must be the same.
  if ! cmp -s <(grep -v '"threads":' "$tmp/report1.json") <(grep -v '"threads":' "$tmp/report2.json") ||
     ! cmp -s "$tmp/timeline1.json" "$tmp/timeline2.json"; then
    echo "FAIL: $name: 1 and 2 threads differ"; fail=1
  fi
  if ! python3 - "$tmp/report1.json" "$run/decoder_span.json" "$bound" "$name" "$tmp/timeline1.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
oracle = json.load(open(sys.argv[2]))
bound, name = float(sys.argv[3]), sys.argv[4]
a = report["against_observed"]
problems = []
if a["observed_makespan_ns"] != oracle["observed_makespan_ns"]:
    problems.append(f"observed makespan {a['observed_makespan_ns']} != decoder's {oracle['observed_makespan_ns']}")
error = (report["estimated_time_ns"] - oracle["observed_makespan_ns"]) / oracle["observed_makespan_ns"]
if abs(error - a["error"]) > 1e-9:
    problems.append(f"reported error {a['error']} != {error}")
if abs(error) > bound:
    problems.append(f"estimate {report['estimated_time_ns']} is {error:+.1%} off the observed makespan (bound {bound:.0%})")
if report["stuck"]:
    problems.append(f"{report['stuck']} operation(s) stuck")
if a["operations"] + a["not_replayed"] == 0 or not a["by_kind"] or not a["by_function"]:
    problems.append("no operation compared")
timeline = json.load(open(sys.argv[5]))["traceEvents"]
sides = {("observed" if e["pid"] >= 1000000 else "replayed") for e in timeline if e.get("ph") == "X"}
if sides != {"observed", "replayed"}:
    problems.append(f"the timeline holds {sorted(sides)}, not the observed and the replayed runs")
for p in problems:
    print(f"FAIL: {name}: {p}")
if not problems:
    print(f"ok: {name}: estimate {error:+.1%} of the observed {a['observed_makespan_ns'] / 1e6:.3f} ms (bound {bound:.0%})")
sys.exit(1 if problems else 0)
PY
  then fail=1; fi
  # validate: nothing unexplained on one process; the log made without the event graph says so, the others not.
  "$bin" validate "$run" --json -q > "$tmp/validate.json" || { echo "FAIL: validate $name"; fail=1; continue; }
  # A what-if: every processor twice as fast must replay clearly faster (unrecorded delays do not pin work).
  "$bin" replay "$run" -m traced --json -q --set processors.cpu.speed=2 --set processors.utility.speed=2 \
    > "$tmp/fast.json" || { echo "FAIL: fast replay of $name"; fail=1; continue; }
  if ! python3 - "$tmp/validate.json" "$processes" "$name" "$tmp/report1.json" "$tmp/fast.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
processes, name = int(sys.argv[2]), sys.argv[3]
base = json.load(open(sys.argv[4]))["estimated_time_ns"]
fast = json.load(open(sys.argv[5]))["estimated_time_ns"]
problems = []
if processes == 1 and v["unexplained_total"] != 0:
    problems.append(f"{v['unexplained_total']} unexplained finding(s): {v['findings']}")
without_graph = name.endswith("_nocritical")
noted = any("without the event graph" in n for n in v["notes"])
if noted != without_graph:
    problems.append("the note on a log recorded without the event graph is " + ("missing" if without_graph else "wrong"))
if not without_graph and not fast < 0.8 * base:
    problems.append(f"twice as fast processors give {fast} ns against {base} ns")
for p in problems:
    print(f"FAIL: {name}: {p}")
if not problems:
    print(f"ok: {name}: validate ({v['finding_total']} finding(s), {v['unexplained_total']} unexplained); "
          f"2x processors {fast / base:.2f} of the estimate")
sys.exit(1 if problems else 0)
PY
  then fail=1; fi
done
# Half a run: the log of node 0 of a 2-process run alone. What node 1 launched keeps its measured delay, the
# missing log is noted and explains the unknown launchers, and the estimate stays within the 2-process bar.
half="$src/data/traces/legion-prof/circuit_mpi2_medium_cpu2_util1/prof_0.gz"
if ! "$bin" validate "$half" --json -q > "$tmp/half_validate.json" ||
   ! "$bin" replay "$half" -m traced --against-observed --json -q > "$tmp/half.json" ||
   ! python3 - "$tmp/half_validate.json" "$tmp/half.json" <<'PY'
import json, sys
v, r = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
problems = []
if v["unexplained_total"] or not v["findings"]["unknown_issuer"]:
    problems.append(f"findings {v['findings']}, {v['unexplained_total']} unexplained")
if not any("node(s) 1 are not in the trace" in n for n in v["notes"]):
    problems.append(f"no note on the missing log: {v['notes']}")
if abs(r["against_observed"]["error"]) > 0.15:
    problems.append(f"estimate {r['against_observed']['error']:+.1%} off the observed makespan")
for p in problems:
    print("FAIL: node 0 of circuit_mpi2 alone:", p)
if not problems:
    print(f"ok: node 0 of circuit_mpi2 alone: {r['against_observed']['error']:+.1%}, missing log noted and explained")
sys.exit(1 if problems else 0)
PY
then fail=1; fi
exit $fail
