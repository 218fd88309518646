#!/usr/bin/env bash
# Quick start: install dependencies, build, and run the main job on a bundled sample trace:
# its statistics, then its replay on the traced machine (Titan).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install_deps.sh
scripts/build.sh
trace=${1:-data/traces/real/full_circuit_2node_p4_cpu2}
machine=${2:-data/machines/titan.toml}
echo "== realm-replay stats $trace"
build/apps/realm-replay stats "$trace"
echo
echo "== realm-replay replay $trace --machine $machine"
build/apps/realm-replay replay "$trace" --machine "$machine"
