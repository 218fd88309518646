#!/usr/bin/env bash
# One replay split by node over threads (-j, docs/replay.md) writes what one thread writes: the report (text and
# JSON, but for the thread count the JSON context records), the critical path and the timeline, on a trace large
# enough to be split (599,296 operations: up to four blocks of 150,000 or more).
set -euo pipefail
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" gen s3d --mechanism heptane --strategy mixed --nodes 32 --steps 2 -o "$tmp/t" > /dev/null
for j in 1 2 4; do
  "$bin" -j $j replay -q "$tmp/t" -m "$2/data/machines/titan.toml" --json --timeline "$tmp/tl$j.json" \
    | grep -v '"threads":' > "$tmp/r$j.json"
  "$bin" -j $j replay -q "$tmp/t" -m "$2/data/machines/titan.toml" > "$tmp/r$j.txt"
  "$bin" -j $j critpath -q "$tmp/t" -m "$2/data/machines/titan.toml" --json | grep -v '"threads":' > "$tmp/c$j.json"
done
for j in 2 4; do
  cmp "$tmp/r1.json" "$tmp/r$j.json"
  cmp "$tmp/r1.txt" "$tmp/r$j.txt"
  cmp "$tmp/tl1.json" "$tmp/tl$j.json"
  cmp "$tmp/c1.json" "$tmp/c$j.json"
done
grep -q '"estimated_time_ns"' "$tmp/r1.json"
echo "split replay: the same report, critical path and timeline at -j 1, 2 and 4"
