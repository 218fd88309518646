#!/usr/bin/env bash
# A replay of hundreds of nodes stays readable as text: the per-node utilisation becomes its spread per kind
# (lowest, median, highest node) and the mapping its first lines and a count; --json still has every node.
set -euo pipefail
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" gen stencil --nodes 200 --cpus 1 --steps 1 -o "$tmp/t" > /dev/null
"$bin" replay -q "$tmp/t" -m traced > "$tmp/r.txt"
grep -q "^Utilisation of the used processors by node: 200 nodes, every one in --json$" "$tmp/r.txt"
grep -Eq "^  CPU: lowest n[0-9]+ [0-9.]+%, median [0-9.]+%, highest n[0-9]+ [0-9.]+%$" "$tmp/r.txt"
# 200 mapping lines, one per traced node: 12 shown, 188 counted.
grep -q "^  \.\.\. 188 more line(s) like these, every one in --json$" "$tmp/r.txt"
[ "$(grep -c "^  traced node" "$tmp/r.txt")" = 12 ]
"$bin" replay -q "$tmp/t" -m traced --json > "$tmp/r.json"
python3 - "$tmp/r.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert len(j["nodes"]) == 200, len(j["nodes"])
assert len([m for m in j["mapping"] if m.startswith("traced node")]) == 200, j["mapping"][:3]
PY
# Up to 64 nodes, every node is listed on the line as before.
"$bin" gen stencil --nodes 64 --cpus 1 --steps 1 -o "$tmp/s" > /dev/null
"$bin" replay -q "$tmp/s" -m traced | grep "^Utilisation of the used processors by node:" | grep -q " n63 CPU "
echo "many nodes: summarised as text, complete as JSON"
