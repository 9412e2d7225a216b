# SPDX-License-Identifier: MIT
"""The mean's asymptotic bound uses Student t: a handful of trials no longer PASSes.

Issue 21's measured cases, through ``report()`` and the command line.
"""

from __future__ import annotations

import json

import pytest

from scorecontract import Verdict, report
from support import run_main


def trials(scores):
    return "".join(json.dumps({"trial_id": f"t{i}", "score": s}) + "\n" for i, s in enumerate(scores)).encode()


# name -> (scores, threshold, verdict, bound shown)
CASES = {
    # z = 1.645 gave 0.884 and a PASS from two numbers; t(1) = 6.314 gives 0.767.
    "two trials 0.9 and 0.95": ([0.9, 0.95], 0.8, Verdict.FAIL, "0.767156"),
    # Three trials: t(2) = 2.920 gives 0.8157; z gave 0.8525 and a PASS at 0.85.
    "three trials": ([0.85, 0.9, 0.95], 0.85, Verdict.FAIL, "0.815707"),
    # Many trials: t is close to z and a clear PASS stays a PASS.
    # 0.925 - t(99) * 0.0025126 = 0.925 - 1.660391 * 0.0025126.
    "a hundred trials": ([0.9, 0.95] * 50, 0.8, Verdict.PASS, "0.920828"),
}


@pytest.mark.parametrize("scores, threshold, verdict, shown", CASES.values(), ids=CASES.keys())
def test_the_api_decides_on_the_t_bound(scores, threshold, verdict, shown):
    result = report(trials(scores), scheduled=len(scores), threshold=threshold, confidence=0.95, bound="asymptotic-t")
    assert result.verdict is verdict
    assert result.mean.interval.method == "asymptotic-t"
    assert f"95% lower bound (asymptotic-t) {shown} (n={len(scores)}" in result.message
    # The finite-sample default never PASSes where the asymptotic bound FAILs.
    default = report(trials(scores), scheduled=len(scores), threshold=threshold, confidence=0.95)
    assert default.mean.interval.method == "empirical-bernstein"
    assert default.mean.interval.bound <= result.mean.interval.bound


@pytest.mark.parametrize("scores, threshold, verdict, shown", CASES.values(), ids=CASES.keys())
def test_the_command_line_decides_on_the_t_bound(scores, threshold, verdict, shown):
    done = run_main(
        "report",
        "--scheduled",
        str(len(scores)),
        "--threshold",
        str(threshold),
        "--confidence",
        "0.95",
        "--bound",
        "asymptotic-t",
        "--",
        "-",
        stdin=trials(scores),
    )
    assert done.returncode == (0 if verdict is Verdict.PASS else 1)
    assert f"95% lower bound (asymptotic-t) {shown}".encode() in done.stdout
