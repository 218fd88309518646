#!/usr/bin/env bash
# Regenerates the oracle of the Legion Prof sample runs from the independent decoder (legion-prof-dump.py in
# the shared tools beside the repository): per run, decoder_counts.json (the record count of every type, per
# file and in total) and decoder_first.txt (the first 3 records of every type, per file), which the reader's
# tests compare against. usage: scripts/make_prof_oracle.sh [PATH/TO/legion-prof-dump.py]
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
    mv decoder_counts.json.tmp decoder_counts.json
    mv decoder_first.txt.tmp decoder_first.txt
  )
  runs=$((runs + 1))
  echo "$(basename "$run"): $(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["total"]; print(sum(t.values()), "records,", len(t), "types")' "$run/decoder_counts.json")"
done
[ "$runs" -gt 0 ] || { echo "make_prof_oracle.sh: no run folder with prof_*.gz under data/traces/legion-prof" >&2; exit 1; }
echo "oracle written for $runs run(s)"
