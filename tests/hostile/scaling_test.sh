#!/usr/bin/env bash
# Issue 14 items 8 and 10, bounded in time: the replay was worse than quadratic in Task Waits per task (80 k
# waits 13.9 s, 500 k more than 300 s), and the parser quadratic in distinct [node - thread] prefixes per file
# (80 k prefixes 2.3 s, 1 M more than 120 s). Both are linear now; the bounds leave room for a slow machine.
bin=$1
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
scale=${RR_TIME_SCALE:-1}
within() {  # within SECONDS MESSAGE command...: the command succeeds in at most SECONDS x RR_TIME_SCALE
  local limit=$(( $1 * scale )) what=$2; shift 2
  local start end
  start=$(date +%s.%N)
  if ! timeout $(( limit * 3 )) "$@" > /dev/null 2>&1; then echo "FAIL: $what: the command failed or timed out"; fail=1; return; fi
  end=$(date +%s.%N)
  if python3 -c "import sys; sys.exit(0 if $end - $start <= $limit else 1)"; then
    echo "ok: $what ($(python3 -c "print(f'{$end - $start:.2f}')") s, bound $limit s)"
  else
    echo "FAIL: $what took $(python3 -c "print(f'{$end - $start:.2f}')") s, more than $limit s"; fail=1
  fi
}

# Sanitizer and debug builds (RR_TIME_SCALE > 1) get inputs that much smaller: still far past the point where
# the quadratic code took minutes (80 k waits: 15 s in an optimised build).
waits=$(( 500000 / scale ))
prefixes=$(( 1000000 / scale ))

# One task waiting many times on events no record produces (each wait measured 10 ns).
tiny_trace "$tmp/waits"
python3 - "$tmp/waits/node_0.log" "$waits" <<'PY'
import sys
with open(sys.argv[1], "a") as f:
    f.write("[0 - 1] {1}{graph}: Task Time: (20000005,1) 100000000\n")
    for i in range(int(sys.argv[2])):
        f.write("[0 - 1] {1}{graph}: Task Wait: (20000005,1) (20000009,%d) 10\n" % (i + 1))
PY
within 20 "replay of one task with $waits waits" "$bin" replay -q "$tmp/waits" -m traced
within 20 "critpath of one task with $waits waits" "$bin" critpath -q "$tmp/waits" -m traced

# Item 14 (the timeline): it was built whole in memory, 2.86 GB for a 127 MB file. Written event by event, its
# peak is that of the replay plus its intervals: well under twice the replay's own.
peak() {  # peak resident KiB of a command
  python3 -c "
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)" "$@"
}
plain=$(peak "$bin" replay -q "$tmp/waits" -m traced)
with_timeline=$(peak "$bin" replay -q "$tmp/waits" -m traced --timeline "$tmp/timeline.json")
if [ "$scale" = 1 ]; then
  check "the timeline ($(( $(stat -c %s "$tmp/timeline.json") / 1000000 )) MB) costs $with_timeline KiB against $plain KiB without" \
    test "$with_timeline" -le $(( 2 * plain ))
else
  # AddressSanitizer keeps freed memory in quarantine (256 MB): peaks there say nothing about the code.
  echo "ok: timeline memory not compared under a sanitizer ($with_timeline KiB against $plain KiB)"
fi
check "the timeline is whole JSON" python3 -c "import json; d = json.load(open('$tmp/timeline.json')); assert len(d['traceEvents']) > $waits"

# Lines each with its own [node - thread] prefix (1,000,000 in an optimised build).
mkdir "$tmp/prefixes"
python3 - "$tmp/prefixes/node_0.log" "$prefixes" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(int(sys.argv[2])):
        f.write("[0 - %x] {2}{graph}: Event Trigger: (20000005,%d) (20000006,1) (20000007,1)\n" % (0x7f0000000000 + i, i + 1))
PY
within 10 "stats of $prefixes distinct prefixes" "$bin" stats -q "$tmp/prefixes"
"$bin" stats "$tmp/prefixes" --json -q > "$tmp/stats.json" 2>/dev/null
check "every line is a record of node 0" python3 -c "
import json, sys; d = json.load(open('$tmp/stats.json'))
s = json.dumps(d); assert '$prefixes' in s, s[:800]"
exit $fail
