#!/usr/bin/env bash
# Issue 14 items 7 and 13: a named pipe as input hung (probed, closed, reopened); <(...) and /dev/stdin gave
# "internal error", as did a symlink loop; a dangling symlink or a folder named node_1.log in a trace folder was
# dropped silently; two files holding one node's lines were merged; a UTF-8 byte order mark hid the first record;
# pzstd's files (a leading skippable frame) were rejected; gen --compress zstd wrote no checksum.
bin=$1 src=$2
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ghost=$src/data/traces/real/full_ghost_b2_cpu2
cd "$tmp" || exit 1
zstd -q -dc "$ghost/node_0.log.zst" > plain.log
# A report that depends on every record and not on the reading time.
report() { "$bin" machine from-trace -q "$@"; }
report "$ghost" | grep -v "^# The machine trace" > expected.txt

# Streams are read once, whatever they hold.
mkfifo fifo
zstd -q -dc "$ghost/node_0.log.zst" > fifo &
expect 0 "" -- timeout 20 "$bin" stats -q fifo
mkfifo fifo_zst
cat "$ghost/node_0.log.zst" > fifo_zst &
timeout 20 "$bin" machine from-trace -q fifo_zst | grep -v "^# The machine trace" > from_fifo.txt
check "a FIFO of compressed bytes gives the same machine" cmp -s from_fifo.txt expected.txt
expect 0 "" -- bash -c "timeout 20 '$bin' stats -q <(zstd -q -dc '$ghost/node_0.log.zst')"
expect 0 "" -- bash -c "zstd -q -dc '$ghost/node_0.log.zst' | timeout 20 '$bin' stats -q /dev/stdin"
expect 0 "" -- bash -c "timeout 20 '$bin' stats -q /dev/stdin < plain.log"
tar cf trace.tar -C "$ghost" node_0.log.zst
expect 1 "a tar archive read from a pipe or device" -- bash -c "timeout 20 '$bin' stats -q /dev/stdin < <(cat trace.tar)"

# Links that lead nowhere are clear errors.
ln -s loop_a loop_b; ln -s loop_b loop_a
expect 1 "loop_a: cannot follow symbolic link: Too many levels of symbolic links" -- "$bin" stats -q loop_a
ln -s nowhere dangling
expect 1 "dangling: dangling symbolic link" -- "$bin" stats -q dangling

# A node log in a folder that cannot be read is an error, or with --keep-going a reported failure.
mkdir folder; cp "$ghost/node_0.log.zst" folder/
ln -s nowhere folder/node_1.log
expect 1 "folder/node_1.log: .*cannot open: No such file or directory" -- "$bin" stats -q folder
expect 0 "skipped unreadable file folder/node_1.log" -- "$bin" stats folder --keep-going
rm folder/node_1.log; mkdir folder/node_1.log
expect 1 "folder/node_1.log: .*is a directory" -- "$bin" stats -q folder
rmdir folder/node_1.log; ln -s ../loop_a folder/node_1.log
expect 1 "folder/node_1.log: .*Too many levels of symbolic links" -- "$bin" stats -q folder
rm folder/node_1.log

# One node's lines in two files: an error naming both.
cp folder/node_0.log.zst folder/node_1.log.zst
expect 1 "node_1.log.zst: holds node 0 (its lines' \[node - thread\] prefix), as .*node_0.log.zst does" -- \
  "$bin" stats -q folder
rm folder/node_1.log.zst

# A byte order mark before the first record changes nothing.
mkdir bom; { printf '\xef\xbb\xbf'; cat plain.log; } > bom/node_0.log
report bom | grep -v "^# The machine trace" > from_bom.txt
check "a UTF-8 BOM hides no record" cmp -s from_bom.txt expected.txt
expect 0 "no malformed line" -- "$bin" stats bom

# A leading zstd skippable frame (as pzstd writes) is skipped.
mkdir skip; { printf '\x50\x2a\x4d\x18\x04\x00\x00\x00\x01\x02\x03\x04'; cat "$ghost/node_0.log.zst"; } > skip/node_0.log.zst
report skip | grep -v "^# The machine trace" > from_skip.txt
check "a skippable frame first is read past" cmp -s from_skip.txt expected.txt
if command -v pzstd > /dev/null; then
  mkdir pz; pzstd -q -p 2 plain.log -o pz/node_0.log.zst
  report pz | grep -v "^# The machine trace" > from_pz.txt
  check "pzstd's file reads like zstd's" cmp -s from_pz.txt expected.txt
fi

# gen writes zstd frames with their checksum, as the zstd tool does.
"$bin" gen chain --nodes 2 --compress zstd -o gen > /dev/null
check "gen --compress zstd frames carry a checksum" bash -c "zstd -lv gen/node_0.log.zst 2>&1 | grep -q 'Check: XXH64'"
exit $fail
