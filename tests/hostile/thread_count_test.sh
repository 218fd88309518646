#!/usr/bin/env bash
# Thread counts are bounded (session::kMaxThreads): a count past the limit is a usage error naming it, given
# before any thread is made, wherever -j goes (before or after the subcommand); the limit itself still runs.
bin=$1 src=$2
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
ghost=$src/data/traces/real/full_ghost_b2_cpu2

for n in 1025 3000000 16777216 4294967296 99999999999999999999999; do
  expect 2 "more than the limit of 1024" -- "$bin" -j "$n" stats -q "$ghost"
  expect 2 "more than the limit of 1024" -- "$bin" stats -j "$n" -q "$ghost"
done
expect 2 "more than the limit of 1024" -- "$bin" replay --threads 2000 -q "$ghost" -m traced
within_memory 100 "$bin" -j 3000000 stats -q "$ghost"
expect 2 "" -- "$bin" stats -j -1 -q "$ghost"
expect 2 "" -- "$bin" stats -j many -q "$ghost"
expect 0 "" -- "$bin" stats -j 1024 -q "$ghost"
expect 0 "" -- "$bin" stats -j 0 -q "$ghost"
exit $fail
