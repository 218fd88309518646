#!/usr/bin/env bash
# Regenerates the oracle of the Legion Prof sample runs from the independent decoder (legion-prof-dump.py in
# the shared tools beside the repository): per run, decoder_counts.json (the record count of every type, per
# file and in total) and decoder_first.txt (the first 3 records of every type, per file), which the reader's
# tests compare against, and decoder_span.json (the observed run from the first start to the last stop of
# the work items, copies and fills; the program's own thread and the profiler's responses left out), which `replay --against-observed`
# must report as the observed makespan. usage: scripts/make_prof_oracle.sh [PATH/TO/legion-prof-dump.py]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tool=${1:-${LEGION_PROF_DUMP:-../shared/tools/legion-prof-dump.py}}
if [ ! -f "$tool" ]; then
  echo "make_prof_oracle.sh: the independent decoder is not at '$tool'." >&2
  echo "  It is expected as ../shared/tools/legion-prof-dump.py beside the repository;" >&2
  echo "  give its path as the first argument (or in LEGION_PROF_DUMP) if it is elsewhere." >&2
  exit 1
fi
tool=$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")
command -v python3 >/dev/null || { echo "make_prof_oracle.sh: python3 is needed to run the decoder" >&2; exit 1; }

runs=0
for run in "$root"/data/traces/legion-prof/*/; do
  ls "$run"prof_*.gz >/dev/null 2>&1 || continue
  # Run inside the folder so that the outputs name the files as prof_N.gz, not by a path of this machine.
  (
    cd "$run"
    files=$(ls prof_*.gz | sort -t_ -k2 -n)
    # shellcheck disable=SC2086
    python3 "$tool" --json $files > decoder_counts.json.tmp
    # shellcheck disable=SC2086
    python3 "$tool" --first 3 $files > decoder_first.txt.tmp
    # shellcheck disable=SC2086
    python3 "$tool" --first 1000000000 $files | python3 -c '
import json, re, sys
kinds = ("TaskInfo", "GPUTaskInfo", "MetaInfo", "MessageInfo", "PartitionInfo", "CopyInfo", "FillInfo")
first = last = None
ops = 0
for line in sys.stdin:
    m = re.match(r"\s*(\w+): (.*)", line)
    if not m or m.group(1) not in kinds:
        continue
    fields = dict(kv.split("=", 1) for kv in m.group(2).split() if "=" in kv)
    start, stop = int(fields["start"]), int(fields["stop"])
    first = start if first is None else min(first, start)
    last = stop if last is None else max(last, stop)
    ops += 1
json.dump({"operations": ops, "first_start_ns": first, "last_stop_ns": last, "observed_makespan_ns": last - first},
          sys.stdout, indent=1)
print()
' > decoder_span.json.tmp
    mv decoder_counts.json.tmp decoder_counts.json
    mv decoder_first.txt.tmp decoder_first.txt
    mv decoder_span.json.tmp decoder_span.json
  )
  runs=$((runs + 1))
  echo "$(basename "$run"): $(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["total"]; print(sum(t.values()), "records,", len(t), "types")' "$run/decoder_counts.json")"
done
[ "$runs" -gt 0 ] || { echo "make_prof_oracle.sh: no run folder with prof_*.gz under data/traces/legion-prof" >&2; exit 1; }
echo "oracle written for $runs run(s)"
