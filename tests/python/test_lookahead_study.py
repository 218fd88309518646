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


def test_counts_the_crossings_of_an_export(tmp_path):
    db_path = tmp_path / "s3d.db"
    subprocess.run([BIN, "export", S3D, "-m", TITAN, "--sqlite", str(db_path), "-q"], check=True)
    db = sqlite3.connect(db_path)
    nodes, block, block_of, start, end, events = study.load(db, 2)
    assert nodes == 4
    delay = study.machine_delays(TITAN)
    assert delay == {"issue": 2500, "other": 5500, "hop": 1800}  # titan.toml: network, trigger, NIC
    messages, instant = study.crossings(db, 2, block, block_of, start, end, delay)
    # The same count in SQL: edges between nodes {0,1} and {2,3}, plus copies whose route crosses them.
    edges = db.execute("""select count(*) from edges e join operations a on a.op = e.src join operations b
                          on b.op = e.dst where coalesce(a.node, 0) / 2 != coalesce(b.node, 0) / 2
                          and (case e.kind when 'issue' then a.start_ns else a.end_ns end) is not null""").fetchone()[0]
    copies = db.execute("""select count(*) from copies where src_node / 2 != dst_node / 2
                           and ready_ns is not null and start_ns is not null""").fetchone()[0]
    assert edges > 0 and copies > 0
    assert len(messages) == edges + copies
    assert all(felt >= sent for _, _, sent, felt in messages)
    speedup = study.asynchronous(events, 2, messages)
    assert 1.0 <= speedup <= 2.0
    result = subprocess.run([sys.executable, os.path.join(SRC, "scripts/lookahead_study.py"), str(db_path)],
                            check=True, capture_output=True, text=True).stdout
    assert f"{len(messages)} crossing messages" in result
    assert f"ideal speed-up {speedup:.2f}x" in result
