#!/usr/bin/env bash
# realm-replay tune (docs/mapping.md, Tuning): the mapping file it writes makes `replay --mapping` give its best
# estimate exactly; the report is the same at -j1 and -j2 and for the same seed, byte for byte but for its timing
# line; a planted faster kind is found from the command line; bad factors files and options are refused with
# their exit codes; the report goes to -o whole; the factors file is an input no output may replace.
set -uo pipefail
bin=$1 src=$2
# shellcheck source=../hostile/common.sh
. "$src/tests/hostile/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mixed=$src/data/traces/s3d/dme_mixed_4n
factors=$src/data/factors/s3d.toml
prof=$src/data/traces/legion-prof/cgsolver_g8_b4_cpu2_util1

# The written mapping reproduces the best estimate, from the logs and split over two threads.
estimate() { sed -n "s/^Estimated run time: \([0-9.]*\) ms$/\1/p"; }
best() { sed -n "s/^  best found  *\([0-9.]*\)  .*/\1/p"; }
for case in "$mixed -m titan --factors $factors" "$prof -m traced" "$mixed -m titan --fold 2 --placement traced"; do
  # shellcheck disable=SC2086
  "$bin" tune -q $case --write-mapping "$tmp/best.toml" > "$tmp/tune.txt" || { echo "FAIL: tune $case"; fail=1; continue; }
  want=$(best < "$tmp/tune.txt")
  # shellcheck disable=SC2086
  got=$("$bin" -j 2 replay -q $(echo $case | sed 's/--factors [^ ]*//; s/--placement [^ ]*//') --mapping "$tmp/best.toml" | estimate)
  check "replay --mapping gives tune's best ($want ms) for $case: $got ms" test -n "$want" -a "$want" = "$got"
done
check "the written file says how to reproduce it" grep -q "^# Reproduce: realm-replay replay .* --mapping $tmp/best.toml$" "$tmp/best.toml"

# The same report at -j1 and -j2, and for a seed run twice; the timing line alone differs.
untimed() { grep -v "^Done in "; }
"$bin" -j 1 tune -q "$mixed" -m titan --factors "$factors" --seed 3 | untimed > "$tmp/j1.txt"
"$bin" -j 2 tune -q "$mixed" -m titan --factors "$factors" --seed 3 | untimed > "$tmp/j2.txt"
"$bin" -j 2 tune -q "$mixed" -m titan --factors "$factors" --seed 3 | untimed > "$tmp/j2b.txt"
check "-j1 and -j2 give the same report" cmp "$tmp/j1.txt" "$tmp/j2.txt"
check "a seed gives the same report twice" cmp "$tmp/j2.txt" "$tmp/j2b.txt"
check "the report says how fast" bash -c "'$bin' tune -q '$mixed' -m titan | grep -q '^Done in [0-9.]* s: [0-9.]* candidates/s$'"

# A planted change: on a generated trace whose GPU is idle, the machine runs function 7 ten times faster there.
"$bin" gen random-dag --ops 3000 --nodes 2 -o "$tmp/dag" > /dev/null
"$bin" tune -q "$tmp/dag" -m "$tmp/dag/machine.toml" --set processors.gpu.count=1 --set processors.gpu.function_speed.7=10 \
  --json -o "$tmp/dag.json"
check "the planted move is the first improvement" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["path"][0]["change"].startswith("function 7 to GPU"), r["path"][0]
assert "[[move]]\nfunction = 7\nto = \"gpu\"" in r["best"]["mapping"], r["best"]["mapping"]
assert r["best"]["estimated_time_ns"] < 0.9 * r["start"]["estimated_time_ns"]
' "$tmp/dag.json"

# Bad inputs: 1 with the file and line; bad options: 2.
printf '[18]\ngpuu = 0.1\n' > "$tmp/bad.toml"
expect 1 "bad.toml:2: .*unknown kind 'gpuu' (gpu, cpu or utility) (did you mean 'gpu'?)" -- "$bin" tune -q "$mixed" -m titan --factors "$tmp/bad.toml"
expect 1 "cannot open factors file" -- "$bin" tune -q "$mixed" -m titan --factors "$tmp/none.toml"
expect 1 "no task of function 99" -- "$bin" tune -q "$mixed" -m titan --map 99=gpu
expect 2 "" -- "$bin" tune -q "$mixed" -m titan --budget 0
expect 2 "" -- "$bin" tune -q "$mixed" -m titan --cores 0
expect 2 "did you mean 'titan'" -- "$bin" tune -q "$mixed" -m titn
expect 1 "" -- "$bin" tune -q "$mixed" -m titan --factors "$factors" --write-mapping "$factors"
check "the factors file is untouched" grep -q "^gpu = 0.0191$" "$factors"
expect 0 "" -- "$bin" tune -q "$mixed" -m titan --budget 5 --json -o "$tmp/t.json"
check "-o writes the JSON report" python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["candidates"]["replayed"] == 5' "$tmp/t.json"
exit $fail
