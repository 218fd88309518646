#!/usr/bin/env bash
# Errors that named the wrong cause: `--map =gpu` said "no '='" (the function id is what is missing), an empty
# --sqlite path failed at the end as ": cannot rename into place", and a packed trace saved as a folder's
# node_0.log was "binary data ... NUL". (A CopyInfo size past 2^50 bytes: prof_values_test.sh.)
bin=$1 src=$2
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ghost=$src/data/traces/real/full_ghost_b2_cpu2
titan=$src/data/machines/titan.toml

expect 1 "--map =gpu: the task function id before '=' is missing" -- "$bin" replay -q "$ghost" -m "$titan" --map =gpu
expect 1 "--map 7gpu: no '='" -- "$bin" replay -q "$ghost" -m "$titan" --map 7gpu
expect 2 "--sqlite: the path is empty" -- "$bin" export -q "$ghost" -m "$titan" --sqlite ""

"$bin" pack -q "$ghost" -o "$tmp/t.rrg" || { echo "FAIL: pack"; fail=1; }
mkdir "$tmp/run"
cp "$tmp/t.rrg" "$tmp/run/node_0.log"
expect 1 "run/node_0.log: byte 0: a packed trace (realm-replay pack), not a text log: .* give it alone as the trace, under its own name" -- \
  "$bin" stats -q "$tmp/run"
gzip -c "$tmp/t.rrg" > "$tmp/run/node_0.log"
expect 1 "run/node_0.log: byte 0: a packed trace (realm-replay pack), not a text log" -- "$bin" stats -q "$tmp/run"
expect 0 "" -- "$bin" stats -q "$tmp/t.rrg"
# Compressed and given alone, it is not "given with other files".
gzip -c "$tmp/t.rrg" > "$tmp/t.rrg.gz"
expect 1 "t.rrg.gz: a compressed packed trace: decompress it and give the packed file itself" -- "$bin" stats -q "$tmp/t.rrg.gz"
expect 1 "t.rrg: a packed trace is a whole trace: give it alone" -- "$bin" stats -q "$tmp/t.rrg" "$ghost"
exit $fail
