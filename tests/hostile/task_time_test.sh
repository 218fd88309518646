#!/usr/bin/env bash
# Issue 14 item 3: a Task Time beyond the documented limit (2^42 us) is a malformed line named file:line,
# counted, an error under --strict; durations at the limit never overflow the replay's int64 nanoseconds.
bin=$1
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

for t in 9223372036854775 9223372036854776 18446744073709551615 4398046511105; do
  tiny_trace "$tmp/t$t"
  echo "[0 - 1] {1}{graph}: Task Time: (20000005,1) $t" >> "$tmp/t$t/node_0.log"
  expect 0 "node_0.log:4: .*beyond the limit" -- "$bin" stats "$tmp/t$t"
  expect 1 "node_0.log:4" -- "$bin" stats --strict "$tmp/t$t"
done

# At the limit: accepted, and replayed on a processor a million times slower without a negative or wrapped time.
tiny_trace "$tmp/limit"
echo "[0 - 1] {1}{graph}: Task Time: (20000005,1) 4398046511104" >> "$tmp/limit/node_0.log"
expect 0 "" -- "$bin" stats --strict "$tmp/limit"
"$bin" replay -q "$tmp/limit" -m traced --set processors.cpu.speed=1e-6 --json -o "$tmp/slow.json"
check "slow replay: estimate held, not negative" python3 -c "
import json,sys; d=json.load(open('$tmp/slow.json')); t=d['estimated_time_ns']
assert 0 < t <= 2**60, t
"

# A chain of 2200 tasks of 2^42 us each sums past 2^63 ns: the estimate is held at the ceiling, not wrapped.
python3 - "$tmp/chain" <<'PY'
import os, sys
d = sys.argv[1]; os.makedirs(d, exist_ok=True)
with open(os.path.join(d, "node_0.log"), "w") as f:
    f.write("[0 - 1] {2}{graph}: Processor: 80000000 2\n[0 - 1] {2}{graph}: Memory: 60000000 1\n")
    prev = "(0,0)"
    for i in range(2200):
        ev = "(%x,1)" % (0x20000010 + i)
        f.write("[0 - 1] {2}{graph}: Task Request: 4 80000000 %s %s (0,0) 0 0x7fffc2217ac8 8\n" % (ev, prev))
        f.write("[0 - 1] {1}{graph}: Task Time: %s 4398046511104\n" % ev)
        prev = ev
PY
"$bin" replay -q "$tmp/chain" -m traced --json -o "$tmp/chain.json"
check "long chain: estimate held at the ceiling" python3 -c "
import json; d=json.load(open('$tmp/chain.json')); t=d['estimated_time_ns']
assert t == 2**60, t"
"$bin" critpath -q "$tmp/chain" -m traced --json > "$tmp/crit.json"
check "long chain: critical path not negative" python3 -c "
import json; d=json.load(open('$tmp/crit.json'))
def walk(x):
    if isinstance(x, dict): [walk(v) for v in x.values()]
    elif isinstance(x, list): [walk(v) for v in x]
    elif isinstance(x, (int, float)) and not isinstance(x, bool): assert x >= -1, x
walk(d)"
exit $fail
