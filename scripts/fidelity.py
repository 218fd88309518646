#!/usr/bin/env python3
"""Writes docs/fidelity.md: every real trace of the repository replayed on its traced machine, against its
measured time, with what explains the difference, and the calibration table. Reproducible: run it after a
build (scripts/fidelity.sh builds first).

usage: fidelity.py [BINARY] [OUTPUT]"""
import json
import pathlib
import subprocess
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build/apps/realm-replay")
OUT = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "docs/fidelity.md"
RUN_FILES = [ROOT / "data/traces/real/measured.toml"]
PROF_RUNS = ROOT / "data/traces/legion-prof"
CONFIG_RUNS = ROOT / "data/traces/legion-prof-configs"
NOISE_SIGMA, NOISE_SAMPLES = 0.1, 100

# What the numbers alone do not say: how each run was measured and what the trace cannot see. Keyed by trace.
EXPLANATIONS = {
    "full_circuit_2node_p4_cpu2": (
        "The measured time is circuit's own ELAPSED TIME, its main loop only; the trace covers the whole run, "
        "so the replay of the trace should be a little longer, which it is: the top-level task's Task Time, "
        "4756 ms, spans from before the loop to after it. The trace also holds the loop itself: the top-level "
        "task's Task Wait on the last iteration's future lasts 4667.9 ms, the ELAPSED TIME to the tenth of a "
        "millisecond. With the 25 µs a message takes on an idle loopback the replay ends that wait 0.67 s too "
        "early: two processes with four Realm processors each, GASNet's threads and other users' jobs (load "
        "average 4–6) shared two cores, and a message between the processes took far longer. The traced machine "
        "therefore fits its network latency to the trace's own waits on produced events (docs/machines.md): "
        "24.5 ms, which the trace's 54 reservation waits (26 ms each on average, a round trip to the lock's "
        "owner) bear out. The critical path is then {compute} of compute (calc_new_currents, function 6) and "
        "{wait} of waits on reservation grants no record produces; *instant* shows what those waits are worth."),
    "full_ghost_b2_cpu2": (
        "ghost prints no time of its own, so the measured time is the wall time of the whole process, GASNet's "
        "start-up and shutdown included, which the trace does not cover. The replay cannot be shorter than its "
        "infinite-resource lower bound ({lower_bound} ms): the two CPUs' stencil tasks (functions 7 and 8) "
        "alone take {compute} on the critical path. In the two-node circuit run, the same start-up and shutdown "
        "took 0.88 s (wall 5.64 s against the top-level task's 4.76 s); with as much here, the traced part of "
        "the ghost run is about 2.6 s, {ghost_adjusted} from the estimate."),
}


def run(*args):
    proc = subprocess.run([BIN, *args], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"realm-replay {' '.join(args)} failed:\n{proc.stderr}")
    return proc.stdout


def ms(ns):
    return f"{ns / 1e6:.1f} ms"


def err(estimate, measured):
    return f"{100 * (estimate / measured - 1):+.1f}%"


def main():
    rows = []
    for run_file in RUN_FILES:
        spec = tomllib.loads(run_file.read_text())
        for r in spec["run"]:
            trace = str((run_file.parent / r["trace"]).resolve())
            measured_ns = r["measured_s"] * 1e9
            replay = json.loads(run("replay", "-q", trace, "-m", "traced", "--json", "--perturb", str(NOISE_SIGMA),
                                    "--samples", str(NOISE_SAMPLES)))
            instant = json.loads(run("replay", "-q", trace, "-m", "traced", "--json", "--unlogged-time", "instant"))
            procs = ", ".join(f"{v['processors']} {k}" for k, v in replay["processor_kinds"].items() if v["processors"])
            rows.append(dict(name=pathlib.Path(trace).name, trace=trace, how=r.get("how", ""), measured=measured_ns,
                             nodes=len(replay["nodes"]) or 1, procs=procs, replay=replay, instant=instant,
                             run_file=run_file))
    calibration = {}
    for run_file in RUN_FILES:
        c = json.loads(run("calibrate", "-q", str(run_file), "--json"))
        calibration[run_file] = c

    out = ["# Fidelity: replays of real traces against their measured times", "",
           "Produced by `scripts/fidelity.sh` (it builds, then runs `scripts/fidelity.py`); every number below "
           "comes from that run. Each trace is replayed on its **traced machine** (`--machine traced`: its "
           "processors as logged, speed 1, the trace's own durations; every other cost an assumption, see "
           "`docs/machines.md`), before any calibration. *Measured waits*: waits on events no record produces "
           "keep their measured time (the default); *instant*: they end at once (`--unlogged-time instant`).", "",
           "| trace | nodes | traced processors | measured | how it was measured | estimate | error | instant | error "
           f"| noise σ={NOISE_SIGMA}: p5 – p95 |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        est = r["replay"]["estimated_time_ns"]
        ins = r["instant"]["estimated_time_ns"]
        noise = r["replay"]["perturbation"]
        out.append(f"| {r['name']} | {r['nodes']} | {r['procs']} | {ms(r['measured'])} | {r['how']} | {ms(est)} | "
                   f"{err(est, r['measured'])} | {ms(ins)} | {err(ins, r['measured'])} | "
                   f"{ms(noise['p5_ns'])} – {ms(noise['p95_ns'])} |")
    errors = [abs(r["replay"]["estimated_time_ns"] / r["measured"] - 1) for r in rows]
    out += ["", f"Mean |error| {100 * sum(errors) / len(errors):.1f}%, largest {100 * max(errors):.1f}%.", ""]
    out.append("## What explains the rest")
    for r in rows:
        cp = r["replay"].get("critical_path", {})
        classes = cp.get("by_class_ns", {})
        est = r["replay"]["estimated_time_ns"]
        notes = r["replay"]["notes"]
        facts = dict(compute=ms(classes.get("compute", 0)), wait=ms(classes.get("wait", 0)),
                     lower_bound=f"{cp.get('lower_bound_ns', 0) / 1e6:.1f}",
                     ghost_adjusted=err(est, r["measured"] - 0.88e9))
        out += ["", f"### {r['name']}", "",
                f"Estimate {ms(est)} against {ms(r['measured'])} measured ({err(est, r['measured'])}). Critical path: " +
                ", ".join(f"{k} {ms(v)}" for k, v in classes.items() if v) + ". " +
                (f"{notes['measured_waits']} wait(s) on events no record produces are replayed with their measured "
                 f"{ms(notes['measured_wait_ns'])}. " if notes["measured_waits"] else "") +
                (f"{notes['tasks_without_time']} task(s) without Task Time (they did not finish in the traced run) "
                 "are left out of the estimate. " if notes["tasks_without_time"] else ""),
                "", EXPLANATIONS.get(r["name"], "").format(**facts)]
    for run_file, c in calibration.items():
        rel = run_file.relative_to(ROOT)
        out += ["", f"## Calibration on `{rel}`", "",
                f"`realm-replay calibrate {rel}` fits the traced machine's free costs to these measured times "
                f"({c['evaluations']} evaluations). *Left out*: each run predicted by a fit to the others only, "
                "which is what a fit is worth on a run it has not seen.", "",
                "| trace | measured | before | error | after | error | left out | error |", "|---|---|---|---|---|---|---|---|"]
        for r in c["runs"]:
            lo = r["left_out_ns"]
            out.append(f"| {r['trace']} | {ms(r['measured_ns'])} | {ms(r['before_ns'])} | {err(r['before_ns'], r['measured_ns'])} "
                       f"| {ms(r['after_ns'])} | {err(r['after_ns'], r['measured_ns'])} | "
                       f"{ms(lo) if lo is not None else '-'} | {err(lo, r['measured_ns']) if lo is not None else '-'} |")
        m = c["mean_abs_error"]
        out += ["", f"Mean |error| before {100 * m['before']:.1f}%, after {100 * m['after']:.1f}%" +
                (f", left out {100 * m['left_out']:.1f}%." if m["left_out"] is not None else "."), "",
                "Fitted costs (only those that moved):", ""]
        out += [f"- `{x['key']}`: {x['before']:g} → {x['fitted']:g}" for x in c["costs"] if x["before"] != x["fitted"]]
    out += prof_section()
    out += cross_config_section()
    OUT.write_text("\n".join(out) + "\n")
    print(f"wrote {OUT}")


def meta(run_dir, key):
    """A value of a run's meta.txt: the first word after `key:`."""
    for line in (run_dir / "meta.txt").read_text().splitlines():
        if line.startswith(key + ":"):
            return line.split(":", 1)[1].split()
    return []


def cores_of(run_dir):
    """The cores the run had: cores_used, else the machine's."""
    used = meta(run_dir, "cores_used")
    return int(used[0]) if used else int(meta(run_dir, "machine")[0])


def processors_of(run_dir):
    """-ll:cpu and -ll:util of the run, from its processor_config line."""
    words = meta(run_dir, "processor_config")
    return int(words[words.index("-ll:cpu") + 1]), int(words[words.index("-ll:util") + 1])


def wall_spread(run_dir):
    """The profiled runs' wall times, as (lowest, highest) relative to their median."""
    times = sorted(float(x) for x in meta(run_dir, "wall_time_profiled_all_s")[:3])
    median = times[len(times) // 2]
    return times[0] / median - 1, times[-1] / median - 1


def main_loop_ms(run_dir):
    """The app's reported main-loop times (ELAPSED TIME) of the three profiled runs, in ms; the first is the log's."""
    line = " ".join(meta(run_dir, "app_reported_time_profiled"))
    return [1000 * float(x.split()[0]) for x in line.split("ELAPSED TIME =")[1:]]


def loop_floor(observed_ms, run_dir):
    """B's observed makespan with its log's main loop replaced by the median of its three profiled runs' loops,
    relative to the log's: what a replay that foresaw B's typical run exactly would stand off B's log."""
    loops = main_loop_ms(run_dir)
    typical = sorted(loops)[len(loops) // 2]
    return (observed_ms - loops[0] + typical) / observed_ms - 1


def cross_config_section():
    """One app at five configurations: each run replayed as each other one, against that one's observed makespan."""
    runs = sorted(p for p in CONFIG_RUNS.iterdir() if p.is_dir())
    observed = {}
    for b in runs:
        r = json.loads(run("replay", "-q", str(b), "-m", "traced", "--json", "--against-observed"))
        observed[b.name] = r["against_observed"]["observed_makespan_ns"]
    out = ["", "## Other configurations of the same run", "",
           "`data/traces/legion-prof-configs` holds one app (circuit) recorded at five processor and core counts, one "
           "after another on a quiet 2-core machine. Each run A is replayed as each other configuration B with "
           "`realm-replay replay A -m traced --traced-cores KA --set node.cores=KB --placement pool "
           "--set processors.cpu.count=CB --set processors.utility.count=UB` (K: cores, C: `-ll:cpu`, U: `-ll:util`) "
           "and compared with B's observed makespan. A's own row is its traced configuration. *B's spread*: the "
           "wall times of B's three profiled runs, lowest and highest against their median: how far one log of B "
           "may stand from another. *B's main loop*: the time the app reports for its main loop in B's log, and (in "
           "brackets) the least and the most of B's three profiled runs: the log's makespan holds it beside the "
           "start-ups.", "",
           "| from A | as B | predicted | B observed | error | B's spread | B's main loop |",
           "|---|---|---|---|---|---|---|"]
    errors, own, floors = [], [], []
    for a in runs:
        for b in runs:
            cpu, util = processors_of(b)
            args = ["replay", "-q", str(a), "-m", "traced", "--json", "--traced-cores", str(cores_of(a))]
            if a != b:
                args += ["--set", f"node.cores={cores_of(b)}", "--placement", "pool",
                         "--set", f"processors.cpu.count={cpu}", "--set", f"processors.utility.count={util}"]
            est = json.loads(run(*args))["estimated_time_ns"]
            e = est / observed[b.name] - 1
            (own if a == b else errors).append(abs(e))
            if a != b:
                floors.append(loop_floor(observed[b.name] / 1e6, b))
            low, high = wall_spread(b)
            loop = main_loop_ms(b)
            out.append(f"| {a.name} | {'(traced)' if a == b else b.name} | {ms(est)} | {ms(observed[b.name])} | "
                       f"{100 * e:+.1f}% | {100 * low:+.0f}% / {100 * high:+.0f}% | "
                       f"{loop[0]:.0f} ms ({min(loop):.0f}–{max(loop):.0f}) |")
    out += ["", f"Other configurations: mean |error| {100 * sum(errors) / len(errors):.1f}%, largest "
            f"{100 * max(errors):.1f}%, {sum(e <= 0.2 for e in errors)} of {len(errors)} within 20% (bar: mean 10%, "
            f"18 of 20 within 20%). Traced configurations: mean |error| {100 * sum(own) / len(own):.1f}%, largest "
            f"{100 * max(own):.1f}%.", "",
            "*What one log per configuration allows.* A replay that foresaw each configuration's typical run "
            "exactly (its main loop the median of its three profiled runs', everything else as in its log) would "
            f"stand {100 * sum(abs(f) for f in floors) / len(floors):.1f}% mean off the logs, "
            f"{sum(abs(f) <= 0.2 for f in floors)} of {len(floors)} pairs within 20%: "
            + ", ".join(f"{b.name} {100 * loop_floor(observed[b.name] / 1e6, b):+.1f}%" for b in runs)
            + ". The main-loop times are the `app_reported_time_profiled` line of each run's `meta.txt`.",
            "", CROSS_CONFIG_EXPLANATION]
    return out


def prof_section():
    """Legion Prof logs record when every operation ran: the replay is checked against the run itself."""
    out = ["", "## Legion Prof logs: the replay against the run they observed", "",
           "Each sample run of `data/traces/legion-prof` (Legion 25.06) replayed on its traced machine with "
           "`realm-replay replay RUN -m traced --against-observed`. The yardstick is the **observed makespan**, "
           "from the first operation's start to the last one's stop as the log records them (the program's own "
           "thread and the profiler's responses left out; `decoder_span.json`, from the independent decoder, "
           "agrees to the nanosecond); the wall time of the process also holds start-up, and the logs' flush. "
           "*Start error*: replayed minus observed start of every task and meta-task (median; 95th percentile "
           "of its absolute value). *Ready order*: the same replay with `--queue-order ready` (a free processor "
           "takes the segment ready first rather than the one the run started first). *2x*: every processor "
           "twice as fast, the first what-if. *Traced cores*: the same replay given the cores the run had "
           "(`--traced-cores 2`: spans become work, start-ups are measured, docs/replay.md).", "",
           "| run | processes | wall (profiled) | observed makespan | estimate | error | start error median / p95 "
           "| ready order | error | 2x | traced cores | error |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    errors, cored = [], []
    for run_dir in sorted(p for p in PROF_RUNS.iterdir() if p.is_dir()):
        processes = len(list(run_dir.glob("prof_*.gz")))
        wall = next((line.split(":", 1)[1].split()[0] for line in (run_dir / "meta.txt").read_text().splitlines()
                     if line.startswith("wall_time_profiled_s:")), "-")
        r = json.loads(run("replay", "-q", str(run_dir), "-m", "traced", "--json", "--against-observed"))
        ready = json.loads(run("replay", "-q", str(run_dir), "-m", "traced", "--json", "--queue-order", "ready"))
        fast = json.loads(run("replay", "-q", str(run_dir), "-m", "traced", "--json",
                              "--set", "processors.cpu.speed=2", "--set", "processors.utility.speed=2"))
        with_cores = json.loads(run("replay", "-q", str(run_dir), "-m", "traced", "--json",
                                    "--traced-cores", str(cores_of(run_dir))))["estimated_time_ns"]
        a = r["against_observed"]
        observed, est = a["observed_makespan_ns"], r["estimated_time_ns"]
        tasks = [k for k in a["by_kind"] if k["name"] in ("task", "meta-task")]
        start = " / ".join(f"{k['name']} {k['start_error_median_ns'] / 1e6:+.1f} / {k['start_error_p95_abs_ns'] / 1e6:.1f} ms"
                           for k in tasks)
        errors.append((processes, abs(est / observed - 1)))
        cored.append((processes, abs(with_cores / observed - 1)))
        out.append(f"| {run_dir.name} | {processes} | {wall} s | {ms(observed)} | {ms(est)} | {err(est, observed)} | "
                   f"{start} | {ms(ready['estimated_time_ns'])} | {err(ready['estimated_time_ns'], observed)} | "
                   f"{fast['estimated_time_ns'] / est:.2f} | {ms(with_cores)} | {err(with_cores, observed)} |")
    one = [e for p, e in errors if p == 1]
    two = [e for p, e in errors if p > 1]
    out += ["", f"One process: mean |error| {100 * sum(one) / len(one):.1f}%, largest {100 * max(one):.1f}% (bar: 5%). "
            f"Two processes: mean |error| {100 * sum(two) / len(two):.1f}%, largest {100 * max(two):.1f}% (bar: 15%). "
            f"With their traced cores, one process: mean |error| "
            f"{100 * sum(e for p, e in cored if p == 1) / len(one):.1f}%, largest "
            f"{100 * max(e for p, e in cored if p == 1):.1f}%.",
            "", PROF_EXPLANATION]
    return out


CROSS_CONFIG_EXPLANATION = """What moves between configurations, and what the model makes of it (docs/replay.md, "Cores" and
"Processor start-up"):

- **Cores.** `--traced-cores` turns each span into the work it would have taken alone (the log's own timeline
  says how many threads ran at every instant), and `node.cores` shares the target's cores among its threads.
- **Processor start-up.** Each CPU or utility processor stalls the process once, 40–65 ms, one after another:
  most of what separates one CPU and one utility processor (188 ms) from four and two (376 ms). Nothing
  progresses during a stall. The log measures each stall; the replay freezes the node once per processor of the
  target, one stall after another, and work under way waits. The k-th start-up takes the k-th measured length;
  one the log did not have takes the lower median of the log's start-ups after its first (the first also holds
  the process's own start: 47–65 ms here, the later ones 41–51 ms but for one slowed by spinning).
- **What is left.**
  - *Spinning.* A start-up is measured as long as it took in the traced run. Over the eleven one-process
    logs of `data/traces` (these five and the six of `legion-prof`), a start-up with no other thread running
    across it took as long as the log's other such start-ups (41–65 ms on these quiet runs). Of the six with one
    or two threads running across the whole of it, three took 1.7–2.7 times as long as the log's others (on one
    core: one start-up of `circuit_small_cpu2_util1_1core`, beside two threads; the other two on runs recorded
    under load) and three no longer (two of them on the quiet two-core runs here). On one core the third
    start-up of `circuit_small_cpu2_util1_1core` took 127 ms beside two threads that had not reached a wait (the
    top-level task, and the utility processor mapping the next task), about three times its 46 ms in
    `circuit_small_cpu2_util1_2cores`, where the top-level task was already waiting. Predictions into it come out
    short; predictions from it keep that start-up only where the target has a third processor. Replaying the spinning was
    tried: the start-up's work measured as its length times min(1, cores / (1 + threads running across)), and
    in the replay a start-up sharing the cores with the threads running when it begins (at most one, two, or
    all of them): the 20 pairs went to 18.6%, 23.1% and 30.5% mean. The replay's concurrency at a start-up is
    not the run's: replayed on its own configuration, `circuit_small_cpu1_util1_1core`, whose start-ups had no
    thread beside them, came out 25% long, because in the replay its CPU's first task starts while the
    utility processor works.
  - *Two speeds of the main loop.* With two CPU processors on two cores, and with four and two, the main loop
    takes one of two speeds from run to run: 30–50 ms or 110–165 ms (the *main loop* column). With one CPU
    processor on two cores, or on one core, a configuration's three runs differ by at most 18 ms. The log
    of `circuit_small_cpu2_util1_2cores` is a slow one (133 ms; its utility processor ran 432 meta-tasks where
    the others ran 240–320), that of `circuit_small_cpu4_util2_2cores` a fast one (50 ms). A replay gives one
    time, so the pairs into and out of those two logs carry up to 100 ms of that spread on 190–380 ms. Counting
    the runs without the profiler too (`app_reported_time_noprof`), each of the two logs is in its configuration's
    rarer mode: two CPU processors on two cores looped fast in four of six runs, and its log is slow; four and two
    looped slow in four of six, and its log is fast. A deterministic replay predicts one mode per configuration, so
    it misses one of the two logs by the mode's width unless it predicts a loop between the modes for both.
  - *More processors, more runtime work.* The four-CPU log holds twice the runtime work of the one-CPU logs
    (mapping, commit and analysis meta-tasks, and short stalls of about 10 ms in application tasks that the
    one-CPU logs do not have), so predictions from it to fewer processors come out 15–25% long.
- **The 2015 Realm logs** give each task's Task Time but not when it ran: with no timeline, nothing says how many
  threads competed during a span, so `--traced-cores` cannot turn their spans into work, and no start-up shows.
  It gives their traced machine its cores, and a what-if on `node.cores` then shares them among spans taken as
  work: an estimate that is too long by as much as the traced run itself was oversubscribed."""


PROF_EXPLANATION = """What the replay keeps from the log, and why (docs/legion-prof.md has the rules):

- **The runtime's own time on a processor.** Between two tasks on one processor, with the second already
  waiting, Legion and Realm spend time the log does not attribute (the task's preamble and postamble,
  scheduling): on cgsolver's single utility processor about 10 µs before each of its 5000 meta-tasks, 10% of
  the run. The traced machine measures it per processor kind (`segment_overhead_ns`, the median such gap) and
  every segment holds its processor that much longer. Without it cgsolver replayed 14% short.
- **The order a processor serves its queue.** Legion gives its meta-tasks priorities the log does not keep.
  With one utility processor the order decides the run: serving the earliest ready first, cgsolver replays
  about 20% long; serving the one the run started first (`--queue-order observed`, the default on these
  logs), within 5%. Logs with two or more processors of the busy kind hardly care.
- **Events no record produces** (external events: work of Realm's own, events the runtime triggers without a
  record) keep their measured time as a delay after the operation's recorded inputs, so that what-ifs move
  them with the work (the *2x* column: twice as fast processors halve one-process runs).
- **Stalls no record explains.** An operation whose recorded inputs had all fired 1 ms or more before it became
  ready keeps that delay (docs/legion-prof.md). Without it circuit_small_cpu4_util2 replayed 16.6% short and
  multiple_partitions_n16384_b16_cpu4_util2 24.8% short (runs outside this table, recorded under load).
- **The two-process runs** (MPI on one 2-core machine, 8 Realm threads per process) also lose time no record
  explains: messages between processes wait for the other process's threads, and the two processes' clocks
  differ by milliseconds (a message's launch is taken at its sender's `spawn`, on the sender's clock). They
  stay within 15%, with nothing `validate` cannot explain; their remaining error moves with the measured
  delays of their external events."""


if __name__ == "__main__":
    main()
