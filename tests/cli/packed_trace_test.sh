#!/usr/bin/env bash
# A packed trace (.rrg) stands for its trace everywhere: every command gives the same report on the packed file
# as on the logs it was packed from (only the input's name and the elapsed time differ), for each bundled trace
# (the 2015 Realm logs, the S3D traces, the Legion Prof logs) and a generated one with waits and barriers. And
# a damaged, truncated or other-version file is a clear error naming the file.
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" gen s3d --nodes 3 --steps 1 -o "$tmp/gen_s3d" > /dev/null
traces=("$src"/data/traces/real/full_* "$src"/data/traces/s3d/dme_mixed_2n "$src"/data/traces/legion-prof/*_cpu* "$tmp/gen_s3d")

# Everything but the input's own name and the elapsed time (the packed trace names the files it was packed from),
# and the names file the logs were read with: the packed trace holds the names, and no names file is read with it.
normalise() {
  sed -e "s|$2|TRACE|g" -e "s|$3|TRACE|g" -e '/"elapsed_seconds"/d' -e '/^Done in /d' -e 's/ in [0-9.]* s$/ in T s/' \
      -e 's/; [0-9]* function name(s) from [^;]*, [0-9]* for functions this trace runs//' "$1"
}
same() {  # same OUTPUT_A OUTPUT_B TRACE RRG WHAT
  if ! diff <(normalise "$1" "$3" "$3") <(normalise "$2" "$4" "$3") > "$tmp/diff"; then
    echo "FAIL: $5 differs on the packed trace of $3:"; head -20 "$tmp/diff"; exit 1
  fi
}

n=0
for t in "${traces[@]}"; do
  rrg="$tmp/$(basename "$t").rrg"
  "$bin" pack -q "$t" -o "$rrg"
  for cmd in "stats --json" "stats" "validate --json" "validate" "replay -m traced --json" \
             "replay -m $src/data/machines/titan.toml" "critpath -m traced --json" "profile -m traced --json" \
             "replay -m traced --placement pool --json" "graph --json --force"; do
    # shellcheck disable=SC2086
    "$bin" $cmd "$t" > "$tmp/a.out" 2> "$tmp/a.err" && a=0 || a=$?
    # shellcheck disable=SC2086
    "$bin" $cmd "$rrg" > "$tmp/b.out" 2> "$tmp/b.err" && b=0 || b=$?
    [ "$a" = "$b" ] || { echo "FAIL: $cmd exits $a on $t, $b on its packed trace"; cat "$tmp/b.err"; exit 1; }
    same "$tmp/a.out" "$tmp/b.out" "$t" "$rrg" "$cmd"
    same "$tmp/a.err" "$tmp/b.err" "$t" "$rrg" "$cmd (stderr)"
    n=$((n + 1))
  done
done
# machine from-trace, sweep and export (every table but the run's input name) on one trace of each format.
for t in "$src/data/traces/real/full_circuit_2node_p4_cpu2" "$src/data/traces/legion-prof/circuit_small_cpu2_util1"; do
  rrg="$tmp/$(basename "$t").rrg"
  "$bin" machine from-trace -q "$t" -o "$tmp/m1.toml"; "$bin" machine from-trace -q "$rrg" -o "$tmp/m2.toml"
  cmp "$tmp/m1.toml" "$tmp/m2.toml"
  "$bin" sweep -q "$t" -m traced --vary processors.cpu.speed=1,2 > "$tmp/s1.txt"
  "$bin" sweep -q "$rrg" -m traced --vary processors.cpu.speed=1,2 > "$tmp/s2.txt"
  same "$tmp/s1.txt" "$tmp/s2.txt" "$t" "$rrg" "sweep"
  "$bin" export -q "$t" -m traced --sqlite "$tmp/e1.db"; "$bin" export -q "$rrg" -m traced --sqlite "$tmp/e2.db"
  for table in operations edges copies critical_path findings processors memories; do
    [ "$(sqlite3 "$tmp/e1.db" "select * from $table")" = "$(sqlite3 "$tmp/e2.db" "select * from $table")" ] ||
      { echo "FAIL: export table $table differs on the packed trace of $t"; exit 1; }
  done
  n=$((n + 3))
done
# Fewer examples and messages than were packed: the first ones, as from the logs.
cp -r "$tmp/gen_s3d" "$tmp/bad"
for i in 1 2 3 4 5 6 7; do echo "[0 - 1] {2}{graph}: Task Time: (zz,$i) 3" >> "$tmp/bad/node_0.log"; done
"$bin" pack -q "$tmp/bad" -o "$tmp/bad.rrg"
for cmd in "stats --max-messages 2" "validate --examples 1" "stats --json --max-messages 1" "replay -m traced --max-messages 3"; do
  # shellcheck disable=SC2086
  "$bin" $cmd "$tmp/bad" > "$tmp/a.out" 2> "$tmp/a.err"; "$bin" $cmd "$tmp/bad.rrg" > "$tmp/b.out" 2> "$tmp/b.err"
  same "$tmp/a.out" "$tmp/b.out" "$tmp/bad" "$tmp/bad.rrg" "$cmd"
  same "$tmp/a.err" "$tmp/b.err" "$tmp/bad" "$tmp/bad.rrg" "$cmd (stderr)"
  n=$((n + 1))
done
# Packed without the fit, the traced machine is fitted on use, from the facts the packed trace keeps.
for t in "$src/data/traces/real/full_circuit_2node_p4_cpu2" "$src/data/traces/legion-prof/circuit_small_cpu2_util1"; do
  "$bin" pack -q --no-fit "$t" -o "$tmp/nofit.rrg"
  "$bin" replay -q -m traced --json "$t" > "$tmp/a.out"
  "$bin" replay -q -m traced --json "$tmp/nofit.rrg" > "$tmp/b.out"
  same "$tmp/a.out" "$tmp/b.out" "$t" "$tmp/nofit.rrg" "replay -m traced (packed --no-fit)"
  n=$((n + 1))
done
# Packing is deterministic: the same trace gives the same bytes at any thread count.
"$bin" pack -q -j1 "$tmp/gen_s3d" -o "$tmp/j1.rrg"
"$bin" pack -q -j2 "$tmp/gen_s3d" -o "$tmp/j2.rrg"
cmp "$tmp/j1.rrg" "$tmp/j2.rrg"
# compare reads packed traces as it reads logs.
"$bin" compare -q --json -o "$tmp/c1.json" "$src/data/traces/s3d/dme_mixed_2n" "$src/data/traces/s3d/dme_all_2n" -m "$src/data/machines/titan.toml" > /dev/null
"$bin" pack -q "$src/data/traces/s3d/dme_all_2n" -o "$tmp/all.rrg"
"$bin" compare -q --json -o "$tmp/c2.json" "$tmp/dme_mixed_2n.rrg" "$tmp/all.rrg" -m "$src/data/machines/titan.toml" > /dev/null
python3 - "$tmp/c1.json" "$tmp/c2.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for j in (a, b):
    j["context"].pop("inputs"), j["context"].pop("elapsed_seconds", None)
assert a == b, "compare differs on packed traces"
PY

# Damage: each is exit 1 with a message naming the file and what is wrong.
expect_error() {  # expect_error FILE PATTERN
  if "$bin" replay -q -m traced "$1" > /dev/null 2> "$tmp/err"; then echo "FAIL: $1 was read"; exit 1; fi
  grep -q "$1" "$tmp/err" && grep -q "$2" "$tmp/err" || { echo "FAIL: $1: expected '$2', got:"; cat "$tmp/err"; exit 1; }
}
good="$tmp/gen_s3d.rrg"
size=$(stat -c %s "$good")
head -c $((size / 2)) "$good" > "$tmp/truncated.rrg"; expect_error "$tmp/truncated.rrg" "truncated: the header says $size bytes"
head -c 40 "$good" > "$tmp/short.rrg"; expect_error "$tmp/short.rrg" "truncated: 40 bytes"
flip() {  # flip SRC DST OFFSET: one byte inverted
  cp "$1" "$2"; python3 - "$2" "$3" <<'PY'
import sys
p, at = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, 'rb').read()); b[at] ^= 0xff; open(p, 'wb').write(b)
PY
}
flip "$good" "$tmp/header.rrg" 20; expect_error "$tmp/header.rrg" "damaged: the header's checksum"
flip "$good" "$tmp/table.rrg" 70; expect_error "$tmp/table.rrg" "damaged: the section table's checksum"
flip "$good" "$tmp/graph.rrg" $((size - 100)); expect_error "$tmp/graph.rrg" "damaged: the checksum of the graph's"
flip "$good" "$tmp/parts.rrg" 900; expect_error "$tmp/parts.rrg" "damaged: the checksum of the trace's records"
{ cat "$good"; printf 'x'; } > "$tmp/longer.rrg"; expect_error "$tmp/longer.rrg" "damaged: the header says $size bytes, the file has $((size + 1))"
# Another version: the version field raised (the header checksum no longer matters once the version differs).
cp "$good" "$tmp/v8.rrg"; printf '\010' | dd of="$tmp/v8.rrg" bs=1 seek=8 conv=notrunc status=none
expect_error "$tmp/v8.rrg" "format version 8; this realm-replay reads version 7: pack the trace again"
# ...and older ones: version 6 kept one start-up length, not each measured one, version 5 had no node index,
# version 4 kept an array per kind of count, not one of the stats, version 3 had no traced cores among the facts,
# version 2 held the reverse CSR too, version 1 had 64-bit edge offsets.
for old in 6 5 4 3 2 1; do
  cp "$good" "$tmp/v$old.rrg"; printf "\\00$old" | dd of="$tmp/v$old.rrg" bs=1 seek=8 conv=notrunc status=none
  expect_error "$tmp/v$old.rrg" "format version $old; this realm-replay reads version 7: pack the trace again"
done
# A packed trace is a whole trace: given with other files, it is named.
expect_error_with() { if "$bin" validate -q "$@" > /dev/null 2> "$tmp/err"; then echo "FAIL: read"; exit 1; fi; }
expect_error_with "$good" "$tmp/gen_s3d/node_0.log"
grep -q "gen_s3d.rrg: a packed trace is a whole trace: give it alone" "$tmp/err" || { cat "$tmp/err"; exit 1; }
# Through a pipe it cannot be mapped: said so, not read as a log.
if cat "$good" | "$bin" validate -q /dev/stdin > /dev/null 2> "$tmp/err"; then echo "FAIL: a piped packed trace was read"; exit 1; fi
grep -q "a packed trace read from a pipe or device (it is mapped); save it to a file" "$tmp/err" || { cat "$tmp/err"; exit 1; }
# The output is whole or not at all, and never replaces an input.
if "$bin" pack -q "$tmp/gen_s3d" -o "$tmp/gen_s3d/node_0.log" 2> "$tmp/err"; then echo "FAIL: pack overwrote its input"; exit 1; fi
grep -q "node_0.log" "$tmp/err"
if "$bin" pack -q "$tmp/gen_s3d" -o /dev/full 2> "$tmp/err"; then echo "FAIL: pack to /dev/full succeeded"; exit 1; fi
grep -q "No space left on device" "$tmp/err"
echo "packed traces: $n reports identical on ${#traces[@]} traces; 8 kinds of damage and a mixed input refused"
