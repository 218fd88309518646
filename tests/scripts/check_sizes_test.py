"""The size check finds C++ and Python functions and their lengths as a reader counts them, and lets a long
function through only with a comment saying why."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import check_sizes  # noqa: E402


def lengths(code: str) -> dict[str, int]:
    return {sig.split("(")[0].split()[-1]: last - first + 1 for sig, first, last in check_sizes.cpp_functions(code)}


def body(lines: int) -> str:
    return "".join(f"  x += {i};\n" for i in range(lines))


def test_functions_methods_and_constructors_are_found_with_their_lines():
    code = (
        "#include <vector>\n"
        "namespace a {\n"
        "struct S {\n"
        "  S(int v) : v_{v}, w_(v) {\n" + body(3) + "  }\n"
        "  int get() const { return v_; }\n"
        "  int v_, w_;\n"
        "};\n"
        "int f(int x = 3) {\n"
        "  auto g = [&](int y) { return y; };  // a lambda belongs to f\n"
        "  if (x) { x = g(x); }\n"
        '  const char* s = "{ not a brace";\n'
        "  return x;\n"
        "}\n"
        "bool operator==(const S& l, const S& r) { return l.v_ == r.v_; }\n"
        "}  // namespace a\n")
    found = lengths(code)
    assert found == {"S": 5, "get": 1, "f": 6, "operator==": 1}


def test_a_long_function_is_reported_unless_its_comment_says_why(tmp_path):
    long_body = "void f() {\n" + body(130) + "}\n"
    (tmp_path / "long.cpp").write_text(long_body)
    (tmp_path / "excused.cpp").write_text("// It is over 120 lines because it is a table.\n" + long_body)
    (tmp_path / "big.py").write_text("x = 1\n" * 801)
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "check_sizes.py"), str(tmp_path)],
                            capture_output=True, text=True)
    assert result.returncode == 1
    assert "long.cpp:1: function of 132 lines" in result.stdout
    assert "excused.cpp" not in result.stdout
    assert "big.py: 801 lines" in result.stdout



if __name__ == "__main__":  # runs without pytest: each test once, a temporary folder where one is asked for
    import inspect
    import tempfile
    for name, test in list(globals().items()):
        if name.startswith("test_"):
            with tempfile.TemporaryDirectory() as tmp:
                test(*([pathlib.Path(tmp)] if inspect.signature(test).parameters else []))
            print("ok", name)
