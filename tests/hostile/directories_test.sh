#!/usr/bin/env bash
# A folder where a file goes (a mapping, a node map, a machine, a runs file, a replay report) is an error
# "PATH: is a directory", exit 1 like any unreadable input file: a folder opens as a stream, reads as empty text
# and passed for a file without settings, or failed inside a library without naming the path.
bin=$1 src=$2
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
ghost=$src/data/traces/real/full_ghost_b2_cpu2
titan=$src/data/machines/titan.toml
dir=$src/data/machines

expect 1 "$dir: is a directory" -- "$bin" replay -q "$ghost" -m "$titan" --mapping "$dir"
expect 1 "$dir: is a directory" -- "$bin" replay -q "$ghost" -m "$titan" --fold 1 --node-map "$dir"
expect 1 "$dir: is a directory" -- "$bin" replay -q "$ghost" -m "$dir"
expect 1 "$src/data: is a directory" -- "$bin" diff "$src/data" "$src/data"
expect 1 "$dir: is a directory" -- "$bin" calibrate -q "$dir"
exit $fail
