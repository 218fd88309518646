#!/usr/bin/env python3
"""realm-replay export --sqlite: the database says what the CLI's JSON says (estimate, critical path by class,
operation and edge counts, per-kind counts, every stat as `stats --json` and `validate --json` count it), the
critical path tiles the estimate, the documented queries of
docs/sql.md run and answer, the same inputs give the same rows at 1 and 2 threads, and every kind of bad output
path is a clear error that leaves nothing behind. usage: sql_export_test.py REALM_REPLAY SOURCE_DIR"""
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

BIN, SRC = sys.argv[1], sys.argv[2]
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def run(*args, expect=0):
    p = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=300)
    if p.returncode != expect:
        print(p.stderr)
    check(p.returncode == expect, f"exit {expect}: {' '.join(args)}")
    return p


def rows(db, sql):
    with sqlite3.connect(db) as con:
        return con.execute(sql).fetchall()


queries = re.findall(r"```sql\n(.*?)```", open(os.path.join(SRC, "docs/sql.md")).read(), re.S)
check(len(queries) >= 3, f"docs/sql.md documents {len(queries)} queries")

with tempfile.TemporaryDirectory() as tmp:
    cases = [("full_circuit_2node_p4_cpu2", os.path.join(SRC, "data/traces/real/full_circuit_2node_p4_cpu2"), "traced"),
             ("circuit_small", os.path.join(SRC, "data/traces/legion-prof/circuit_small_cpu2_util1"), "traced"),
             ("ghost on titan", os.path.join(SRC, "data/traces/real/full_ghost_b2_cpu2"),
              os.path.join(SRC, "data/machines/titan.toml"))]
    for name, trace, machine in cases:
        db = os.path.join(tmp, "out.db")
        if os.path.exists(db):
            os.remove(db)
        run("export", "-q", trace, "-m", machine, "--sqlite", db, "-j", "1")
        replay = json.loads(run("replay", "-q", trace, "-m", machine, "--json").stdout)
        critpath = json.loads(run("critpath", "-q", trace, "-m", machine, "--json").stdout)
        validate = json.loads(run("validate", "-q", trace, "--json").stdout)
        graph = validate["graph"]

        (estimate, operations, completed, stuck), = rows(db, "SELECT estimated_time_ns, operations, completed, stuck FROM runs")
        check(estimate == replay["estimated_time_ns"], f"{name}: estimate {estimate} as replay --json says")
        check(stuck == replay["stuck"], f"{name}: stuck operations as replay --json says")
        check(operations == graph["vertices"] and rows(db, "SELECT COUNT(*) FROM operations")[0][0] == graph["vertices"],
              f"{name}: one operation row per vertex ({graph['vertices']})")
        check(rows(db, "SELECT COUNT(*) FROM edges")[0][0] == graph["edges"], f"{name}: one edge row per edge")
        by_kind = dict(rows(db, "SELECT kind, COUNT(*) FROM operations GROUP BY kind"))
        check(all(by_kind.get(k, 0) == n for k, n in graph["operations"].items()), f"{name}: operations per kind")
        by_edge = dict(rows(db, "SELECT kind, COUNT(*) FROM edges GROUP BY kind"))
        check(all(by_edge.get(k, 0) == n for k, n in graph["edges_by_kind"].items()), f"{name}: edges per kind")
        check(rows(db, "SELECT COUNT(*) FROM copies")[0][0] == graph["operations"]["copy"], f"{name}: one row per copy")

        steps = rows(db, "SELECT step, begin_ns, end_ns FROM critical_path ORDER BY step")
        tiles = all(b < e for _, b, e in steps) and all(steps[i][2] == steps[i + 1][1] for i in range(len(steps) - 1))
        check(bool(steps) and steps[0][1] == 0 and steps[-1][2] == estimate and tiles,
              f"{name}: the critical path's {len(steps)} steps tile [0, {estimate}]")
        classes = dict(rows(db, "SELECT class, SUM(end_ns - begin_ns) FROM critical_path GROUP BY class"))
        check(all(classes.get(c, 0) == ns for c, ns in critpath["by_class_ns"].items()),
              f"{name}: time per class as critpath --json says")
        (busy,), = rows(db, "SELECT SUM(busy_ns) FROM processors")
        (segments,), = rows(db, "SELECT SUM(end_ns - start_ns) FROM operations WHERE processor IS NOT NULL")
        check(busy > 0 and busy <= segments, f"{name}: processors' busy time {busy} within their segments' {segments}")
        done = rows(db, "SELECT COUNT(*) FROM operations WHERE end_ns IS NOT NULL")[0][0]
        check(done == completed, f"{name}: {completed} operations have an end")
        check(rows(db, "PRAGMA user_version") == [(3,)], f"{name}: schema version 3")
        stats = {n: (source, severity, value, d) for n, source, severity, value, d in
                 rows(db, "SELECT name, source, severity, value, description FROM stats")}
        check(len(stats) == rows(db, "SELECT COUNT(*) FROM stats")[0][0] and all(d for *_, d in stats.values()),
              f"{name}: {len(stats)} stats, each named once and described")
        check({sev for _, sev, _, _ in stats.values()} == {"info", "data_loss", "finding"},
              f"{name}: severities info, data_loss and finding")
        check(all(stats[k][2] == n and stats[k][1] == "finding" for k, n in validate["findings"].items()) and
              sum(v for _, sev, v, _ in stats.values() if sev == "finding") == validate["finding_total"],
              f"{name}: the findings as validate --json counts them")
        read = json.loads(run("stats", "-q", trace, "--json").stdout)
        counted = read["joins"] if "joins" in read else {**read["total"]["skipped"], **read["total"]["malformed"]}
        check(all(stats[k][2] == n for k, n in counted.items()), f"{name}: the reading's stats as stats --json says")
        for i, q in enumerate(queries):
            try:
                answer = rows(db, q)
                check(True, f"{name}: documented query {i + 1} runs ({len(answer)} rows)")
            except sqlite3.Error as e:
                check(False, f"{name}: documented query {i + 1}: {e}")
        if name.startswith("full_circuit"):
            check(len(rows(db, queries[1])) > 0 and len(rows(db, queries[2])) > 0,
                  f"{name}: bytes per path and functions on the critical path answer")
            # Determinism: the same rows at 2 threads.
            db2 = os.path.join(tmp, "two.db")
            run("export", "-q", trace, "-m", machine, "--sqlite", db2, "-j", "2")
            same = all(rows(db, f"SELECT * FROM {t} ORDER BY 1, 2") == rows(db2, f"SELECT * FROM {t} ORDER BY 1, 2")
                       for t in ["processors", "memories", "operations", "copies", "critical_path", "findings", "stats"])
            check(same and rows(db, "SELECT * FROM edges") == rows(db2, "SELECT * FROM edges"),
                  f"{name}: the same rows at 1 and 2 threads")

    # Bad outputs: clear errors, nothing left behind, inputs untouched.
    ghost = os.path.join(SRC, "data/traces/real/full_ghost_b2_cpu2")
    titan = os.path.join(SRC, "data/machines/titan.toml")
    p = run("export", "-q", ghost, "-m", titan, "--sqlite", "/dev/null", expect=1)
    check("needs a regular file" in p.stderr, "--sqlite /dev/null: needs a regular file")
    p = run("export", "-q", ghost, "-m", titan, "--sqlite", os.path.join(tmp, "no/such/dir/out.db"), expect=1)
    check("cannot write" in p.stderr, "--sqlite in a missing folder: cannot write")
    machine_copy = os.path.join(tmp, "titan.toml")
    with open(titan) as f, open(machine_copy, "w") as g:
        g.write(f.read())
    p = run("export", "-q", ghost, "-m", machine_copy, "--sqlite", machine_copy, expect=1)
    check("refusing to overwrite a file this run reads" in p.stderr, "--sqlite onto the machine file: refused")
    check(open(machine_copy).read() == open(titan).read(), "the machine file is untouched")
    p = run("export", "-q", ghost, "-m", titan, expect=2)
    check("--sqlite" in p.stderr, "without --sqlite: a usage error naming it")
    check(not [f for f in os.listdir(tmp) if ".tmp." in f], "no temporary file is left")
    # An existing database is replaced whole, keeping its mode.
    db = os.path.join(tmp, "again.db")
    with open(db, "w") as f:
        f.write("not a database")
    os.chmod(db, 0o600)
    run("export", "-q", ghost, "-m", titan, "--sqlite", db)
    check(rows(db, "SELECT COUNT(*) FROM runs")[0][0] == 1 and (os.stat(db).st_mode & 0o777) == 0o600,
          "an existing file is replaced by the database, its mode kept")

sys.exit(1 if failures else 0)
