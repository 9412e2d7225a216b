# SPDX-License-Identifier: MIT
"""A copy of src/scorecontract under another parent and another name works.

CI maintainers vendor the package: they copy ``src/scorecontract/`` into
their repository (``ci_tools/_vendor/scorecontract``) and import it from
there, with no pip install.  These tests do exactly that, in a fresh
interpreter started with ``-I -S`` (no PYTHONPATH, no site-packages, no
current directory on ``sys.path``), so the original package cannot be
imported by accident -- and each run proves that it was not.  CI runs this
file on every CPython 3.9-3.13 it finds, which covers the oldest and the
newest supported Python.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from support import FIXTURES, ROOT, SRC, manifest_cases

PACKAGE = SRC / "scorecontract"
CASES = manifest_cases()

# (parent package path, the copy's own name)
PLACEMENTS = [
    ("ci_tools._vendor", "scorecontract"),  # the usual vendoring layout
    ("ci_tools._vendor", "gate"),  # renamed: any absolute self-import breaks
]

PROBE = r"""
import json, os, sys

root, dotted, fixtures, src = sys.argv[1:5]
sys.path.insert(0, root)

def original_importable():
    # importlib.util.find_spec would import importlib.util; the path
    # finder answers the same question for a top-level name.
    from importlib.machinery import PathFinder
    return PathFinder.find_spec("scorecontract") is not None

report = {"original_importable_before": original_importable()}
package = __import__(dotted, fromlist=["evaluate"])
from io import StringIO
import runpy

results = []
for case in json.load(open(os.path.join(fixtures, "manifest.json"), encoding="utf-8"))["cases"]:
    path = os.path.join(fixtures, case["file"])
    with open(path, "rb") as stream:
        data = stream.read()
    as_bytes = package.evaluate(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        as_str = None
    else:
        decision = package.evaluate(text)
        as_str = [decision.verdict.value, decision.code]
    # The command line, as `python -m <vendored path> check FILE` runs it.
    sys.argv = [dotted, "check", path]
    saved, sys.stdout = sys.stdout, StringIO()
    try:
        runpy.run_module(dotted, run_name="__main__", alter_sys=True)
        status = "returned"
    except SystemExit as exc:
        status = exc.code
    finally:
        printed, sys.stdout = sys.stdout.getvalue(), saved
    results.append({
        "file": case["file"],
        "bytes": [as_bytes.verdict.value, as_bytes.code],
        "str": as_str,
        "exit": status,
        "printed": printed.split(":", 1)[0],
    })

report.update(
    results=results,
    version=package.__version__,
    package_file=package.__file__,
    optimize=sys.flags.optimize,
    original_importable_after=original_importable(),
    # Every module loaded from the package tree, by name and file.
    loaded={
        name: getattr(module, "__file__", None)
        for name, module in sorted(sys.modules.items())
        if name == "scorecontract" or name.startswith("scorecontract.")
        or name == dotted or name.startswith(dotted + ".")
        or (getattr(module, "__file__", None) or "").startswith(src)
    },
)
print(json.dumps(report))
"""


def vendor(tmp_path, parent, name):
    """Copy the package to *tmp_path*/<parent as folders>/<name>, as a user would."""
    target = tmp_path.joinpath(*parent.split("."), name)
    shutil.copytree(PACKAGE, target, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "LICENSE", target / "LICENSE")
    folder = tmp_path
    for part in parent.split("."):
        folder = folder / part
        (folder / "__init__.py").write_text("", encoding="utf-8")
    return target


def isolated_python(*args, flags=(), cwd=None):
    # -I: no PYTHONPATH, no user site, no script directory or cwd on
    # sys.path; -S: no site-packages, so not even an installed copy of
    # scorecontract is importable.
    command = [sys.executable, "-I", "-S", *flags, *args]
    return subprocess.run(command, capture_output=True, cwd=cwd, timeout=300)


def expected_exit(case):
    return {"PASS": 0, "FAIL": 1, "INVALID": 3}[case["verdict"]]


def test_the_copy_contains_every_module(tmp_path):
    target = vendor(tmp_path, "ci_tools._vendor", "gate")
    copied = sorted(p.name for p in target.iterdir())
    original = sorted(p.name for p in PACKAGE.iterdir() if p.name != "__pycache__")
    assert copied == sorted(original + ["LICENSE"])
    assert "py.typed" in copied and "__init__.py" in copied


@pytest.mark.parametrize("flags", [(), ("-OO",)], ids=["plain", "OO"])
@pytest.mark.parametrize("parent, name", PLACEMENTS, ids=[n for _, n in PLACEMENTS])
def test_vendored_copy_gives_the_manifest_verdicts(tmp_path, parent, name, flags):
    target = vendor(tmp_path, parent, name)
    dotted = f"{parent}.{name}"
    result = isolated_python("-c", PROBE, str(tmp_path), dotted, str(FIXTURES), str(SRC), flags=flags, cwd=tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    report = json.loads(result.stdout)

    # The original package was never importable, and was not imported: every
    # module that ran came from the copy.
    assert report["original_importable_before"] is False
    assert report["original_importable_after"] is False
    assert report["optimize"] == (2 if flags else 0)
    assert report["package_file"] == str(target / "__init__.py")
    assert f"{dotted}._evaluate" in report["loaded"]
    for module, path in report["loaded"].items():
        assert module.startswith(dotted), module
        assert path is None or path.startswith(str(target)), (module, path)

    # The copy's verdicts are the manifest's, for bytes, str and the CLI.
    assert len(report["results"]) == len(CASES)
    for case, got in zip(CASES, report["results"]):
        assert got["file"] == case["file"]
        assert got["bytes"] == [case["verdict"], case["code"]], case["file"]
        if got["str"] is not None:
            assert got["str"] == [case["verdict"], case.get("str_code", case["code"])], case["file"]
        assert got["exit"] == expected_exit(case), case["file"]
        assert got["printed"] == f"{case['verdict']} {case['code']}", case["file"]

    import scorecontract

    assert report["version"] == scorecontract.__version__


def test_vendored_copy_runs_as_python_dash_m(tmp_path):
    # The docs' one-line check of a copy: run from the repository that
    # holds it, `python -m ci_tools._vendor.gate check FILE`.
    vendor(tmp_path, "ci_tools._vendor", "gate")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    command = [sys.executable, "-m", "ci_tools._vendor.gate"]
    version = subprocess.run(command + ["--version"], capture_output=True, cwd=tmp_path, env=env, timeout=120)
    invalid = subprocess.run(
        command + ["check", str(FIXTURES / "nan.json")], capture_output=True, cwd=tmp_path, env=env, timeout=120
    )
    passing = subprocess.run(
        command + ["check", str(FIXTURES / "pass-0.9.json")], capture_output=True, cwd=tmp_path, env=env, timeout=120
    )
    import scorecontract

    assert version.returncode == 0, version.stderr.decode()
    assert version.stdout.decode().split() == ["scorecontract", scorecontract.__version__]
    assert invalid.returncode == 3
    assert invalid.stdout.startswith(b"INVALID non-standard-constant: ")
    assert passing.returncode == 0
    assert passing.stdout.startswith(b"PASS meets-threshold: ")


def test_isolation_really_hides_the_source_tree(tmp_path):
    # The control for the tests above: the same interpreter flags cannot see
    # the original package, even with the repository as working directory.
    probe = "import importlib.machinery as m; print(m.PathFinder.find_spec('scorecontract'))"
    hidden = isolated_python("-c", probe, cwd=ROOT)
    shown = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        cwd=ROOT,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=str(SRC)),
    )
    assert hidden.stdout.strip() == b"None"
    assert b"ModuleSpec" in shown.stdout


def test_readme_tells_how_to_vendor():
    section = (ROOT / "docs" / "vendoring.md").read_text(encoding="utf-8")
    # What to copy, the licence that goes with it, how to check the copy (the
    # command test_vendored_copy_runs_as_python_dash_m runs), and the rule.
    assert "`src/scorecontract/`" in section and "`LICENSE`" in section
    assert "python -m ci_tools._vendor.gate check " in section
    assert "Match on `code`, never on message text" in section


APART_PROBE = r"""
import contextlib, io, json, os, sys

root, dotted, fixtures = sys.argv[1:4]
sys.path.insert(0, root)
package = __import__(dotted, fromlist=["evaluate"])
from importlib import import_module
main = import_module(dotted + "._cli").main

out = {"record": package.evaluate(b'{"score": 0.9}').verdict.value}
trials = os.path.join(root, "trials.jsonl")
with open(trials, "w") as stream:
    stream.write('{"trial_id": "a", "score": 0.9}\n{"trial_id": "b", "score": 0.8}\n')
out["report"] = package.report(trials, scheduled=2).verdict.value
out["selected"] = package.report(
    trials, select_score="$.score", trial_id="$.trial_id", scheduled=2
).verdict.value
raw = open(os.path.join(fixtures, "harnesses", "lm-eval-results.json"), "rb").read()
for what, call in (
    ("evaluate", lambda: package.evaluate(raw, source=package.Source("lm-eval", task="mmlu", metric="acc,none"))),
    ("report", lambda: package.report(trials, source=package.Source("inspect", scorer="match"))),
):
    try:
        call()
        out[what + "_source"] = "no error"
    except package.PolicyError as exc:
        out[what + "_source"] = [exc.code, exc.message]

def cli(*argv):
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = main(list(argv))
    return [status, stdout.getvalue(), stderr.getvalue()]

lm = os.path.join(fixtures, "harnesses", "lm-eval-results.json")
out["check"] = cli("check", os.path.join(fixtures, "pass-0.9.json"))
out["check_from"] = cli("check", "--from", "lm-eval", "--task", "mmlu", "--metric", "acc,none", lm)
out["help_from"] = cli("check", "--from", "lm-eval", "--help")
out["report_from"] = cli("report", "--from", "inspect", "--scorer", "match", trials)
out["loaded"] = sorted(name for name in sys.modules if "_harnesses" in name)
print(json.dumps(out))
"""


def test_a_copy_without_its_harness_package_gates_records_and_refuses_from(tmp_path):
    # The layers vendor apart: without _harnesses/ the copy still gates score
    # records and trial reports (generic queries included), and every --from
    # is a configuration error that says harness support is not in the copy.
    target = vendor(tmp_path, "ci_tools._vendor", "gate")
    shutil.rmtree(target / "_harnesses")
    result = isolated_python("-c", APART_PROBE, str(tmp_path), "ci_tools._vendor.gate", str(FIXTURES), cwd=tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    out = json.loads(result.stdout)
    assert (out["record"], out["report"], out["selected"]) == ("PASS", "PASS", "PASS")
    for what in ("evaluate_source", "report_source"):
        code, message = out[what]
        assert code == "bad-option"
        assert "harness support is not in this copy of scorecontract" in message
    assert out["check"][0] == 0 and out["check"][1].startswith("PASS meets-threshold")
    for what in ("check_from", "help_from", "report_from"):
        status, printed, said = out[what]
        assert status == 2, (what, said)
        assert printed == ""
        assert said.startswith("scorecontract: error: bad-option: harness support is not in this copy"), said
        assert "--from" in said
    assert out["loaded"] == []
