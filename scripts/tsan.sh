#!/usr/bin/env bash
# Runs the tests of one replay on several threads (ReplayBlocks: every generator family, the real traces,
# mappings, noise, shared channel instances) under ThreadSanitizer, and fails if any report touches the
# replay's own state. Reports with one access in oneTBB's own code (its task objects, wait contexts and
# partitioners) or in a body lambda just below it (reading the captures the spawning thread wrote) are oneTBB's
# spawn seen without its uninstrumented synchronisation: they are counted, not failed on. Takes 40 minutes on 2 cores. usage: scripts/tsan.sh [GTEST_FILTER]
set -euo pipefail
cd "$(dirname "$0")/.."
filter=${1:-'ReplayBlocks*'}
scripts/install_deps.sh
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRR_SANITIZE_THREAD=ON \
  -DRR_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-tsan --parallel 2 --target rr_replay_tests
log=build-tsan/tsan-report.log
# exitcode=0: the reports are judged below, not by the exit status TSan would give any report.
TSAN_OPTIONS="halt_on_error=0 exitcode=0 history_size=4 suppressions=$PWD/scripts/tsan.supp" \
  build-tsan/tests/replay/rr_replay_tests --gtest_filter="$filter" >"$log" 2>&1 || { tail -20 "$log"; exit 1; }
grep -q '^\[  PASSED  \]' "$log" || { echo "the tests did not pass under ThreadSanitizer"; tail -20 "$log"; exit 1; }
python3 - "$log" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
reports = [r.split('SUMMARY')[0] for r in text.split('WARNING: ThreadSanitizer')[1:]]
def frames(stack):
    return re.findall(r'#\d+ .+? (\S+) \(', stack)
def tbb_plumbing(report):
    # One of the two accesses is oneTBB's own (its task objects, wait contexts, partitioners), or a body lambda
    # straight below oneTBB's frames reading what it captured from the spawning thread's stack.
    stacks = re.split(r'\n  (?=Previous |Location is|Mutex |Thread T)', report)[:2]
    return any(any('/oneapi/tbb/' in f or 'libtbb' in f for f in frames(s)[:3]) for s in stacks)
real = [r for r in reports if not tbb_plumbing(r)]
print(f'ThreadSanitizer: {len(reports)} reports, {len(reports) - len(real)} of them oneTBB\'s own spawning; '
      f'{len(real)} others')
for r in real[:10]: print('=' * 80 + r[:3000])
sys.exit(1 if real else 0)
PY
