"""realm_replay.explain against the command line: the same classes and shares as `explain --json` on a real Legion
Prof pair, shares that add up to B - A, every counterfactual replay, and errors as realm_replay.Error.

Run by ctest (`ctest -R python_explain`) with PYTHONPATH=build/python, REALM_REPLAY and RR_SOURCE set."""
import json
import os
import subprocess

import pytest

import realm_replay as rr

SRC = os.environ["RR_SOURCE"]
BIN = os.environ["REALM_REPLAY"]
A = os.path.join(SRC, "data/traces/legion-prof/circuit_small_cpu2_util1")
B = os.path.join(SRC, "data/traces/legion-prof/circuit_small_cpu2_util1_nocritical")


def test_same_shares_as_the_cli():
    e = rr.explain(rr.read(A), rr.read(B), threads=2)
    cli = json.loads(subprocess.run([BIN, "explain", A, B, "-q", "--json"], check=True, capture_output=True,
                                    text=True).stdout)
    assert e.difference_ns == cli["difference_ns"] == e.replay_b_ns - e.replay_a_ns
    assert [(c["name"], c["share_ns"]) for c in e.classes] == [(c["name"], c["share_ns"]) for c in cli["classes"]]
    assert sum(c["share_ns"] for c in e.classes) == e.difference_ns
    assert len(e.replays) == 2 ** len(e.classes)
    assert e.replays[0]["replay_ns"] == e.replay_a_ns and e.replays[-1]["replay_ns"] == e.replay_b_ns
    assert e.observed_a_ns and e.observed_b_ns
    assert "structure" in [c["kind"] for c in e.classes]


def test_errors():
    t = rr.read(A)
    with pytest.raises(rr.Error, match="missing.toml"):
        rr.explain(t, t, machine=os.path.join(SRC, "missing.toml"))
    with pytest.raises(ValueError):
        rr.explain(t, t, machine=[])
    with pytest.raises(TypeError):
        rr.explain(t, "not a trace")
