# SPDX-License-Identifier: MIT
"""check --contract judgment honours the provenance options, never ignores them."""

from __future__ import annotations

import hashlib
import json

import pytest

from scorecontract import sign
from scorecontract._cli import main

KEY = hashlib.sha256(b"judge key").hexdigest().encode()
JUDGMENT = {"pass": True, "score": 0.9, "reason": "fine", "candidate": "model-a", "run_id": "r1"}


@pytest.fixture
def files(tmp_path):
    key = tmp_path / "key"
    key.write_bytes(KEY)
    key.chmod(0o600)

    def write(record, *, signed_with=KEY):
        path = tmp_path / "judgment.json"
        data = json.dumps(record).encode()
        path.write_bytes(data)
        (tmp_path / "judgment.json.sig").write_text(sign(data, key=signed_with))
        return str(path)

    return str(key), write


def run(*args):
    return main(["check", "--contract", "judgment", *args])


def test_bound_and_signed_judgment_passes(files, capsys):
    key, write = files
    path = write(JUDGMENT)
    assert run("--candidate", "model-a", "--run-id", "r1", "--key-file", key, path) == 0


@pytest.mark.parametrize(
    "change, args, code",
    [
        ({"candidate": "model-b"}, ["--candidate", "model-a"], "candidate-mismatch"),
        ({"candidate": None}, ["--candidate", "model-a"], "candidate-mismatch"),
        ({}, ["--candidate", "Model-A"], "candidate-mismatch"),
        ({"run_id": "r0"}, ["--candidate", "model-a", "--run-id", "r1"], "run-id-mismatch"),
    ],
)
def test_binding_is_checked_for_judgments(files, change, args, code, capsys):
    key, write = files
    path = write({**JUDGMENT, **change})
    assert run(*args, path) == 3
    assert capsys.readouterr().out.startswith(f"GRADER_ERROR {code}: ")


def test_missing_candidate_member(files, capsys):
    key, write = files
    record = dict(JUDGMENT)
    del record["candidate"]
    assert run("--candidate", "model-a", write(record)) == 3
    assert capsys.readouterr().out.startswith("GRADER_ERROR missing-candidate: ")


def test_negation_does_not_turn_a_binding_failure_into_a_pass(files, capsys):
    key, write = files
    path = write({**JUDGMENT, "pass": False, "candidate": "model-b"})
    assert run("--negate", "--candidate", "model-a", path) == 3


def test_signature_is_checked_for_judgments(files, tmp_path, capsys):
    key, write = files
    path = write(JUDGMENT, signed_with=hashlib.sha256(b"other").hexdigest().encode())
    assert run("--key-file", key, path) == 3
    assert capsys.readouterr().out.startswith("GRADER_ERROR key-id-mismatch: ")


def test_policy_requiring_a_candidate_applies_to_judgments(files, tmp_path, capsys):
    key, write = files
    policy = tmp_path / "policy.json"
    policy.write_text('{"version": "j1", "threshold": 0.5, "exact": false, "require_candidate": true}')
    assert run("--policy", str(policy), write(JUDGMENT)) == 2
    assert run("--policy", str(policy), "--candidate", "model-a", write(JUDGMENT)) == 0
