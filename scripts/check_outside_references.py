#!/usr/bin/env python3
"""Fails when a tracked file refers to something outside the repository: section numbers of design or format
notes that are not in it, their file names, or paths of a particular machine. The repository's docs are
self-contained (docs/architecture.md, Pages): a comment or a doc cites `docs/<page>.md` and a section name.

usage: scripts/check_outside_references.py [SOURCE_DIR]     check the tracked files (every file without git)
       scripts/check_outside_references.py --self-test      plant each kind of reference and expect it found
Run by ctest as `outside_references` and `outside_references_self_test`."""
import pathlib
import re
import sys
import tempfile

from tracked_files import tracked_files

# The names this file looks for are assembled from parts, so that the checker itself holds no reference (it also
# skips itself) and no other scan of the repository finds one here.
DESIGN, SECTION, MACHINE_ROOT = "DES" + "IGN", "\u00a7", "/" + "work" + "/"

# What refers outside: (pattern, what it is).
PATTERNS = [
    (re.compile(DESIGN + r"\s*" + SECTION + "|" + DESIGN + r"\.md"), "cites design notes that are not in the repository"),
    (re.compile(r"\bspec\s*" + SECTION + r"|\bspec/|[Tt]he spec\b|\bspec's\b|format spec\b"), "cites a format specification that is not in the repository"),
    (re.compile(r"realm-event-log-format\.md|legion-prof-format\.md|s3d-workload\.md"), "names a specification file that is not in the repository"),
    (re.compile(SECTION + r"\s*\d"), "cites a numbered section (the docs here name their sections)"),
    (re.compile(r"\.\./shared\b|" + MACHINE_ROOT + "|beside the (project|repository)"), "names a path outside the repository"),
    (re.compile(r"legion-prof-dump"), "names a tool outside the repository"),
]
# Documented exceptions: (file, pattern text) pairs. The oracle script defaults to the decoder's usual place and
# says so; any other path is given as its argument.
ALLOWED = {
    ("scripts/make_prof_oracle.sh", "names a path outside the repository"),
    ("scripts/make_prof_oracle.sh", "names a tool outside the repository"),
}
SELF = "scripts/check_outside_references.py"


def problems_in(root: pathlib.Path, use_git: bool = True) -> list[str]:
    problems = []
    for rel in sorted(tracked_files(root, use_git)):
        if rel == SELF:
            continue
        path = root / rel
        try:
            data = path.read_bytes()
        except OSError:
            continue  # listed by git but absent from this checkout
        if b"\0" in data[:8192]:
            continue  # binary: compressed logs, images
        for lineno, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
            for pattern, what in PATTERNS:
                if pattern.search(line) and (rel, what) not in ALLOWED:
                    problems.append(f"{rel}:{lineno}: {what}: {line.strip()[:120]}")
                    break  # one message a line
    return problems


def self_test() -> int:
    planted = {
        "a.cpp": f"// The delay rule of {DESIGN} {SECTION}3.\n",
        "b.hpp": f"// ids laid out as in spec {SECTION}5\n",
        "c.md": "The format is in `spec/legion-prof-format.md`.\n",
        "d.toml": f"count = 2   # [D {SECTION}11b]\n",
        "e.sh": "tool=../shared/tools/x.py\n",
        "f.txt": f"see {MACHINE_ROOT}shared/{DESIGN}.md\n",
        "g.py": "# in the order of the spec's table\n",
    }
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / "docs").mkdir()
        (root / "docs" / "clean.md").write_text("See docs/realm-log-format.md, Ids. Sections have names.\n")
        (root / "scripts").mkdir()
        (root / "scripts" / "make_prof_oracle.sh").write_text("tool=${1:-../shared/tools/legion-prof-dump.py}\n")
        if problems_in(root, use_git=False):
            print("self-test: a clean tree was reported:", *problems_in(root, use_git=False), sep="\n  ")
            return 1
        for name, text in planted.items():
            (root / name).write_text(text)
            found = [p for p in problems_in(root, use_git=False) if p.startswith(name + ":")]
            if not found:
                print(f"self-test: the planted reference in {name} ({text.strip()}) was not found")
                return 1
            (root / name).unlink()
    print(f"self-test: {len(planted)} planted references found, the clean tree and the documented default pass")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    problems = problems_in(root)
    for p in problems:
        print(p)
    print(f"outside references: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
