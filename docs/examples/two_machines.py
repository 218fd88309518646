#!/usr/bin/env python3
"""Replay one bundled trace on two machines and draw, with matplotlib, what differs: processor utilisation over
time, and where the critical path's time goes. The notebook-style walk-through of the Python module.

    PYTHONPATH=build/python /usr/bin/python3 docs/examples/two_machines.py [OUT_DIR]

writes OUT_DIR/utilisation.png and OUT_DIR/critical_path.png (OUT_DIR: out/examples)."""
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files, no display
import matplotlib.pyplot as plt
import numpy as np

import realm_replay as rr

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "out", "examples")
os.makedirs(out, exist_ok=True)

# 1. Read the trace once; replay it on two machines.
trace = rr.read(os.path.join(root, "data/traces/s3d/dme_mixed_4n"))
machines = {name: rr.machine(os.path.join(root, "data/machines", name + ".toml")) for name in ["titan", "modern_multigpu"]}
results = {name: rr.replay(trace, m) for name, m in machines.items()}
for name, r in results.items():
    print(f"{trace.label} on {name}: {r.estimated_time_ns / 1e6:.3f} ms")


# 2. Utilisation over time: per processor kind, the share of that kind's processors busy in each time bin.
def utilisation(r, bins=200):
    ops, procs = r.operations, r.processors
    edges = np.linspace(0, r.estimated_time_ns, bins + 1)
    busy = {}
    ran = (ops["processor"] >= 0) & (ops["end"] >= 0)
    for k, kind in enumerate(rr.PROCESSOR_KINDS):
        count = int(np.sum(procs["kind"] == k))
        if count == 0:
            continue
        mine = ran & (procs["kind"][np.maximum(ops["processor"], 0)] == k)
        start, end = ops["start"][mine], ops["end"][mine]
        # Overlap of every segment with every bin, summed per bin.
        overlap = np.clip(np.minimum(end[:, None], edges[None, 1:]) - np.maximum(start[:, None], edges[None, :-1]), 0, None)
        busy[kind] = overlap.sum(axis=0) / (np.diff(edges) * count)
    return (edges[:-1] + edges[1:]) / 2, busy


fig, axes = plt.subplots(len(results), 1, figsize=(9, 3 * len(results)), sharey=True)
for ax, (name, r) in zip(np.atleast_1d(axes), results.items()):
    centres, busy = utilisation(r)
    for kind, share in busy.items():
        ax.plot(centres / 1e6, 100 * share, label=kind)
    ax.set_title(f"{name}: {r.estimated_time_ns / 1e6:.2f} ms")
    ax.set_xlabel("replayed time (ms)")
    ax.set_ylabel("processors busy (%)")
    ax.set_ylim(0, 105)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)  # beside the curves, not on them
fig.tight_layout()
fig.savefig(os.path.join(out, "utilisation.png"), dpi=100)

# 3. The critical path by class, side by side, its compute split by the kind of processor it ran on: a path that is
# mostly contention is bound by a resource's throughput (Result.bounded_by names it), not by a chain of work.
def path_parts(r):
    cp = r.critical_path
    parts = {}
    for cls, label, begin, end in zip(cp["class"], cp["label"], cp["begin"], cp["end"]):
        name = rr.PATH_CLASSES[cls]
        if name == "compute":
            name = "compute " + label.split()[1]  # "compute GPU f15" -> "compute GPU"
        parts[name] = parts.get(name, 0) + int(end - begin)
    return parts


parts = {name: path_parts(r) for name, r in results.items()}
categories = [c for c in ("compute GPU", "compute CPU", "compute utility", "compute background", *rr.PATH_CLASSES)
              if c != "compute" and any(c in p for p in parts.values())]
fig, ax = plt.subplots(figsize=(10, 4))
width = 0.8 / len(results)
for i, (name, r) in enumerate(results.items()):
    values = np.array([parts[name].get(c, 0) for c in categories], dtype=float)
    x = np.arange(len(categories)) + i * width
    bars = ax.bar(x, values / 1e6, width, label=name)
    ax.bar_label(bars, labels=[f"{100 * v / r.estimated_time_ns:.0f}%" if v else "" for v in values], fontsize=8)
    for bound in r.bounded_by(what_ifs=False)[:1]:
        print(f"{name}: bounded by {bound['name']} ({100 * bound['path_ns'] / r.estimated_time_ns:.0f}% of the path)")
ax.set_xticks(np.arange(len(categories)) + width * (len(results) - 1) / 2, categories, rotation=20, ha="right")
ax.set_ylabel("time on the critical path (ms)")
ax.set_title(f"{trace.label}: where the critical path's time goes")
ax.legend()
fig.tight_layout()
fig.savefig(os.path.join(out, "critical_path.png"), dpi=100)
print(f"wrote {out}/utilisation.png and {out}/critical_path.png")
