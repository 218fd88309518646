#!/usr/bin/env python3
"""realm-replay study end to end. A strong-scaling study of the bundled dme_mixed_4n (folds 1, 2, 4; three strategies):
every cell's estimate equals a `replay` of the same fold and options, speed-up, efficiency and winners follow from the
estimates by hand, and JSON, CSV, SQLite and HTML agree; the same files at 1 and 2 threads. A weak-scaling study of the
four bundled S3D traces on their truth machines reproduces the truth.json beside each; the SQL queries of
docs/mapping.md run. Each strategy keeps its colour
from one report to another. Every kind of mistake gets its exit code and message.

usage: study_test.py BINARY SOURCE_DIR"""
import csv
import json
import pathlib
import re
import sqlite3
import subprocess
import sys
import tempfile

binary, src = sys.argv[1], pathlib.Path(sys.argv[2])
s3d = src / "data" / "traces" / "s3d"
TRACE = s3d / "dme_mixed_4n"
STRATEGIES = {  # name -> (--strategy value, the same as replay options)
    "traced": ("traced", ["--placement", "traced"]),
    "gpu": ("gpu:placement=eft,map=18=gpu:0.0191,map=20=gpu:0.0153",
            ["--placement", "eft", "--map", "18=gpu:0.0191", "--map", "20=gpu:0.0153"]),
    "cpus4": ("cpus4:placement=pool,set=processors.cpu.count=4",
              ["--placement", "pool", "--set", "processors.cpu.count=4"]),
}
problems = []


def run(args, code=0):
    proc = subprocess.run([binary, *map(str, args)], capture_output=True, text=True)
    if proc.returncode != code:
        problems.append(f"{' '.join(map(str, args))}: exit {proc.returncode}, expected {code}\n{proc.stderr}")
    return proc


def fold_study(out, threads, strategies=("traced", "gpu", "cpus4")):
    base = pathlib.Path(out, f"j{threads}")
    args = ["-j", threads, "study", "-q", TRACE, "--fold", "1,2,4", "-m", "titan", "--json", "-o", f"{base}.json",
            "--csv", f"{base}.csv", "--html", f"{base}.html", "--sqlite", f"{base}.db"]
    for name in strategies:
        args += ["--strategy", STRATEGIES[name][0]]
    run(args)
    return json.loads(pathlib.Path(f"{base}.json").read_text()), base


def check_numbers(doc):
    cells = {(c["series"], c["nodes"]): c for c in doc["cells"]}
    for (name, nodes), c in cells.items():
        # The oracle: one replay of the same fold with the same options.
        replay = json.loads(run(["replay", "-q", TRACE, "-m", "titan", "--fold", nodes, *STRATEGIES[name][1],
                                 "--json"]).stdout or "{}")
        if replay.get("estimated_time_ns") != c["estimated_ns"]:
            problems.append(f"{name} at {nodes}: study {c['estimated_ns']}, replay {replay.get('estimated_time_ns')}")
        first = cells[name, 1]["estimated_ns"]
        speedup = first / c["estimated_ns"]
        if abs(c["speedup"] - speedup) > 1e-12 or abs(c["efficiency"] - speedup / nodes) > 1e-12:
            problems.append(f"{name} at {nodes}: speed-up {c['speedup']} efficiency {c['efficiency']}, by hand {speedup}")
        best = min(cells[s, nodes]["estimated_ns"] for s in STRATEGIES)
        if c["winner"] != (c["estimated_ns"] == best) or abs(c["relative_to_winner"] - c["estimated_ns"] / best) > 1e-12:
            problems.append(f"{name} at {nodes}: winner {c['winner']}, relative {c['relative_to_winner']}")
    won = [w["series"] for w in doc["winners"]]
    if won != ["gpu", "gpu", "gpu"] or doc["crossovers"]:
        problems.append(f"winners {won}, crossovers {doc['crossovers']}: the GPU strategy should win everywhere")


def check_files(doc, base):
    rows = list(csv.DictReader(open(f"{base}.csv")))
    if [(r["series"], int(r["nodes"]), int(r["estimated_ns"])) for r in rows] != \
            [(c["series"], c["nodes"], c["estimated_ns"]) for c in doc["cells"]]:
        problems.append("the CSV rows differ from the JSON cells")
    if any(abs(float(r["efficiency"]) - c["efficiency"]) > 1e-4 for r, c in zip(rows, doc["cells"])):
        problems.append("the CSV efficiencies differ from the JSON's")
    db = sqlite3.connect(f"{base}.db")
    cells = db.execute("SELECT series, nodes, estimated_ns, winner FROM study_cells ORDER BY nodes, rowid").fetchall()
    if cells != [(c["series"], c["nodes"], c["estimated_ns"], int(c["winner"])) for c in doc["cells"]]:
        problems.append(f"SQL cells {cells} differ from the JSON's")
    for c in doc["cells"]:
        total = db.execute("SELECT sum(time_ns) FROM study_critical_path WHERE series = ? AND nodes = ?",
                           (c["series"], c["nodes"])).fetchone()[0]
        if total != sum(c["critical_path_ns"].values()):
            problems.append(f"SQL critical path of {c['series']} at {c['nodes']} differs from the JSON's")
    winners = db.execute("SELECT nodes, series FROM study_winners WHERE judged_by = 'estimate' ORDER BY nodes").fetchall()
    if winners != [(w["nodes"], w["series"]) for w in doc["winners"]]:
        problems.append("SQL winners differ from the JSON's")
    # The queries docs/mapping.md shows run and answer.
    for query in re.findall(r"```sql\n(.*?)```", (src / "docs" / "mapping.md").read_text(), re.S):
        if not db.execute(query).fetchall():
            problems.append(f"the query of docs/mapping.md gives no row:\n{query}")
    colours = dict(db.execute("SELECT series, colour FROM study_series").fetchall())
    if colours != {s["name"]: s["colour"] for s in doc["series"]}:
        problems.append("SQL colours differ from the JSON's")


def chart_series(page, chart):
    """(colour of each line, colour and name of each legend entry) of one chart of the HTML page."""
    svg = page[page.index(f'id="{chart}"'):]
    svg = svg[:svg.index("</svg>")]
    lines = re.findall(r'<polyline points="[^"]*" fill="none" stroke="(#[0-9a-f]+)"', svg)
    legend = re.findall(r'<rect [^>]*fill="(#[0-9a-f]+)"/><text [^>]*>([^<]*)</text>', svg)
    return lines, legend


def check_html(doc, base):
    page = pathlib.Path(f"{base}.html").read_text()
    if "<script" in page or "http://" in page or "https://" in page:
        problems.append("the study page must be self-contained")
    expected = [(s["colour"], s["name"]) for s in doc["series"]]
    for chart in ("time-chart", "efficiency-chart"):
        lines, legend = chart_series(page, chart)
        if legend != expected or lines != [c for c, _ in expected]:
            problems.append(f"{chart}: lines {lines}, legend {legend}, expected {expected}")
    for needed in ('id="winners"', 'id="cells"', 'id="strategies"', "(log scale)", "strong scaling: folds 1, 2, 4"):
        if needed not in page:
            problems.append(f"the study page lacks {needed}")


def check_weak_truth(out):
    """The four bundled S3D traces, families all and mixed at 2 and 4 nodes, each on its own truth machine."""
    report = pathlib.Path(out, "weak.json")
    run(["study", "-q", *[s3d / f"dme_{m}_{n}n" for m in ("all", "mixed") for n in (2, 4)], "--scaling", "weak",
         "-m", "truth", "--json", "-o", report])
    doc = json.loads(report.read_text())
    if [s["name"] for s in doc["series"]] != ["dme_all_Nn", "dme_mixed_Nn"]:
        problems.append(f"weak study series {doc['series']}")
    cells = {(c["series"], c["nodes"]): c for c in doc["cells"]}
    for (series, nodes), c in cells.items():
        truth = json.loads((s3d / f"{series.replace('_Nn', '')}_{nodes}n" / "truth.json").read_text())["makespan_ns"]
        if c["estimated_ns"] != truth or c["truth_ns"] != truth:
            problems.append(f"{series} at {nodes}: estimate {c['estimated_ns']}, truth {truth}")
        efficiency = cells[series, 2]["estimated_ns"] / c["estimated_ns"]
        if abs(c["efficiency"] - efficiency) > 1e-12 or abs(c["speedup"] - efficiency * nodes / 2) > 1e-12:
            problems.append(f"{series} at {nodes}: weak efficiency {c['efficiency']}, by hand {efficiency}")


def check_mistakes(out):
    t, m = TRACE, ["-m", "titan"]
    cases = [  # arguments, exit code, words of the message
        ([t, *m], 2, "a study takes --fold"),
        ([t, t, *m], 2, "say whether they scale one problem"),
        ([t, "--fold", "1,2", "--gen", "s3d", "--nodes", "1", *m], 2, "--fold and --gen are two sources"),
        ([t, "--fold", "2", "--scaling", "weak", *m], 2, "--fold is strong scaling"),
        (["--gen", "s3d", "--nodes", "1,2", "--scaling", "strong", *m], 2, "--gen is weak scaling"),
        ([t, "--fold", "1,two", *m], 2, "--fold takes node counts N,M,... from 1 to 65536, not 'two'"),
        (["--gen", "s3d --nodes 4", "--nodes", "1", *m], 2, "no --nodes here"),
        (["--gen", "x=s3dd", "--nodes", "1", *m], 2, "'s3dd' is no generator (did you mean 's3d'?)"),
        (["--gen", "s3d --frobnicate", "--nodes", "1", *m], 2, "--frobnicate"),
        ([t, "--fold", "2", "-m", "truth"], 2, "-m truth is the machine of a generated trace's truth"),
        ([t, "--fold", "2", *m, "--strategy", "gpu"], 2, "--strategy gpu: no '=' or ':' after the name"),
        ([t, "--fold", "2", *m, "--strategy", "a:speed=2"], 2, "unknown key 'speed'"),
        ([t, "--fold", "2", *m, "--strategy", "a:placement=pool", "--strategy", "a:placement=eft"], 2,
         "two strategies are named 'a'"),
        ([t, "--fold", "2", *m, "--strategy", f"a={out}/none.toml"], 1, "strategy a: "),
        ([t, "--fold", "2", *m, "--strategy", "a:set=processors.cpu.cont=4"], 1, "did you mean 'processors.cpu.count'"),
        ([t, "--fold", "8", *m], 1, "none is left to replay: trace dme_mixed_4n has 4 node(s)"),
        ([f"{out}/no_trace", "--fold", "2", *m], 1, "no_trace"),
        ([t, "--fold", "2", *m, "-o", f"{out}/no/such/dir/r.txt"], 1, "r.txt"),
        ([t, "--fold", "2", *m, "--json", f"{out}/r.json"], 2, "--json is a flag"),
    ]
    for args, code, words in cases:
        proc = run(["study", "-q", *args], code)
        if words not in proc.stderr:
            problems.append(f"study {' '.join(map(str, args))}: the message lacks '{words}':\n{proc.stderr}")
    if pathlib.Path(out, "no").exists():
        problems.append("a report that could not be written left something behind")
    proc = run(["study", "-q", t, "--fold", "2,8", *m, "--strategy", "a:map=99=gpu"])
    for words in ("warning: trace dme_mixed_4n has no task of function 99: --map 99=gpu does not apply to it (strategy a)",
                  "its 8-node cells are left out"):
        if words not in proc.stderr:
            problems.append(f"the warnings lack '{words}':\n{proc.stderr}")


with tempfile.TemporaryDirectory() as out:
    doc1, base1 = fold_study(out, 1)
    doc2, base2 = fold_study(out, 2)
    check_numbers(doc1)
    check_files(doc1, base1)
    check_html(doc1, base1)
    for doc in (doc1, doc2):
        doc["context"]["options"]["threads"] = None
    if doc1 != doc2 or any(pathlib.Path(f"{base1}{x}").read_bytes() != pathlib.Path(f"{base2}{x}").read_bytes()
                           for x in (".csv", ".html")):
        problems.append("the study at 2 threads differs from the one at 1")
    # The same strategy keeps its colour in a report with other strategies.
    other, _ = fold_study(out, 2, ("cpus4", "gpu"))
    colours = {s["name"]: s["colour"] for s in doc1["series"]}
    if any(colours[s["name"]] != s["colour"] for s in other["series"]) or len(set(colours.values())) != 3:
        problems.append(f"colours {colours} and {other['series']} are not one per strategy across reports")
    check_weak_truth(out)
    check_mistakes(out)

for p in problems:
    print(p)
print(f"study: {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
