#!/usr/bin/env bash
# Issue 14 items 4 and 11: machine values are finite and in their documented ranges (docs/limits.md), and
# processor counts are bounded, with errors naming the file:line or the --set key; never a crash or nonsense.
bin=$1 src=$2
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ghost=$src/data/traces/real/full_ghost_b2_cpu2
titan=$src/data/machines/titan.toml

for v in nan inf -inf 1e-300 0 -1 1e7; do
  expect 1 "'processors.cpu.speed' (--set) must be a finite number" -- "$bin" replay -q "$ghost" -m "$titan" --set processors.cpu.speed=$v
done
expect 1 "'processors.gpu.function_speed.7' (--set) must be a finite number" -- \
  "$bin" replay -q "$ghost" -m "$titan" --set processors.gpu.function_speed.7=nan
expect 1 "'channels.nic.bandwidth_gbs' (--set) must be a finite number" -- "$bin" replay -q "$ghost" -m "$titan" --set channels.nic.bandwidth_gbs=inf
for key in network.latency_ns runtime.task_launch_ns runtime.merge_ns processors.cpu.segment_overhead_ns; do
  expect 1 "'$key' (--set) must be in \[0, 1000000000000000\]" -- "$bin" replay -q "$ghost" -m "$titan" --set $key=9223372036854775000
done
expect 1 "'channels.nic.lanes' (--set) must be in \[1, 65536\]" -- "$bin" replay -q "$ghost" -m "$titan" --set channels.nic.lanes=100000
expect 0 "" -- "$bin" replay -q "$ghost" -m "$titan" --set processors.cpu.speed=1e-6 --set network.latency_ns=1000000000000000

# In a file: the error names the file and the line of the value.
sed 's/^speed = 2.0 .*/speed = nan/' "$src/data/machines/modern_multigpu.toml" > "$tmp/nan.toml"
line=$(grep -n '^speed = nan' "$tmp/nan.toml" | head -1 | cut -d: -f1)
[ -n "$line" ] || { echo "FAIL: test machine not edited"; fail=1; }
expect 1 "nan.toml:$line: .*must be a finite number" -- "$bin" replay -q "$ghost" -m "$tmp/nan.toml"

# Processor counts: per node at most 65536, and in all (counts x model nodes) at most 2^20.
expect 1 "'processors.cpu.count' (--set) must be in \[0, 65536\]" -- "$bin" replay -q "$ghost" -m "$titan" --set processors.cpu.count=100000000
expect 1 "'processors.cpu.count' (--set) must be an integer" -- "$bin" replay -q "$ghost" -m "$titan" --set processors.cpu.count=1e8
expect 1 "per_node' lists counts" -- "$bin" replay -q "$ghost" -m "$titan" --set "processors.cpu.per_node=[1, 70000]"
# 65536 of each kind per node is allowed on one model node; on 8 (a node map putting the trace's one node on
# model node 7), 3 kinds x 65536 x 8 is past the total.
tiny_trace "$tmp/one"
echo "[0 - 1] {1}{graph}: Task Time: (20000005,1) 10" >> "$tmp/one/node_0.log"
big=(--set processors.cpu.count=65536 --set processors.gpu.count=65536 --set processors.utility.count=65536)
expect 0 "" -- "$bin" replay -q "$tmp/one" -m "$titan" "${big[@]}"
echo 'node_map = [7]' > "$tmp/map.toml"
expect 1 "more than the limit of 1048576" -- "$bin" replay -q "$tmp/one" -m "$titan" "${big[@]}" --mapping "$tmp/map.toml"
exit $fail
