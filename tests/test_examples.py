# SPDX-License-Identifier: MIT
"""Every file in examples/ is exercised: the workflow and the Python caller.

(examples/release.sh and release_signed.sh have their own end-to-end tests,
test_release.py and test_release_signed.py.)
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import textwrap

import pytest

from scorecontract import Verdict
from shims import shim_environment
from support import FIXTURES, ROOT, SRC

EXAMPLES = ROOT / "examples"
WORKFLOW = EXAMPLES / "github-workflow.yml"
CALLER = EXAMPLES / "python_caller.py"


def test_every_example_is_exercised():
    # A new example needs a test here (or in test_release.py).
    assert sorted(p.name for p in EXAMPLES.iterdir()) == [
        "github-workflow.yml",
        "python_caller.py",
        "release.sh",
        "release_signed.sh",
    ]


def test_every_example_carries_the_licence_tag():
    for path in EXAMPLES.iterdir():
        assert (
            "SPDX-License-Identifier: MIT"
            in path.read_text(encoding="utf-8").splitlines()[1 if path.suffix == ".sh" else 0]
        )


# -- the GitHub Actions workflow ---------------------------------------------


def step_script(workflow: str, step_id: str) -> str:
    """Return the ``run: |`` block of the step with ``id: step_id``."""
    lines = workflow.splitlines()
    start = lines.index(next(line for line in lines if line.strip() == f"id: {step_id}"))
    for number in range(start, len(lines)):
        match = re.match(r"^(\s*)run: \|\s*$", lines[number])
        if match:
            indent = len(match.group(1))
            block = []
            for line in lines[number + 1 :]:
                if line.strip() and len(line) - len(line.lstrip()) <= indent:
                    break
                block.append(line)
            script = textwrap.dedent("\n".join(block)).strip() + "\n"
            if "scorecontract" not in script:
                raise AssertionError(f"step {step_id!r} does not run scorecontract")
            return script
    raise AssertionError(f"step {step_id!r} has no run block")


def run_gate_step(tmp_path, evidence_name):
    script = step_script(WORKFLOW.read_text(encoding="utf-8"), "gate")
    work = tmp_path / "workspace"
    work.mkdir()
    summary = tmp_path / "summary.md"
    env = shim_environment(tmp_path / "bin")
    env.update(EVIDENCE=str(FIXTURES / evidence_name), GITHUB_STEP_SUMMARY=str(summary))
    # `shell: bash` runs the script as `bash -e {0}`.
    (tmp_path / "step.sh").write_text(script, encoding="utf-8")
    result = subprocess.run(
        ["bash", "-e", str(tmp_path / "step.sh")],
        capture_output=True,
        cwd=work,
        env=env,
        timeout=120,
    )
    return result, summary.read_text(encoding="utf-8"), work


def test_workflow_gate_blocks_invalid_evidence_and_summarises(tmp_path):
    result, summary, work = run_gate_step(tmp_path, "nan.json")
    assert result.returncode == 3
    assert result.stdout.startswith(b"::error title=scorecontract INVALID,file=")
    assert result.stdout.count(b"\n") == 1
    assert "**blocked**" in summary and "Exit status 3" in summary
    receipt = json.loads((work / "receipt.json").read_bytes())
    assert receipt["verdict"] == "INVALID" and f'"code": "{receipt["code"]}"' in summary
    assert [p.name for p in (work / "kept-evidence").iterdir()] == [receipt["evidence"]["sha256"]]


def test_workflow_gate_passes_valid_evidence(tmp_path):
    result, summary, work = run_gate_step(tmp_path, "pass-0.9.json")
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.startswith(b"::notice title=scorecontract PASS")
    assert "**released**" in summary and '"verdict": "PASS"' in summary


def test_workflow_gate_fails_a_fail(tmp_path):
    result, summary, _ = run_gate_step(tmp_path, "fail-0.7.json")
    assert result.returncode == 1
    assert "**blocked**" in summary


def test_workflow_release_job_needs_the_gate_and_the_record_is_always_kept():
    text = WORKFLOW.read_text(encoding="utf-8")
    release_job = text.split("\n  release:\n", 1)[1]
    assert re.search(r"^    needs: gate$", release_job, re.MULTILINE)
    upload = text.split("uses: actions/upload-artifact", 1)[0].rsplit("- name:", 1)[1]
    assert "if: always()" in upload
    assert "continue-on-error" not in text  # would let a failed gate through


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
