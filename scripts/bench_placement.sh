#!/usr/bin/env bash
# Placement what-ifs on one trace, timed: a CPU-bound generated trace (fork-join, 24 tasks per stage, traced on
# 2 CPUs per node) swept over the model's CPU count under pool placement, against the infinite-resource lower
# bound; and the S3D mixed sample with its CPU functions moved to the GPU, against the all-GPU sample.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${REALM_REPLAY:-build/apps/realm-replay}
[ -x "$bin" ] || scripts/build.sh
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
"$bin" gen fork-join --width 24 --stages 200 --nodes 2 --cpus 2 --seed 3 -o "$dir/fj" >/dev/null
echo "== pool placement, CPUs per node 2..16 (fork-join, 200 stages of 24 tasks, 2 nodes)"
start=$(date +%s.%N)
"$bin" sweep -q "$dir/fj" -m data/machines/titan.toml --placement pool --vary processors.cpu.count=2,4,8,16 \
  --json -o "$dir/sweep.json" >/dev/null
end=$(date +%s.%N)
python3 - "$dir/sweep.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["runs"]:
    print(f"  {r['machine']:<28} estimate {r['estimated_ns']/1e6:10.3f} ms   lower bound {r['lower_bound_ns']/1e6:10.3f} ms")
PY
echo "  sweep wall time: $(python3 -c "print(f'{$end - $start:.2f}')") s"
echo "== S3D DME on Titan, 4 nodes"
for args in "data/traces/s3d/dme_all_4n" "data/traces/s3d/dme_mixed_4n" \
            "data/traces/s3d/dme_mixed_4n --map 18=gpu:0.0191 --map 20=gpu:0.0153"; do
  # shellcheck disable=SC2086
  printf '  %-70s %s\n' "$args" "$("$bin" replay -q $args -m data/machines/titan.toml | sed -n 's/Estimated run time: //p')"
done
