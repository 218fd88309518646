#!/usr/bin/env python3
"""Opens the HTML comparison reports in headless Chromium: they must render offline without errors. The
README's S3D comparison (two families at 2 and 4 nodes, two machines) shows its three charts, the
critical-path shares as numbers and the table, and a screenshot of it is saved (copied to docs/images/ with
--update); a comparison without a family at two node counts omits the node-count chart and says why; a study's
page (realm-replay study) renders its time and efficiency charts, one line per strategy.

usage: html_report_test.py BINARY SOURCE_DIR SCREENSHOT_OUT [--update]"""
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

binary, src, shot = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if not chromium:
    print("chromium is not installed (scripts/install_deps.sh installs it)")
    sys.exit(77)  # CTest: skipped

s3d = src / "data" / "traces" / "s3d"
real = src / "data" / "traces" / "real"
machines = src / "data" / "machines"


def fail(message: str) -> None:
    print(message)
    sys.exit(1)


with tempfile.TemporaryDirectory() as tmp:
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp}/profile", "--enable-logging=stderr", "--v=0"]

    def render(name: str, args: list) -> str:
        html = pathlib.Path(tmp, name)
        run = subprocess.run([binary, "compare", "-q", *map(str, args), "--html", str(html)], capture_output=True, text=True)
        if run.returncode != 0:
            fail(run.stderr)
        page = html.read_text()
        if "http://" in page or "https://" in page or "<script" in page:
            fail("the report must be self-contained: no scripts, no remote resources")
        dom = subprocess.run([chromium, *flags, "--dump-dom", html.as_uri()], capture_output=True, text=True, timeout=120)
        if "Uncaught" in dom.stderr or "CONSOLE" in dom.stderr:
            fail("console errors while rendering:\n" + dom.stderr)
        return dom.stdout

    # The README's S3D comparison.
    traces = [s3d / f"dme_{m}_{n}n" for m in ("all", "mixed") for n in (2, 4)]
    dom = render("s3d.html", [*traces, "-m", machines / "titan.toml", "-m", machines / "titan_fastgpu.toml"])
    for needed in ('id="time-chart"', 'id="critpath-chart"', 'id="critpath-table"', 'id="scaling-chart"', 'id="runs"',
                   "dme_all_2n @ titan", "Traces: dme_all_2n, dme_all_4n, dme_mixed_2n, dme_mixed_4n.",
                   "Machines: titan, titan-fastgpu.", "contention 87.3%", "util-proc busy",
                   'id="bounds-table"', "GPU processors (all nodes): 65.1%", "compute GPU"):
        if needed not in dom:
            fail(f"rendered S3D page lacks {needed}")
    # One series per family and machine, each drawn in its own colour, its legend swatch in the same one.
    chart = dom[dom.index('id="scaling-chart"'):]
    chart = chart[:chart.index("</svg>")]
    lines = re.findall(r'<polyline points="([^"]*)"[^>]*stroke="(#[0-9a-f]+)"', chart)
    swatches = re.findall(r'<rect [^>]*fill="(#[0-9a-f]+)"', chart)
    if len(lines) != 4 or any(len(points.split()) != 2 for points, _ in lines):
        fail(f"expected 4 series of 2 node counts, got {lines}")
    if [color for _, color in lines] != swatches:
        fail(f"legend colours {swatches} differ from the series' {[c for _, c in lines]}")
    png = pathlib.Path(tmp, "report.png")
    subprocess.run([chromium, *flags, "--window-size=1100,1950", f"--screenshot={png}",
                    pathlib.Path(tmp, "s3d.html").as_uri()], capture_output=True, text=True, timeout=120)
    data = png.read_bytes() if png.exists() else b""
    if not data.startswith(b"\x89PNG") or len(data) < 20000:
        fail(f"no usable screenshot ({len(data)} bytes)")

    # Traces without a family at two node counts: no node-count chart, a sentence instead.
    dom = render("real.html", [real / "full_ghost_b2_cpu2", real / "full_circuit_2node_p4_cpu2",
                               "-m", machines / "titan.toml", "-m", machines / "modern_multigpu.toml"])
    if 'id="scaling-chart"' in dom or 'id="no-scaling-chart"' not in dom:
        fail("a comparison without a family at two node counts must omit the node-count chart and say why")
    if "names no node count" not in dom or "full_ghost_b2_cpu2 @ titan" not in dom:
        fail("the legend must say why there is no weak-scaling efficiency")

    # A study's page (folds of one trace, two strategies): its two charts and tables render, one line per strategy.
    study = pathlib.Path(tmp, "study.html")
    run = subprocess.run([binary, "study", "-q", s3d / "dme_mixed_4n", "--fold", "1,2,4", "-m", machines / "titan.toml",
                          "--strategy", "traced", "--strategy", "gpu:placement=eft,map=18=gpu:0.0191,map=20=gpu:0.0153",
                          "--html", study], capture_output=True, text=True)
    if run.returncode != 0:
        fail(run.stderr)
    dom = subprocess.run([chromium, *flags, "--dump-dom", study.as_uri()], capture_output=True, text=True, timeout=120)
    if "Uncaught" in dom.stderr or "CONSOLE" in dom.stderr:
        fail("console errors while rendering the study page:\n" + dom.stderr)
    for needed in ('id="time-chart"', 'id="efficiency-chart"', 'id="winners"', 'id="cells"', "Crossovers: none"):
        if needed not in dom.stdout:
            fail(f"rendered study page lacks {needed}")
    for chart in ("time-chart", "efficiency-chart"):
        svg = dom.stdout[dom.stdout.index(f'id="{chart}"'):]
        svg = svg[:svg.index("</svg>")]
        if len(re.findall(r"<polyline points=\"([^\"]*)\"", svg)) != 2 or ">gpu</text>" not in svg:
            fail(f"the study's {chart} should draw 2 strategies, named in its legend")

    shot.parent.mkdir(parents=True, exist_ok=True)
    shot.write_bytes(data)
    if "--update" in sys.argv:
        (src / "docs" / "images").mkdir(parents=True, exist_ok=True)
        shutil.copy(png, src / "docs" / "images" / "compare_report.png")
    print(f"rendered; screenshot {shot} ({len(data)} bytes)")
