#!/usr/bin/env python3
"""How much a replay partitioned by model node could run in parallel, measured on a replay's own schedule.

Reads a database written by `realm-replay export` (docs/sql.md) and the machine file it names, splits the model
nodes into PARTS contiguous blocks, and finds every effect that crosses a block boundary in that schedule: an
edge between operations of two blocks (sent when its source fires, or when the issuing segment starts for an
`issue` edge; felt one remote edge delay later), and a copy whose route starts on the other block's node (a
channel lane requested there the instant the copy is ready: no lookahead at all; its hand-over back when the
first hop ends, known when that hop starts). Then it bounds what a conservative parallel replay could gain:

- windows: every block replays up to a common horizon, then all exchange messages. `fixed` sets the horizon
  at the smallest delay any crossing can have; `oracle` at the next crossing that actually happens (no real
  protocol knows that: it is the limit of lookahead). Reported: windows, operations per window, and the
  speed-up if a window cost only its busiest block's events (synchronisation free).
- asynchronous, perfect lookahead: every block goes on as long as no message can still arrive before its next
  event, and waits otherwise; events cost one unit each, waiting nothing else. The ceiling of any conservative
  protocol on this partition.

Unit of work: an event time of the schedule (ready, start and end of each operation). docs/replay.md explains
what the numbers mean for the engine.

usage: scripts/lookahead_study.py DATABASE [--parts N] [--machine FILE]
"""
import argparse
import bisect
import sqlite3
import sys
import tomllib


def machine_delays(path):
    with open(path, "rb") as f:
        m = tomllib.load(f)
    latency = m.get("network", {}).get("latency_ns", 0)
    trigger_remote = m.get("runtime", {}).get("trigger_remote_ns", 0)
    hop = min((c.get("latency_ns", 0) for c in m.get("channels", {}).values()), default=0)
    # replay/timing_rules.hpp: an issue edge across nodes costs the latency, any other edge also the trigger.
    return {"issue": latency, "other": latency + trigger_remote, "hop": hop}


def load(db, parts):
    nodes = db.execute("select model_nodes from runs").fetchone()[0]

    def block(node):
        return 0 if node is None else node * parts // nodes

    block_of, start, end, events = {}, {}, {}, []
    for op, node, r, s, e in db.execute("select op, node, ready_ns, start_ns, end_ns from operations"):
        b = block(node)
        block_of[op], start[op], end[op] = b, s, e
        events.extend((t, b) for t in (r, s, e) if t is not None)
    events.sort()
    return nodes, block, block_of, start, end, events


def crossings(db, parts, block, block_of, start, end, delay):
    """Messages as (receiving block, sending block, sent at, felt at); instants with no lookahead."""
    messages, instant = [], set()
    for src, dst, kind in db.execute("select src, dst, kind from edges"):
        a, b = block_of[src], block_of[dst]
        if a == b:
            continue
        sent = start[src] if kind == "issue" else end[src]
        if sent is not None:
            messages.append((b, a, sent, sent + delay["issue" if kind == "issue" else "other"]))
    for op, src_node, dst_node, ready, first in db.execute(
            "select op, src_node, dst_node, ready_ns, start_ns from copies"):
        if ready is None or block(src_node) == block(dst_node):
            continue
        instant.add(ready)
        if first is not None:
            messages.append((block(dst_node), block(src_node), first, first + delay["hop"]))
    return messages, sorted(instant)


def windows(events, parts, horizon):
    count = serial = span = i = 0
    while i < len(events):
        now = events[i][0]
        end = horizon(now)
        per_block = [0] * parts
        count += 1
        if end <= now:  # a crossing with no lookahead: this instant is replayed by all blocks together
            serial += 1
            while i < len(events) and events[i][0] == now:
                per_block[events[i][1]] += 1
                i += 1
            span += sum(per_block)
        else:
            while i < len(events) and events[i][0] < end:
                per_block[events[i][1]] += 1
                i += 1
            span += max(per_block)
    return count, serial, len(events) / span


def asynchronous(events, parts, messages):
    own = [[t for t, b in events if b == k] for k in range(parts)]
    # need[p][q][i]: events of block q that must be done before event i of block p (those sending p a
    # message felt at or before that event's time).
    need = [[None] * parts for _ in range(parts)]
    by_pair = {}
    for to, frm, sent, felt in messages:
        by_pair.setdefault((to, frm), []).append((felt, sent))
    for p in range(parts):
        for q in range(parts):
            if p == q:
                continue
            arrivals = sorted(by_pair.get((p, q), []))
            out, j, latest = [], 0, None
            for t in own[p]:
                while j < len(arrivals) and arrivals[j][0] <= t:
                    latest = arrivals[j][1] if latest is None else max(latest, arrivals[j][1])
                    j += 1
                out.append(0 if latest is None else bisect.bisect_right(own[q], latest))
            need[p][q] = out
    done, clock = [0] * parts, [0] * parts
    finish = [[0] * len(own[k]) for k in range(parts)]
    while any(done[k] < len(own[k]) for k in range(parts)):
        moved = False
        for p in range(parts):
            while done[p] < len(own[p]):
                i = done[p]
                ready_at = clock[p]
                blocked = False
                for q in range(parts):
                    if q == p:
                        continue
                    k = need[p][q][i]
                    if k > done[q]:
                        blocked = True
                        break
                    if k > 0:
                        ready_at = max(ready_at, finish[q][k - 1])
                if blocked:
                    break
                clock[p] = ready_at + 1
                finish[p][i] = clock[p]
                done[p] += 1
                moved = True
        if not moved:
            sys.exit("the dependency model has a cycle")
    return len(events) / max(clock)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("database")
    ap.add_argument("--parts", type=int, default=2)
    ap.add_argument("--machine", help="machine file (default: the one the export names)")
    args = ap.parse_args()
    db = sqlite3.connect(args.database)
    machine = args.machine or db.execute("select machine_file from runs").fetchone()[0]
    if machine == "traced":
        sys.exit("the export was replayed on the traced machine: give its machine file with --machine")
    delay = machine_delays(machine)
    nodes, block, block_of, start, end, events = load(db, args.parts)
    messages, instant = crossings(db, args.parts, block, block_of, start, end, delay)
    print(f"{args.database}: {len(block_of)} operations, {len(events)} event times, {nodes} model nodes "
          f"in {args.parts} blocks; {len(messages)} crossing messages, {len(instant)} instants with no lookahead")
    smallest = min(delay.values())

    def fixed(now):
        k = bisect.bisect_left(instant, now)
        return min(now + smallest, instant[k]) if k < len(instant) else now + smallest

    by_sent = sorted((sent, felt) for _, _, sent, felt in messages)
    sent_times = [s for s, _ in by_sent]
    earliest = [float("inf")] * (len(by_sent) + 1)
    for k in range(len(by_sent) - 1, -1, -1):
        earliest[k] = min(earliest[k + 1], by_sent[k][1])

    def oracle(now):
        end = earliest[bisect.bisect_left(sent_times, now)]
        k = bisect.bisect_left(instant, now)
        return min(end, instant[k]) if k < len(instant) else end

    for name, horizon in ((f"fixed lookahead {smallest} ns", fixed), ("oracle lookahead", oracle)):
        count, serial, speedup = windows(events, args.parts, horizon)
        print(f"  windows, {name}: {count} windows ({serial} instants together), "
              f"{len(events) / count:.1f} event times per window, ideal speed-up {speedup:.2f}x")
    print(f"  asynchronous, perfect lookahead: ideal speed-up {asynchronous(events, args.parts, messages):.2f}x")


if __name__ == "__main__":
    main()
