# SPDX-License-Identifier: MIT
"""Bounds over scores near the ends of the doubles: a verdict, never an internal error.

An outside review: scores of 1e200 under an unbounded policy have a
variance of 1e400, and ``math.sqrt`` of it raised ``OverflowError`` (exit
70); an exact 1E+999 gave a lower bound of -inf that no JSON receipt could
hold.  Each case is decided, and every output and receipt is written.
"""

from __future__ import annotations

import json

import pytest

from scorecontract import Policy, Verdict, loads, report
from support import run_main


def trials(scores):
    return "".join(f'{{"trial_id": "t{i}", "score": {s}}}\n' for i, s in enumerate(scores)).encode()


CASES = {
    "floats of 1e200": (["1e200", "-1e200", "1.7e308"], False),
    "exact 1E+999": (["1E+999", "-1E+999"], True),
    "floats of 1e300": (["-1e300", "1e300"], False),
}


def policy_file(tmp_path, exact):
    path = tmp_path / "unbounded.json"
    path.write_text(json.dumps({"version": "unbounded", "threshold": 0, "min": None, "max": None, "exact": exact}))
    return path


@pytest.mark.parametrize("scores, exact", CASES.values(), ids=CASES.keys())
def test_the_api_decides(scores, exact):
    policy = Policy(0, minimum=None, maximum=None, exact=exact)
    result = report(trials(scores), scheduled=len(scores), policy=policy, confidence=0.95)
    assert result.verdict is Verdict.FAIL
    interval = result.mean.interval
    assert interval.bound < 0 and interval.method == "asymptotic-t"
    fields = interval.as_dict()
    json.dumps(fields, allow_nan=False)  # JSON-ready: an infinity is None


@pytest.mark.parametrize("output", ["text", "json", "markdown", "github"])
@pytest.mark.parametrize("scores, exact", CASES.values(), ids=CASES.keys())
def test_every_output_and_the_receipt_are_written(scores, exact, output, tmp_path):
    receipt = tmp_path / "receipt.json"
    done = run_main(
        "report",
        "--scheduled",
        str(len(scores)),
        "--policy",
        str(policy_file(tmp_path, exact)),
        "--confidence",
        "0.95",
        "--format",
        output,
        "--receipt",
        str(receipt),
        "--junit-xml",
        str(tmp_path / "junit.xml"),
        "--",
        "-",
        stdin=trials(scores),
    )
    assert done.returncode == 1, done.stderr
    assert b"internal error" not in done.stderr
    assert loads(receipt.read_bytes())["verdict"] == "FAIL"
    assert (tmp_path / "junit.xml").stat().st_size > 0
