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
