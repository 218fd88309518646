#!/usr/bin/env python3
"""How much a replay partitioned by model node could run in parallel, measured on a replay's own schedule.

Reads a database written by `realm-replay export` (docs/sql.md) and the machine file it names, splits the model
nodes into PARTS contiguous blocks, and finds every effect that crosses a block boundary in that schedule: an
edge between operations of two blocks (sent when its source fires, or when the issuing segment starts for an
`issue` edge; felt one remote edge delay later), and a copy whose route starts on the other block's node (a
channel lane requested there the instant the copy is ready: no lookahead at all; its hand-over back when the
first hop ends, known when that hop starts). Then it bounds what a conservative parallel replay could gain:

- windows: every block replays up to a common horizon, then all exchange messages. `fixed` sets the horizon
  at the smallest delay any crossing can have; `trace-driven` at what a replay knows when the window opens (a
  started task segment's end is fixed; anything else only when it happens, and before that it is at least its
  delay away, a task segment also its busy time); `along the graph` from the operations under way when the
  window opens, the least time along the graph to a crossing (least_time_to_crossing); `oracle` at the next
  crossing that actually happens (no real protocol knows that: it is the limit of lookahead). Reported: windows, operations per window, and the
  speed-up if a window cost only its busiest block's events (synchronisation free).
- asynchronous: every block goes on as long as no message can still arrive before its next event, and waits
  otherwise; events cost one unit each, waiting nothing else. With a fixed lookahead (the smallest crossing
  delay), "can still arrive" is judged from how far the other blocks have got, as a real protocol would; with
  perfect lookahead, from the messages that actually come. The latter is the ceiling of any conservative
  protocol on this partition.

Unit of work: an event time of the schedule (ready, start and end of each operation). docs/replay.md ("How far a
split can go") gives its bounds on the S3D traces and what they mean for the engine.

A study, run by hand; the test suite does not run it (what the product promises of a split replay, the same
result at any thread count, is tested by tests/gen/replay_blocks_test.cpp). To reproduce the bounds:

    realm-replay gen s3d --nodes 128 --mechanism heptane --strategy mixed --steps 3 -o s3d128
    realm-replay export s3d128 -m data/machines/titan.toml --sqlite s3d128.db
    scripts/lookahead_study.py s3d128.db --parts 2

usage: scripts/lookahead_study.py DATABASE [--parts N] [--machine FILE]
"""
import argparse
import bisect
import heapq
import sqlite3
import sys
import tomllib


def read_machine(path):
    with open(path, "rb") as f:
        return tomllib.load(f)


def machine_delays(m):
    """The delays of crossing effects in machine `m` (read_machine)."""
    latency = m.get("network", {}).get("latency_ns", 0)
    trigger_remote = m.get("runtime", {}).get("trigger_remote_ns", 0)
    hop = min((c.get("latency_ns", 0) for c in m.get("channels", {}).values()), default=0)
    # replay/timing_rules.hpp: an issue edge across nodes costs the latency, any other edge also the trigger.
    return {"issue": latency, "other": latency + trigger_remote, "hop": hop}


def local_trigger(m):
    return m.get("runtime", {}).get("trigger_local_ns", 0)


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


def crossings(db, block, block_of, start, end, delay, segments=frozenset()):
    """Messages as (receiving block, sending block, sent at, felt at); instants with no lookahead; and per
    message what a replay knows of it in advance, (known at, least delay before): when its sending time is
    fixed, and before then the least time from any moment to its arrival. A task segment's end is fixed when
    it starts and lasts its busy time; everything else is taken as known only when it is sent."""
    messages, instant, known = [], set(), []
    for src, dst, kind in db.execute("select src, dst, kind from edges"):
        a, b = block_of[src], block_of[dst]
        if a == b:
            continue
        sent = start[src] if kind == "issue" else end[src]
        if sent is None:
            continue
        lag = delay["issue" if kind == "issue" else "other"]
        messages.append((b, a, sent, sent + lag))
        if kind != "issue" and src in segments:
            known.append((start[src], end[src] - start[src] + lag))
        else:
            known.append((sent, lag))
    for op, src_node, dst_node, ready, first in db.execute(
            "select op, src_node, dst_node, ready_ns, start_ns from copies"):
        if ready is None or block(src_node) == block(dst_node):
            continue
        instant.add(ready)
        if first is not None:
            messages.append((block(dst_node), block(src_node), first, first + delay["hop"]))
            known.append((first, delay["hop"]))
    return messages, sorted(instant), known


def least_time_to_crossing(db, block_of, start, end, delay, local_trigger):
    """Per operation, the least time from it becoming ready to a crossing being felt, along the graph: a task
    segment takes its busy time (fixed by the model), anything else may take no time; a local edge takes
    its delay (the local trigger; an issue or continuation nothing), a crossing edge its remote delay. Computed
    backwards in topological order. Operations in a cycle keep infinity (they never run)."""
    out, indegree = {}, {}
    for src, dst, kind in db.execute("select src, dst, kind from edges"):
        out.setdefault(src, []).append((dst, kind))
        indegree[dst] = indegree.get(dst, 0) + 1
    order = [v for v in block_of if indegree.get(v, 0) == 0]
    for v in order:  # grows while it is walked: Kahn's algorithm
        for w, _ in out.get(v, ()):
            indegree[w] -= 1
            if indegree[w] == 0:
                order.append(w)
    inf = float("inf")
    least = {}
    for v in reversed(order):
        busy = end[v] - start[v] if start[v] is not None and end[v] is not None else 0
        best = inf
        for w, kind in out.get(v, ()):
            crossing = block_of[v] != block_of[w]
            if kind == "issue":  # during the segment: at least at its start
                best = min(best, delay["issue"] if crossing else least.get(w, inf))
            else:
                lag = delay["other"] if crossing else (0 if kind in ("continuation", "phase_order") else local_trigger)
                best = min(best, busy + lag + (0 if crossing else least.get(w, inf)))
        least[v] = best
    return least


class FrontierHorizon:
    """The window end from the operations under way when each window opens, with least_time_to_crossing():
    an operation whose inputs may be in (its ready time, less the largest delay, is past) but not yet ready
    leads to no crossing before ready + least; a ready one not yet started, before now + least; a running
    one, before its end (fixed when it started) plus the smallest crossing delay. Asked with non-decreasing
    times."""

    def __init__(self, db, least, instant, largest_delay, smallest_delay):
        inf = float("inf")
        self.instant, self.smallest = instant, smallest_delay
        ops = [(op, r, s if s is not None else inf, e if e is not None else inf)
               for op, r, s, e in db.execute("select op, ready_ns, start_ns, end_ns from operations")
               if r is not None and least.get(op, inf) != inf]
        self.least = {op: least[op] for op, _, _, _ in ops}
        self.entering = sorted((r - largest_delay, r, op) for op, r, _, _ in ops)
        self.readying = sorted((r, op) for op, r, _, _ in ops)
        self.starting = sorted((s, e, op) for op, _, s, e in ops if s != inf)
        self.later = [inf] * (len(self.entering) + 1)  # least bound of the operations not yet entered
        for k in range(len(self.entering) - 1, -1, -1):
            self.later[k] = min(self.later[k + 1], self.entering[k][1] + self.least[self.entering[k][2]])
        self.cursor = [0, 0, 0]
        self.ready, self.started = set(), set()
        self.before, self.waiting, self.running = [], [], []

    def __call__(self, now):
        push, pop = heapq.heappush, heapq.heappop
        c = self.cursor
        while c[0] < len(self.entering) and self.entering[c[0]][0] <= now:
            _, r, op = self.entering[c[0]]
            push(self.before, (r + self.least[op], op))
            c[0] += 1
        while c[1] < len(self.readying) and self.readying[c[1]][0] <= now:
            op = self.readying[c[1]][1]
            self.ready.add(op)
            push(self.waiting, (self.least[op], op))
            c[1] += 1
        while c[2] < len(self.starting) and self.starting[c[2]][0] <= now:
            _, e, op = self.starting[c[2]]
            self.started.add(op)
            push(self.running, (e + self.smallest, e))
            c[2] += 1
        while self.before and self.before[0][1] in self.ready:
            pop(self.before)
        while self.waiting and self.waiting[0][1] in self.started:
            pop(self.waiting)
        while self.running and self.running[0][1] < now:  # ended
            pop(self.running)
        end = self.later[c[0]]
        if self.before:
            end = min(end, self.before[0][0])
        if self.waiting:
            end = min(end, now + self.waiting[0][0])
        if self.running:
            end = min(end, self.running[0][0])
        k = bisect.bisect_left(self.instant, now)
        return min(end, self.instant[k]) if k < len(self.instant) else end


class TraceDrivenHorizon:
    """The window end a replay could compute from what it knows at each window's start (crossings()'s
    `known`): the arrival of every message whose sending time is fixed and not yet sent, and for the others
    the least delay from now. Asked with non-decreasing times."""

    def __init__(self, messages, known, instant):
        self.instant = instant
        by_known = sorted(range(len(messages)), key=lambda m: known[m][0])
        self.known_at = [known[m][0] for m in by_known]
        self.sent = [messages[m][2] for m in by_known]
        self.felt = [messages[m][3] for m in by_known]
        # least delay among the messages not yet known, by position in known order (a suffix minimum)
        self.least_after = [float("inf")] * (len(by_known) + 1)
        for k in range(len(by_known) - 1, -1, -1):
            self.least_after[k] = min(self.least_after[k + 1], known[by_known[k]][1])
        self.next = 0
        self.pending = []  # (felt, sent) of messages known, perhaps not yet sent

    def __call__(self, now):
        while self.next < len(self.known_at) and self.known_at[self.next] <= now:
            heapq.heappush(self.pending, (self.felt[self.next], self.sent[self.next]))
            self.next += 1
        while self.pending and self.pending[0][1] < now:  # sent before this window: already delivered
            heapq.heappop(self.pending)
        end = now + self.least_after[self.next]
        if self.pending:
            end = min(end, self.pending[0][0])
        k = bisect.bisect_left(self.instant, now)
        return min(end, self.instant[k]) if k < len(self.instant) else end


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


def asynchronous(events, parts, messages, lookahead=None, instant=()):
    """Blocks that each wait only for what they need, one unit of work per event time, waiting free. With
    `lookahead` None a block waits for the messages it actually gets (perfect lookahead). With a lookahead L
    (a real protocol: every block publishes how far it has got), an event at t also waits until every other
    block has done its events at or before t - L, since one of them could still send a message felt by t. An
    instant with no lookahead (`instant`) is a barrier: its events wait for every block's events before it, and
    every later event for every block's events at it."""
    own = [[t for t, b in events if b == k] for k in range(parts)]
    no_lookahead = set(instant)
    barriers = sorted(no_lookahead)
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
                k = 0 if latest is None else bisect.bisect_right(own[q], latest)
                if lookahead is not None:
                    if t in no_lookahead:
                        safe = bisect.bisect_left(own[q], t)
                    else:
                        safe = bisect.bisect_right(own[q], t - lookahead)
                        before = bisect.bisect_left(barriers, t)  # barriers[before - 1]: the last one before t
                        if before > 0:
                            safe = max(safe, bisect.bisect_right(own[q], barriers[before - 1]))
                    k = max(k, safe)
                out.append(k)
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
    model = read_machine(machine)
    delay = machine_delays(model)
    nodes, block, block_of, start, end, events = load(db, args.parts)
    segments = {op for (op,) in db.execute("select op from operations where kind in ('task', 'task_resume')")}
    messages, instant, known = crossings(db, block, block_of, start, end, delay, segments)
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

    for name, horizon in ((f"fixed lookahead {smallest} ns", fixed),
                          ("trace-driven lookahead", TraceDrivenHorizon(messages, known, instant)),
                          ("lookahead along the graph",
                           FrontierHorizon(db, least_time_to_crossing(db, block_of, start, end, delay,
                                                                      local_trigger(model)),
                                           instant, max(delay.values()), min(delay.values()))),
                          ("oracle lookahead", oracle)):
        count, serial, speedup = windows(events, args.parts, horizon)
        print(f"  windows, {name}: {count} windows ({serial} instants together), "
              f"{len(events) / count:.1f} event times per window, ideal speed-up {speedup:.2f}x")
    print(f"  asynchronous, fixed lookahead {smallest} ns: ideal speed-up "
          f"{asynchronous(events, args.parts, messages, smallest, instant):.2f}x")
    print(f"  asynchronous, perfect lookahead: ideal speed-up {asynchronous(events, args.parts, messages):.2f}x")


if __name__ == "__main__":
    main()
