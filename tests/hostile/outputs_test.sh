#!/usr/bin/env bash
# Outputs: -o keeps what it names a device, FIFO or symlink, keeps the mode, never overwrites an input, replaces a
# file with other hard links by renaming (the other names keep the old content), leaves one whole output when two
# runs write it at once, removes its temporary on SIGTERM, and reports errors writing standard output.
bin=$1 src=$2
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ghost=$src/data/traces/real/full_ghost_b2_cpu2
cd "$tmp" || exit 1
# A report that is the same on every run (stats would print its reading time).
# The report: one that is the same on every run (stats prints its reading time).
"$bin" machine from-trace -q "$ghost" > expected.txt

# Standard output: a write error is exit 1 with a message, for every kind of report.
expect 1 "cannot write standard output" -- sh -c "'$bin' graph -q '$ghost' --json --force > /dev/full"
expect 1 "cannot write standard output" -- sh -c "'$bin' stats -q '$ghost' > /dev/full"
expect 1 "cannot write standard output" -- sh -c "'$bin' replay -q '$ghost' -m traced >&-"
# -o on a full device: the write error is reported, exit 1.
expect 1 "/dev/full: cannot write" -- "$bin" machine from-trace -q "$ghost" -o /dev/full

# Devices and FIFOs are written directly, never replaced.
expect 0 "" -- "$bin" machine from-trace -q "$ghost" -o /dev/null
check "/dev/null is still a character device" test -c /dev/null
mkfifo fifo
cat fifo > from_fifo & reader=$!
expect 0 "" -- "$bin" machine from-trace -q "$ghost" -o fifo
# Should the writer fail before opening the FIFO, its reader would wait forever: a read-write open (which never
# blocks) and close give it the end of the stream.
exec 3<>fifo; exec 3>&-
wait $reader
check "the FIFO is still a FIFO" test -p fifo
check "the FIFO's reader got the report" cmp -s from_fifo expected.txt

# A symlink is followed: the file it names is written, the link stays; a dangling one creates its target.
echo old > real.txt; ln -s real.txt link.txt
expect 0 "" -- "$bin" machine from-trace -q "$ghost" -o link.txt
check "the symlink is still a symlink" test -L link.txt
check "its target holds the report" cmp -s real.txt expected.txt
ln -s made.txt dangling
expect 0 "" -- "$bin" machine from-trace -q "$ghost" -o dangling
check "a dangling symlink's target is created" cmp -s made.txt expected.txt
ln -s loop_a loop_b; ln -s loop_b loop_a
expect 1 "loop_a: cannot write: Too many levels of symbolic links" -- "$bin" machine from-trace -q "$ghost" -o loop_a

# Mode and hard links are kept.
echo old > private.txt; chmod 600 private.txt
expect 0 "" -- "$bin" machine from-trace -q "$ghost" -o private.txt
check "mode 600 is kept" test "$(stat -c %a private.txt)" = 600
echo old > one.txt; ln one.txt two.txt
expect 0 "" -- "$bin" machine from-trace -q "$ghost" -o one.txt
check "the output is renamed into place" test "$(stat -c %h one.txt)" = 1
check "the named file holds the report" cmp -s one.txt expected.txt
check "the other hard link keeps the old content" test "$(cat two.txt)" = old
# Two writers at once leave one complete output, five times over.
for round in 1 2 3 4 5; do
  "$bin" replay -q "$ghost" -m traced --json -o both.json & first=$!
  "$bin" replay -q "$ghost" -m traced --json --set processors.cpu.speed=2 -o both.json & second=$!
  wait $first; wait $second
  check "round $round: one whole JSON report" python3 -c 'import json,sys; json.load(open("both.json"))'
done
expect 1 "cannot write: Is a directory" -- "$bin" machine from-trace -q "$ghost" -o "$tmp"

# An input of this run is never overwritten: a trace file (given as a folder, a file or a glob), a machine file.
cp -r "$ghost" trace
before=$(md5sum < trace/node_0.log.zst)
expect 1 "refusing to overwrite a file this run reads" -- "$bin" stats -q trace -o trace/node_0.log.zst
expect 1 "refusing to overwrite a file this run reads" -- "$bin" stats -q trace/node_0.log.zst -o trace/node_0.log.zst
expect 1 "refusing to overwrite a file this run reads" -- "$bin" stats -q 'trace/node_*.log.zst' -o trace/node_0.log.zst
ln -s trace/node_0.log.zst alias
expect 1 "refusing to overwrite a file this run reads" -- "$bin" stats -q trace -o alias
cp "$src/data/machines/titan.toml" titan.toml
expect 1 "refusing to overwrite a file this run reads" -- "$bin" replay -q trace -m titan.toml -o titan.toml
expect 1 "refusing to overwrite a file this run reads" -- "$bin" replay -q trace -m titan.toml --timeline titan.toml
check "the inputs are untouched" test "$(md5sum < trace/node_0.log.zst)" = "$before"
expect 0 "" -- "$bin" stats -q trace -o trace/report.txt
check "no temporary file is left" test -z "$(find . -name '*.tmp.*')"

# SIGTERM while gen writes: the temporary file of the log being written is removed.
"$bin" gen s3d --nodes 32 --steps 12 -o big > /dev/null 2>&1 & writer=$!
# Its schedule comes first (seconds, many more under a sanitizer): poll until a log is being written.
for _ in $(seq $(( 1200 * ${RR_TIME_SCALE:-1} ))); do
  [ -n "$(find big -name '*.tmp.*' 2>/dev/null)" ] && break
  sleep 0.05
done
seen=$(find big -name '*.tmp.*' 2>/dev/null | head -1)
kill -TERM $writer; wait $writer; rc=$?
check "a temporary file was being written ($seen)" test -n "$seen"
check "SIGTERM ends gen with the signal's status ($rc)" test "$rc" = 143
check "no temporary file is left after SIGTERM" test -z "$(find big -name '*.tmp.*' 2>/dev/null)"
exit $fail
