#!/usr/bin/env bash
# replay --timeline writes Chrome-trace JSON: named tracks per processor and channel, tasks named by function,
# copies by size; --window and --nodes filter it.
set -euo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
trace=$src/data/traces/s3d/dme_mixed_2n
"$bin" replay "$trace" -m "$src/data/machines/titan.toml" --timeline "$tmp/all.json" > /dev/null
"$bin" replay "$trace" -m "$src/data/machines/titan.toml" --timeline "$tmp/part.json" --window 0:20000 --nodes 1 > /dev/null
python3 - "$tmp/all.json" "$tmp/part.json" <<'PY'
import json, sys
full = json.load(open(sys.argv[1]))["traceEvents"]
part = json.load(open(sys.argv[2]))["traceEvents"]
spans = [e for e in full if e["ph"] == "X"]
names = {e["args"]["name"] for e in full if e["ph"] == "M" and e["name"] == "thread_name"}
assert any(e["name"].startswith("f") for e in spans), "tasks are named by function id"
assert any(e["name"].startswith("copy ") and e["name"].endswith(" B") for e in spans), "copies are named by size"
assert any(n.startswith("GPU") for n in names) and any(n.startswith("CPU") for n in names), names
assert any(n in ("memcpy", "pcie_d2h", "pcie_h2d", "nic") for n in names), names
pspans = [e for e in part if e["ph"] == "X"]
assert 0 < len(pspans) < len(spans)
assert all(e["pid"] == 1 for e in pspans), "--nodes 1 keeps node 1 only"
assert all(e["ts"] <= 20000 for e in pspans), "--window 0:20000 (us)"
print(f"{len(spans)} spans, {len(names)} tracks; filtered: {len(pspans)}")
PY
