#!/usr/bin/env bash
# Bytes 48-63 of a packed trace's header are zero (docs/packed-trace.md), outside the header's checksum: a file
# with anything else there is refused as damaged, naming the byte, rather than read as if they were zero.
bin=$1 src=$2
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$bin" pack -q "$src/data/traces/real/full_ghost_b2_cpu2" -o "$tmp/t.rrg" || { echo "FAIL: pack"; fail=1; }
expect 0 "" -- "$bin" stats -q "$tmp/t.rrg"
for at in 48 55 63; do
  python3 -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[int(sys.argv[3])] = 0x5a
open(sys.argv[2], 'wb').write(b)" "$tmp/t.rrg" "$tmp/bad$at.rrg" "$at"
  expect 1 "bad$at.rrg: byte 48: damaged: header bytes 48-63 are not zero" -- "$bin" stats -q "$tmp/bad$at.rrg"
done
exit $fail
