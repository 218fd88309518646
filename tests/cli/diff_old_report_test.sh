#!/usr/bin/env bash
# diff reads a replay report of schema 1, whose critical path called contention "queueing": the class lines up
# with the new report's contention, and every other metric is compared as before.
set -euo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" replay "$src/data/traces/s3d/dme_all_2n" -m "$src/data/machines/titan.toml" --no-what-ifs --json -q -o "$tmp/new.json"
python3 - "$tmp/new.json" "$tmp/old.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["schema_version"] = 1
classes = r["critical_path"]["by_class_ns"]
r["critical_path"]["by_class_ns"] = {("queueing" if k == "contention" else k): v for k, v in classes.items()}
del r["critical_path"]["contention_by_resource_ns"]
json.dump(r, open(sys.argv[2], "w"), indent=2)
PY
"$bin" diff "$tmp/old.json" "$tmp/new.json" --json > "$tmp/d.json"
python3 - "$tmp/d.json" <<'PY'
import json, sys
m = {r["metric"]: r for r in json.load(open(sys.argv[1]))["metrics"]}
names = [k for k in m if "queueing" in k]
assert not names, names
c = m["critical_path.by_class_ns.contention"]
assert c["before"] == c["after"] and c["before"] > 0, c
print("a schema-1 report's queueing is read as contention:", c["before"], "ns")
PY
