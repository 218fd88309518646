#!/usr/bin/env bash
# calibrate's runs files are read strictly: measured_s is a plain decimal number of seconds from 1e-6 to 1e6,
# only a first line whose time field is a name is a header, and a number in the third field (a decimal comma,
# or a column too many) is an error. Each once read as another time (3 s for 3,48; 16 s for 0x10) or dropped a
# run as a "header"; each error names the file and line.
bin=$1 src=$2
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp -r "$src/data/traces/real/full_ghost_b2_cpu2" "$tmp/T"
runs() {  # runs FILE LINES...: a runs file in $tmp
  local file=$tmp/$1; shift
  printf '%s\n' "$@" > "$file"
}

runs bad_first.csv "T,1.5x" "T,3.48"
expect 1 "bad_first.csv:1: measured_s '1.5x' is not a number (a plain decimal number of seconds)" -- "$bin" calibrate -q "$tmp/bad_first.csv"
runs comma.csv "T,3,48"
expect 1 "comma.csv:1: a number after measured_s ('3,48')" -- "$bin" calibrate -q "$tmp/comma.csv"
runs extra.csv "trace,measured_s,how" "T,3.48,48,stopwatch"
expect 1 "extra.csv:2: a number after measured_s ('3.48,48')" -- "$bin" calibrate -q "$tmp/extra.csv"
for v in 0x10 nan inf 1e3x " " -2; do
  runs value.csv "T,3.48" "T,$v"
  expect 1 "value.csv:2: measured_s '.*' is not a number (a plain decimal number of seconds)" -- "$bin" calibrate -q "$tmp/value.csv"
done
for v in 1e308 1e-300 0 0.0000001 1000001; do
  runs range.csv "T,$v"
  expect 1 "range.csv:1: measured_s must be a number of seconds from 1e-6 to 1e6" -- "$bin" calibrate -q "$tmp/range.csv"
done
runs late_header.csv "T,3.48" "trace,measured_s"
expect 1 "late_header.csv:2: measured_s 'measured_s' is not a number" -- "$bin" calibrate -q "$tmp/late_header.csv"
runs hex.toml "[[run]]" 'trace = "T"' "measured_s = 0x10"
expect 1 "hex.toml:1: measured_s must be a decimal number of seconds" -- "$bin" calibrate -q "$tmp/hex.toml"
runs huge.toml "[[run]]" 'trace = "T"' "measured_s = 1e308"
expect 1 "huge.toml:1: measured_s must be a number of seconds from 1e-6 to 1e6" -- "$bin" calibrate -q "$tmp/huge.toml"

# What stays valid: a header, spaces around the time, commas in how, both formats, the ends of the range.
runs good.csv "trace,measured_s,how" "T, 3.48 ,the app, its own timer"
expect 0 "" -- "$bin" calibrate -q "$tmp/good.csv" -o "$tmp/fit.toml"
runs good.toml "[[run]]" 'trace = "T"' "measured_s = 3" "[[run]]" 'trace = "T"' "measured_s = 1e6"
expect 0 "" -- "$bin" calibrate -q "$tmp/good.toml" -o "$tmp/fit.toml"
exit $fail
