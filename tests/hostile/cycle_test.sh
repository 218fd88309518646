#!/usr/bin/env bash
# Issue 14 items 14 and 12: with a cycle the infinite-resource lower bound is undefined (text says so, JSON
# null), a Task Wait on the task's own finish event is a validate finding, and `gen stencil --inject-cycle`
# makes a cycle that validate reports.
bin=$1
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$bin" gen chain --length 20 --inject-cycle -o "$tmp/chain" > /dev/null
out=$("$bin" critpath -q "$tmp/chain" -m "$tmp/chain/machine.toml")
check "critpath text: lower bound undefined" grep -q "lower bound: undefined (the graph has a cycle)" <<<"$out"
"$bin" critpath -q "$tmp/chain" -m "$tmp/chain/machine.toml" --json > "$tmp/c.json"
check "critpath JSON: lower bound null" python3 -c "
import json; d=json.load(open('$tmp/c.json')); assert d['lower_bound_ns'] is None, d['lower_bound_ns']"

tiny_trace "$tmp/self"
cat >> "$tmp/self/node_0.log" <<'LOG'
[0 - 1] {1}{graph}: Task Wait: (20000005,1) (20000005,1) 40
[0 - 1] {1}{graph}: Task Time: (20000005,1) 100
LOG
"$bin" validate -q "$tmp/self" --json > "$tmp/v.json"
check "validate: wait on own finish is a finding" python3 -c "
import json; d=json.load(open('$tmp/v.json')); assert d['findings']['wait_on_own_finish'] == 1, d['findings']"
expect 1 "" -- "$bin" validate -q "$tmp/self" --fail-on-findings
expect 0 "" -- "$bin" replay -q "$tmp/self" -m traced

for dims in 1 3; do
  "$bin" gen stencil --dims $dims --nodes 4 --steps 3 --inject-cycle -o "$tmp/st$dims" > /dev/null
  "$bin" validate -q "$tmp/st$dims" --json > "$tmp/st$dims.json"
  check "gen stencil --dims $dims --inject-cycle: validate finds the cycle" python3 -c "
import json; d=json.load(open('$tmp/st$dims.json')); assert d['findings']['cycle'] >= 1, d['findings']"
done
exit $fail
