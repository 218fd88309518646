#!/usr/bin/env bash
# Issue 14 item 14: with a cycle the infinite-resource lower bound is undefined (text says so, JSON null), and
# a Task Wait on the task's own finish event is a validate finding.
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

exit $fail
