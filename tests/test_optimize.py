# SPDX-License-Identifier: MIT
"""The suite and the library prove themselves under python -O and -OO.

``python -O`` deletes ``assert`` statements.  pytest rewrites asserts in
test modules (and conftest.py) into explicit raises, so the tests keep
asserting; everything else must not rely on ``assert`` at all.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

from support import ROOT, SRC, manifest_cases

PACKAGE = SRC / "scorecontract"


def python_files(folder):
    files = sorted(folder.rglob("*.py"))
    if not files:
        raise AssertionError(f"no Python files under {folder}")
    return files


def assert_statements(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Assert)]


def test_assert_statements_are_live_in_test_modules():
    # If pytest stopped rewriting (or -O won), this bare assert would vanish
    # and pytest.raises would fail the test.
    with pytest.raises(AssertionError):
        assert sys.flags.optimize < 0


def test_optimize_flag_matches_the_runs_claim():
    claim = os.environ.get("SCORECONTRACT_EXPECT_OPTIMIZE")
    if claim is None:
        pytest.skip("this run makes no claim (CI sets SCORECONTRACT_EXPECT_OPTIMIZE)")
    assert str(sys.flags.optimize) == claim


@pytest.mark.parametrize("path", python_files(PACKAGE), ids=lambda p: p.name)
def test_library_has_no_assert(path):
    assert assert_statements(path) == []


def helper_modules():
    # Modules pytest does not rewrite: everything in tests/ that is neither
    # test_*.py nor conftest.py, plus scripts in benchmarks/ and examples/.
    found = [p for p in python_files(ROOT / "tests") if not p.name.startswith("test_") and p.name != "conftest.py"]
    for folder in ("benchmarks", "examples"):
        if (ROOT / folder).is_dir():
            found += sorted((ROOT / folder).rglob("*.py"))
    return found


def test_there_are_helper_modules_to_check():
    assert any(p.name == "support.py" for p in helper_modules())


@pytest.mark.parametrize("path", helper_modules(), ids=lambda p: p.name)
def test_helpers_outside_test_modules_have_no_assert(path):
    assert assert_statements(path) == []


SCRIPT = r"""
import json, sys
import scorecontract
from scorecontract import evaluate, decide, Verdict
manifest = json.load(open(sys.argv[1], encoding="utf-8"))
wrong = []
for case in manifest["cases"]:
    with open(sys.argv[2] + "/" + case["file"], "rb") as f:
        d = evaluate(f.read())
    if (d.verdict.value, d.code) != (case["verdict"], case["code"]):
        wrong.append(case["file"])
if decide(float("nan")) is not Verdict.INVALID or decide(True) is not Verdict.INVALID:
    wrong.append("decide")
try:
    bool(Verdict.INVALID)
    wrong.append("bool")
except TypeError:
    pass
print(json.dumps({"optimize": sys.flags.optimize, "wrong": wrong,
                  "cases": len(manifest["cases"])}))
"""


@pytest.mark.parametrize("flag", ["", "-O", "-OO"], ids=["plain", "O", "OO"])
def test_library_behaves_under_each_optimize_level(flag):
    command = (
        [sys.executable]
        + ([flag] if flag else [])
        + [
            "-c",
            SCRIPT,
            str(ROOT / "fixtures" / "manifest.json"),
            str(ROOT / "fixtures"),
        ]
    )
    env = dict(os.environ, PYTHONPATH=str(SRC))
    result = subprocess.run(command, capture_output=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr.decode()
    report = __import__("json").loads(result.stdout)
    assert report == {"optimize": len(flag) - 1 if flag else 0, "wrong": [], "cases": len(manifest_cases())}
