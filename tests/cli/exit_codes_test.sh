#!/usr/bin/env bash
# Exit codes (0 ok, 1 bad input, 2 usage) and the one-line messages that name the bad file.
set -uo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
expect() {  # expect CODE PATTERN -- command...
  local want=$1 pattern=$2; shift 3
  local out rc
  out=$("$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" != "$want" ]; then echo "FAIL ($rc, wanted $want): $*"; echo "$out"; fail=1; return; fi
  if [ -n "$pattern" ] && ! grep -q -- "$pattern" <<<"$out"; then echo "FAIL (no '$pattern' in stderr): $*"; echo "$out"; fail=1; return; fi
  echo "ok: $want $*"
}
ghost=$src/data/traces/real/full_ghost_b2_cpu2
expect 1 "no such file or directory" -- "$bin" stats "$tmp/missing"
expect 2 "" -- "$bin" stats --no-such-option "$ghost"
expect 2 "" -- "$bin" stats
expect 2 "" -- "$bin"
expect 0 "" -- "$bin" stats "$ghost"
mkdir "$tmp/bad"
zstd -q -dc "$ghost/node_0.log.zst" > "$tmp/bad/node_0.log"
echo "[0 - 7f] {2}{graph}: Task Time: (2000zz,1) 5" >> "$tmp/bad/node_0.log"
expect 0 "" -- "$bin" stats "$tmp/bad"
expect 1 "malformed Task Time record" -- "$bin" stats --strict "$tmp/bad"
# Every command that reads a trace shares the reading options and prints the reading summary on stderr.
titan=$src/data/machines/titan.toml
expect 0 "1 malformed line(s) skipped" -- "$bin" replay "$tmp/bad" -m "$titan"
expect 0 "node_0.log:3887: malformed Task Time record" -- "$bin" critpath "$tmp/bad" -m "$titan"
for cmd in "replay -m $titan" "critpath -m $titan" "profile -m $titan" "validate --json" "graph --json --force" \
           "sweep -m $titan --vary processors.cpu.speed=1,2" "compare -m $titan"; do
  # shellcheck disable=SC2086
  expect 1 "malformed Task Time record" -- "$bin" ${cmd%% *} --strict "$tmp/bad" ${cmd#* }
done
expect 0 "" -- "$bin" replay -q "$tmp/bad" -m "$titan"
[ -z "$("$bin" replay -q "$tmp/bad" -m "$titan" 2>&1 >/dev/null)" ] || { echo "FAIL: --quiet still prints"; fail=1; }
expect 1 "finding(s) (--fail-on-findings)" -- "$bin" validate --fail-on-findings "$src/data/traces/real/full_circuit_2node_p4_cpu2"
printf '\x28\xb5\x2f\xfdthis is not zstd' > "$tmp/bad/node_1.log.zst"
expect 1 "node_1.log.zst: byte" -- "$bin" stats "$tmp/bad"
expect 0 "skipped .*node_1.log.zst" -- "$bin" stats --keep-going "$tmp/bad"
head -c 300 /dev/urandom > "$tmp/random.bin"; printf '\0\0\0' >> "$tmp/random.bin"
expect 1 "random.bin" -- "$bin" stats "$tmp/random.bin"
: > "$tmp/node_0.log"
expect 1 "empty trace" -- "$bin" stats "$tmp/node_0.log"
expect 1 "unknown key" -- "$bin" replay "$ghost" -m "$src/data/machines/titan.toml" --set network.speed=1
expect 1 "cannot open machine file" -- "$bin" replay "$ghost" -m "$tmp/none.toml"
expect 2 "" -- "$bin" replay "$ghost"
expect 2 "limit" -- "$bin" graph --dot "$ghost" --limit 10
expect 1 "not JSON" -- "$bin" diff "$src/data/machines/titan.toml" "$src/data/machines/titan.toml"
echo "{\"schema\": \"realm-replay/stats\"}" > "$tmp/stats.json"
expect 1 "not a replay report" -- "$bin" diff "$tmp/stats.json" "$tmp/stats.json"
exit $fail
