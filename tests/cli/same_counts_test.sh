#!/usr/bin/env bash
# realm-replay stats gives the same totals for a trace as a folder, as single gzip files and as a .tar.zst.
set -euo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
trace=$src/data/traces/real/full_circuit_2node_p4_cpu2
mkdir "$tmp/plain"
for f in "$trace"/node_*.log.zst; do zstd -q -dc "$f" > "$tmp/plain/$(basename "${f%.zst}")"; done
tar -C "$tmp" -cf - plain | zstd -q -o "$tmp/trace.tar.zst"
gzip -k "$tmp"/plain/node_0.log "$tmp"/plain/node_1.log
totals() { "$bin" stats --json "$@" | python3 -c 'import json,sys; d=json.load(sys.stdin); t=d["total"]; t.pop("stored_bytes"); print(json.dumps(t, sort_keys=True))'; }
a=$(totals "$trace")
b=$(totals "$tmp/plain/node_0.log.gz" "$tmp/plain/node_1.log.gz")
c=$(totals "$tmp/trace.tar.zst")
d=$(totals "$tmp/plain/node_0.log" "$tmp/plain/node_1.log")
[ "$a" = "$b" ] || { echo "folder and gzip files differ"; echo "$a"; echo "$b"; exit 1; }
[ "$a" = "$c" ] || { echo "folder and .tar.zst differ"; echo "$a"; echo "$c"; exit 1; }
[ "$a" = "$d" ] || { echo "folder and plain files differ"; exit 1; }
echo "same totals from folder, gzip files, plain files and .tar.zst"
