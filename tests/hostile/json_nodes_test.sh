#!/usr/bin/env bash
# Issue 14 item 9: one Processor record whose id names node 65535 gives the model 65,536 nodes; `replay
# --json` must stay linear in them (it built the per-node object key by key, quadratically: 27 s).
bin=$1 src=$2
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/t"
cat > "$tmp/t/node_0.log" <<'LOG'
[0 - 1] {2}{graph}: Processor: 1d00000000000000 1
[0 - 1] {2}{graph}: Processor: ffffffffffffffff 1
[0 - 1] {2}{graph}: Memory: 1e00000000000000 1
[0 - 1] {2}{graph}: Task Request: 4 1d00000000000000 (2000000000000005,1) (0,0) (0,0) 0 0x7fffc2217ac8 8
[0 - 1] {1}{graph}: Task Time: (2000000000000005,1) 100
LOG
start=$(date +%s)
expect 0 "" -- "$bin" replay -q "$tmp/t" -m "$src/data/machines/titan.toml" --json -o "$tmp/r.json"
took=$(( $(date +%s) - start ))
bound=$(( 10 * ${RR_TIME_SCALE:-1} ))  # quadratic took 23-27 s in an optimised build; linear about 3 s
check "replay --json on 65536 model nodes took ${took}s (< $bound s)" test "$took" -lt "$bound"
check "every model node reported" python3 -c "
import json; d=json.load(open('$tmp/r.json')); n=d['nodes']
assert len(n) == 65536, len(n); assert list(n)[:3] == ['0', '1', '2'], list(n)[:3]"
exit $fail
