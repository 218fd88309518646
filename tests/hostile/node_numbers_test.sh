#!/usr/bin/env bash
# Found by fuzz_pipeline: one line whose [node - thread] prefix named node 120000001 made its file that node, and
# the traced machine a model of 120,000,002 nodes: `replay -m traced` ran for minutes and past 8 GB (a Titan
# replay refused it only after 2 s and 0.5 GB). A node number no Realm id can name (above 65,535) in a logger
# prefix is now a malformed line; in a file name or a Legion Prof MachineDesc it names no node.
bin=$1
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
scale=${RR_TIME_SCALE:-1}

tiny_trace "$tmp/t"
echo "[120000001 - 1] {2}{graph}: Task Time: (20000005,1) 10" >> "$tmp/t/node_0.log"
echo "[120000001 - 1] {2}{graph}: Task Time: (20000005,1) 10" >> "$tmp/t/node_0.log"
expect 0 "" -- timeout $((10 * scale)) "$bin" replay -q -m traced "$tmp/t"
expect 1 "node_0.log:4: node 120000001 in the logger prefix is beyond the largest a Realm id names (65535)" -- \
  "$bin" stats -q --strict "$tmp/t"
"$bin" stats -q --json "$tmp/t" > "$tmp/s.json"
check "the lines are counted malformed (value_out_of_range)" python3 -c "
import json; t = json.load(open('$tmp/s.json'))['total']
assert t['malformed']['value_out_of_range'] == 2, t['malformed']"
check "the file stays node 0" python3 -c "
import json; n = json.load(open('$tmp/s.json'))['nodes']
assert [x['node'] for x in n] == [0], n"

# The largest node an id names is a node like any other.
tiny_trace "$tmp/top"
sed -i 's/^\[0 - 1\]/[65535 - 1]/' "$tmp/top/node_0.log"
"$bin" stats -q --json "$tmp/top" > "$tmp/top.json"
check "node 65535 is read" python3 -c "
import json; n = json.load(open('$tmp/top.json'))['nodes']
assert [x['node'] for x in n] == [65535], n"

# A file name beyond any node: the file names no node; its lines' prefixes still do.
mkdir "$tmp/named"
tiny_trace "$tmp/plain"
sed "s/^.*{graph}: //" "$tmp/plain/node_0.log" > "$tmp/named/node_999999999.log"
expect 0 "" -- timeout $((10 * scale)) "$bin" replay -q -m traced "$tmp/named"
exit $fail
