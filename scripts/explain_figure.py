#!/usr/bin/env python3
"""Draws the waterfall of an `explain --json` report as a PNG (docs/explain.md): A's replayed time, each class's
Shapley share in order (red slows B down, green speeds it up), B's replayed time; the observed times beside them
where the logs have them.

    realm-replay explain A B --json -o out/e.json
    scripts/explain_figure.py out/e.json out/e.png [--title TEXT]
"""
import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report")
    ap.add_argument("png")
    ap.add_argument("--title")
    args = ap.parse_args()
    r = json.load(open(args.report))
    ms = 1e-6
    labels, bottoms, heights, colours = [f"A: {r['a']}"], [0.0], [r["replay_a_ns"] * ms], ["#4a6fa5"]
    texts = [f"{r['replay_a_ns'] * ms:.1f}"]
    at = r["replay_a_ns"]
    for c in r["classes"]:
        share = c["share_ns"]
        labels.append(c["name"] if len(c["name"]) <= 34 else c["name"][:32] + "..")
        bottoms.append(min(at, at + share) * ms)
        heights.append(abs(share) * ms)
        colours.append("#c0504d" if share > 0 else "#5a9e5a")
        texts.append(f"{share * ms:+.1f}")
        at += share
    labels.append(f"B: {r['b']}")
    bottoms.append(0.0)
    heights.append(r["replay_b_ns"] * ms)
    colours.append("#4a6fa5")
    texts.append(f"{r['replay_b_ns'] * ms:.1f}")
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(labels) + 1.6))
    y = list(range(len(labels)))[::-1]
    ax.barh(y, heights, left=bottoms, color=colours)
    for yi, b, h, text in zip(y, bottoms, heights, texts):
        ax.text(b + h, yi, f" {text}", va="center", fontsize=8)
    if r.get("observed_a_ns") and r.get("observed_b_ns"):
        ax.plot([r["observed_a_ns"] * ms], [y[0]], "k|", markersize=14, label="observed")
        ax.plot([r["observed_b_ns"] * ms], [y[-1]], "k|", markersize=14)
        ax.legend(loc="lower right", fontsize=8)
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xlabel("replayed time (ms)")
    low = min(min(b for b, h in zip(bottoms[1:-1], heights[1:-1])) if len(bottoms) > 2 else 0,
              r["replay_a_ns"] * ms, r["replay_b_ns"] * ms)
    ax.set_xlim(left=max(0.0, low - 0.25 * abs(r["difference_ns"] * ms) - 1))
    ax.set_title(args.title or f"{r['b']} against {r['a']}: B - A = {r['difference_ns'] * ms:+.1f} ms", fontsize=10)
    fig.tight_layout()
    fig.savefig(args.png, dpi=110)


if __name__ == "__main__":
    main()
