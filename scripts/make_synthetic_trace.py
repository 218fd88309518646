#!/usr/bin/env python3
"""Writes a valid multi-node Realm event-graph trace of about a given size, for parser benchmarks.

Every one of the 14 record kinds appears, in roughly the mix of the real traces (many Event Preconditions,
Task Requests and Task Times, merges and triggers; copies, waits and barriers), with the exact E2c line
format: "[<node> - <thread>] {<level>}{graph}: ...", 32-bit ids laid out as in docs/realm-log-format.md (Ids), several
interleaved threads per node, some "(nil)" args and "(id, gen)" preconditions. Deterministic per seed.

usage: make_synthetic_trace.py --out DIR [--nodes 4] [--size-mb 1100] [--seed 1]"""
import argparse
import os
import random
import sys


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--nodes", type=int, default=4)
    ap.add_argument("--size-mb", type=float, default=1100.0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if not 1 <= a.nodes <= 32:
        sys.exit("--nodes must be 1..32 (32-bit ids)")
    os.makedirs(a.out, exist_ok=True)
    target = int(a.size_mb * 1024 * 1024 / a.nodes)
    counts = {}
    for node in range(a.nodes):
        rng = random.Random(a.seed * 1000 + node)
        threads = ["7fff%08x" % rng.getrandbits(32) for _ in range(6)]
        procs = [0x80000000 | (n << 23) | i for n in range(a.nodes) for i in range(4)]
        ev_base = 0x20000000 | (node << 23)
        mem = 0x60000000 | (node << 23)
        head = []
        for p in procs:
            head.append("[%d - %s] {2}{graph}: Processor: %x %d\n" % (node, threads[0], p, 2 if (p & 3) < 2 else 1))
        for n in range(a.nodes):
            head.append("[%d - %s] {2}{graph}: Memory: %x 1\n" % (node, threads[0], 0x60000000 | (n << 23)))
        head.append("[%d - %s] {2}{graph}: Memory: 607f0000 0\n" % (node, threads[0]))
        group = 0x90000001 | (node << 23)
        head.append("[%d - %s] {2}{graph}: Group: %x 2 %x %x\n" % (node, threads[1], group, procs[node * 4], procs[node * 4 + 1]))
        kinds = {"Processor": len(procs), "Memory": a.nodes + 1, "Group": 1}
        with open(os.path.join(a.out, "node_%d.log" % node), "w") as f:
            f.write("".join(head))
            written = sum(len(x) for x in head)
            idx = 1
            gen = 1
            while written < target:
                lines = []
                for _ in range(2000):
                    t = threads[rng.randrange(6)]
                    p = "[%d - %s] {" % (node, t)
                    enc = "(%x,%d)" % (ev_base | rng.randrange(1, idx + 1), gen)
                    fin = "(%x,%d)" % (ev_base | idx, gen)
                    pre = "(0,0)" if rng.random() < 0.3 else "(%x,%d)" % (ev_base | rng.randrange(1, idx + 1), gen)
                    r = rng.random()
                    if r < 0.40:
                        args = "(nil)" if rng.random() < 0.05 else "0x7fffe%07x" % rng.getrandbits(28)
                        lines.append(p + "2}{graph}: Task Request: %d %x %s %s %s %d %s %d\n" % (
                            rng.choice((4, 4, 5, 6, 7)), rng.choice(procs), fin, pre, enc, rng.randrange(-1, 3), args, rng.choice((8, 24, 64))))
                        lines.append(p + "1}{graph}: Task Time: %s %d\n" % (fin, rng.randrange(1, 20000)))
                        kinds["Task Request"] = kinds.get("Task Request", 0) + 1
                        kinds["Task Time"] = kinds.get("Task Time", 0) + 1
                    elif r < 0.52:
                        n_in = rng.randrange(2, 9)
                        lines.append(p + "2}{graph}: Event Merge: %s %d\n" % (fin, n_in))
                        for _ in range(n_in):
                            inp = "(%x,%d)" % (ev_base | rng.randrange(1, idx + 1), gen)
                            if rng.random() < 0.02:
                                inp = inp.replace(",", ", ")
                            lines.append(p + "2}{graph}: Event Precondition: %s %s\n" % (fin, inp))
                        kinds["Event Merge"] = kinds.get("Event Merge", 0) + 1
                        kinds["Event Precondition"] = kinds.get("Event Precondition", 0) + n_in
                    elif r < 0.66:
                        lines.append(p + "2}{graph}: Event Trigger: %s %s %s\n" % (fin, pre, enc))
                        kinds["Event Trigger"] = kinds.get("Event Trigger", 0) + 1
                    elif r < 0.72:
                        lines.append(p + "2}{graph}: Copy Request: %s %s %s %x %x\n" % (
                            fin, pre, enc, mem, 0x60000000 | (rng.randrange(a.nodes) << 23)))
                        lines.append(p + "1}{graph}: Copy Size: %s %d\n" % (fin, rng.randrange(64, 1 << 22)))
                        kinds["Copy Request"] = kinds.get("Copy Request", 0) + 1
                        kinds["Copy Size"] = kinds.get("Copy Size", 0) + 1
                    elif r < 0.75:
                        lines.append(p + "1}{graph}: Task Wait: %s %s %d\n" % (enc, pre, rng.randrange(1, 9000)))
                        kinds["Task Wait"] = kinds.get("Task Wait", 0) + 1
                    elif r < 0.76:
                        b = ev_base | idx
                        lines.append(p + "2}{graph}: Barrier Creation: %x %d\n" % (b, 2))
                        lines.append(p + "2}{graph}: Barrier Alter: (%x,1) %s 1\n" % (b, enc))
                        for _ in range(3):
                            lines.append(p + "2}{graph}: Barrier Arrive: (%x,1) %s %s 1\n" % (b, pre, enc))
                        kinds["Barrier Creation"] = kinds.get("Barrier Creation", 0) + 1
                        kinds["Barrier Alter"] = kinds.get("Barrier Alter", 0) + 1
                        kinds["Barrier Arrive"] = kinds.get("Barrier Arrive", 0) + 3
                    else:
                        n_in = rng.randrange(2, 6)
                        lines.append(p + "2}{graph}: Event Merge: %s %d\n" % (fin, n_in))
                        for _ in range(n_in):
                            lines.append(p + "2}{graph}: Event Precondition: %s (%x,%d)\n" % (fin, ev_base | rng.randrange(1, idx + 1), gen))
                        kinds["Event Merge"] = kinds.get("Event Merge", 0) + 1
                        kinds["Event Precondition"] = kinds.get("Event Precondition", 0) + n_in
                    idx += 1
                    if idx >= (1 << 23) - 1:
                        idx, gen = 1, gen + 1
                chunk = "".join(lines)
                f.write(chunk)
                written += len(chunk)
        for k, v in kinds.items():
            counts[k] = counts.get(k, 0) + v
    total = sum(counts.values())
    for k in sorted(counts):
        print("%-20s %d" % (k, counts[k]))
    print("%-20s %d" % ("total", total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
