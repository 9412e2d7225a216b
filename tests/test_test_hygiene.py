# SPDX-License-Identifier: MIT
"""Tests reach behaviour through the public API unless white-box is the point.

Issue 23: at most 15 test files import a private module of the package (the
command line's entry point, ``from scorecontract._cli import main``, aside),
and each of them says in its docstring that it is white-box, and why.  The
count is tools/hygiene/private_imports.py's, which reads each file's syntax
tree; the counter is first run on small examples of every spelling, so a
counter that stopped finding imports would go red rather than pass quietly.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import re

import pytest

from support import ROOT

LIMIT = 15
TOOL = ROOT / "tools" / "hygiene" / "private_imports.py"
# "White-box: why" or "White-box on purpose: why", in the module docstring.
SAYS_WHY = re.compile(r"\bWhite-box(?: on purpose)?: \S")


@functools.cache
def counter():
    spec = importlib.util.spec_from_file_location("private_imports", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def offenders():
    """The suite's test files that import a private module (one scan per run)."""
    return tuple(counter().offenders(ROOT / "tests"))


# The examples are f-strings, so this file's own source imports nothing.
P = "scorecontract"


@pytest.mark.parametrize(
    "source, found",
    [
        (f"import {P}._zstd", [f"{P}._zstd"]),
        (f"import {P}._cli._main as cli", [f"{P}._cli._main"]),
        (f"from {P}._strict_json import MAX_DEPTH", [f"{P}._strict_json"]),
        (f"from {P} import _stats, loads", [f"{P}._stats"]),
        (f"from {P}._cli import _main as cli", [f"{P}._cli"]),
        (f"from {P}._cli import main, _main", [f"{P}._cli"]),
        (f"importlib.import_module('{P}._read')", [f"{P}._read"]),
        (f"monkeypatch.setattr('{P}._read.read_file', f)", [f"{P}._read.read_file"]),
        (f"PROBE = 'import sys\\nimport {P}._evaluate as e\\n'", [f"{P}._evaluate"]),
        (f"def f():\n    from {P}._jsonpath import query\n", [f"{P}._jsonpath"]),
        # The entry point, the public API and what merely names a module.
        (f"from {P}._cli import main", []),
        (f"from {P} import __version__, evaluate, query", []),
        (f"import {P}", []),
        ("from . import _local", []),
        (f"assert '{P}._dumps' in graph", []),
        (f"CODE = 'import sys; from {P}._cli import main; main([])'", []),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_the_counter_sees_every_spelling(source, found):
    assert counter().private_names(source) == found


def test_at_most_fifteen_test_files_import_a_private_module():
    tests = ROOT / "tests"
    assert len(list(tests.glob("test_*.py"))) > 50  # the scan has files to read
    found = [path.relative_to(ROOT).as_posix() for path in offenders()]
    assert len(found) <= LIMIT, f"{len(found)} test files import a private module (limit {LIMIT}): {found}"


def test_every_white_box_test_module_says_why():
    found = offenders()
    assert found, "no white-box test module: the counter or this test is broken"
    silent = [
        path.relative_to(ROOT).as_posix()
        for path in found
        if not SAYS_WHY.search(ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or "")
    ]
    assert silent == [], f"say 'White-box: <why>' in the docstring of {silent}"


def test_the_command_prints_the_count_then_the_files(tmp_path, capsys):
    (tmp_path / "test_white.py").write_text(f"from {P}._zstd import decompress\n", encoding="utf-8")
    (tmp_path / "test_public.py").write_text(f"from {P} import loads\n", encoding="utf-8")
    (tmp_path / "helper.py").write_text(f"import {P}._read\n", encoding="utf-8")  # not a test file
    assert counter().main([str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines() == ["1", (tmp_path / "test_white.py").as_posix()]
