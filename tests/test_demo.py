# SPDX-License-Identifier: MIT
"""``scorecontract demo``: the seed's table, naive gate beside strict gate."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import scorecontract._cli._main as cli
from scorecontract import Verdict, evaluate
from scorecontract._cli._demo import CASES, naive_gate
from support import SRC


@pytest.fixture
def table(capsys):
    status = cli.main(["demo"])
    out, err = capsys.readouterr()
    assert status == 0 and err == ""
    return out.splitlines()


def row(table, label):
    rows = [line for line in table if line.startswith(label + "  ")]
    if len(rows) != 1:
        raise AssertionError(f"{len(rows)} rows for {label!r}")
    return rows[0].split()


def test_every_case_has_a_row_with_the_real_strict_verdict(table):
    assert len(CASES) >= 10
    for label, raw in CASES:
        decision = evaluate(raw)
        text = " ".join(row(table, label))
        expected = decision.verdict.value
        if decision.verdict is Verdict.INVALID:
            expected += f" {decision.code}"
        assert f"{naive_gate(raw)} {expected}" in text, (label, text)


@pytest.mark.parametrize(
    "label", ['{"score": NaN}', '{"score": 1e400}', '{"score": true}', '{"score": 0.1, "score": 0.9}']
)
def test_the_seeds_counterexamples_fool_the_naive_gate_only(table, label):
    raw = dict(CASES)[label]
    assert naive_gate(raw) == "PASS"
    assert evaluate(raw).verdict is Verdict.INVALID
    assert "<- naive gate releases invalid evidence" in " ".join(row(table, label))


def test_the_naive_gate_is_the_naive_one():
    # The demo's naive gate must really be json.loads + "score < 0.8".
    for _, raw in CASES:
        try:
            score = json.loads(raw)["score"]
            expected = "FAIL" if score < 0.8 else "PASS"
        except Exception as exc:
            expected = f"crash ({type(exc).__name__})"
        assert naive_gate(raw) == expected


def test_honest_evidence_agrees(table):
    assert row(table, '{"score": 0.9}')[-2:] == ["PASS", "PASS"]
    assert row(table, '{"score": 0.7}')[-2:] == ["FAIL", "FAIL"]


def test_summary_counts(table):
    naive_passes = sum(naive_gate(raw) == "PASS" for _, raw in CASES)
    bad = sum(naive_gate(raw) == "PASS" and evaluate(raw).verdict is Verdict.INVALID for _, raw in CASES)
    strict_passes = sum(evaluate(raw).verdict is Verdict.PASS for _, raw in CASES)
    assert strict_passes == 1 and bad >= 4
    assert table[-1] == (
        f"naive gate: {naive_passes} PASS, {bad} of them on invalid evidence; strict gate: {strict_passes} PASS."
    )


def test_demo_into_head_has_no_traceback():
    result = subprocess.run(
        [
            "bash",
            "-c",
            'python3_=$1; PYTHONPATH=$2 "$python3_" -m scorecontract demo | head -1; echo "status=${PIPESTATUS[0]}"',
            "sh",
            sys.executable,
            str(SRC),
        ],
        capture_output=True,
        timeout=120,
    )
    assert result.stdout.splitlines()[0].startswith(b"naive gate: ")
    # Whether head leaves before the last line is written is a race: if
    # every line reached the pipe the status is 0; if one could not be
    # written it is 74, never 0, and said in one line.  Never a traceback.
    status = result.stdout.splitlines()[-1]
    assert status in (b"status=0", b"status=74")
    if status == b"status=0":
        assert result.stderr == b""
    else:
        assert result.stderr.count(b"\n") == 1 and b"could not be written" in result.stderr


def test_demo_is_listed_in_help(capsys):
    assert cli.main(["--help"]) == 0
    assert "demo" in capsys.readouterr().out
