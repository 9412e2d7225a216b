# SPDX-License-Identifier: MIT
"""The bounds a report decides on, through ``report()`` and the command line.

The default is finite-sample whenever the policy bounds the scores; issue
21's cases under it; clusters and pairs; no internal error at the ends of
the doubles.  Each bound against its 50-digit reference, and the registry
of bound modules, are white-box and live in tests/test_stats.py.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from scorecontract import Policy, PolicyError, Verdict, loads, report
from support import run_main


@pytest.mark.parametrize(
    "minimum, maximum, expected",
    [
        (0, 1, "empirical-bernstein"),
        (Decimal("-1E+999"), Decimal("1E+999"), "empirical-bernstein"),  # finite, beyond the doubles
        (None, 1, "asymptotic-t"),
        (0, None, "asymptotic-t"),
    ],
    ids=["[0, 1]", "exact 1E+999", "no minimum", "no maximum"],
)
def test_the_default_is_finite_sample_whenever_the_scores_are_bounded(minimum, maximum, expected):
    policy = Policy(0, minimum=minimum, maximum=maximum, exact=type(minimum) is Decimal)
    result = report(
        b'{"trial_id": "a", "score": 0.5}\n{"trial_id": "b", "score": 0.25}\n',
        scheduled=2,
        policy=policy,
        confidence=0.95,
    )
    assert result.bound == expected


def test_the_old_name_is_refused_with_the_new_one():
    with pytest.raises(PolicyError) as info:
        Policy(0.8, confidence=0.95, bound="clt")
    assert info.value.code == "bad-policy" and "'asymptotic-t'" in info.value.message


# -- issue 21's cases, under the default ---------------------------------------------


def jsonl(scores):
    return "".join(json.dumps({"trial_id": f"t{i}", "score": s}) + "\n" for i, s in enumerate(scores)).encode()


def test_29_ones_and_a_zero_take_the_exact_bound_and_fail_0_9():
    # The CLT said 0.912 and PASSed 0.9; the exact bound for 29 of 30 is 0.851.
    result = report(jsonl([1] * 29 + [0]), scheduled=30, threshold=0.9, confidence=0.95)
    assert result.verdict is Verdict.FAIL
    interval = result.mean.interval
    assert interval.method == "clopper-pearson" and abs(interval.bound - 0.851404) < 1e-6
    assert "(clopper-pearson) 0.851403" in result.message


def test_two_trials_never_pass_on_the_default():
    result = report(jsonl([0.9, 0.95]), scheduled=2, threshold=0.8, confidence=0.95)
    assert result.verdict is Verdict.FAIL and result.mean.interval.method == "empirical-bernstein"
    assert result.mean.interval.bound == 0.0  # clipped to the policy's minimum


def _five_clusters_of_four():
    scores = [1, 1, 0.9, 0.7, 0.6, 0.8, 0.9, 1, 0.4, 0.9, 0.8, 0.6, 1, 1, 0.95, 0.85, 0.5, 0.7, 0.9, 0.8]
    return b"".join(
        json.dumps({"trial_id": f"t{i}", "q": f"q{i // 4}", "score": s}).encode() + b"\n" for i, s in enumerate(scores)
    )


def test_clusters_decide_on_the_cluster_means():
    data = _five_clusters_of_four()
    result = report(data, scheduled=20, threshold=0.5, confidence=0.95, cluster_by="q")
    interval = result.mean.interval
    assert interval.method == "empirical-bernstein" and interval.clusters == 5 and interval.n == 20
    # The same bound as over the five cluster means taken as five trials.
    means = [0.9, 0.825, 0.675, 0.95, 0.725]
    alone = report(jsonl(means), scheduled=5, threshold=0.5, confidence=0.95).mean.interval
    assert alone.method == "empirical-bernstein" and interval.bound == alone.bound
    assert "5 clusters" in result.message
    asymptotic = report(data, scheduled=20, threshold=0.5, confidence=0.95, cluster_by="q", bound="asymptotic-t")
    assert asymptotic.mean.interval.clusters == 5 and asymptotic.mean.interval.bound > interval.bound


def test_one_cluster_is_insufficient():
    data = b"".join(json.dumps({"trial_id": f"t{i}", "q": "q", "score": i / 4}).encode() + b"\n" for i in range(4))
    for bound in ("empirical-bernstein", "asymptotic-t"):
        result = report(data, scheduled=4, threshold=0, confidence=0.95, cluster_by="q", bound=bound)
        assert (result.verdict, result.code) == (Verdict.INVALID, "insufficient-trials")
        assert "at least 2" in result.message


def test_the_paired_default_is_finite_sample_and_keeps_the_unpaired_se():
    fixtures = Path(__file__).parent.parent / "fixtures" / "reports"
    result = report(
        fixtures / "candidate.jsonl",
        scheduled=30,
        baseline=fixtures / "baseline.jsonl",
        max_regression=0.05,
        confidence=0.95,
    )
    interval = result.regression.interval
    assert interval.method == "empirical-bernstein" and interval.unpaired_se > 0
    asymptotic = report(
        fixtures / "candidate.jsonl",
        scheduled=30,
        baseline=fixtures / "baseline.jsonl",
        max_regression=0.05,
        confidence=0.95,
        bound="asymptotic-t",
    )
    assert interval.bound < asymptotic.regression.interval.bound
    assert result.verdict is Verdict.FAIL and asymptotic.verdict is Verdict.PASS


# -- no internal error at the ends of the doubles (issue 21, item 6) ------------------------


CASES = {
    "floats of 1e200, bounds 1e300": (["1e200", "-1e200", "1.5e200"], -1e300, 1e300, False),
    "exact 1E+999, finite bounds": (["1E+999", "-1E+999", "5E+998"], "-1E+999", "1E+999", True),
    "two-valued at 1E+999": (["1E+999", "-1E+999", "1E+999"], "-1E+999", "1E+999", True),
}


@pytest.mark.parametrize("scores, low, high, exact", CASES.values(), ids=CASES.keys())
@pytest.mark.parametrize("bound", ["empirical-bernstein", "hoeffding", "asymptotic-t"])
def test_huge_bounded_scores_decide_and_every_receipt_loads(scores, low, high, exact, bound, tmp_path):
    policy = tmp_path / "policy.json"
    policy.write_text(
        '{"version": "huge", "threshold": 0, "min": %s, "max": %s, "exact": %s}'
        % (low, high, "true" if exact else "false")
    )
    data = "".join(f'{{"trial_id": "t{i}", "score": {s}}}\n' for i, s in enumerate(scores)).encode()
    for extra in ([], ["--baseline", str(tmp_path / "baseline.jsonl"), "--max-regression", "1"]):
        # The baseline scores the opposite: differences of twice the scores.
        flipped = [s[1:] if s.startswith("-") else "-" + s for s in scores]
        (tmp_path / "baseline.jsonl").write_bytes(
            "".join(f'{{"trial_id": "t{i}", "score": {s}}}\n' for i, s in enumerate(flipped)).encode()
        )
        if extra and bound == "hoeffding":
            continue  # refused: the paired difference has no Hoeffding bound
        for form in ("json", "text"):
            receipt = tmp_path / f"receipt-{form}-{len(extra)}.json"
            done = run_main(
                "report",
                "--scheduled",
                str(len(scores)),
                "--policy",
                str(policy),
                "--confidence",
                "0.95",
                "--bound",
                bound,
                "--format",
                form,
                "--receipt",
                str(receipt),
                *extra,
                "--",
                "-",
                stdin=data,
            )
            assert b"internal error" not in done.stderr
            assert done.returncode in (1, 3), done.stderr
            assert loads(receipt.read_bytes())["verdict"] in ("FAIL", "INVALID")
