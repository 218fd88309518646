#!/usr/bin/env bash
# Regenerates the bundled synthetic samples in data/traces/s3d/: DME, mappings all and mixed, 2 and 4 nodes,
# one time step, zstd-compressed. Deterministic: the same command gives byte-identical files.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${REALM_REPLAY:-build/apps/realm-replay}
[ -x "$bin" ] || scripts/build.sh
for mapping in all mixed; do
  for nodes in 2 4; do
    out=data/traces/s3d/dme_${mapping}_${nodes}n
    rm -rf "$out"
    "$bin" gen s3d --mechanism dme --strategy "$mapping" --nodes "$nodes" --steps 1 --seed 1 --compress zstd -o "$out" >/dev/null
  done
done
du -sh data/traces/s3d
