#!/usr/bin/env bash
# On a process allowed one core (taskset, mpirun's binding, a container's cpuset), "all cores" (-j 0, the default)
# means that one core: the commands that work side by side ask oneTBB for no more threads than it has, which it
# would refuse with a warning on standard error. With -q, standard error stays empty.
set -euo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
trace=$src/data/traces/s3d/dme_mixed_4n titan=$src/data/machines/titan.toml
quiet() {
  taskset -c 0 "$bin" "$@" > /dev/null 2> "$tmp/err"
  [ ! -s "$tmp/err" ] || { echo "FAILED: '$*' on one core wrote to standard error:"; cat "$tmp/err"; exit 1; }
}
quiet replay -q "$trace" -m "$titan"
quiet replay -q "$trace" -m "$titan" --perturb 0.1 --samples 4
quiet sweep -q "$trace" -m "$titan" --vary processors.cpu.count=4,12
quiet stats -q "$trace"
echo "one core: nothing on standard error"
