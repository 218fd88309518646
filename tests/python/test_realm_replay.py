"""The Python module against the command-line program: the same estimate, critical path, operation and edge
counts as the CLI's JSON and as the SQLite export, on real, Legion Prof and generated traces; columns that hold
together; errors that arrive as realm_replay.Error with the CLI's file:line message, never a crash.

Run by ctest (`ctest -R python_module`) with PYTHONPATH=build/python; needs REALM_REPLAY (the program) and
RR_SOURCE (the source folder) in the environment."""
import json
import os
import sqlite3
import subprocess
import threading

import numpy as np
import pytest

import realm_replay as rr

SRC = os.environ["RR_SOURCE"]
BIN = os.environ["REALM_REPLAY"]
GHOST = os.path.join(SRC, "data/traces/real/full_ghost_b2_cpu2")
CIRCUIT = os.path.join(SRC, "data/traces/real/full_circuit_2node_p4_cpu2")
PROF = os.path.join(SRC, "data/traces/legion-prof/circuit_small_cpu2_util1")
S3D = os.path.join(SRC, "data/traces/s3d/dme_mixed_4n")
TITAN = os.path.join(SRC, "data/machines/titan.toml")


def cli_json(*args):
    return json.loads(subprocess.run([BIN, *args, "-q", "--json"], check=True, capture_output=True, text=True).stdout)


@pytest.fixture(scope="module")
def ghost():
    return rr.read(GHOST)


@pytest.mark.parametrize("trace,machine", [(GHOST, TITAN), (CIRCUIT, "traced"), (PROF, "traced"), (S3D, TITAN)])
def test_same_numbers_as_the_cli(trace, machine):
    t = rr.read(trace)
    m = rr.machine(machine, trace=t) if machine == "traced" else rr.machine(machine)
    r = rr.replay(t, m)
    replay = cli_json("replay", trace, "-m", machine)
    critpath = cli_json("critpath", trace, "-m", machine)
    graph = cli_json("validate", trace)["graph"]
    assert r.estimated_time_ns == replay["estimated_time_ns"]
    assert r.stuck == replay["stuck"]
    assert t.operations == graph["vertices"] and t.edges == graph["edges"]
    ops = r.operations
    assert len(ops["start"]) == graph["vertices"]
    names = [rr.OP_KINDS[k] for k in ops["kind"]]
    for kind, count in graph["operations"].items():
        assert names.count(kind) == count, kind
    edges = r.edges
    assert len(edges["src"]) == graph["edges"]
    cp = r.critical_path
    by_class = {}
    for c, b, e in zip(cp["class"], cp["begin"], cp["end"]):
        by_class[rr.PATH_CLASSES[c]] = by_class.get(rr.PATH_CLASSES[c], 0) + int(e - b)
    for cls, ns in critpath["by_class_ns"].items():
        assert by_class.get(cls, 0) == ns, cls
    assert r.contention_by_resource == critpath["contention_by_resource_ns"]
    # What bounds the run: the same bounds and what-ifs as the command line.
    bounds = r.bounded_by()
    assert [b["name"] for b in bounds] == [b["name"] for b in critpath["bounded_by"]]
    assert [b["what_if_ns"] for b in bounds] == [b["what_if_ns"] for b in critpath["bounded_by"]]
    assert all(b["what_if_ns"] is None for b in r.bounded_by(what_ifs=False))
    assert sum(r.contention_by_resource.values()) == critpath["by_class_ns"]["contention"]
    # The path tiles [0, estimate].
    assert cp["begin"][0] == 0 and cp["end"][-1] == r.estimated_time_ns
    assert np.all(cp["end"][:-1] == cp["begin"][1:])


def test_same_numbers_as_the_sql_export(tmp_path, ghost):
    db = tmp_path / "g.db"
    subprocess.run([BIN, "export", GHOST, "-m", TITAN, "--sqlite", str(db), "-q"], check=True)
    r = rr.replay(ghost, rr.machine(TITAN))
    with sqlite3.connect(db) as con:
        (estimate,), = con.execute("SELECT estimated_time_ns FROM runs").fetchall()
        rows = con.execute("SELECT op, COALESCE(start_ns, -1), COALESCE(end_ns, -1), COALESCE(node, -1), "
                           "COALESCE(processor, -1), COALESCE(bytes, -1), COALESCE(slack_ns, -1) FROM operations "
                           "ORDER BY op").fetchall()
    assert estimate == r.estimated_time_ns
    ops = r.operations
    table = np.array(rows, dtype=np.int64)
    assert np.array_equal(table[:, 0], ops["id"])
    assert np.array_equal(table[:, 1], ops["start"])
    assert np.array_equal(table[:, 2], ops["end"])
    assert np.array_equal(table[:, 3], ops["node"])
    assert np.array_equal(table[:, 4], ops["processor"])
    assert np.array_equal(table[:, 5], ops["bytes"])
    assert np.array_equal(table[:, 6], ops["slack"])
    # Every bounded slack is >= 0, and the operations that end the run have none.
    bounded = ops["slack"] >= 0
    assert bounded.any() and (ops["slack"][ops["end"] == r.estimated_time_ns] == 0).any()


def test_columns_hold_together(ghost):
    r = rr.replay(ghost, rr.machine(TITAN), placement="pool")
    ops = r.operations
    ran = ops["end"] >= 0
    assert np.all(ops["start"][ran] <= ops["end"][ran])
    assert np.all(ops["ready"][ran] <= ops["start"][ran])
    assert ops["end"].max() == r.estimated_time_ns
    assert ops["start"].dtype == np.int64 and ops["kind"].dtype == np.uint8
    tasks = np.isin(ops["kind"], [rr.OP_KINDS.index("task"), rr.OP_KINDS.index("task_resume")])
    assert np.all(ops["processor"][tasks & ran] >= 0) and np.all(ops["function"][tasks] >= 0)
    assert np.all(ops["processor"][~tasks] == -1)
    procs = r.processors
    assert np.all((procs["utilisation"] >= 0) & (procs["utilisation"] <= 1))
    assert r.lower_bound_ns <= r.estimated_time_ns


def test_times_are_views_that_outlive_the_result(ghost):
    start = rr.replay(ghost, rr.machine(TITAN)).operations["start"]
    assert not start.flags.owndata  # a view of the engine's array, kept alive by the array itself
    assert start.base is not None
    assert int(start.max()) > 0


def test_what_ifs_move_the_estimate(ghost):
    base = rr.replay(ghost, rr.machine(TITAN)).estimated_time_ns
    faster = rr.replay(ghost, rr.machine(TITAN, ["processors.cpu.speed=2"])).estimated_time_ns
    assert faster < 0.6 * base


def test_deterministic_whatever_the_threads(ghost):
    one = rr.replay(ghost, rr.machine(TITAN), threads=1)
    two = rr.replay(ghost, rr.machine(TITAN), threads=2)
    assert one.estimated_time_ns == two.estimated_time_ns
    assert np.array_equal(one.operations["end"], two.operations["end"])


def test_the_gil_is_released_while_replaying(ghost):
    # Two replays in two Python threads both finish with the same answer.
    results = []
    threads = [threading.Thread(target=lambda: results.append(rr.replay(ghost, rr.machine(TITAN)).estimated_time_ns))
               for _ in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(results) == 2 and results[0] == results[1]


def test_to_pandas(ghost):
    pd = pytest.importorskip("pandas")
    frames = rr.replay(ghost, rr.machine(TITAN)).to_pandas()
    ops = frames["operations"]
    assert isinstance(ops, pd.DataFrame) and len(ops) == ghost.operations
    assert set(ops["kind"].cat.categories) == set(rr.OP_KINDS)
    assert (frames["critical_path"]["end"] - frames["critical_path"]["begin"]).sum() == ops["end"].max()


def test_function_names(tmp_path):
    # A Legion Prof log names its functions; the names reach the mapping and the operations frame.
    prof = rr.read(PROF)
    assert prof.names_file is None
    named = {f: n for f, n in prof.function_names.items() if n != f"f{f}"}
    assert named, prof.function_names
    # A 2015 log gives ids only: a names file (names=, or names.toml beside the trace) names them.
    assert rr.read(GHOST).function_names == {f: f"f{f}" for f in rr.read(GHOST).function_names}
    names = tmp_path / "ghost.toml"
    ghost_functions = sorted(rr.read(GHOST).function_names)
    names.write_text("".join(f'{f} = "task;{f}"\n' for f in ghost_functions) + '99999 = "not run"\n')
    t = rr.read(GHOST, names=names)
    assert t.names_file == str(names)
    assert t.function_names == {f: f"task%3B{f}" for f in ghost_functions}  # ';' escaped, as every output does
    r = rr.replay(t, rr.machine(TITAN))
    assert r.function_names == t.function_names
    s3d = rr.read(S3D)  # the generated sample's names.toml, read by default
    assert s3d.names_file == os.path.join(S3D, "names.toml") and s3d.function_names[22] == "rhs_sum"
    pd = pytest.importorskip("pandas")
    ops = r.to_pandas()["operations"]
    tasks = ops[ops["function"] >= 0]
    assert list(tasks["function_name"].astype(str)) == [f"task%3B{f}" for f in tasks["function"]]
    assert ops[ops["function"] < 0]["function_name"].isna().all()
    bad = tmp_path / "bad.toml"
    bad.write_text('5 = "ok"\nfive = "x"\n')
    with pytest.raises(rr.Error, match=r"bad.toml:2: 'five' is not a function id"):
        rr.read(GHOST, names=bad)
    with pytest.raises(ValueError, match="names: an empty path"):
        rr.read(GHOST, names="")


def test_trace_facts(ghost):
    assert ghost.label == "full_ghost_b2_cpu2" and ghost.nodes == 1
    assert ghost.records == 3884 and ghost.malformed_lines == 0 and ghost.skipped_lines == 2
    assert sum(ghost.findings.values()) == 0
    assert ghost.record_counts["Task Request"] == 823 and sum(ghost.record_counts.values()) == 3884
    assert ghost.format == "Realm event-graph log"
    assert rr.read([os.path.join(GHOST, "node_0.log.zst")]).operations == ghost.operations


@pytest.mark.parametrize("trace", [CIRCUIT, PROF])
def test_stats_are_the_sql_stats_table(tmp_path, trace):
    t = rr.read(trace)
    db = tmp_path / "s.db"
    subprocess.run([BIN, "export", trace, "-m", "traced", "--sqlite", str(db), "-q"], check=True)
    with sqlite3.connect(db) as con:
        table = con.execute("SELECT name, source, severity, value, description FROM stats ORDER BY rowid").fetchall()
    fields = ["name", "source", "severity", "value", "description"]
    assert [tuple(row[f] for f in fields) for row in t.stats] == table
    by_name = {row["name"]: row for row in t.stats}
    assert len(by_name) == len(t.stats)
    assert {row["severity"] for row in t.stats} == {"info", "data_loss", "finding"}
    findings = {n: row["value"] for n, row in by_name.items() if row["severity"] == "finding"}
    assert findings == t.findings and sum(findings.values()) > 0
    parser = [row for row in t.stats if row["source"] == "realm_log_parser"]
    assert sum(row["value"] for row in parser if row["severity"] == "data_loss") == t.malformed_lines
    assert sum(row["value"] for row in parser if row["severity"] == "info") == t.skipped_lines


def test_strict_refuses_data_loss_naming_the_stat(tmp_path):
    trace = tmp_path / "t"
    trace.mkdir()
    (trace / "node_0.log").write_text("[0 - 1] {2}{graph}: Processor: 80000000 2\n\n"
                                      "[0 - 1] {2}{graph}: Task Request: zz\n")
    t = rr.read(str(trace))
    by_name = {row["name"]: row["value"] for row in t.stats}
    assert by_name["bad_fields"] == 1 and by_name["blank"] == 1
    with pytest.raises(rr.Error, match=r"node_0.log:3: .*--strict refuses bad_fields: 1 in this file"):
        rr.read(str(trace), strict=True)


def test_errors_carry_the_cli_message(tmp_path):
    with pytest.raises(rr.Error, match="no such file or directory"):
        rr.read(str(tmp_path / "missing"))
    bad = tmp_path / "bad.toml"
    bad.write_text("[machine]\nname = 'x'\nnosuch = 1\n")
    with pytest.raises(rr.Error, match=r"bad.toml:\d+: .*nosuch"):
        rr.machine(str(bad))
    with pytest.raises(rr.Error, match="must be a finite number"):
        rr.machine(TITAN, ["processors.cpu.speed=nan"])
    trace = tmp_path / "t"
    trace.mkdir()
    (trace / "node_0.log").write_text("[0 - 1] {2}{graph}: Processor: 80000000 2\n"
                                      "[0 - 1] {2}{graph}: Task Request: zz\n")
    cli = subprocess.run([BIN, "stats", str(trace), "--strict"], capture_output=True, text=True)
    with pytest.raises(rr.Error, match=r"node_0.log:2: ") as raised:
        rr.read(str(trace), strict=True)
    assert str(raised.value) in cli.stderr  # the very message the CLI prints
    with pytest.raises(ValueError, match="placement"):
        rr.replay(rr.read(GHOST), rr.machine(TITAN), placement="nowhere")
    with pytest.raises(ValueError, match="trace="):
        rr.machine("traced")
    with pytest.raises(TypeError):
        rr.replay("not a trace", rr.machine(TITAN))


@pytest.mark.parametrize("trace", [CIRCUIT, PROF])
def test_a_packed_trace_reads_as_its_trace(tmp_path, trace):
    packed = str(tmp_path / "t.rrg")
    subprocess.run([BIN, "pack", "-q", trace, "-o", packed], check=True)
    a, b = rr.read(trace), rr.read(packed)
    assert (a.operations, a.edges) == (b.operations, b.edges)
    ra = rr.replay(a, rr.machine("traced", trace=a))
    rb = rr.replay(b, rr.machine("traced", trace=b))
    assert ra.estimated_time_ns == rb.estimated_time_ns
    assert np.array_equal(ra.operations["end"], rb.operations["end"])


def test_traced_cores_give_the_cli_s_estimate_and_the_traced_machine_its_cores():
    run = os.path.join(SRC, "data/traces/legion-prof-configs/circuit_small_cpu2_util1_1core")
    t = rr.read(run, traced_cores=1)
    r = rr.replay(t, rr.machine("traced", trace=t))
    assert r.estimated_time_ns == cli_json("replay", run, "-m", "traced", "--traced-cores", "1")["estimated_time_ns"]
    plain = rr.read(run)
    assert rr.replay(plain, rr.machine("traced", trace=plain)).estimated_time_ns != r.estimated_time_ns
    with pytest.raises(ValueError):
        rr.read(run, traced_cores=70000)


MAPPING = "placement = \"eft\"\nfold = 2\n[[move]]\nfunction = 18\nto = \"gpu\"\nfactor = 0.0191\n"


@pytest.mark.parametrize("trace,machine,flags,keywords", [
    (S3D, TITAN, ["--map", "18=gpu:0.0191", "--map", "20=gpu:0.0153"], {"map": ["18=gpu:0.0191", "20=gpu:0.0153"]}),
    (S3D, TITAN, ["--map", "18=gpu:0.0191"], {"map": "18=gpu:0.0191"}),
    (S3D, TITAN, ["--fold", "2", "--node-map", "block"], {"fold": 2, "node_map": "block"}),
    (CIRCUIT, TITAN, ["--fold", "1", "--placement", "eft"], {"fold": 1, "placement": "eft"}),
    (PROF, "traced", ["--queue-order", "ready", "--unlogged-time", "instant"],
     {"queue_order": "ready", "unlogged_time": "instant"}),
    (S3D, TITAN, ["--mapping", "MAPPING", "--placement", "pool"], {"mapping": "MAPPING", "placement": "pool"}),
])
def test_replay_choices_give_the_cli_s_estimate(tmp_path, trace, machine, flags, keywords):
    mapping = tmp_path / "mapping.toml"
    mapping.write_text(MAPPING)
    flags = [str(mapping) if f == "MAPPING" else f for f in flags]
    keywords = {k: str(mapping) if v == "MAPPING" else v for k, v in keywords.items()}
    t = rr.read(trace)
    m = rr.machine(machine, trace=t) if machine == "traced" else rr.machine(machine)
    r = rr.replay(t, m, **keywords)
    assert r.estimated_time_ns == cli_json("replay", trace, "-m", machine, *flags)["estimated_time_ns"]
    assert r.estimated_time_ns != rr.replay(t, m).estimated_time_ns  # the choices were not ignored


def cli_error(flags):
    """The error the CLI prints for a replay of the ghost trace on titan with `flags`, and its exit code."""
    run = subprocess.run([BIN, "replay", "-q", GHOST, "-m", TITAN, *flags], capture_output=True, text=True)
    return run.stderr.splitlines()[0], run.returncode


@pytest.mark.parametrize("flags,keywords", [
    (["--placement", "nowhere"], {"placement": "nowhere"}),
    (["--placement", ""], {"placement": ""}),
    (["--unlogged-time", "zero"], {"unlogged_time": "zero"}),
    (["--queue-order", "fifo"], {"queue_order": "fifo"}),
    (["--fold", "0"], {"fold": 0}),
    (["--fold", "70000"], {"fold": 70000}),
])
def test_bad_replay_names_raise_value_error_in_the_cli_s_words(ghost, flags, keywords):
    line, code = cli_error(flags)
    assert code == 2  # a usage error
    option, value = flags[0], next(iter(keywords))
    with pytest.raises(ValueError) as raised:
        rr.replay(ghost, rr.machine(TITAN), **keywords)
    assert str(raised.value) == value + line[len(option):]  # "queue_order: fifo not in {observed,ready}"


@pytest.mark.parametrize("flags,keywords", [
    (["--map", "18"], {"map": "18"}),
    (["--map", "18=gpu:abc"], {"map": ["18=gpu:abc"]}),
    (["--map", "18=gpu", "--map", "18=cpu"], {"map": ["18=gpu", "18=cpu"]}),
    (["--map", "99=gpu"], {"map": ["99=gpu"]}),
    (["--node-map", "MISSING"], {"node_map": "MISSING"}),
    (["--mapping", "MISSING"], {"mapping": "MISSING"}),
    (["--mapping", "BAD"], {"mapping": "BAD"}),
])
def test_bad_replay_inputs_raise_error_with_the_cli_s_message(tmp_path, ghost, flags, keywords):
    bad = tmp_path / "bad.toml"
    bad.write_text("fold = 0\n")
    paths = {"MISSING": str(tmp_path / "missing.toml"), "BAD": str(bad)}
    flags = [paths.get(f, f) for f in flags]
    keywords = {k: paths.get(v, v) if isinstance(v, str) else v for k, v in keywords.items()}
    line, code = cli_error(flags)
    assert code == 1  # bad input
    with pytest.raises(rr.Error) as raised:
        rr.replay(ghost, rr.machine(TITAN), **keywords)
    assert "realm-replay replay: error: " + str(raised.value) == line


def test_replay_choices_are_keywords_of_the_right_types(ghost):
    with pytest.raises(TypeError):
        rr.replay(ghost, rr.machine(TITAN), None, 0, True, ["18=gpu"])  # map is a keyword only
    with pytest.raises(TypeError, match="map takes FUNC=KIND"):
        rr.replay(ghost, rr.machine(TITAN), map=[18])
    with pytest.raises(rr.Error, match="a path cannot hold a NUL character"):
        rr.replay(ghost, rr.machine(TITAN), mapping=TITAN + "\x00junk")


def test_thread_counts_past_the_limit_are_refused(ghost):
    with pytest.raises(ValueError, match="100000 threads is more than the limit of 1024"):
        rr.read(GHOST, threads=100000)
    with pytest.raises(ValueError, match="more than the limit of 1024"):
        rr.replay(ghost, rr.machine(TITAN), threads=1025)
    assert rr.replay(ghost, rr.machine(TITAN), threads=1024).estimated_time_ns > 0


def test_paths_with_a_nul_character_are_refused(tmp_path):
    # The operating system stops at the NUL: these once opened titan.toml and the ghost trace.
    with pytest.raises(rr.Error, match=r"titan.toml\\0junk: a path cannot hold a NUL character"):
        rr.machine(TITAN + "\x00junk")
    with pytest.raises(rr.Error, match="a path cannot hold a NUL character"):
        rr.read(GHOST + "\x00junk")
    with pytest.raises(rr.Error, match="a path cannot hold a NUL character"):
        rr.read([GHOST, CIRCUIT + "\x00"])
