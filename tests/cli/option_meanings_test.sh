#!/usr/bin/env bash
# One meaning per option name, and helpful answers to common mistakes (docs/mapping.md, docs/machines.md):
# --json is a flag of every command and -o names the report's file; gen s3d's --strategy (with --mapping warned);
# eft says when it equals pool; moves and folds that do not fit a trace; bundled machines by name; the nearest
# --set key, command and node-map rule; compare's and sweep's tables name their placement and moves.
set -uo pipefail
bin=$1 src=$2
# shellcheck source=../hostile/common.sh
. "$src/tests/hostile/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ghost=$src/data/traces/real/full_ghost_b2_cpu2
circuit=$src/data/traces/real/full_circuit_2node_p4_cpu2
titan=$src/data/machines/titan.toml
mixed=$src/data/traces/s3d/dme_mixed_2n

# --json is a flag; the old --json FILE form is a usage error with the new form as its hint.
expect 2 "write --json -o $tmp/c.json" -- "$bin" compare -q "$ghost" -m "$titan" --json "$tmp/c.json"
expect 2 "write --json -o $tmp/s.json" -- "$bin" sweep -q "$ghost" -m "$titan" --vary processors.cpu.speed=1,2 --json="$tmp/s.json"
expect 0 "" -- "$bin" compare -q "$ghost" -m "$titan" --json -o "$tmp/c.json" --csv "$tmp/c.csv"
check "compare --json -o writes JSON" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/c.json"
expect 0 "" -- "$bin" sweep -q "$ghost" -m "$titan" --vary processors.cpu.speed=1,2 -o "$tmp/s.txt"
check "sweep -o writes the text table" grep -q "time (ms)" "$tmp/s.txt"
"$bin" compare -q "$ghost" -m "$titan" --json > "$tmp/c2.json"
check "compare --json prints JSON" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/c2.json"

# gen s3d: --strategy, and --mapping still read with a warning.
expect 0 "" -- "$bin" gen s3d --strategy mixed --nodes 2 --steps 1 -o "$tmp/g1"
expect 0 "now --strategy" -- "$bin" gen s3d --mapping mixed --nodes 2 --steps 1 -o "$tmp/g2"
check "gen s3d --mapping and --strategy give the same trace" diff -r "$tmp/g1" "$tmp/g2"
expect 2 "give one of them" -- "$bin" gen s3d --mapping mixed --strategy all -o "$tmp/g3"

# eft with no function that can run on more than one kind says that it equals pool, on stderr and in the report.
expect 0 "eft places each task as pool does" -- "$bin" compare -q "$mixed" -m "$titan" --placement eft
check "compare's legend notes eft = pool" bash -c "'$bin' compare -q '$mixed' -m '$titan' --placement eft 2>/dev/null | grep -q 'placement eft: no function can run'"
check "replay's mapping notes eft = pool" bash -c "'$bin' replay -q '$mixed' -m '$titan' --placement eft 2>/dev/null | grep -q 'eft places as pool does'"
out=$("$bin" compare -q "$mixed" -m "$titan" --placement eft --map 18=gpu:0.0191 2>&1 >/dev/null)
check "no eft note once a function may run on two kinds" test -z "$out"

# A move of a function the trace lacks, and a fold beyond its nodes: errors of one replay, warnings of many.
expect 1 "no task of function 99" -- "$bin" replay -q "$ghost" -m "$titan" --map 99=gpu
expect 1 "fewer model nodes, not more" -- "$bin" replay -q "$circuit" -m "$titan" --fold 4
expect 0 "trace full_circuit_2node_p4_cpu2 has 2 node(s): --fold 4 does not apply" -- "$bin" compare -q "$circuit" "$ghost" -m "$titan" --fold 4
expect 0 "trace full_ghost_b2_cpu2 has no task of function 99" -- "$bin" compare -q "$ghost" -m "$titan" --map 99=gpu
expect 0 "--fold 4 does not apply to it.*fold=4" -- "$bin" sweep -q "$circuit" -m "$titan" --vary fold=1,4

# Bundled machines by name, before the trace is read; an unknown name lists them.
"$bin" replay -q "$ghost" -m titan > "$tmp/by_name.txt"
"$bin" replay -q "$ghost" -m "$titan" > "$tmp/by_path.txt"
check "-m titan is data/machines/titan.toml" cmp "$tmp/by_name.txt" "$tmp/by_path.txt"
expect 2 "did you mean 'titan'?" -- "$bin" replay -q "$tmp/no-such-trace" -m titn
expect 2 "bundled: modern_multigpu, titan, titan_fastgpu" -- "$bin" compare -q "$tmp/no-such-trace" -m nosuch
expect 0 "" -- "$bin" sweep -q "$ghost" -m titan_fastgpu.toml --vary processors.gpu.speed=1,2

# --set: the key is blamed, with the nearest one.
expect 1 "error: --set: unknown key 'processors.cpu.sped' (did you mean 'processors.cpu.speed'?)" -- "$bin" replay -q "$ghost" -m titan --set processors.cpu.sped=2
# A mistyped command gets the nearest one.
expect 2 "unknown command 'repaly' (did you mean 'replay'?)" -- "$bin" repaly "$ghost" -m titan
expect 2 "unknown command 'frobnicate'; the commands:" -- "$bin" -j 2 frobnicate
# --node-map: neither rule nor file.
expect 1 "--node-map blok: neither cyclic, nor block, nor a readable file (did you mean 'block'?)" -- "$bin" replay -q "$circuit" -m titan --fold 1 --node-map blok

# compare's and sweep's text and CSV name the placement and the moves.
"$bin" compare -q "$mixed" -m titan --placement pool --map 18=gpu:0.0191 --csv "$tmp/m.csv" > "$tmp/m.txt"
check "compare's text names placement and moves" grep -q "^placement: pool; moves (--map): 18=gpu:0.0191" "$tmp/m.txt"
check "compare's CSV has placement and moves columns" grep -q ",pool,18=gpu:0.0191$" "$tmp/m.csv"
"$bin" sweep -q "$mixed" -m titan --vary placement=pool,traced > "$tmp/v.txt"
check "sweep's table gives each run's placement when they differ" grep -q "  traced  -$" "$tmp/v.txt"
exit $fail
