#!/usr/bin/env bash
# Issue 14 items 1 and 2: -o replaced whatever it named (a device, FIFO or symlink became a plain file, hard links
# broke, mode 600 became 644, an input being read was overwritten), a .tmp.PID file stayed after SIGTERM, and
# errors writing standard output were ignored (exit 0 on /dev/full).
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
check "the hard link still shares the file" test "$(stat -c %h one.txt)" = 2
check "both names show the report" cmp -s two.txt expected.txt
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
