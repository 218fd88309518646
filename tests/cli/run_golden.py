#!/usr/bin/env python3
"""Golden test of one realm-replay command: run it, normalise what varies between runs and machines
(elapsed times and rates, the thread count in the context, absolute paths), compare with the committed golden file. --update rewrites the golden file.

usage: run_golden.py BINARY SOURCE_DIR GOLDEN [--update] [--output-file NAME] -- ARGS...
ARGS may use {src} for the source directory and {out} for a scratch directory; with --output-file the
golden is compared with that file (written by the command into {out}) instead of stdout."""
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile


def normalise(text: str, src: str, out: str) -> str:
    text = text.replace(out, "{out}").replace(src, "{src}")
    try:
        doc = json.loads(text)
    except ValueError:
        return re.sub(r"\b(Read|Done in) .*", r"\1 ...", text)

    def scrub(node):
        if isinstance(node, dict):
            return {k: ("..." if k in ("elapsed_seconds", "threads", "candidates_per_second") else scrub(v))
                    for k, v in node.items()}
        if isinstance(node, list):
            return [scrub(v) for v in node]
        return node

    return json.dumps(scrub(doc), indent=2, sort_keys=False) + "\n"


def main() -> int:
    argv = sys.argv[1:]
    split = argv.index("--")
    opts, args = argv[:split], argv[split + 1:]
    binary, src, golden = opts[0], opts[1], pathlib.Path(opts[2])
    update = "--update" in opts
    output_file = opts[opts.index("--output-file") + 1] if "--output-file" in opts else None
    with tempfile.TemporaryDirectory() as out:
        cmd = [binary] + [a.replace("{src}", src).replace("{out}", out) for a in args]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"exit code {proc.returncode}\n{proc.stderr}")
            return 1
        text = pathlib.Path(out, output_file).read_text() if output_file else proc.stdout
        actual = normalise(text, src, out)
    if update or os.environ.get("RR_UPDATE_GOLDEN"):
        golden.write_text(actual)
        print(f"updated {golden}")
        return 0
    expected = golden.read_text()
    if actual != expected:
        import difflib
        sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                                   str(golden), "actual", n=2))
        return 1
    print("golden matches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
