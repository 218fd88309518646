#!/usr/bin/env bash
# Installs dependencies, builds, and runs the whole test suite (ctest). With --asan: the same under ASan+UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install_deps.sh
dir=build
if [ "${1:-}" = "--asan" ]; then
  dir=build-asan
  scripts/build.sh --asan
else
  scripts/build.sh
fi
cd "$dir"
ctest --output-on-failure --parallel "$(nproc)"
