# SPDX-License-Identifier: MIT
"""``scorecontract demo``: the seed's table, naive gate beside strict gate.

The cases are written out here as the demo's labels promise them, and the
naive gate is this file's own, so the table is checked against an
independent copy rather than against the demo's internals.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from scorecontract import Verdict, evaluate
from scorecontract._cli import main
from support import SRC

_LABELS = [
    '{"score": NaN}',
    '{"score": 1e400}',
    '{"score": true}',
    '{"score": 0.1, "score": 0.9}',
    '{"score": 0.1, "\\u0073core": 0.9}',
    '{"score": 0.9} as UTF-16',
    '{"score": 1.5}',
    '{"score": -Infinity}',
    '{"score": "0.9"}',
    '{"score": null}',
    '{"score": 0.9}',
    '{"score": 0.7}',
]
# (the row's label, the evidence it stands for): each label is its own
# bytes, but for the one UTF-16 case (with its byte-order mark).
CASES = [
    (label, b"\xff\xfe" + label[: -len(" as UTF-16")].encode("utf-16-le"))
    if label.endswith(" as UTF-16")
    else (label, label.encode())
    for label in _LABELS
]


def naive_gate(raw):
    """What the demo's first line says the naive gate is."""
    try:
        score = json.loads(raw)["score"]
        return "FAIL" if score < 0.8 else "PASS"
    except Exception as exc:
        return f"crash ({type(exc).__name__})"


@pytest.fixture
def table(capsys):
    status = main(["demo"])
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
    # The rows are exactly the cases: between the header and the summary.
    header = next(number for number, line in enumerate(table) if line.startswith("evidence  "))
    assert len(table) == header + 1 + len(CASES) + 2 and table[-2] == ""
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


def test_the_naive_gate_is_the_naive_one(table):
    # The demo's naive gate must really be json.loads + "score < 0.8".
    assert table[0] == 'naive gate: score = json.loads(raw)["score"]; FAIL if score < 0.8 else PASS'
    width = table[3].index("naive gate")
    for label, raw in CASES:
        naive = next(line for line in table if line.startswith(label + "  "))[width:]
        assert naive.startswith(naive_gate(raw) + "  "), (label, naive)


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
    assert main(["--help"]) == 0
    assert "demo" in capsys.readouterr().out
