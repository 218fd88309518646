#!/usr/bin/env bash
# A replay of many nodes fits one screen as text: the per-node utilisation becomes its spread per kind (lowest,
# median, highest node and the outliers), the mapping one line per kind for the nodes that map alike, and no line
# is over 160 characters; --json still has every node.
set -euo pipefail
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
long_lines() { awk 'length($0) > 160 { print FILENAME ":" NR ": " length($0) " characters" }' "$1"; }

"$bin" gen stencil --nodes 200 --cpus 1 --steps 1 -o "$tmp/t" > /dev/null
"$bin" replay -q "$tmp/t" -m traced > "$tmp/r.txt"
grep -q "^Utilisation of the used processors by node (200 nodes: lowest, median, highest, and outliers; every node in --json):$" "$tmp/r.txt"
grep -Eq "^  CPU +n[0-9]+ [0-9.]+%  median [0-9.]+%  n[0-9]+ [0-9.]+%" "$tmp/r.txt"
# 200 traced nodes of one CPU each, on the model nodes of the same numbers: one line.
grep -q "^  traced nodes 0-199 CPU: 1 processor(s) each -> the model node of the same number, 1 of its 1$" "$tmp/r.txt"
[ -z "$(long_lines "$tmp/r.txt")" ] || { long_lines "$tmp/r.txt"; exit 1; }
"$bin" replay -q "$tmp/t" -m traced --json > "$tmp/r.json"
python3 - "$tmp/r.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert len(j["nodes"]) == 200, len(j["nodes"])
assert len([m for m in j["mapping"] if m.startswith("traced node")]) == 200, j["mapping"][:3]
PY
# A 32-node S3D run (three kinds, copies between nodes, three what-ifs): one screen, no line over 160 characters.
"$bin" gen s3d --nodes 32 --steps 1 -o "$tmp/s3d" > /dev/null
"$bin" replay -q "$tmp/s3d" -m traced > "$tmp/s.txt"
[ -z "$(long_lines "$tmp/s.txt")" ] || { long_lines "$tmp/s.txt"; exit 1; }
[ "$(wc -l < "$tmp/s.txt")" -le 60 ] || { echo "FAIL: $(wc -l < "$tmp/s.txt") lines for 32 nodes"; exit 1; }
# Up to 8 nodes, every node is listed, one line per kind.
"$bin" gen stencil --nodes 8 --cpus 1 --steps 1 -o "$tmp/e" > /dev/null
"$bin" replay -q "$tmp/e" -m traced | grep "^  CPU  " | grep -q " n7 "
echo "many nodes: one screen of text, complete as JSON"
