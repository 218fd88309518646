#!/usr/bin/env bash
# The fidelity report: builds, then replays every real trace on its traced machine against its measured time and
# writes docs/fidelity.md (scripts/fidelity.py).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh
python3 scripts/fidelity.py build/apps/realm-replay docs/fidelity.md
