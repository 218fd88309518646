#!/usr/bin/env bash
# `realm-replay explain A B`: planted pairs made with `gen` (a slower function, a slower network, both), the shares
# adding up to B - A in JSON, the text and HTML reports, the same JSON at 1 and 2 threads, a real Legion Prof pair
# with its observed difference, and one error of each class: runs of two applications, a machine that cannot be
# read, a missing trace, a usage error.
bin=$1 src=$2
# shellcheck source=../hostile/common.sh
. "$src/tests/hostile/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$bin" gen stencil --nodes 4 --steps 30 --seed 3 -o "$tmp/a" > /dev/null
"$bin" gen stencil --nodes 4 --steps 30 --seed 3 --slow 7@1=1.3 -o "$tmp/f" > /dev/null
"$bin" gen stencil --nodes 4 --steps 30 --seed 3 --slow 7@1=1.3 --network-latency 8000 -o "$tmp/fl" > /dev/null
check "the planted trace differs" bash -c "! cmp -s '$tmp/a/node_1.log' '$tmp/f/node_1.log'"

explain_json() {  # explain_json OUT A B [options]
  local out=$1; shift
  "$bin" explain -q "$@" --json -o "$out"
}
explain_json "$tmp/f.json" "$tmp/a" "$tmp/f" -m "$tmp/a/machine.toml" "$tmp/f/machine.toml"
explain_json "$tmp/fl.json" "$tmp/a" "$tmp/fl" -m "$tmp/a/machine.toml" "$tmp/fl/machine.toml" --html "$tmp/fl.html"
check "one slower function: one class, all of B - A" python3 - "$tmp/f.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema"] == "realm-replay/explain", r["schema"]
assert [c["name"] for c in r["classes"]] == ["durations of f7"], r["classes"]
assert r["classes"][0]["share_ns"] == r["difference_ns"] > 0.05 * r["replay_a_ns"], r
PY
check "function and network: shares add up to B - A, each within 5% of its effect" python3 - "$tmp/fl.json" "$tmp/f.json" <<'PY'
import json, sys
r, f = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
shares = {c["kind"]: c["share_ns"] for c in r["classes"]}
assert sum(c["share_ns"] for c in r["classes"]) == r["difference_ns"], r
assert abs(shares["durations"] - f["difference_ns"]) <= 0.05 * f["difference_ns"], (shares, f["difference_ns"])
assert shares["costs"] > 0 and r["replays"] == 5, r
assert r["subsets"][0]["replay_ns"] == r["replay_a_ns"] and r["subsets"][-1]["replay_ns"] == r["replay_b_ns"]
PY
check "the HTML page has its waterfall" grep -q 'id="waterfall"' "$tmp/fl.html"
"$bin" explain -q "$tmp/a" "$tmp/fl" -m "$tmp/a/machine.toml" "$tmp/fl/machine.toml" > "$tmp/fl.txt"
check "the text gives B - A first, then the classes" bash -c "head -1 '$tmp/fl.txt' | grep -q '^explain: A = a, B = fl' && sed -n 2p '$tmp/fl.txt' | grep -q '^B - A: +'"
"$bin" -j 1 explain -q "$tmp/a" "$tmp/fl" -m "$tmp/a/machine.toml" "$tmp/fl/machine.toml" --json | grep -v '"seconds"\|"threads"\|"elapsed' > "$tmp/j1"
"$bin" -j 2 explain -q "$tmp/a" "$tmp/fl" -m "$tmp/a/machine.toml" "$tmp/fl/machine.toml" --json | grep -v '"seconds"\|"threads"\|"elapsed' > "$tmp/j2"
check "the same result at 1 and 2 threads" cmp -s "$tmp/j1" "$tmp/j2"

# A real pair: profiling options differ; the observed difference beside the replayed one.
prof=$src/data/traces/legion-prof
explain_json "$tmp/real.json" "$prof/circuit_small_cpu2_util1" "$prof/circuit_small_cpu2_util1_nocritical"
check "a real pair adds up, with its observed difference" python3 - "$tmp/real.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert sum(c["share_ns"] for c in r["classes"]) == r["difference_ns"]
assert r["observed_a_ns"] and r["observed_b_ns"] and len(r["classes"]) <= 8
assert "structure" in [c["kind"] for c in r["classes"]]
PY

# Packed traces give the same explanation as their logs.
"$bin" pack -q "$prof/circuit_small_cpu2_util1" -o "$tmp/a.rrg"
"$bin" pack -q "$prof/circuit_small_cpu2_util1_nocritical" -o "$tmp/b.rrg"
explain_json "$tmp/packed.json" "$tmp/a.rrg" "$tmp/b.rrg"
check "packed traces explain as their logs" python3 - "$tmp/real.json" "$tmp/packed.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["subsets"] == b["subsets"] and a["classes"] == b["classes"]
PY

# Errors: each names what is wrong.
"$bin" gen chain --length 40 --nodes 3 -o "$tmp/chain" > /dev/null
expect 1 "do not look like two runs of one application" -- "$bin" explain -q "$tmp/a" "$tmp/chain"
expect 1 "$tmp/chain" -- "$bin" explain -q "$tmp/a" "$tmp/chain"
expect 1 "missing.toml" -- "$bin" explain -q "$tmp/a" "$tmp/f" -m "$tmp/missing.toml"
expect 1 "$tmp/nothing" -- "$bin" explain -q "$tmp/a" "$tmp/nothing"
expect 2 "" -- "$bin" explain "$tmp/a"
expect 2 "" -- "$bin" gen stencil --slow 7@1 -o "$tmp/bad"
expect 2 "no task of function 99" -- "$bin" gen stencil --slow 99@0=2 -o "$tmp/bad"
exit $fail
