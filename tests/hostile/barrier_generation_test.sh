#!/usr/bin/env bash
# Issue 14 item 5: a Barrier Arrive or Alter naming generation 2^32-1 (or 16M) made a phase for every generation
# up to it (21 s and 1.9 GB at 16M). Phases exist for the generations records mention and gaps of up to 64;
# a longer gap is one stand-in phase, reported when its arrivals cannot complete it.
bin=$1
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for gen in 4294967295 16777216; do
  for rec in "Barrier Arrive: (20000006,$gen) (20000005,1) (20000005,1) 1" "Barrier Alter: (20000006,$gen) (20000005,1) 1"; do
    d="$tmp/g$gen${rec%%:*}"; d=${d// /_}
    tiny_trace "$d"
    cat >> "$d/node_0.log" <<LOG
[0 - 1] {1}{graph}: Task Time: (20000005,1) 100
[0 - 1] {2}{graph}: Barrier Creation: 20000006 1
[0 - 1] {2}{graph}: Barrier Arrive: (20000006,1) (20000005,1) (20000005,1) 1
[0 - 1] {2}{graph}: $rec
LOG
    expect 0 "" -- "$bin" validate -q "$d" --json
    timeout 30 "$bin" validate -q "$d" --json > "$d/v.json"
    check "generation $gen (${rec%%:*}): a few phases, the gap reported" python3 -c "
import json; d=json.load(open('$d/v.json'))
s=json.dumps(d); assert 'that no record mentions' in s, s[:2000]
assert d['graph']['vertices'] < 20, d['graph']"
    expect 0 "" -- "$bin" replay -q "$d" -m traced
  done
done
exit $fail
