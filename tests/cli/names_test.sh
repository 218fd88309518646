#!/usr/bin/env bash
# Function names wherever the log or a names file has them: folded stacks of a Legion Prof log carry the log's
# names; a 2015 log, whose records give only ids, is named by the names.toml in its folder or by --names, in
# profile (both forms), critpath, the timeline, the SQL export and a packed trace; ';' is escaped and a shared
# name carries its id; every command that reads a trace takes --names; a bad names file is an error naming the
# file and line, and names for functions the trace does not run are allowed.
bin=$1 src=$2
# shellcheck source=../hostile/common.sh
. "$src/tests/hostile/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
titan=$src/data/machines/titan.toml

# Lines of a folded profile (on stdin) with at least one frame that is a name, not a bare id (f5).
named_lines() { python3 -c 'import re, sys
print(sum(any(not re.fullmatch(r"f\d+", f) for f in l.rsplit(" ", 1)[0].split(";")) for l in sys.stdin))'; }

# A Legion Prof log names its tasks and meta-tasks.
cg=$src/data/traces/legion-prof/cgsolver_g8_b4_cpu2_util1
"$bin" profile -q "$cg" -m traced > "$tmp/cg.folded"
named=$(named_lines < "$tmp/cg.folded")
check "$named of $(wc -l < "$tmp/cg.folded") folded lines of cgsolver carry a name" test "$named" -gt 0
check "cgsolver's stacks start from its tasks' names" grep -q "top_level_task" "$tmp/cg.folded"

# A 2015 log gives ids only: without names every frame is an id...
mkdir "$tmp/circuit"
ln -s "$src"/data/traces/real/full_circuit_2node_p4_cpu2/node_*.log.zst "$tmp/circuit/"
"$bin" profile -q "$tmp/circuit" -m "$titan" --placement traced > "$tmp/plain.folded"
check "no name without a names file" test "$(named_lines < "$tmp/plain.folded")" = 0
# ...and the names.toml in its folder names them: ';' escaped, the shared name "seven" told apart by id.
printf '# names for the test\n5 = "main"\n6 = "calc_new_currents"\n4 = "meta;task"\n7 = "seven"\n8 = "seven"\n99 = "not run"\n' \
  > "$tmp/circuit/names.toml"
"$bin" profile "$tmp/circuit" -m "$titan" --placement traced > "$tmp/named.folded" 2> "$tmp/named.err"
check "every folded line carries a name" test "$(named_lines < "$tmp/named.folded")" = "$(wc -l < "$tmp/named.folded")"
check "the same lines and values as without names" \
  test "$(cut -d' ' -f2 "$tmp/named.folded" | sort | md5sum)" = "$(cut -d' ' -f2 "$tmp/plain.folded" | sort | md5sum)"
check "calc_new_currents under main" grep -q "^meta%3Btask;meta%3Btask;main;.*calc_new_currents [0-9]*$" "$tmp/named.folded"
check "shared names carry their ids" grep -q "seven#7" "$tmp/named.folded"
check "... both" grep -q "seven#8" "$tmp/named.folded"
check "no frame holds a bare ';' of a name" bash -c "! grep -q 'meta;task' '$tmp/named.folded'"
check "the reading summary names the file and what it names" \
  grep -q "6 function name(s) from $tmp/circuit/names.toml, 5 for functions this trace runs" "$tmp/named.err"
"$bin" profile -q "$tmp/circuit" -m "$titan" --placement traced --against-machine "$src/data/machines/modern_multigpu.toml" \
  > "$tmp/diff.folded"
check "the differential form carries the names" test "$(named_lines < "$tmp/diff.folded")" = "$(wc -l < "$tmp/diff.folded")"

# --names overrides the folder's file; the other outputs print the same names.
printf '6 = "currents"\n' > "$tmp/other.toml"
"$bin" profile -q "$tmp/circuit" -m "$titan" --placement traced --names "$tmp/other.toml" > "$tmp/other.folded"
check "--names replaces names.toml" grep -q ";currents [0-9]*$" "$tmp/other.folded"
check "... wholly" bash -c "! grep -q 'main' '$tmp/other.folded'"
"$bin" critpath -q "$tmp/circuit" -m "$titan" --placement traced --no-what-ifs > "$tmp/critpath.txt"
check "critpath names the function" grep -q "compute CPU calc_new_currents" "$tmp/critpath.txt"
"$bin" replay -q "$tmp/circuit" -m "$titan" --placement traced --timeline "$tmp/timeline.json" > /dev/null
check "the timeline names tasks" grep -q '"name":"calc_new_currents"' "$tmp/timeline.json"
"$bin" export -q "$tmp/circuit" -m "$titan" --placement traced --sqlite "$tmp/t.db"
check "the SQL export names functions" \
  test "$(sqlite3 "$tmp/t.db" "select distinct function_name from operations where function = 6")" = calc_new_currents
"$bin" pack -q "$tmp/circuit" -o "$tmp/circuit.rrg"
"$bin" profile -q "$tmp/circuit.rrg" -m "$titan" --placement traced > "$tmp/packed.folded"
check "a packed trace keeps the names it was packed with" cmp -s "$tmp/packed.folded" "$tmp/named.folded"

# The bundled S3D traces have the names the generator writes.
"$bin" gen s3d --nodes 2 -o "$tmp/gen" > /dev/null
check "gen s3d writes the bundled traces' names.toml" cmp -s "$tmp/gen/names.toml" "$src/data/traces/s3d/dme_all_2n/names.toml"
"$bin" profile -q "$src/data/traces/s3d/dme_all_2n" -m "$titan" > "$tmp/s3d.folded"
check "S3D stacks read driver;meta_task;...;rk_update" grep -q "^driver;meta_task;meta_task;meta_task;rk_update [0-9]*$" "$tmp/s3d.folded"

# Every command that reads a trace takes --names.
for cmd in stats validate graph replay critpath profile compare sweep export pack "machine from-trace" calibrate; do
  # shellcheck disable=SC2086
  check "$cmd --help lists --names" bash -c "'$bin' $cmd --help | grep -q -- '--names'"
done
expect 0 "" -- "$bin" stats -q "$tmp/circuit" --names "$tmp/other.toml"

# Bad names files: the file and the line, exit 1; one for each kind of mistake.
printf '5 = "main"\n6 = calc\n' > "$tmp/syntax.toml"
printf '5 = "main"\n\nf6 = "calc"\n' > "$tmp/key.toml"
printf '5 = "main"\n6 = 6\n' > "$tmp/value.toml"
expect 1 "syntax.toml:2: TOML syntax" -- "$bin" stats "$tmp/circuit" --names "$tmp/syntax.toml"
expect 1 "key.toml:3: 'f6' is not a function id" -- "$bin" replay "$tmp/circuit" -m "$titan" --names "$tmp/key.toml"
expect 1 "value.toml:2: the name of function 6 is an integer, not a string in quotes" -- \
  "$bin" profile "$tmp/circuit" -m "$titan" --names "$tmp/value.toml"
expect 1 "missing.toml" -- "$bin" stats "$tmp/circuit" --names "$tmp/missing.toml"
cp "$tmp/value.toml" "$tmp/circuit/names.toml"
expect 1 "circuit/names.toml:2: the name of function 6" -- "$bin" stats "$tmp/circuit"
exit $fail
