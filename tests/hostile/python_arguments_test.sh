#!/usr/bin/env bash
# The Python module's arguments: a path holding a NUL character raises realm_replay.Error (the operating system
# would open the path up to the NUL), and a thread count past the limit raises ValueError naming it, as -j does.
# The full checks are in tests/python/test_realm_replay.py; this runs them on the module next to the program.
bin=$1 src=$2
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
module=$(dirname "$bin")/../python
ls "$module"/realm_replay*.so >/dev/null 2>&1 || { echo "ok: no Python module built: skipped"; exit 0; }
python=/usr/bin/python3; [ -x "$python" ] || python=python3
check "NUL in paths and thread counts are refused" env PYTHONPATH="$module" "$python" -c "
import realm_replay as rr, sys
titan = sys.argv[1] + '/data/machines/titan.toml'
ghost = sys.argv[1] + '/data/traces/real/full_ghost_b2_cpu2'
for call in (lambda: rr.machine(titan + '\x00junk'), lambda: rr.read(ghost + '\x00'), lambda: rr.read([ghost, ghost + '\x00x'])):
    try:
        call()
        sys.exit('a path with a NUL was accepted')
    except rr.Error as e:
        assert 'a path cannot hold a NUL character' in str(e), e
try:
    rr.read(ghost, threads=100000)
    sys.exit('threads=100000 was accepted')
except ValueError as e:
    assert 'more than the limit of 1024' in str(e), e
assert rr.machine(titan).name
" "$src"
exit $fail
