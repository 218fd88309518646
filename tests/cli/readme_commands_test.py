#!/usr/bin/env python3
"""Runs the README's "Using it" commands under plain sh, as a newcomer would from the repository root: no
brace expansion or other bash-only syntax, every file they write under out/ (which .gitignore ignores). The
run happens in a scratch folder holding the data and the binary where the README expects them; the 32-node
S3D generation is made smaller to keep the test quick.

usage: readme_commands_test.py BINARY SOURCE_DIR"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

binary, src = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
readme = (src / "README.md").read_text()
start = readme.index("```sh\n", readme.index("## Using it")) + len("```sh\n")
block = readme[start:readme.index("```", start)]
problems = []
for line in block.splitlines():
    command = line.split("#", 1)[0]
    if re.search(r"\{[^}]*,[^}]*\}", command):
        problems.append(f"brace expansion (not in plain sh): {line}")
    for target in re.findall(r"(?:>|-o|--html|--timeline|--csv|--json(?= \S+\.json))\s+(\S+)", command):
        if not target.startswith("out/") and "$" not in target:
            problems.append(f"writes outside out/: {target} in: {line}")
if "/out/" not in (src / ".gitignore").read_text().splitlines():
    problems.append(".gitignore does not ignore /out/")

with tempfile.TemporaryDirectory() as root:
    (pathlib.Path(root) / "build" / "apps").mkdir(parents=True)
    os.symlink(binary, pathlib.Path(root, "build", "apps", "realm-replay"))
    os.symlink(src / "data", pathlib.Path(root, "data"))
    script = block.replace("--nodes 32 --steps 4", "--nodes 2 --steps 1")
    run = subprocess.run(["sh", "-e", "-c", script], cwd=root, capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        problems.append(f"the commands failed under sh (exit {run.returncode}):\n{run.stderr[-3000:]}")
    written = {p.relative_to(root).parts[0] for p in pathlib.Path(root).iterdir()} - {"build", "data"}
    if written - {"out"}:
        problems.append(f"files written outside out/: {sorted(written - {'out'})}")
    if "Estimated run time" not in run.stdout:
        problems.append("no replay report in the output")

for p in problems:
    print(p)
print(f"README commands: {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
