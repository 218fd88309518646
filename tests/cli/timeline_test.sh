#!/usr/bin/env bash
# replay --timeline writes Chrome-trace JSON: named tracks per processor and channel, tasks named by function
# (from the names.toml beside the trace), copies by size; the critical path as a process of its own, with flow
# arrows between its steps' operations; --window and --nodes filter it.
set -euo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
trace=$src/data/traces/s3d/dme_mixed_2n
"$bin" replay "$trace" -m "$src/data/machines/titan.toml" --timeline "$tmp/all.json" > /dev/null
"$bin" replay "$trace" -m "$src/data/machines/titan.toml" --timeline "$tmp/part.json" --window 0:20000 --nodes 1 > /dev/null
python3 - "$tmp/all.json" "$tmp/part.json" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
full = doc["traceEvents"]
part = json.load(open(sys.argv[2]))["traceEvents"]
PATH = 999999
path = [e for e in full if e["ph"] == "X" and e["pid"] == PATH]
assert path, "the critical path has a track"
# Its steps tile the run: their durations add up to the estimate (us, as printed to the ns).
assert abs(sum(e["dur"] for e in path) - doc["otherData"]["estimated_time_ns"] / 1000) < 1e-3 * len(path)
assert {e["cat"] for e in path} <= {"compute", "copy", "runtime", "latency", "contention", "issue", "wait"}
flows = [e for e in full if e["ph"] in ("s", "f")]
assert flows and len(flows) % 2 == 0 and all(e["pid"] != PATH for e in flows), "arrows join the operations' own tracks"
spans = [e for e in full if e["ph"] == "X" and e["pid"] != PATH]
names = {e["args"]["name"] for e in full if e["ph"] == "M" and e["name"] == "thread_name"}
tasks = [e["name"] for e in spans if not e["name"].startswith("copy ")]
# The trace's names.toml names every function it runs: no task is left as a bare id (f20).
assert "rk_update" in tasks and "driver" in tasks, "tasks are named by function"
assert not any(re.fullmatch(r"f\d+( \(resumed\))?", n) for n in tasks), [n for n in tasks if n.startswith("f")][:5]
assert any(e["name"].startswith("copy ") and e["name"].endswith(" B") for e in spans), "copies are named by size"
assert any(n.startswith("GPU") for n in names) and any(n.startswith("CPU") for n in names), names
assert any(n in ("memcpy", "pcie_d2h", "pcie_h2d", "nic") for n in names), names
pspans = [e for e in part if e["ph"] == "X" and e["pid"] != PATH]
assert 0 < len(pspans) < len(spans)
assert all(e["pid"] == 1 for e in pspans), "--nodes 1 keeps node 1 only"
assert all(e["ts"] <= 20000 for e in pspans), "--window 0:20000 (us)"
print(f"{len(spans)} spans, {len(names)} tracks; filtered: {len(pspans)}")
PY
