#!/usr/bin/env python3
"""Draws the planted-mapping picture of docs/mapping.md (Tuning): `realm-replay tune`'s search path on a generated
trace whose GPUs are idle, with a factors file that makes function 7 ten times faster on a GPU (the planted better
mapping) beside two slower decoys, and the same search without the planted factor. Each search is its estimate after
each round's improvement, from the starting mapping's; every step is labelled with what changed.

    scripts/tune_figure.py docs/images/tune_planted.png [--binary build/apps/realm-replay]

It makes the trace (`gen random-dag --ops 3000 --nodes 2`), both factors files and both reports in a scratch folder
of its own, so the picture depends on the binary alone.
"""
import argparse
import json
import pathlib
import subprocess
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PLANTED = "[7]\ngpu = 0.1   # planted: ten times faster on a GPU\n[8]\ngpu = 20\n[9]\ngpu = 5\n"
DECOYS = "[8]\ngpu = 20\n[9]\ngpu = 5\n"


def tune(binary, scratch, name, factors):
    path = pathlib.Path(scratch, name + ".toml")
    path.write_text(factors)
    report = pathlib.Path(scratch, name + ".json")
    subprocess.run([binary, "tune", "-q", str(pathlib.Path(scratch, "dag")), "-m", str(pathlib.Path(scratch, "dag", "machine.toml")),
                    "--set", "processors.gpu.count=1", "--factors", str(path), "--json", "-o", str(report)], check=True)
    return json.loads(report.read_text())


def short(change):
    change = change.split(" (")[0] + (" under eft" if "placement eft" in change else "")
    return change.replace("function ", "f")


def draw(ax, report, label, colour):
    ms = 1e-6
    rounds = [0] + [s["round"] for s in report["path"]]
    times = [report["start"]["estimated_time_ns"] * ms] + [s["estimated_time_ns"] * ms for s in report["path"]]
    ax.step(rounds, times, where="post", color=colour, marker="o", label=label)
    for r, t, step in zip(rounds[1:], times[1:], report["path"]):
        ax.annotate(short(step["change"]), (r, t), textcoords="offset points", xytext=(6, 4), fontsize=8, color=colour)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("png")
    ap.add_argument("--binary", default="build/apps/realm-replay")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run([args.binary, "gen", "random-dag", "--ops", "3000", "--nodes", "2", "-o",
                        str(pathlib.Path(scratch, "dag"))], check=True, stdout=subprocess.DEVNULL)
        planted = tune(args.binary, scratch, "planted", PLANTED)
        decoys = tune(args.binary, scratch, "decoys", DECOYS)
    fig, ax = plt.subplots(figsize=(8, 4.2))
    draw(ax, planted, "factors: f7 0.1 (planted), f8 20, f9 5 on a GPU", "#4a6fa5")
    draw(ax, decoys, "factors: f8 20, f9 5 on a GPU (no planted factor)", "#c0504d")
    ax.set_xlabel("round of the search")
    ax.set_ylabel("estimated run time (ms)")
    last = max(len(planted["path"]), len(decoys["path"]))
    ax.set_xlim(-0.3, last + 1.5)
    ax.set_xticks(range(0, last + 1))
    ax.legend(loc="upper right", fontsize=8)
    ax.set_title("tune on random-dag (3,000 operations, 2 nodes of 2 CPUs, one idle GPU each)", fontsize=10)
    fig.tight_layout()
    fig.savefig(args.png, dpi=110)


if __name__ == "__main__":
    main()
