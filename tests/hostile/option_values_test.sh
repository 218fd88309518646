#!/usr/bin/env bash
# Option values that once passed silently: --perturb nan or negative (the noise section went missing), --map
# factors outside a speed's range [1e-6, 1e6], a reversed or non-finite --window, and a --nodes or graph --node
# the trace does not have (exit 0, an empty timeline or graph). Each is a usage error naming the option.
bin=$1 src=$2
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ghost=$src/data/traces/real/full_ghost_b2_cpu2
circuit=$src/data/traces/real/full_circuit_2node_p4_cpu2
titan=$src/data/machines/titan.toml
s3d=$src/data/traces/s3d/dme_mixed_4n

for sigma in nan NaN inf -inf -0.5 4.5; do
  expect 2 "--perturb: '$sigma' is not a finite number from 0 to 4" -- "$bin" replay -q "$ghost" -m "$titan" --perturb "$sigma"
done
expect 0 "" -- "$bin" replay -q "$ghost" -m "$titan" --perturb 0.1 --samples 2

for factor in 4.9e-324 1e-7 2e6 nan inf 0; do
  expect 1 "--map 18=gpu:$factor: the factor must be a number from 1e-6 to 1e6" -- \
    "$bin" replay -q "$s3d" -m "$titan" --map "18=gpu:$factor"
done
printf '[[move]]\nfunction = 18\nto = "gpu"\nfactor = 4.9e-324\n' > "$tmp/map.toml"
expect 1 "map.toml:4: 'move.factor' must be > 0, a number from 1e-6 to 1e6" -- "$bin" replay -q "$s3d" -m "$titan" --mapping "$tmp/map.toml"
expect 0 "" -- "$bin" replay -q "$s3d" -m "$titan" --map 18=gpu:1e-6 --map 20=gpu:1e6
# A move of a function the trace does not have, or to a kind the machine lacks, would replay as if not given.
expect 1 "--map 99=gpu: the trace has no task of function 99" -- "$bin" replay -q "$s3d" -m "$titan" --map 99=gpu
expect 1 "--map 7=gpu: machine 'traced' has no GPU processor to run function 7 on" -- "$bin" replay -q "$ghost" -m traced --map 7=gpu

tl=(--timeline "$tmp/tl.json")
expect 2 "--window .* not '5:1': it starts after it ends" -- "$bin" replay -q "$circuit" -m "$titan" "${tl[@]}" --window 5:1
for w in nan:nan 0:inf -1:5 1x:2 :1e30; do
  expect 2 "--window takes A:B in microseconds .* is not a time from 0 to 2^60 ns" -- \
    "$bin" replay -q "$circuit" -m "$titan" "${tl[@]}" --window "$w"
done
expect 2 "--nodes 99: the replay's model has node(s) 0 to 1" -- "$bin" replay -q "$circuit" -m "$titan" "${tl[@]}" --nodes 0,99
expect 0 "" -- "$bin" replay -q "$circuit" -m "$titan" "${tl[@]}" --window 0:20000 --nodes 1
expect 2 "--node 99: no operation runs on that node (the trace's operations are on 0, 1)" -- \
  "$bin" graph -q "$circuit" --json --node 99
expect 2 "" -- "$bin" graph -q "$circuit" --json --node -1
expect 0 "" -- "$bin" graph -q "$circuit" --json --node 1 --force
exit $fail
