#!/usr/bin/env python3
"""Enforces the include layering of docs/architecture.md (Rooms and arrows): each module includes only the modules
it may depend on, and no public header of a library names a third-party type (X3, TBB, compression libraries stay
in .cpp files)."""
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()

# module folder -> project folders its files may include
ALLOWED = {
    "core": {"core"},
    "platform": {"platform"},
    "parser": {"core", "platform", "parser"},
    "graph": {"core", "platform", "graph"},
    "machine_models": {"core", "machine_models"},
    "replay": {"core", "platform", "graph", "machine_models", "replay"},
    # The packed trace format stores what reading and building give, and knows nothing of the pipeline.
    "packed": {"core", "platform", "parser", "graph", "machine_models", "packed"},
    # The session runs the whole pipeline: the one place that joins reading, the graph, machines and replay.
    "session": {"core", "platform", "parser", "graph", "machine_models", "replay", "packed", "session"},
    # Calibration fits a machine to measured times by replaying through the pipeline, which never calls it.
    "calibration": {"core", "platform", "machine_models", "replay", "session", "calibration"},
    # Tuning searches for a better mapping by replaying candidates through the pipeline, which never calls it.
    "tuning": {"core", "platform", "graph", "machine_models", "replay", "session", "tuning"},
    # The generator's ground truth must stay independent of what it is used to check: it never sees the graph or
    # the replay, only the machine file format, to write the machine its truth was scheduled on.
    "gen": {"core", "platform", "machine_models", "gen"},
    # Two runs compared: the pipeline of each, their matched operations and counterfactual replays.
    "explain": {"core", "platform", "parser", "graph", "machine_models", "replay", "session", "explain"},
}
# third-party headers that must not appear in a library's public headers
PRIVATE_ONLY = re.compile(r"#\s*include\s*[<\"](boost/spirit|tbb/|oneapi/|zstd|lzma|zlib|archive|toml)")
INCLUDE = re.compile(r'#\s*include\s*"([^"]+)"')


def module_of(path: pathlib.Path) -> str | None:
    rel = path.relative_to(ROOT).as_posix()
    for module in sorted(ALLOWED, key=len, reverse=True):
        if rel.startswith(module + "/"):
            return module
    return None


def target_module(include: str) -> str | None:
    """The project folder an include names ("apps" included: no library may include the programs)."""
    for module in sorted(set(ALLOWED) | {"apps"}, key=len, reverse=True):
        if include.startswith(module + "/"):
            return module
    return None


problems = []
for path in sorted(ROOT.rglob("*")):
    if path.suffix not in {".hpp", ".cpp", ".h"} or "build" in path.relative_to(ROOT).parts[0]:
        continue
    module = module_of(path)
    if module is None:
        continue
    text = path.read_text(errors="replace")
    for lineno, line in enumerate(text.splitlines(), 1):
        m = INCLUDE.search(line)
        if m:
            target = target_module(m.group(1))
            if target is not None and target not in ALLOWED[module]:
                problems.append(f"{path.relative_to(ROOT)}:{lineno}: {module} may not include {m.group(1)}")
        is_public_header = path.suffix == ".hpp" and "src" not in path.relative_to(ROOT).parts
        if is_public_header and PRIVATE_ONLY.search(line):
            problems.append(f"{path.relative_to(ROOT)}:{lineno}: third-party header in a public header: {line.strip()}")

for p in problems:
    print(p)
print(f"layering: {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
