#!/usr/bin/env python3
"""Draws a `study --json` report as an SVG (docs/mapping.md, Studies): time against nodes on log-log axes and the
parallel efficiency, one line per strategy in the colour the report gives it; where the report has the truth
(`-m truth`), each truth makespan is a ring around its estimate, and each crossover a dashed line between the two
node counts it falls between. Plain SVG written by hand: no plotting library needed.

    realm-replay study --gen 'all=s3d ...' --gen 'mixed=s3d ...' --nodes 1,2,4,8,16 -m truth --json -o out/s.json
    scripts/study_figure.py out/s.json out/s.svg [--title TEXT]
"""
import argparse
import json
import math
from xml.sax.saxutils import escape

PANEL_W, PANEL_H, LEFT, TOP, BOTTOM, GAP, LEGEND = 380, 260, 62, 40, 46, 70, 150


def panel(x0, title, nodes, series, value, log_y, marks, crossings, y_label):
    """One chart at x offset x0: its axes, ticks, lines, points, truth rings and crossover lines."""
    values = [v for s in series for n, v, _ in value(s) if v is not None] + marks
    lo, hi = min(values), max(values)
    if log_y:
        lo, hi = lo / 1.08, hi * 1.08
    else:
        lo, hi = 0.0, hi * 1.08
    n_lo, n_hi = math.log2(min(nodes)), math.log2(max(nodes))

    def px(n):
        return x0 + LEFT + 15 + (PANEL_W - 30) * ((math.log2(n) - n_lo) / (n_hi - n_lo) if n_hi > n_lo else 0.5)

    def py(v):
        f = (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) if log_y else (v - lo) / (hi - lo)
        return TOP + PANEL_H * (1 - f)

    out = [f'<text x="{x0 + LEFT + PANEL_W / 2:.1f}" y="{TOP - 14}" text-anchor="middle" font-weight="bold">'
           f'{escape(title)}</text>',
           f'<line x1="{x0 + LEFT}" y1="{TOP + PANEL_H}" x2="{x0 + LEFT + PANEL_W}" y2="{TOP + PANEL_H}" stroke="#333"/>',
           f'<line x1="{x0 + LEFT}" y1="{TOP}" x2="{x0 + LEFT}" y2="{TOP + PANEL_H}" stroke="#333"/>',
           f'<text x="{x0 + LEFT + PANEL_W / 2:.1f}" y="{TOP + PANEL_H + 36}" text-anchor="middle">nodes (log scale)</text>',
           f'<text transform="translate({x0 + 14} {TOP + PANEL_H / 2}) rotate(-90)" text-anchor="middle">'
           f'{escape(y_label)}</text>']
    ticks = [lo, hi] if log_y else [0.0]
    if log_y:
        p = 10 ** math.floor(math.log10(lo))
        while p < hi:
            ticks += [m * p for m in (1, 2, 5) if lo < m * p < hi]
            p *= 10
    else:
        ticks += [0.25 * k for k in range(1, int(hi / 0.25) + 1)]
    for v in sorted(set(ticks)):
        if not lo <= v <= hi:
            continue
        out.append(f'<line x1="{x0 + LEFT}" y1="{py(v):.1f}" x2="{x0 + LEFT + PANEL_W}" y2="{py(v):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{x0 + LEFT - 5}" y="{py(v) + 4:.1f}" text-anchor="end">{v:.0f}</text>' if log_y else
                   f'<text x="{x0 + LEFT - 5}" y="{py(v) + 4:.1f}" text-anchor="end">{v:.2f}</text>')
    for n in nodes:
        out.append(f'<text x="{px(n):.1f}" y="{TOP + PANEL_H + 16}" text-anchor="middle">{n}</text>')
    for m in marks:
        out.append(f'<line x1="{x0 + LEFT}" y1="{py(m):.1f}" x2="{x0 + LEFT + PANEL_W}" y2="{py(m):.1f}" '
                   'stroke="#999" stroke-dasharray="4 4"/>')
    for a, b in crossings:
        x = (px(a) + px(b)) / 2
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + PANEL_H}" stroke="#555" '
                   'stroke-dasharray="6 3"/>')
        out.append(f'<text x="{x + 4:.1f}" y="{TOP + 12}">crossover</text>')
    for s in series:
        pts = [(n, v, t) for n, v, t in value(s) if v is not None]
        line = " ".join(f"{px(n):.1f},{py(v):.1f}" for n, v, _ in pts)
        out.append(f'<polyline points="{line}" fill="none" stroke="{s["colour"]}" stroke-width="2"/>')
        for n, v, t in pts:
            out.append(f'<circle cx="{px(n):.1f}" cy="{py(v):.1f}" r="3.5" fill="{s["colour"]}"/>')
            if t is not None:
                out.append(f'<circle cx="{px(n):.1f}" cy="{py(t):.1f}" r="7" fill="none" stroke="#222"/>')
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report")
    ap.add_argument("svg")
    ap.add_argument("--title")
    args = ap.parse_args()
    r = json.load(open(args.report))
    nodes = r["node_counts"]
    series = [{"name": s["name"], "colour": s["colour"],
               "cells": sorted((c for c in r["cells"] if c["series"] == s["name"]), key=lambda c: c["nodes"])}
              for s in r["series"]]
    crossings = [(x["after_nodes"], x["nodes"]) for x in r["crossovers"]]
    truth = any(c["truth_ns"] is not None for c in r["cells"])

    def times(s):
        return [(c["nodes"], c["estimated_ns"] / 1e6, c["truth_ns"] / 1e6 if c["truth_ns"] is not None else None)
                for c in s["cells"]]

    def efficiency(s):
        return [(c["nodes"], c["efficiency"], None) for c in s["cells"]]

    width = 2 * (LEFT + PANEL_W) + GAP + LEGEND
    height = TOP + PANEL_H + BOTTOM + 30
    title = args.title or f"{r['scaling']} scaling, {len(series)} strategies at {', '.join(map(str, nodes))} nodes"
    body = [f'<rect width="{width}" height="{height}" fill="#fff"/>',
            f'<text x="{width / 2:.1f}" y="{height - 8}" text-anchor="middle" fill="#555">{escape(title)}</text>']
    body += panel(0, "estimated time (ms)" + (", truth ringed" if truth else ""), nodes, series, times, True, [],
                  crossings, "time (ms, log scale)")
    body += panel(LEFT + PANEL_W + GAP, f"parallel efficiency ({r['scaling']} scaling)", nodes, series, efficiency,
                  False, [1.0], crossings, "efficiency")
    lx = 2 * (LEFT + PANEL_W) + GAP + 16
    for i, s in enumerate(series):
        y = TOP + 20 * i
        body.append(f'<rect x="{lx}" y="{y}" width="12" height="12" fill="{s["colour"]}"/>')
        body.append(f'<text x="{lx + 18}" y="{y + 11}">{escape(s["name"])}</text>')
    if truth:
        y = TOP + 20 * len(series) + 8
        body.append(f'<circle cx="{lx + 6}" cy="{y + 6}" r="6" fill="none" stroke="#222"/>')
        body.append(f'<text x="{lx + 18}" y="{y + 11}">truth</text>')
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">\n' + "\n".join(body) + "\n</svg>\n")
    with open(args.svg, "w") as f:
        f.write(svg)


if __name__ == "__main__":
    main()
