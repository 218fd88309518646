"""scripts/lookahead_study.py: its bounds on schedules small enough to work out by hand, and its crossing count
against an independent SQL count on an export of a bundled S3D trace.

Run by ctest (`ctest -R lookahead_study`); needs REALM_REPLAY (the program) and RR_SOURCE (the source folder)."""
import importlib.util
import os
import sqlite3
import subprocess
import sys

import pytest

SRC = os.environ["RR_SOURCE"]
BIN = os.environ["REALM_REPLAY"]
S3D = os.path.join(SRC, "data/traces/s3d/dme_mixed_4n")
TITAN = os.path.join(SRC, "data/machines/titan.toml")

spec = importlib.util.spec_from_file_location("lookahead_study", os.path.join(SRC, "scripts/lookahead_study.py"))
study = importlib.util.module_from_spec(spec)
spec.loader.exec_module(study)


def two_blocks(n):
    """Blocks 0 and 1 each with events at times 0..n-1."""
    return sorted([(t, 0) for t in range(n)] + [(t, 1) for t in range(n)])


def test_independent_blocks_run_fully_in_parallel():
    events = two_blocks(6)
    assert study.asynchronous(events, 2, []) == 2.0
    count, serial, speedup = study.windows(events, 2, lambda now: float("inf"))
    assert (count, serial, speedup) == (1, 0, 2.0)


def test_a_ping_pong_serialises_the_blocks():
    # Each event of a block waits for a message sent by the other block's event just before it (felt at its
    # own time): block 1's event t needs block 0's event t, block 0's event t+1 needs block 1's event t.
    n = 5
    events = two_blocks(n)
    messages = [(1, 0, t, t) for t in range(n)] + [(0, 1, t, t + 1) for t in range(n - 1)]
    # Every one of the 2n events waits for the previous one: no overlap at all.
    assert study.asynchronous(events, 2, messages) == 1.0
    # The same with a lookahead and barriers (none of which holds anything up here): the messages still rule.
    assert study.asynchronous(events, 2, messages, lookahead=100, instant=list(range(-10, 0))) == 1.0


def test_a_fixed_lookahead_waits_for_the_other_blocks_progress():
    # Block 0: events at 0, 1, 2, 3; block 1: events at 10 and 11; no message at all. Worked out by hand, one
    # unit per event: with perfect lookahead block 1 runs at once (clock 2, block 0's clock 4: 6/4 = 1.5x).
    events = sorted([(t, 0) for t in range(4)] + [(10, 1), (11, 1)])
    assert study.asynchronous(events, 2, []) == 1.5
    # With a lookahead of 5, block 1's event at 10 waits for block 0's events at or before 5, all four: it runs
    # at clock 5 and 6, after them (6/6 = 1x).
    assert study.asynchronous(events, 2, [], lookahead=5) == 1.0
    # A lookahead of 20 rules nothing out before 10 - 20: back to 1.5x.
    assert study.asynchronous(events, 2, [], lookahead=20) == 1.5
    # An instant with no lookahead is a barrier: its event waits for every earlier event of the other blocks.
    assert study.asynchronous(events, 2, [], lookahead=20, instant=[10]) == 1.0
    # ...and every later event for every block's events at it. Block 0: events at 0, 1 and three at 2; block 1:
    # one at 2 and one at 3; a barrier at 2. Block 1's event at 2 waits for block 0's at 0 and 1 (clock 3), its
    # event at 3 for all five of block 0's (clock 6): 7 events in 6 units. Without the barrier after the
    # instant it would not wait (clock 4), and block 0's clock 5 would set 7/5.
    barrier = sorted([(0, 0), (1, 0), (2, 0), (2, 0), (2, 0), (2, 1), (3, 1)])
    assert study.asynchronous(barrier, 2, [], lookahead=20, instant=[2]) == pytest.approx(7 / 6)
    # Block 1's new event at 2 waits for nothing (block 0 has none at or before 2 - 5): it runs at clock 1, its
    # events at 10 and 11 still after block 0's four, at 5 and 6: 7 events in 6 units.
    assert study.asynchronous(sorted(events + [(2, 1)]), 2, [], lookahead=5) == pytest.approx(7 / 6)


def test_windows_cost_their_busiest_block():
    # Block 0: 3 events at t=0, block 1: 1 event at t=0, then one window each at t=10 with 1 and 3 events.
    events = sorted([(0, 0)] * 3 + [(0, 1)] + [(10, 0)] + [(10, 1)] * 3)
    horizon = lambda now: now + 5
    count, serial, speedup = study.windows(events, 2, horizon)
    assert (count, serial) == (2, 0)
    assert speedup == pytest.approx(8 / 6)  # 8 events, each window as long as its 3-event block
    # An instant with no lookahead is replayed by both blocks together: it costs all its events.
    count, serial, speedup = study.windows(events, 2, lambda now: now)
    assert (count, serial, speedup) == (2, 2, 1.0)


def test_the_trace_driven_horizon_knows_a_started_segments_end():
    # m0: sent by a task segment running 0..100 (its end fixed at 0), felt 10 later; m1: sent at 50 by
    # something known only then, felt 10 later. Worked out by hand: before 50 the unknown m1 may come any
    # time, 10 after now; after it is sent, only m0 bounds the window; after m0 is sent, nothing does.
    messages = [(1, 0, 100, 110), (1, 0, 50, 60)]
    known = [(0, 100 + 10), (50, 10)]
    horizon = study.TraceDrivenHorizon(messages, known, instant=[])
    assert horizon(0) == 10
    assert horizon(20) == 30
    assert horizon(55) == 110
    assert horizon(105) == float("inf")
    # An instant with no lookahead caps the window.
    assert study.TraceDrivenHorizon(messages, known, instant=[7])(0) == 7


def tiny_schedule():
    """Block 0: task 1 (runs 0..100) issues copy 2 and precedes merge 3; merge 3 precedes task 4 in block 1.
    Ops: (op, node, ready, start, end); 2 nodes, so node n is block n."""
    db = sqlite3.connect(":memory:")
    db.execute("create table operations (op, kind, node, ready_ns, start_ns, end_ns)")
    db.executemany("insert into operations values (?, ?, ?, ?, ?, ?)", [
        (1, "task", 0, 0, 0, 100), (2, "copy", 0, 40, 40, 60), (3, "merge", 0, 101, 101, 101),
        (4, "task", 1, 200, 200, 300)])
    db.execute("create table edges (src, dst, kind)")
    db.executemany("insert into edges values (?, ?, ?)", [(1, 2, "issue"), (1, 3, "precondition"), (3, 4, "precondition")])
    return db


def test_least_time_to_a_crossing_follows_the_graph():
    db = tiny_schedule()
    block_of = {1: 0, 2: 0, 3: 0, 4: 1}
    start = {1: 0, 2: 40, 3: 101, 4: 200}
    end = {1: 100, 2: 60, 3: 101, 4: 300}
    delay = {"issue": 2500, "other": 5500, "hop": 1800}
    least = study.least_time_to_crossing(db, block_of, start, end, delay, local_trigger=1000)
    # By hand: merge 3 sends across at once: 5500. Task 1: its busy 100, the local trigger 1000, then 3's 5500
    # (its issue to copy 2 leads nowhere). Copy 2 and task 4 lead to no crossing.
    assert least[3] == 5500
    assert least[1] == 100 + 1000 + 5500
    assert least[2] == float("inf") and least[4] == float("inf")
    horizon = study.FrontierHorizon(db, least, instant=[], largest_delay=5500, smallest_delay=1800)
    # At 0: task 1 is running until 100, so nothing crosses before 100 + 1800; merge 3 may have its inputs
    # (101 - 5500 <= 0) and is not ready: no earlier than 101 + 5500.
    assert horizon(0) == 1900
    # At 150: task 1 ended; merge 3 is ready but has not started... it started at 101 and ends at 101:
    # running entries end before 150 and are dropped; nothing under way: no bound left.
    assert horizon(150) == float("inf")


def test_counts_the_crossings_of_an_export(tmp_path):
    db_path = tmp_path / "s3d.db"
    subprocess.run([BIN, "export", S3D, "-m", TITAN, "--sqlite", str(db_path), "-q"], check=True)
    db = sqlite3.connect(db_path)
    nodes, block, block_of, start, end, events = study.load(db, 2)
    assert nodes == 4
    delay = study.machine_delays(study.read_machine(TITAN))
    assert delay == {"issue": 2500, "other": 5500, "hop": 1800}  # titan.toml: network, trigger, NIC
    messages, instant, known = study.crossings(db, block, block_of, start, end, delay)
    # The same count in SQL: edges between nodes {0,1} and {2,3}, plus copies whose route crosses them.
    edges = db.execute("""select count(*) from edges e join operations a on a.op = e.src join operations b
                          on b.op = e.dst where coalesce(a.node, 0) / 2 != coalesce(b.node, 0) / 2
                          and (case e.kind when 'issue' then a.start_ns else a.end_ns end) is not null""").fetchone()[0]
    copies = db.execute("""select count(*) from copies where src_node / 2 != dst_node / 2
                           and ready_ns is not null and start_ns is not null""").fetchone()[0]
    assert edges > 0 and copies > 0
    assert len(messages) == edges + copies
    assert all(felt >= sent for _, _, sent, felt in messages)
    assert len(known) == len(messages)
    assert all(at <= sent for (at, _), (_, _, sent, _) in zip(known, messages))
    speedup = study.asynchronous(events, 2, messages)
    assert 1.0 <= speedup <= 2.0
    # A real protocol's lookahead can only lose against the messages that actually come.
    assert 1.0 <= study.asynchronous(events, 2, messages, min(delay.values()), instant) <= speedup
    result = subprocess.run([sys.executable, os.path.join(SRC, "scripts/lookahead_study.py"), str(db_path)],
                            check=True, capture_output=True, text=True).stdout
    assert f"{len(messages)} crossing messages" in result
    assert f"ideal speed-up {speedup:.2f}x" in result
