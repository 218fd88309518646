#!/usr/bin/env bash
# Sweep grids: a key given to two --vary options is refused (its rows were labelled with the first values but
# all ran with the last), and a grid of more than session::kMaxGridPoints (10,000) points is refused before any
# replay (two keys of 1,000 values ran a minute to 3.9 GB, then ran out of memory).
bin=$1 src=$2
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
ghost=$src/data/traces/real/full_ghost_b2_cpu2
titan=$src/data/machines/titan.toml
scale=${RR_TIME_SCALE:-1}

expect 2 "--vary processors.cpu.speed is given twice" -- \
  "$bin" sweep -q "$ghost" -m "$titan" --vary processors.cpu.speed=1,2 --vary processors.cpu.speed=3
thousand=$(seq -s, 1 1000)
expect 2 "more than 10000 points (the limit of one sweep)" -- timeout $((5 * scale)) \
  "$bin" sweep -q "$ghost" -m "$titan" --vary processors.cpu.speed="$thousand" --vary network.latency_ns="$thousand"
within_memory 100 "$bin" sweep -q "$ghost" -m "$titan" --vary processors.cpu.speed="$thousand" --vary network.latency_ns="$thousand"
expect 2 "more than 10000 points" -- timeout $((5 * scale)) \
  "$bin" sweep -q "$ghost" -m "$titan" --vary processors.cpu.speed="$(seq -s, 1 10001)"
expect 0 "" -- "$bin" sweep -q "$ghost" -m "$titan" --vary processors.cpu.speed=1,2 --vary network.latency_ns=1000,2000
exit $fail
