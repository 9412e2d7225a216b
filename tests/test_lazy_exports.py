# SPDX-License-Identifier: MIT
"""The score pipeline imports alone; the other entry points load on first use."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import scorecontract
from support import SRC

LAZY = {
    "dumps": "_dumps",
    "extract_json": "_extract",
    "Judgment": "_judgment",
    "Outcome": "_judgment",
    "judge": "_judgment",
    "load_policy": "_policy_file",
    "Report": "_report",
    "report": "_report",
    "authenticate": "_sign",
    "load_key": "_sign",
    "sign": "_sign",
}

PROBE = r"""
import json, sys
import scorecontract
from scorecontract import evaluate
evaluate(b'{"score": 0.9}')
before = sorted(m for m in sys.modules if m.startswith("scorecontract."))
from scorecontract import judge, report
after = sorted(m for m in sys.modules if m.startswith("scorecontract."))
print(json.dumps([before, after]))
"""


def test_lazy_names_cover_every_public_name_not_imported_eagerly():
    assert set(LAZY) <= set(scorecontract.__all__)
    for name in scorecontract.__all__:
        assert hasattr(scorecontract, name), name


def test_lazy_names_are_the_modules_own_objects():
    for name, module in LAZY.items():
        assert getattr(scorecontract, name) is getattr(sys.modules[f"scorecontract.{module}"], name)


def test_unknown_names_still_raise_attribute_error():
    try:
        scorecontract.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("no AttributeError")


def test_evaluate_loads_only_the_score_pipeline():
    env = dict(os.environ, PYTHONPATH=str(SRC))
    result = subprocess.run([sys.executable, "-S", "-c", PROBE], capture_output=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    before, after = json.loads(result.stdout)
    for module in set(LAZY.values()) | {"_cli", "_cli._report_output", "_trials"}:
        assert f"scorecontract.{module}" not in before
    assert "scorecontract._judgment" in after and "scorecontract._report" in after


def test_the_shared_constants_module_imports_nothing():
    # Constants live once, in a module every other one can import without
    # a cycle: it must stay free of imports.
    import ast

    tree = ast.parse((SRC / "scorecontract" / "_constants.py").read_text(encoding="utf-8"))
    imports = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert imports == []
    names = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    assert {"CHECK_FORMATS", "REPORT_FORMATS", "METRICS", "DEFAULT_MAX_LISTED", "DEFAULT_MAX_BYTES"} <= names


CHECK_PROBE = r"""
import contextlib, io, json, sys
from scorecontract._cli import main
with contextlib.redirect_stdout(io.StringIO()):
    status = main(["check", sys.argv[1]])
print(json.dumps([status, sorted(m for m in sys.modules if m.startswith("scorecontract.") or m in ("hashlib", "hmac", "shutil"))]))
"""


def test_a_plain_check_loads_neither_reports_nor_judgments_nor_signatures():
    from support import FIXTURES

    env = dict(os.environ, PYTHONPATH=str(SRC))
    result = subprocess.run(
        # -S: site's .pth files may import anything; this is about ours.
        [sys.executable, "-S", "-c", CHECK_PROBE, str(FIXTURES / "pass-0.9.json")],
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    status, loaded = json.loads(result.stdout)
    assert status == 0
    for module in ("_report", "_cli._report_output", "_trials", "_judgment", "_sign", "_dumps"):
        assert f"scorecontract.{module}" not in loaded
    # No hashing without a receipt, no HMAC without a key, no shutil from
    # argparse's help formatter.
    assert not {"hashlib", "hmac", "shutil"} & set(loaded)
