# SPDX-License-Identifier: MIT
"""List the test files that import a private scorecontract module.

Issue 23 asks tests to reach behaviour through the public API unless
white-box is the point.  This counts every test file that names a private
module of the package, by reading its syntax tree (nothing is imported):

* ``import scorecontract._x`` and ``from scorecontract._x import y``;
* ``from scorecontract import _x`` (a private submodule or name);
* ``importlib.import_module("scorecontract._x")`` and any other call whose
  first argument is a string literal naming ``scorecontract._x``;
* any of these inside a string literal that is itself Python source, as a
  probe run with ``python -c`` is.

The command-line entry point, ``from scorecontract._cli import main``, is
exempt: it is how a test runs the CLI in-process.

    $ python tools/hygiene/private_imports.py [tests-directory]
    2
    tests/test_a.py
    tests/test_b.py

The first line is the count; one offender follows per line.  The exit
status is 0 (the limit is the test suite's business, not this script's).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

__all__ = ["offenders", "private_names", "main"]

PACKAGE = "scorecontract"
# The CLI entry point is the one private name a test may import freely.
EXEMPT = {("scorecontract._cli", "main")}


def _is_private_module(dotted: str) -> bool:
    parts = dotted.split(".")
    return parts[0] == PACKAGE and any(part.startswith("_") for part in parts[1:])


def private_names(source: str, filename: str = "<test>") -> list[str]:
    """Return the private module names *source* imports, in order of appearance.

    An import of only the exempt entry point is not listed.
    """
    return _names(ast.parse(source, filename))


def _embedded(text: str) -> list[str]:
    # A string that names the package and parses as a module is a probe
    # for another interpreter; most strings do not parse, and are skipped.
    if PACKAGE not in text or "import" not in text:
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    return _names(tree)


def _names(tree: ast.AST) -> list[str]:
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(a.name for a in node.names if _is_private_module(a.name))
        elif isinstance(node, ast.ImportFrom):
            if node.level or node.module is None:
                continue
            if _is_private_module(node.module):
                names = [a.name for a in node.names]
                if not all((node.module, n) in EXEMPT for n in names):
                    found.append(node.module)
            elif node.module == PACKAGE:
                found.extend(
                    f"{PACKAGE}.{a.name}" for a in node.names if a.name.startswith("_") and a.name != "__version__"
                )
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.extend(_embedded(node.value))
        if isinstance(node, ast.Call) and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and _is_private_module(first.value):
                found.append(first.value)
    return found


# A private import is spelled "scorecontract._..." somewhere, or names a
# private name after "from scorecontract import": text with neither is not
# parsed (walking every syntax tree of the suite takes seconds).
_FROM_PACKAGE = re.compile(r"\bfrom\s+scorecontract\s+import\s*(\([^)]*\)|[^\n]*)")
_PRIVATE_NAME = re.compile(r"(?<![\w.])_(?!_version__)\w")


def _may_name_private(text: str) -> bool:
    if PACKAGE + "._" in text.replace("from scorecontract._cli import main\n", ""):
        return True
    return any(_PRIVATE_NAME.search(names) for names in _FROM_PACKAGE.findall(text))


def offenders(tests: Path) -> list[Path]:
    """Return the ``test_*.py`` files under *tests* that import a private module."""
    found = []
    for path in sorted(tests.rglob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        if _may_name_private(text) and private_names(text, str(path)):
            found.append(path)
    return found


def main(argv: list[str] | None = None) -> int:
    """Print the count of offending test files, then one per line."""
    args = sys.argv[1:] if argv is None else argv
    root = Path(__file__).resolve().parents[2]
    tests = Path(args[0]) if args else root / "tests"
    found = offenders(tests)
    print(len(found))
    for path in found:
        # Relative to the checkout when it is inside it: no machine path.
        shown = path.resolve().relative_to(root) if root in path.resolve().parents else path
        print(shown.as_posix())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
