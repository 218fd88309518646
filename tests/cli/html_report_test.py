#!/usr/bin/env python3
"""Opens the HTML comparison report in headless Chromium: it must render offline without errors, show its
three charts and table, and a screenshot is saved (copied to docs/images/ with --update).

usage: html_report_test.py BINARY SOURCE_DIR SCREENSHOT_OUT [--update]"""
import pathlib
import shutil
import subprocess
import sys
import tempfile

binary, src, shot = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if not chromium:
    print("chromium is not installed (scripts/install_deps.sh installs it)")
    sys.exit(77)  # CTest: skipped

real = src / "data" / "traces" / "real"
machines = src / "data" / "machines"
with tempfile.TemporaryDirectory() as tmp:
    html = pathlib.Path(tmp, "report.html")
    run = subprocess.run([binary, "compare", str(real / "full_ghost_b2_cpu2"), str(real / "full_circuit_2node_p4_cpu2"),
                          "-m", str(machines / "titan.toml"), "-m", str(machines / "modern_multigpu.toml"),
                          "--html", str(html)], capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stderr)
        sys.exit(1)
    page = html.read_text()
    if "http://" in page or "https://" in page or "<script" in page:
        print("the report must be self-contained: no scripts, no remote resources")
        sys.exit(1)
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp}/profile", "--enable-logging=stderr", "--v=0"]
    dom = subprocess.run([chromium, *flags, "--dump-dom", html.as_uri()], capture_output=True, text=True, timeout=120)
    for needed in ('id="time-chart"', 'id="critpath-chart"', 'id="scaling-chart"', 'id="runs"', "full_ghost_b2_cpu2 @ titan"):
        if needed not in dom.stdout:
            print(f"rendered page lacks {needed}")
            sys.exit(1)
    if "Uncaught" in dom.stderr or "CONSOLE" in dom.stderr:
        print("console errors while rendering:\n" + dom.stderr)
        sys.exit(1)
    png = pathlib.Path(tmp, "report.png")
    subprocess.run([chromium, *flags, "--window-size=1000,1400", f"--screenshot={png}", html.as_uri()],
                   capture_output=True, text=True, timeout=120)
    data = png.read_bytes() if png.exists() else b""
    if not data.startswith(b"\x89PNG") or len(data) < 20000:
        print(f"no usable screenshot ({len(data)} bytes)")
        sys.exit(1)
    shot.parent.mkdir(parents=True, exist_ok=True)
    shot.write_bytes(data)
    if "--update" in sys.argv:
        (src / "docs" / "images").mkdir(parents=True, exist_ok=True)
        shutil.copy(png, src / "docs" / "images" / "compare_report.png")
    print(f"rendered; screenshot {shot} ({len(data)} bytes)")
