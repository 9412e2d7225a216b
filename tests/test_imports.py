# SPDX-License-Identifier: MIT
"""Importable anywhere: standard library only, relative self-imports, and
nothing happens at import time.

White-box: the package's structure is the point -- every module's imports
and what it does when imported.

Every check here runs over every ``.py`` file in the package, so a module
added later is covered without editing this file.  Each checker is also run
on a small bad example, so a checker that stopped finding anything would go
red rather than pass quietly.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest

from support import FIXTURES, ROOT, SRC, parse_source

PACKAGE = SRC / "scorecontract"

# The top-level standard-library modules present in every supported Python,
# 3.9 through 3.13: sys.stdlib_module_names of 3.10 intersected with that of
# 3.13 (3.9 has no such attribute; 3.10 added no top-level module), without
# private (underscore) modules.  Modules 3.12 and 3.13 removed (distutils,
# imp, cgi, telnetlib, ...) are left out on purpose: they are not in every
# supported Python.
STDLIB_ALL_SUPPORTED = frozenset(
    """
__future__ abc antigravity argparse array ast asyncio atexit base64 bdb
binascii bisect builtins bz2 cProfile calendar cmath cmd code codecs codeop
collections colorsys compileall concurrent configparser contextlib
contextvars copy copyreg csv ctypes curses dataclasses datetime dbm decimal
difflib dis doctest email encodings ensurepip enum errno faulthandler fcntl
filecmp fileinput fnmatch fractions ftplib functools gc genericpath getopt
getpass gettext glob graphlib grp gzip hashlib heapq hmac html http idlelib
imaplib importlib inspect io ipaddress itertools json keyword linecache
locale logging lzma mailbox marshal math mimetypes mmap modulefinder msvcrt
multiprocessing netrc nt ntpath nturl2path numbers opcode operator optparse
os pathlib pdb pickle pickletools pkgutil platform plistlib poplib posix
posixpath pprint profile pstats pty pwd py_compile pyclbr pydoc pydoc_data
pyexpat queue quopri random re readline reprlib resource rlcompleter runpy
sched secrets select selectors shelve shlex shutil signal site smtplib
socket socketserver sqlite3 sre_compile sre_constants sre_parse ssl stat
statistics string stringprep struct subprocess symtable sys sysconfig syslog
tabnanny tarfile tempfile termios textwrap this threading time timeit
tkinter token tokenize trace traceback tracemalloc tty turtle turtledemo
types typing unicodedata unittest urllib uuid venv warnings wave weakref
webbrowser winreg winsound wsgiref xml xmlrpc zipapp zipfile zipimport zlib
zoneinfo
""".split()
)

# Standard-library modules newer than 3.9: usable only behind a guard
# (``try: ... except ImportError`` or ``if sys.version_info >= ...``).
STDLIB_NEWER = frozenset({"tomllib"})

# Heavy or unrelated modules that importing the package, or deciding on a
# record, must not load: they are imported lazily, inside the functions
# that need them (docs/vendoring.md; the vendoring bar of tomli and packaging).
NOT_AT_IMPORT = (
    "argparse",
    "dataclasses",
    "decimal",
    "fractions",
    "hashlib",
    "hmac",
    "inspect",
    "logging",
    "numbers",
    "pathlib",
    "shutil",
    "subprocess",
    "tempfile",
    "threading",
    "tomllib",
    "typing",
    "typing_extensions",
    "xml",
)


def package_files():
    files = sorted(PACKAGE.rglob("*.py"))
    if len(files) < 10 or PACKAGE / "__init__.py" not in files:
        raise AssertionError(f"expected the package's modules under {PACKAGE}, found {files}")
    return files


def module_name(path):
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


FILES = package_files()
IDS = [str(p.relative_to(PACKAGE)) for p in FILES]


# -- the import walk ---------------------------------------------------------


def _parents(tree):
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return parents


def _ancestry(node, parents):
    """Yield (ancestor, the child of it that leads to node)."""
    while node in parents:
        yield parents[node], node
        node = parents[node]


def _is_type_checking(test):
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _mentions_version_info(test):
    return any(isinstance(n, ast.Attribute) and n.attr == "version_info" for n in ast.walk(test))


def _catches_import_error(handler):
    names = {n.id for n in ast.walk(handler.type) if isinstance(n, ast.Name)} if handler.type else set()
    return bool(names & {"ImportError", "ModuleNotFoundError"})


def _guards(node, parents):
    """Return the set of guards around *node*: 'type-checking', 'fallback'."""
    found = set()
    for ancestor, child in _ancestry(node, parents):
        if isinstance(ancestor, ast.If) and child in ancestor.body:
            if _is_type_checking(ancestor.test):
                found.add("type-checking")
            if _mentions_version_info(ancestor.test):
                found.add("fallback")
        if isinstance(ancestor, ast.Try) and child in ancestor.body:
            if any(_catches_import_error(h) for h in ancestor.handlers):
                found.add("fallback")
    return found


def _relative_to_itself(call):
    """``import_module(f".{name}", __name__)``: a module of the calling package itself.

    The harness registry's one lazy import (``_harnesses.load``): every
    name it can import is a module of that package, which this walk reads
    like any other (test_every_registered_harness_is_a_module_here).
    """
    if _dotted(call.func) not in ("importlib.import_module", "import_module") or len(call.args) != 2:
        return False
    name, package = call.args
    starts_with_dot = (
        isinstance(name, ast.JoinedStr)
        and name.values
        and isinstance(name.values[0], ast.Constant)
        and str(name.values[0].value).startswith(".")
        and not str(name.values[0].value).startswith("..")
    )
    return bool(starts_with_dot) and isinstance(package, ast.Name) and package.id == "__name__"


def import_problems(source, depth=0):
    """Return a list of problems with the imports in *source*.

    *depth* is how many folders the module sits below the package root, so
    a relative import may climb ``depth + 1`` levels and no further.
    """
    tree = parse_source(source)
    parents = _parents(tree)
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [(0, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            targets = [(node.level, node.module or "")]
        elif isinstance(node, ast.Call):
            # A dynamic import would hide a module from this walk.
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in ("__import__", "import_module") and not _relative_to_itself(node):
                problems.append(f"line {node.lineno}: dynamic import {name}()")
            continue
        else:
            continue
        for level, module in targets:
            top = module.split(".")[0]
            where = f"line {node.lineno}: "
            if level:
                if level > depth + 1:
                    problems.append(where + f"relative import climbs out of the package ({'.' * level}{module})")
            elif top == "scorecontract":
                problems.append(where + f"absolute self-import of {module}; use a relative import")
            elif top in STDLIB_ALL_SUPPORTED:
                pass
            elif top in STDLIB_NEWER:
                if "fallback" not in _guards(node, parents):
                    problems.append(where + f"{module} is not in Python 3.9; guard it with except ImportError")
            elif top == "typing_extensions":
                if "type-checking" not in _guards(node, parents):
                    problems.append(where + "typing_extensions outside 'if TYPE_CHECKING:'")
            else:
                problems.append(where + f"{module} is not in the standard library of Python 3.9-3.13")
    return problems


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_imports_are_stdlib_or_relative(path):
    depth = len(path.relative_to(PACKAGE).parts) - 1
    assert import_problems(path.read_text(encoding="utf-8"), depth) == []


def test_the_walk_sees_the_imports_there_are():
    init = (PACKAGE / "__init__.py").read_text(encoding="utf-8")
    levels = {n.level for n in ast.walk(parse_source(init)) if isinstance(n, ast.ImportFrom)}
    assert 1 in levels  # __init__ re-exports from private modules, relatively
    modules = {
        alias.name
        for path in FILES
        for n in ast.walk(parse_source(path.read_text(encoding="utf-8")))
        if isinstance(n, ast.Import)
        for alias in n.names
    }
    assert {"json", "math", "sys"} <= modules


@pytest.mark.parametrize(
    "source, problem",
    [
        ("import scorecontract", "absolute self-import"),
        ("from scorecontract._errors import REASONS", "absolute self-import"),
        ("import numpy", "not in the standard library"),
        ("import distutils.util", "not in the standard library"),  # gone in 3.12
        ("from .. import x", "climbs out"),
        ("import tomllib", "guard it"),
        ("import typing_extensions", "TYPE_CHECKING"),
        ("import importlib\nimportlib.import_module('json')", "dynamic import"),
        ("__import__('json')", "dynamic import"),
        ("import importlib\nimportlib.import_module(f'..{x}', __name__)", "dynamic import"),
        ("import importlib\nimportlib.import_module(f'.{x}', 'json')", "dynamic import"),
    ],
)
def test_the_walk_finds_bad_imports(source, problem):
    problems = import_problems(source)
    assert len(problems) == 1 and problem in problems[0], problems


@pytest.mark.parametrize(
    "source",
    [
        "from . import _errors\nfrom ._policy import Policy\nimport json",
        "try:\n    import tomllib\nexcept ModuleNotFoundError:\n    tomllib = None",
        "import sys\nif sys.version_info >= (3, 11):\n    import tomllib",
        "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from typing_extensions import Self",
    ],
    ids=["relative", "try-import", "version-check", "type-checking"],
)
def test_the_walk_accepts_good_imports(source):
    assert import_problems(source) == []


def test_every_registered_harness_is_a_module_here():
    # The registry's lazy import can only reach modules of _harnesses/, and
    # each is a file the walks above read; each module there is registered.
    from scorecontract._source import REGISTRY

    harnesses = PACKAGE / "_harnesses"
    modules = {path.stem for path in harnesses.glob("*.py")} - {"__init__", "_base"}
    assert sorted(REGISTRY.values()) == sorted(modules)
    assert len(set(REGISTRY.values())) == len(REGISTRY) == 7


def test_the_stdlib_list_is_real():
    assert len(STDLIB_ALL_SUPPORTED) > 150
    if not hasattr(sys, "stdlib_module_names"):
        pytest.skip("Python 3.9 has no sys.stdlib_module_names; checked on 3.10+")
    assert STDLIB_ALL_SUPPORTED <= sys.stdlib_module_names
    assert STDLIB_NEWER.isdisjoint(STDLIB_ALL_SUPPORTED)


# -- nothing happens at import: what module bodies may contain -----------------

# Calls that only build a value.  Anything else at module (or class-body)
# level runs at import: an environment read, I/O, patching, logging set-up.
PURE_CALLS = frozenset(
    {
        "frozenset",
        "set",
        "tuple",
        "dict",
        "list",
        "object",
        "range",
        "re.compile",
        "types.MappingProxyType",
        "collections.namedtuple",
    }
    # The package's own record classes, built at import by the harness
    # modules (HEADLINE = Headline(...)): test_record_classes_only_store
    # proves that constructing one only stores its arguments.
    | {"Headline", "Samples", "Option", "_Absent"}
)
PURE_DECORATORS = frozenset(
    {
        "property",
        "staticmethod",
        "classmethod",
        "enum.unique",
        "functools.lru_cache",
        "functools.cache",
        "functools.total_ordering",
        "functools.cached_property",
        "functools.wraps",
    }
)


def _dotted(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return inner and f"{inner}.{node.attr}"
    return None


def _simple(expr):
    """Is *expr* evaluated without side effects?"""
    if isinstance(expr, (ast.Constant, ast.Name, ast.Lambda)):
        return True
    if isinstance(expr, ast.Attribute):
        return _simple(expr.value)
    if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
        return all(_simple(e) for e in expr.elts)
    if isinstance(expr, ast.Dict):
        return all(k is None or _simple(k) for k in expr.keys) and all(_simple(v) for v in expr.values)
    if isinstance(expr, ast.BinOp):
        return _simple(expr.left) and _simple(expr.right)
    if isinstance(expr, ast.UnaryOp):
        return _simple(expr.operand)
    if isinstance(expr, ast.BoolOp):
        return all(_simple(v) for v in expr.values)
    if isinstance(expr, ast.JoinedStr):
        return all(_simple(v.value) if isinstance(v, ast.FormattedValue) else True for v in expr.values)
    if isinstance(expr, ast.Call):
        return (
            _dotted(expr.func) in PURE_CALLS
            and all(_simple(a) for a in expr.args)
            and all(_simple(k.value) for k in expr.keywords)
        )
    return False


def _decorator_ok(decorator):
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = _dotted(target) or ""
    if name not in PURE_DECORATORS and name.rsplit(".", 1)[-1] not in ("setter", "getter", "deleter"):
        return False
    if isinstance(decorator, ast.Call):
        return all(_simple(a) for a in decorator.args) and all(_simple(k.value) for k in decorator.keywords)
    return True


def _defaults_ok(args):
    return all(_simple(d) for d in args.defaults) and all(d is None or _simple(d) for d in args.kw_defaults)


def import_time_problems(body):
    """Return ``(lineno, why)`` for each statement in *body* that does work at import."""
    problems = []
    for stmt in body:
        why = None
        if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Pass)):
            pass
        elif isinstance(stmt, ast.Expr):
            if not (isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)):
                why = "an expression statement (a call?) runs at import"
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if not all(_decorator_ok(d) for d in stmt.decorator_list):
                why = f"decorator on {stmt.name} is not known to be pure"
            elif not _defaults_ok(stmt.args):
                why = f"a default of {stmt.name} is computed at import"
        elif isinstance(stmt, ast.ClassDef):
            if not all(_decorator_ok(d) for d in stmt.decorator_list):
                why = f"decorator on class {stmt.name} is not known to be pure"
            elif not all(_simple(b) for b in stmt.bases) or not all(_simple(k.value) for k in stmt.keywords):
                why = f"bases of class {stmt.name} are computed at import"
            else:
                problems += import_time_problems(stmt.body)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names = [t for target in targets for t in (target.elts if isinstance(target, ast.Tuple) else [target])]
            if not all(isinstance(t, ast.Name) for t in names):
                why = "assignment to an attribute or item: patching something at import"
            elif stmt.value is not None and not _simple(stmt.value):
                why = "the assigned value is computed at import"
        elif isinstance(stmt, ast.If):
            test = stmt.test
            if _is_type_checking(test):
                problems += import_time_problems(stmt.orelse)  # the body never runs
            elif (
                isinstance(test, ast.Compare)
                and _dotted(test.left) == "__name__"
                and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators)
            ):
                pass  # runs only as a script (python -m)
            elif _mentions_version_info(test):
                problems += import_time_problems(stmt.body) + import_time_problems(stmt.orelse)
            else:
                why = "a condition evaluated at import"
        elif isinstance(stmt, ast.Try):
            if not all(isinstance(s, (ast.Import, ast.ImportFrom)) for s in stmt.body) or not all(
                _catches_import_error(h) for h in stmt.handlers
            ):
                why = "try at import that is not an optional import"
            else:
                for handler in stmt.handlers:
                    problems += import_time_problems(handler.body)
        else:
            why = f"{type(stmt).__name__} statement runs at import"
        if why:
            problems.append((stmt.lineno, why))
    return problems


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_module_bodies_only_define(path):
    tree = parse_source(path.read_text(encoding="utf-8"))
    assert import_time_problems(tree.body) == []


RECORD_CLASSES = ("Headline", "Samples", "Option", "_Absent")


def _stores_only(init):
    """Is *init* a docstring and ``self.NAME = NAME`` for its own parameters, nothing else?"""
    parameters = {arg.arg for arg in init.args.args + init.args.kwonlyargs}
    for stmt in init.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
            continue
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
            return False
        target, value = stmt.targets[0], stmt.value
        if not (isinstance(target, ast.Attribute) and _dotted(target.value) == "self"):
            return False
        if not (isinstance(value, ast.Name) and value.id in parameters):
            return False
    return True


def test_record_classes_only_store():
    # The classes the body check lets a module call at import: building
    # one must only store its arguments (or, without an __init__, nothing).
    found = {}
    for path in FILES:
        for node in parse_source(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and node.name in RECORD_CLASSES:
                found[node.name] = node
    assert sorted(found) == sorted(RECORD_CLASSES)
    for name, node in found.items():
        inits = [item for item in node.body if isinstance(item, ast.FunctionDef) and item.name == "__init__"]
        bases = [_dotted(base) for base in node.bases]
        assert bases in ([], ["object"]), name
        assert not inits or _stores_only(inits[0]), name
        assert not node.decorator_list, name


def test_the_record_check_finds_work():
    source = "class R:\n    def __init__(self, a):\n        self.a = a\n        print(a)\n"
    init = ast.parse(source).body[0].body[0]
    assert not _stores_only(init)
    assert _stores_only(ast.parse("def __init__(self, a):\n    self.a = a\n").body[0])


@pytest.mark.parametrize(
    "source",
    [
        "import os\nDEBUG = os.environ.get('SCORECONTRACT_DEBUG')",
        "import os\nHOME = os.environ['HOME']",
        "import logging\nlogging.basicConfig()",
        "print('hello')",
        "CONFIG = open('config.json').read()",
        "import sys\nsys.path.insert(0, '.')",
        "import sys\nsys.excepthook = None",
        "import atexit\n@atexit.register\ndef bye():\n    pass",
        "import os\ndef f(x=os.getcwd()):\n    pass",
        "class C:\n    home = __import__('os').environ['HOME']",
        "import os\nif os.environ.get('X'):\n    Y = 1",
        "for i in range(3):\n    pass",
        "try:\n    X = open('f').read()\nexcept OSError:\n    X = ''",
    ],
)
def test_the_body_check_finds_import_time_work(source):
    assert import_time_problems(ast.parse(source).body) != []


def test_the_body_check_accepts_definitions():
    source = '''
"""Docstring."""
from __future__ import annotations
import re
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any
    X = Any
__all__ = ["f", "C"]
LIMIT = 2 ** 20
_RE = re.compile(r"x+")
_TABLE = frozenset({"a", "b"})
_cache: list[int] = []
class C(ValueError):
    """Doc."""
    __slots__ = ("a",)
    if TYPE_CHECKING:
        a: int
    @property
    def value(self) -> int:
        return 1
def f(x, /, *, limit=LIMIT, name=None):
    return x
if __name__ == "__main__":
    raise SystemExit(f(1))
'''
    assert import_time_problems(ast.parse(source).body) == []


# -- nothing happens at import: what importing really does --------------------

IMPORT_PROBE = r"""
import json, os, sys

src, fixtures, names = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
sys.path.insert(0, src)

# Record every read of the environment and every open() during the imports.
reads = []
class Environ(dict):
    def __getitem__(self, key):
        reads.append(key)
        return dict.__getitem__(self, key)
    def get(self, key, default=None):
        reads.append(key)
        return dict.get(self, key, default)
    def __contains__(self, key):
        reads.append(key)
        return dict.__contains__(self, key)
    def __iter__(self):
        reads.append("<iter>")
        return dict.__iter__(self)
real_environ = os.environ
os.environ = Environ(real_environ)
opened = []
import builtins, io
real_open = builtins.open
def recording_open(*args, **kwargs):
    opened.append(str(args[0]))
    return real_open(*args, **kwargs)
builtins.open = io.open = recording_open

from io import StringIO
out, err = sys.stdout, sys.stderr
sys.stdout, sys.stderr = captured_out, captured_err = StringIO(), StringIO()
def state():
    return {
        "path": list(sys.path), "meta_path": [repr(f) for f in sys.meta_path],
        "path_hooks": [repr(h) for h in sys.path_hooks], "excepthook": repr(sys.excepthook),
        "displayhook": repr(sys.displayhook), "stdout": id(sys.stdout), "stderr": id(sys.stderr),
        "recursionlimit": sys.getrecursionlimit(), "cwd": os.getcwd(),
        "int_digits": getattr(sys, "get_int_max_str_digits", lambda: None)(),
    }
before_state = state()
preloaded = set(sys.modules)
for name in names:
    __import__(name)
after_state = state()
after_import = set(sys.modules)
sys.stdout, sys.stderr = out, err
builtins.open = io.open = real_open
os.environ = real_environ

# Then decide: every fixture, bytes and str, and decide() on plain values.
import scorecontract
manifest = json.load(open(os.path.join(fixtures, "manifest.json"), encoding="utf-8"))
for case in manifest["cases"]:
    with open(os.path.join(fixtures, case["file"]), "rb") as stream:
        data = stream.read()
    scorecontract.evaluate(data)
    scorecontract.evaluate(data.decode("utf-8", "replace"))
for value in (0.9, 0.1, 1, float("nan"), True, "0.9", None, 10 ** 400):
    scorecontract.decide(value)
after_use = set(sys.modules)

print(json.dumps({
    "preloaded": sorted(preloaded), "after_import": sorted(after_import),
    "after_use": sorted(after_use), "env_reads": reads, "opened": opened,
    "printed": captured_out.getvalue() + captured_err.getvalue(),
    "state_changed": {k: [before_state[k], after_state[k]] for k in before_state
                      if before_state[k] != after_state[k]},
}))
"""


@pytest.fixture(scope="module")
def import_report():
    names = [module_name(p) for p in FILES]
    result = subprocess.run(
        [sys.executable, "-I", "-S", "-c", IMPORT_PROBE, str(SRC), str(FIXTURES), ",".join(names)],
        capture_output=True,
        timeout=120,
    )
    if result.returncode != 0:
        raise AssertionError(result.stderr.decode())
    report = json.loads(result.stdout)
    report["names"] = names
    return report


def test_every_module_was_imported(import_report):
    assert "scorecontract.__main__" in import_report["names"]
    assert set(import_report["names"]) <= set(import_report["after_import"])


def _top_levels(modules):
    return {m.split(".")[0] for m in modules}


def test_the_probe_is_meaningful(import_report):
    # The heavy modules were not already loaded by the interpreter itself,
    # so their absence afterwards means something.
    assert _top_levels(import_report["preloaded"]).isdisjoint(NOT_AT_IMPORT)


def test_importing_loads_no_heavy_module(import_report):
    assert sorted(_top_levels(import_report["after_import"]) & set(NOT_AT_IMPORT)) == []


def test_deciding_with_the_default_policy_loads_no_heavy_module(import_report):
    # The canonical record, every fixture and decide(): no decimal, no typing.
    assert sorted(_top_levels(import_report["after_use"]) & set(NOT_AT_IMPORT)) == []


def test_importing_reads_no_environment_and_opens_no_file(import_report):
    assert import_report["env_reads"] == []
    assert import_report["opened"] == []
    assert import_report["printed"] == ""


def test_importing_patches_nothing(import_report):
    assert import_report["state_changed"] == {}


# -- licence headers ---------------------------------------------------------

SPDX = "# SPDX-License-Identifier: MIT"


def source_files():
    found = list(FILES)
    for folder in ("tests", "benchmarks", "examples"):
        if (ROOT / folder).is_dir():
            found += sorted((ROOT / folder).rglob("*.py"))
    return found


@pytest.mark.parametrize("path", source_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_source_file_starts_with_spdx(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    if lines and lines[0].startswith("#!"):
        lines = lines[1:]
    assert lines and lines[0] == SPDX


def test_ci_script_carries_spdx():
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("#!") and lines[1] == SPDX


# -- start-up: what a plain check loads ----------------------------------------

CHECK_IMPORTS_PROBE = r"""
import contextlib, io, json, sys
sys.path.insert(0, sys.argv[1])
before = set(sys.modules)
from scorecontract._cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    status = main(["check", "--", sys.argv[2]])
print(json.dumps([status, out.getvalue(), sorted(set(sys.modules) - before)]))
"""

# Exactly the package modules `scorecontract check FILE` on a score record
# needs: parsing check's own options, the score pipeline, one result line.
# Start-up is the cost of a release script's one-line call (the target is
# 1.3x `python -c "import json"`, docs/performance.md), so a module joining
# this set must be worth it; a new command (gate) or a harness adapter
# must not join it at all.
PLAIN_CHECK_MODULES = frozenset(
    """
scorecontract scorecontract._cli scorecontract._cli._check
scorecontract._cli._check_output scorecontract._cli._deliver
scorecontract._cli._escape scorecontract._cli._io
scorecontract._cli._judgment scorecontract._cli._main
scorecontract._cli._options scorecontract._cli._policy
scorecontract._cli._provenance scorecontract._cli._verdict_line
scorecontract._constants scorecontract._decide scorecontract._describe
scorecontract._encoding scorecontract._errors scorecontract._evaluate
scorecontract._policy scorecontract._provenance scorecontract._read
scorecontract._record scorecontract._score scorecontract._select
scorecontract._source scorecontract._strict_json scorecontract._value
scorecontract._verdict scorecontract._version
""".split()
)

# Standard-library modules a plain check must not load: archives (an
# Inspect .eval log is a ZIP), hashing without a receipt, HMAC without a
# key, argparse's help formatter's shutil, exact arithmetic, typing, TOML,
# and the did-you-mean of a usage error.
NOT_IN_A_PLAIN_CHECK = (
    "zipfile",
    "zlib",
    "hashlib",
    "hmac",
    "shutil",
    "decimal",
    "typing",
    "tomllib",
    "difflib",
    "tempfile",
)


@pytest.fixture(scope="module")
def plain_check_modules():
    # A fresh interpreter is the point: what one command line loads.
    result = subprocess.run(
        [sys.executable, "-I", "-S", "-c", CHECK_IMPORTS_PROBE, str(SRC), str(FIXTURES / "pass-0.9.json")],
        capture_output=True,
        timeout=120,
    )
    if result.returncode != 0:
        raise AssertionError(result.stderr.decode())
    status, out, loaded = json.loads(result.stdout)
    if status != 0 or not out.startswith("PASS "):
        raise AssertionError(f"the probe's check did not PASS: {status} {out!r}")
    return set(loaded)


def test_a_plain_check_loads_exactly_its_own_modules(plain_check_modules):
    ours = {name for name in plain_check_modules if name.split(".")[0] == "scorecontract"}
    assert sorted(ours - PLAIN_CHECK_MODULES) == []  # loaded, and not pinned: deferred?
    assert sorted(PLAIN_CHECK_MODULES - ours) == []  # pinned, and no longer loaded: unpin it


def test_a_plain_check_loads_no_adapter_no_archive_no_other_command(plain_check_modules):
    forbidden = {"scorecontract._headline", "scorecontract._samples", "scorecontract._archive"}
    forbidden |= {f"scorecontract._cli.{name}" for name in ("_gate", "_report", "_report_output", "_sign", "_demo")}
    forbidden |= {"scorecontract._gate", "scorecontract._report", "scorecontract._confidence"}
    # No receipt, no annotation asked for: neither is built, nor anything hashed.
    forbidden |= {"scorecontract._cli._receipt", "scorecontract._cli._github", "scorecontract._digest"}
    assert sorted(forbidden & plain_check_modules) == []
    assert sorted(_top_levels(plain_check_modules) & set(NOT_IN_A_PLAIN_CHECK)) == []


def test_the_plain_check_pin_is_not_vacuous(plain_check_modules):
    # The probe saw the pipeline (so an empty result cannot pass), and the
    # forbidden modules are real ones that other commands do load.
    assert {"scorecontract._evaluate", "scorecontract._cli._check", "argparse"} <= plain_check_modules
    import importlib.util

    for name in NOT_IN_A_PLAIN_CHECK:
        if name != "tomllib" or sys.version_info >= (3, 11):
            assert importlib.util.find_spec(name) is not None, name
