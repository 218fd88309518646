#!/usr/bin/env python3
"""The crossover family of docs/mapping.md (Studies): S3D (DME, one step) with the mixed strategy's CPU tasks 2.5 times
as fast and its device-host copies of 64 KiB, at 1 to 16 nodes. `study --gen ... -m truth` must give every cell the
truth makespan that `gen` writes for the same trace (to the nanosecond), the winners and crossover the truth gives
(mixed up to 4 nodes, all-GPU from 8), the same report at 1 and 2 threads; and on the generator's own settings
all-GPU wins at every node count.

usage: study_crossover_test.py BINARY"""
import json
import pathlib
import subprocess
import sys
import tempfile

binary = sys.argv[1]
FAMILY = "--steps 1 --cpu-speed 2.5 --host-copy-bytes 65536"
NODES = [1, 2, 4, 8, 16]
problems = []


def run(args):
    proc = subprocess.run([binary, *args], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(args)}: exit {proc.returncode}\n{proc.stderr}")
    return proc


def truth_of(out, strategy, nodes, family):
    """The oracle: the truth makespan gen writes for one cell, read from its truth.json."""
    folder = pathlib.Path(out, f"{strategy}_{nodes}")
    run(["gen", "s3d", "--strategy", strategy, "--nodes", str(nodes), *family.split(), "-o", str(folder)])
    return json.loads((folder / "truth.json").read_text())["makespan_ns"]


def winners(times):
    """Per node count the strategy of least time (a tie to the one listed first: all), and where it changes."""
    won = {n: min(("all", "mixed"), key=lambda s: (times[s, n], s != "all")) for n in sorted({n for _, n in times})}
    nodes = sorted(won)
    crossings = [(a, b, won[a], won[b]) for a, b in zip(nodes, nodes[1:]) if won[a] != won[b]]
    return won, crossings


def study(out, family, nodes, threads, name):
    report = pathlib.Path(out, name)
    run(["-j", str(threads), "study", "-q", "--gen", f"all=s3d --strategy all {family}",
         "--gen", f"mixed=s3d --strategy mixed {family}", "--nodes", ",".join(map(str, nodes)), "-m", "truth",
         "--json", "-o", str(report)])
    return json.loads(report.read_text())


def check_family(out, family, nodes, threads):
    truth = {(s, n): truth_of(out, s, n, family) for s in ("all", "mixed") for n in nodes}
    doc = study(out, family, nodes, threads, f"study_{threads}.json")
    seen = {}
    for cell in doc["cells"]:
        key = (cell["series"], cell["nodes"])
        seen[key] = cell["estimated_ns"]
        if cell["estimated_ns"] != truth[key] or cell["truth_ns"] != truth[key]:
            problems.append(f"{key}: estimate {cell['estimated_ns']}, truth_ns {cell['truth_ns']}, gen's truth {truth[key]}")
    if set(seen) != set(truth):
        problems.append(f"cells {sorted(seen)} are not every strategy at every node count")
    won, crossings = winners(truth)
    if {w["nodes"]: w["series"] for w in doc["winners"]} != won:
        problems.append(f"winners {doc['winners']} differ from the truth's {won}")
    if [(x["after_nodes"], x["nodes"], x["from"], x["to"]) for x in doc["crossovers"]] != crossings:
        problems.append(f"crossovers {doc['crossovers']} differ from the truth's {crossings}")
    if doc.get("truth_crossovers") != doc["crossovers"]:
        problems.append("the report's own truth crossovers differ from its estimates'")
    return doc, crossings


with tempfile.TemporaryDirectory() as out:
    doc1, crossings = check_family(out, FAMILY, NODES, 1)
    # The family crosses once: mixed wins up to 4 nodes, all-GPU from 8 (docs/mapping.md, Studies).
    if crossings != [(4, 8, "mixed", "all")]:
        problems.append(f"the family's truth crossings are {crossings}, not mixed to all between 4 and 8 nodes")
    doc2, _ = check_family(out, FAMILY, NODES, 2)
    for doc in (doc1, doc2):
        doc["context"]["options"]["threads"] = None
    if doc1 != doc2:
        problems.append("the report at 2 threads differs from the one at 1")
    # The generator's own settings: all-GPU wins everywhere, so no crossover is there to find.
    _, plain = check_family(out, "--steps 1", [1, 2, 4], 2)
    if plain:
        problems.append(f"on the generator's own settings the winner changes: {plain}")

for p in problems:
    print(p)
print(f"study crossover: {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
