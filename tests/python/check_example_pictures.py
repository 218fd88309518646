#!/usr/bin/env python3
"""Runs docs/examples/two_machines.py and checks its pictures: PNG files of a real size whose pixels are not all
one colour. usage: check_example_pictures.py SCRIPT OUT_DIR"""
import os
import subprocess
import sys

import matplotlib.image

script, out = sys.argv[1], sys.argv[2]
subprocess.run([sys.executable, script, out], check=True)
failed = False
for name in ["utilisation.png", "critical_path.png"]:
    path = os.path.join(out, name)
    ok = os.path.exists(path) and open(path, "rb").read(8) == b"\x89PNG\r\n\x1a\n" and os.path.getsize(path) > 10000
    if ok:
        pixels = matplotlib.image.imread(path)
        colours = len({tuple(p) for p in pixels.reshape(-1, pixels.shape[-1])[::7]})
        ok = pixels.shape[0] >= 300 and pixels.shape[1] >= 600 and colours > 20
        print(f"{name}: {pixels.shape[1]}x{pixels.shape[0]}, {os.path.getsize(path)} bytes, {colours} colours sampled")
    print(("ok: " if ok else "FAIL: ") + name)
    failed |= not ok
sys.exit(1 if failed else 0)
