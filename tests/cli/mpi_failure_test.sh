#!/usr/bin/env bash
# A replay over MPI ranks that loses a rank ends, never hangs: a rank that cannot read its trace ends the run with
# a message naming the rank and the file (the ranks get different command lines here, as ranks on machines with
# different disks would read different files), and a rank killed from outside ends it too (mpirun says so), while
# the replay goes on and while the ranks stream their timelines to rank 0.
# Usage: mpi_failure_test.sh REALM_REPLAY REALM_REPLAY_MPI SOURCE_DIR
set -uo pipefail
bin=$1 mpibin=$2 src=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/mpi_env.sh"
titan=$src/data/machines/titan.toml
good=$src/data/traces/real/full_circuit_2node_p4_cpu2

# cannot_read RANK: that rank is given a file that does not exist, the other the trace.
cannot_read() {
  local missing=$tmp/node_logs_of_rank_$1 first=$good second=$good
  if [ "$1" = 0 ]; then first=$missing; else second=$missing; fi
  timeout 60 mpirun -np 1 "$mpibin" replay -q "$first" -m "$titan" : -np 1 "$mpibin" replay -q "$second" -m "$titan" \
    > /dev/null 2> "$tmp/err"
  local code=$?
  if [ $code = 0 ] || [ $code = 124 ]; then echo "FAILED: rank $1 could not read its file, exit code $code"; cat "$tmp/err"; exit 1; fi
  grep -q "rank $1 of 2 stopped" "$tmp/err" && grep -q "node_logs_of_rank_$1" "$tmp/err" || {
    echo "FAILED: the message does not name rank $1 and its file:"; cat "$tmp/err"; exit 1; }
  echo "rank $1 could not read its file: the run ended (exit code $code) naming it"
}
cannot_read 1
cannot_read 0

# Each rank reads only its own nodes' files: node 1's log a dangling link, which rank 1 alone opens, stops every
# rank, and rank 0 names rank 1 and the file.
mkdir "$tmp/parts"
cp "$good/node_0.log.zst" "$tmp/parts/"
ln -s "$tmp/nowhere" "$tmp/parts/node_1.log.zst"
timeout 60 mpirun -np 2 "$mpibin" replay -q "$tmp/parts" -m "$titan" > /dev/null 2> "$tmp/err"
code=$?
if [ $code = 0 ] || [ $code = 124 ]; then echo "FAILED: rank 1 could not read its own file, exit code $code"; cat "$tmp/err"; exit 1; fi
grep -q "rank 1 of 2" "$tmp/err" && grep -q "node_1.log.zst" "$tmp/err" || {
  echo "FAILED: the message does not name rank 1 and its file:"; cat "$tmp/err"; exit 1; }
echo "rank 1 could not read its own node's file: the run ended (exit code $code) naming it"

# A packed trace with a byte flipped in the graph's arrays, three quarters in: the rank whose rows hold it finds the
# damage, and every rank stops with rank 0 naming that rank and the file.
"$bin" pack -q "$good" -o "$tmp/damaged.rrg" > /dev/null
size=$(stat -c %s "$tmp/damaged.rrg")
printf '\xff' | dd of="$tmp/damaged.rrg" bs=1 seek=$((size * 3 / 4)) conv=notrunc status=none
timeout 60 mpirun -np 2 "$mpibin" replay -q "$tmp/damaged.rrg" -m "$titan" > /dev/null 2> "$tmp/err"
code=$?
if [ $code = 0 ] || [ $code = 124 ]; then echo "FAILED: a damaged packed trace replayed, exit code $code"; cat "$tmp/err"; exit 1; fi
grep -q "damaged.rrg" "$tmp/err" && grep -q "damaged" "$tmp/err" || {
  echo "FAILED: the message does not name the damaged file:"; cat "$tmp/err"; exit 1; }
echo "a damaged packed trace: the run ended (exit code $code): $(grep -m1 damaged "$tmp/err")"

# kill_a_rank WHAT READY [OPTIONS...]: a replay over three ranks of a large trace, whose rank 2 is killed from outside
# once the command READY succeeds; the run must end within a minute, with a code other than 0.
"$bin" gen s3d --nodes 32 --mechanism heptane --strategy mixed --steps 2 -o "$tmp/big" > /dev/null
kill_a_rank() {
  local what=$1 ready=$2
  shift 2
  mpirun -np 3 "$mpibin" replay "$tmp/big" -m "$titan" "$@" > /dev/null 2> "$tmp/kill.err" &
  local run=$! victim=
  for _ in $(seq 1 1200); do
    "$ready" && victim=$(pgrep -P "$run" -f realm-replay-mpi | sed -n 3p)
    [ -n "$victim" ] && break
    sleep 0.05
  done
  [ -n "$victim" ] || { echo "FAILED: $what: not ready within 60 s, or no rank to kill"; cat "$tmp/kill.err"; kill "$run"; exit 1; }
  kill -9 "$victim" || { echo "FAILED: $what: rank 2 ended before it could be killed"; exit 1; }
  for _ in $(seq 1 600); do kill -0 "$run" 2> /dev/null || break; sleep 0.1; done
  if kill -0 "$run" 2> /dev/null; then echo "FAILED: $what: mpirun still runs a minute after a rank was killed"; kill "$run"; exit 1; fi
  wait "$run"
  local code=$?
  [ $code != 0 ] || { echo "FAILED: $what: a run with a killed rank exited 0"; exit 1; }
  echo "$what: the run ended (exit code $code)"
  head -5 "$tmp/kill.err"
}

# While the replay goes on: once rank 0 has said what it read (its reading summary on standard error), every rank
# has read its part or nearly; the replay over three ranks then takes seconds.
said_what_it_read() { grep -q "realm-replay replay: read" "$tmp/kill.err"; }
sleep_a_little_after() { said_what_it_read && sleep 0.2; }
kill_a_rank "a rank killed while replaying" sleep_a_little_after

# While the ranks stream their timelines to rank 0: rank 0 has opened the file's temporary sibling. The timeline is
# then not written at all.
mkdir "$tmp/tl"
streaming() { compgen -G "$tmp/tl/timeline.json.tmp.*" > /dev/null; }
kill_a_rank "a rank killed while streaming its timeline" streaming --no-what-ifs --timeline "$tmp/tl/timeline.json"
[ ! -e "$tmp/tl/timeline.json" ] || { echo "FAILED: a timeline was written by a run that lost a rank"; exit 1; }
