#!/usr/bin/env bash
# Issue 14 item 6: a machine TOML with a dotted key 50,000 parts deep (80 KB) overflowed the stack inside the
# TOML parser (SIGSEGV). Keys deeper than 64 parts are refused before parsing, in every TOML input (machine,
# mapping, runs and names files) and in --set; nested
# arrays and inline tables stop at toml++'s own depth limit. Each case is a clear error naming the place.
bin=$1 src=$2
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ghost=$src/data/traces/real/full_ghost_b2_cpu2
titan=$src/data/machines/titan.toml
deep=$(python3 -c "print('a' + '.a' * 50000)")

echo "$deep = 1" > "$tmp/key.toml"
echo "[$deep]" > "$tmp/header.toml"
echo "[[$deep]]" > "$tmp/array_header.toml"
printf '# comment\n\nx = { %s = 1 }\n' "$deep" > "$tmp/inline.toml"
for f in key header array_header; do
  expect 1 "$f.toml:1: a dotted key of more than 64 parts" -- "$bin" replay -q "$ghost" -m "$tmp/$f.toml"
done
expect 1 "inline.toml:3: a dotted key of more than 64 parts" -- "$bin" replay -q "$ghost" -m "$tmp/inline.toml"
python3 -c "print('x = ' + '{a=' * 100000 + '1' + '}' * 100000)" > "$tmp/tables.toml"
python3 -c "print('x = ' + '[' * 100000 + '1' + ']' * 100000)" > "$tmp/arrays.toml"
for f in tables arrays; do
  expect 1 "$f.toml:1: TOML syntax: .*maximum nested value depth" -- "$bin" replay -q "$ghost" -m "$tmp/$f.toml"
done
expect 1 "--set: a dotted key of more than 64 parts" -- "$bin" replay -q "$ghost" -m "$titan" --set "$deep=1"
expect 1 "--set: a dotted key of more than 64 parts" -- "$bin" replay -q "$ghost" -m "$titan" --set "network={$deep=1}"

# Mapping files and calibrate's runs files are TOML too, and refuse the same keys before parsing.
expect 1 "key.toml:1: a dotted key of more than 64 parts" -- "$bin" replay -q "$ghost" -m "$titan" --mapping "$tmp/key.toml"
expect 1 "key.toml:1: a dotted key of more than 64 parts" -- "$bin" calibrate "$tmp/key.toml"

# Dots inside strings, comments and floats are not key parts: a real machine file with such lines still loads.
{ cat "$titan"; echo "# $deep"; } > "$tmp/comment.toml"
sed -i "s/^name = .*/name = \"$deep\"/" "$tmp/comment.toml"
expect 0 "" -- "$bin" replay -q "$ghost" -m "$tmp/comment.toml"
exit $fail
