# Shared by the hostile-input tests: `expect CODE PATTERN -- command...` checks a command's exit code and that
# its stderr holds PATTERN; `tiny_trace DIR` writes a one-node trace of one CPU task that later lines extend.
set -uo pipefail
fail=0
expect() {
  local want=$1 pattern=$2; shift 3
  local out rc
  out=$(timeout 60 "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" != "$want" ]; then echo "FAIL ($rc, wanted $want): $*"; echo "$out" | head -20; fail=1; return; fi
  if [ -n "$pattern" ] && ! grep -q -- "$pattern" <<<"$out"; then echo "FAIL (no '$pattern' in stderr): $*"; echo "$out" | head -20; fail=1; return; fi
  echo "ok: $want $*"
}
check() {  # check MESSAGE CONDITION-COMMAND...
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
tiny_trace() {
  mkdir -p "$1"
  cat > "$1/node_0.log" <<'LOG'
[0 - 1] {2}{graph}: Processor: 80000000 2
[0 - 1] {2}{graph}: Memory: 60000000 1
[0 - 1] {2}{graph}: Task Request: 4 80000000 (20000005,1) (0,0) (0,0) 0 0x7fffc2217ac8 8
LOG
}
# `within_memory MIB command...`: the command's peak resident set (its own and its children's) stays under MIB.
# Skipped in sanitizer and debug builds (RR_TIME_SCALE above 1), whose shadow memory says nothing of the product's.
within_memory() {
  local limit=$1; shift
  [ "${RR_TIME_SCALE:-1}" = 1 ] || { echo "ok: (memory not checked in an instrumented build) $*"; return; }
  local peak
  peak=$(python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)' "$@")
  check "peak $peak MiB under $limit MiB: $*" test "$peak" -lt "$limit"
}
