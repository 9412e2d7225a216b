# SPDX-License-Identifier: MIT
"""Every file in examples/ is exercised: the workflow and the Python caller.

(examples/release.sh and release_signed.sh have their own end-to-end tests,
test_release.py and test_release_signed.py.)
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from scorecontract import Verdict
from support import FIXTURES, ROOT, SRC

EXAMPLES = ROOT / "examples"
CALLER = EXAMPLES / "python_caller.py"


def test_every_example_is_exercised():
    # A new example needs a test here (or in test_release.py).
    assert sorted(p.name for p in EXAMPLES.iterdir()) == [
        "github-workflow.yml",
        "python_caller.py",
        "release-gates.json",
        "release.sh",
        "release_signed.sh",
    ]


def test_every_example_carries_the_licence_tag():
    # JSON has no comments: the gate file example is the repository's, MIT.
    for path in (path for path in EXAMPLES.iterdir() if path.suffix != ".json"):
        assert (
            "SPDX-License-Identifier: MIT"
            in path.read_text(encoding="utf-8").splitlines()[1 if path.suffix == ".sh" else 0]
        )


# -- the GitHub Actions workflow and the gate file ----------------------------
#
# examples/github-workflow.yml uses the repository's action: tests/test_action.py
# parses it and runs its gate step as a runner does.


def test_the_gate_file_example_gates_both_harnesses(capsysbinary):
    from scorecontract._cli import main

    assert main(["gate", "--format", "json", "--", str(EXAMPLES / "release-gates.json")]) == 0
    receipt = json.loads(capsysbinary.readouterr().out)
    assert [(gate["name"], gate["verdict"]) for gate in receipt["gates"]] == [("mmlu", "PASS"), ("safety", "PASS")]
    assert [gate["receipt"]["selection"]["source"]["harness"] for gate in receipt["gates"]] == ["lm-eval", "inspect"]


# -- the Python caller ---------------------------------------------------------


@pytest.fixture(scope="module")
def caller():
    spec = importlib.util.spec_from_file_location("python_caller", CALLER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_caller_maps_every_verdict_explicitly(caller):
    actions = {verdict: caller.action_for(verdict) for verdict in Verdict}
    assert actions == {
        Verdict.PASS: "release",
        Verdict.FAIL: "reject",
        Verdict.INVALID: "quarantine",
        Verdict.REVIEW: "hold",
    }


@pytest.mark.parametrize("stranger", ["PASS", 0, None, True, "release"], ids=repr)
def test_caller_blocks_anything_that_is_not_a_verdict(caller, stranger):
    with pytest.raises(ValueError, match="blocking"):
        caller.action_for(stranger)


@pytest.mark.parametrize(
    "evidence, status, action",
    [
        ("pass-0.9.json", 0, b"release: PASS"),
        ("fail-0.7.json", 1, b"reject: FAIL"),
        ("nan.json", 3, b"quarantine: INVALID non-standard-constant"),
        ("overflow-1e400.json", 3, b"quarantine: INVALID non-finite"),
    ],
)
def test_caller_as_a_script(evidence, status, action):
    result = subprocess.run(
        [sys.executable, str(CALLER), str(FIXTURES / evidence)],
        capture_output=True,
        env={"PYTHONPATH": str(SRC), "PATH": ""},
        timeout=120,
    )
    assert result.returncode == status, result.stderr.decode()
    assert result.stdout.startswith(action)


def test_caller_missing_file_is_quarantined(tmp_path):
    result = subprocess.run(
        [sys.executable, str(CALLER), str(tmp_path / "absent.json")],
        capture_output=True,
        env={"PYTHONPATH": str(SRC), "PATH": ""},
        timeout=120,
    )
    assert result.returncode == 3
    assert result.stderr.startswith(b"quarantine: ")


def test_caller_oversize_evidence_is_invalid(tmp_path, caller):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (caller.MAX_BYTES + 10) + b'{"score": 0.9}')
    result = subprocess.run(
        [sys.executable, str(CALLER), str(big)],
        capture_output=True,
        env={"PYTHONPATH": str(SRC), "PATH": ""},
        timeout=120,
    )
    assert result.returncode == 3
    assert result.stdout.startswith(b"quarantine: INVALID too-large")
