"""The files of the repository the checks read: what git tracks, or, without git (a source archive), every file
but build trees and hidden folders. Used by check_sizes.py and check_outside_references.py."""
import pathlib
import subprocess


def tracked_files(root: pathlib.Path, use_git: bool = True) -> list[str]:
    """Paths relative to `root`, with forward slashes."""
    try:
        if not use_git:
            raise OSError("walk the tree")
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], check=True, capture_output=True).stdout
        return [p for p in out.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for path in root.rglob("*"):
            rel = path.relative_to(root)
            if path.is_file() and not rel.parts[0].startswith("build") and not any(p.startswith(".") for p in rel.parts):
                files.append(rel.as_posix())
        return files
