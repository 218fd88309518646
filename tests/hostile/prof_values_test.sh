#!/usr/bin/env bash
# Legion Prof record values are checked where they are read (docs/limits.md): times in [0, 2^60) ns with every
# stop at or after its start, copy and fill sizes at most 2^50 bytes, a MachineDesc's num_nodes from 1 to
# 65,536 with node_id below it, and the files of one trace from one run. Each violation is exit 1 naming the
# file, the byte offset and the record type; a log at the limits still replays.
bin=$1 src=$2
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
scale=${RR_TIME_SCALE:-1}
log() {  # log NAME [prof_log.py arguments]: a one-node Legion Prof trace in $tmp/NAME
  local name=$1; shift
  mkdir -p "$tmp/$name"
  python3 "$(dirname "$0")/prof_log.py" "$tmp/$name/prof_0.gz" "$@" || { echo "FAIL: prof_log.py $*"; fail=1; }
}
at="prof_0.gz: byte [0-9]* of the uncompressed data"
max=9223372036854775807 min=-9223372036854775808

log valid
expect 0 "" -- "$bin" replay -q "$tmp/valid" -m traced

# Times outside [0, 2^60) ns, in every record type that holds one.
i=0
for bad in TaskInfo.stop=$max TaskInfo.start=$min TaskInfo.create=-1 GPUTaskInfo.gpu_stop=$max \
           MetaInfo.ready=1152921504606846976 MessageInfo.spawn=-1 PartitionInfo.stop=$max ProfTaskInfo.start=-5 \
           TaskWaitInfo.wait_end=$max MetaWaitInfo.wait_ready=-1 CopyInfo.stop=$max FillInfo.create=$min \
           InstTimelineInfo.destroy=$max EventTriggerInfo.performed=-1; do
  record=${bad%%.*} field=${bad#*.}; field=${field%%=*}
  log "t$i" "$bad"
  expect 1 "$at: $record record: $field -\?[0-9]* ns is outside \[0, 2^60) ns" -- "$bin" replay -q "$tmp/t$i" -m traced
  i=$((i + 1))
done
# A stop before its start (busy time would go negative).
for pair in TaskInfo.start=20000:start:stop MetaInfo.stop=100:start:stop PartitionInfo.start=19400:start:stop \
            ProfTaskInfo.stop=19000:start:stop GPUTaskInfo.gpu_start=8500:gpu_start:gpu_stop \
            MetaWaitInfo.wait_end=15100:wait_start:wait_end TaskWaitInfo.wait_start=7001:wait_start:wait_end \
            CopyInfo.start=18001:start:stop FillInfo.stop=1:start:stop InstTimelineInfo.create=19001:create:destroy; do
  IFS=: read -r bad from to <<<"$pair"
  log "o$i" "$bad"
  expect 1 "$at: ${bad%%.*} record: $from ([0-9]* ns) is after $to ([0-9]* ns)" -- "$bin" stats -q "$tmp/o$i"
  i=$((i + 1))
done
# The largest time and the largest size still read.
log top TaskInfo.stop=1152921504606846975 CopyInfo.size=1125899906842624
expect 0 "" -- "$bin" stats -q "$tmp/top"

# Copy sizes: a CopyInfo of 2^64-1 bytes once failed only later, on a derived bandwidth.
log copy CopyInfo.size=0xffffffffffffffff
expect 1 "$at: CopyInfo record: size 18446744073709551615 bytes is more than 2^50 bytes" -- \
  "$bin" replay -q "$tmp/copy" -m traced
log fill FillInfo.size=1125899906842625
expect 1 "$at: FillInfo record: size 1125899906842625 bytes is more than 2^50 bytes" -- "$bin" stats -q "$tmp/fill"

# MachineDesc: a node count beyond what 16-bit node ids name (every missing node was listed: seconds and
# gigabytes), and a node outside the run.
for n in 100000000 4294967295 65537 0; do
  log "n$n" --num-nodes "$n"
  expect 1 "$at: MachineDesc record: num_nodes $n is not a node count from 1 to 65536" -- \
    timeout $((5 * scale)) "$bin" replay -q "$tmp/n$n" -m traced
  within_memory 100 "$bin" replay -q "$tmp/n$n" -m traced
done
log outside --node 2 --num-nodes 2
expect 1 "$at: MachineDesc record: node_id 2 is not below num_nodes 2" -- "$bin" stats -q "$tmp/outside"
log last --node 65535 --num-nodes 65536
expect 0 "" -- timeout $((20 * scale)) "$bin" replay -q "$tmp/last" -m traced

# Two runs: logs whose MachineDescs disagree on the run's node count are refused, naming both.
log runs
python3 "$(dirname "$0")/prof_log.py" "$tmp/runs/prof_1.gz" --node 1 --num-nodes 2
expect 1 "runs/prof_1.gz: its MachineDesc gives a run of 2 node(s), .*runs/prof_0.gz's a run of 1: the logs are of different runs" -- \
  "$bin" stats -q "$tmp/runs"
log pair --num-nodes 2
python3 "$(dirname "$0")/prof_log.py" "$tmp/pair/prof_1.gz" --node 1 --num-nodes 2
expect 0 "" -- "$bin" replay -q "$tmp/pair" -m traced
exit $fail
