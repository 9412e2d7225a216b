# SPDX-License-Identifier: MIT
"""check --contract judgment keeps the same records as the score contract."""

from __future__ import annotations

import hashlib
import json

import pytest

from scorecontract._cli import main


@pytest.fixture
def evidence(tmp_path):
    def write(data: bytes) -> str:
        path = tmp_path / "judgment.json"
        path.write_bytes(data)
        return str(path)

    return write


def test_grader_error_receipt_and_kept_evidence(evidence, tmp_path, capsys):
    data = b'{"reason": "looked fine"}'
    receipt_path = tmp_path / "receipt.json"
    kept = tmp_path / "kept"
    status = main(
        [
            "check",
            "--contract",
            "judgment",
            "--receipt",
            str(receipt_path),
            "--keep-evidence",
            str(kept),
            evidence(data),
        ]
    )
    assert status == 3
    assert capsys.readouterr().out.startswith("GRADER_ERROR no-judgment: ")
    receipt = json.loads(receipt_path.read_text())
    digest = hashlib.sha256(data).hexdigest()
    assert (receipt["outcome"], receipt["verdict"], receipt["code"]) == ("GRADER_ERROR", "INVALID", "no-judgment")
    assert receipt["evidence"] == {"path": evidence(data), "sha256": digest, "length": len(data)}
    assert (kept / digest).read_bytes() == data


@pytest.mark.parametrize(
    "data, negate, status, state",
    [
        (b'{"pass": true, "score": 0}', False, 0, "PASS"),
        (b'{"pass": true, "score": 0}', True, 1, "FAIL"),
        (b'{"score": "high"}', True, 3, "GRADER_ERROR"),
    ],
)
def test_json_and_github_formats_name_the_state(evidence, data, negate, status, state, capsys):
    extra = ["--negate"] if negate else []
    assert main(["check", "--contract", "judgment", "--format", "json", *extra, evidence(data)]) == status
    record = json.loads(capsys.readouterr().out)
    assert record["outcome"] == state and record["negated"] is negate
    assert main(["check", "--contract", "judgment", "--format", "github", *extra, evidence(data)]) == status
    line = capsys.readouterr().out
    assert line.startswith("::notice " if status == 0 else "::error ")
    assert f"title=scorecontract {state}" in line


def test_exact_judgment_needs_a_threshold(evidence, capsys):
    assert main(["check", "--contract", "judgment", "--exact", evidence(b'{"score": 0.5}')]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    data = b'{"score": 0.79999999999999999999}'
    assert main(["check", "--contract", "judgment", "--threshold", "0.8", evidence(data)]) == 0
    assert main(["check", "--contract", "judgment", "--exact", "--threshold", "0.8", evidence(data)]) == 1


def test_judgment_with_a_policy_file(evidence, tmp_path):
    policy = tmp_path / "policy.json"
    policy.write_text('{"version": "judge-1", "threshold": 0.9, "exact": false}')
    assert main(["check", "--contract", "judgment", "--policy", str(policy), evidence(b'{"score": 0.85}')]) == 1
    assert main(["check", "--contract", "judgment", "--policy", str(policy), evidence(b'{"score": 0.95}')]) == 0
