#!/usr/bin/env python3
"""Keeps the rooms livable: no source file over 800 lines, and no function over 120 lines unless a comment just
above it says why ("over 120 lines because ...").

Counts every tracked C++ (.cpp, .hpp, .h) and Python or shell source file. C++ functions are found by brace
structure after comments and literals are removed: a brace opened at namespace or class scope after a closing
parenthesis (and no `=` outside parentheses) opens a function body; its length runs from the first line of its
signature to its closing brace, lambdas inside included. Python functions come from the `ast` module.

usage: scripts/check_sizes.py [REPO_ROOT]     exit 1 and one line per excess when there is any
"""
import ast
import pathlib
import re
import sys

from tracked_files import tracked_files

MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 120
REASON = re.compile(r"over 120 lines because", re.IGNORECASE)
CPP = {".cpp", ".hpp", ".h"}
SCRIPTS = {".py", ".sh"}
SCOPE_KEYWORDS = re.compile(r"^(?:template\s*<.*>\s*)?(?:namespace|class|struct|union|enum|extern)\b")
CONTROL = re.compile(r"\b(?:if|for|while|switch|catch|do|else|try)\s*(?:\(|$)")
MEMBER_INIT = re.compile(r"\)\s*(?:noexcept\s*)?:(?:.*,)?\s*[A-Za-z_][\w:]*(?:<[^<>]*>)?$", re.DOTALL)


def strip_cpp(text: str) -> str:
    """The source with comments, string and character literals blanked out, newlines kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            open_paren = text.find("(", i + 2)
            delimiter = text[i + 2:open_paren]
            j = text.find(")" + delimiter + '"', open_paren)
            j = n if j < 0 else j + len(delimiter) + 2
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def opens_function(preamble: str) -> bool:
    p = " ".join(preamble.split())
    p = re.sub(r"operator\s*(?:\(\)|[^\s(]+)", "operator", p)
    if not p or ")" not in p or CONTROL.search(p) or SCOPE_KEYWORDS.match(p):
        return False
    depth = 0
    for ch in p:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "=" and depth == 0:
            return False
    return True


def strip_preprocessor(code: str) -> str:
    """Directive lines (with their continuations) blanked, newlines kept."""
    lines = code.split("\n")
    continued = False
    for i, line in enumerate(lines):
        if continued or line.lstrip().startswith("#"):
            continued = line.rstrip().endswith("\\")
            lines[i] = ""
    return "\n".join(lines)


def cpp_functions(text: str):
    """(signature, first line, last line) of each function body at namespace or class scope."""
    code = strip_preprocessor(strip_cpp(text))
    scopes = []  # "ns", "fn", "init" or "other"
    preamble, preamble_line, line = "", None, 1
    for ch in code:
        if ch == "\n":
            line += 1
            preamble += " "
            continue
        at_outer = all(s in ("ns",) for s in scopes)
        if ch == "{":
            if at_outer and MEMBER_INIT.search(" ".join(preamble.split())):
                scopes.append("init")
            elif at_outer and opens_function(preamble):
                scopes.append(("fn", preamble_line or line, preamble.strip()))
            elif at_outer and (SCOPE_KEYWORDS.match(" ".join(preamble.split())) or not preamble.strip()):
                scopes.append("ns")
            else:
                scopes.append("other")
            if scopes[-1] != "init":
                preamble, preamble_line = "", None
        elif ch == "}":
            scope = scopes.pop() if scopes else "ns"
            if isinstance(scope, tuple):
                yield scope[2], scope[1], line
            if scope == "init":
                preamble += "{}"
            else:
                preamble, preamble_line = "", None
        elif ch == ";":
            if all(s == "ns" for s in scopes):
                preamble, preamble_line = "", None
        elif all(s in ("ns", "init") for s in scopes):
            if not ch.isspace() and preamble_line is None:
                preamble_line = line
            preamble += ch


def has_reason(lines: list[str], first: int) -> bool:
    """A comment among the lines just above the function (its comment block) that says why it is long."""
    i = first - 2
    while i >= 0 and (lines[i].strip().startswith(("//", "#", "*", "/*")) or lines[i].strip().startswith("template")):
        if REASON.search(lines[i]):
            return True
        i -= 1
    return False


def python_functions(text: str):
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            yield node.name, first, node.end_lineno


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    problems = []
    for rel in tracked_files(root):
        path = root / rel
        suffix = path.suffix
        if suffix not in CPP | SCRIPTS or not path.is_file():
            continue
        text = path.read_text(errors="replace")
        lines = text.splitlines()
        if len(lines) > MAX_FILE_LINES:
            problems.append(f"{rel}: {len(lines)} lines (at most {MAX_FILE_LINES})")
        functions = cpp_functions(text) if suffix in CPP else python_functions(text) if suffix == ".py" else []
        for name, first, last in functions:
            length = last - first + 1
            if length > MAX_FUNCTION_LINES and not has_reason(lines, first):
                short = name if len(name) <= 70 else name[:67] + "..."
                problems.append(f"{rel}:{first}: function of {length} lines (at most {MAX_FUNCTION_LINES} without "
                                f"a comment saying why it is over 120 lines): {short}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
