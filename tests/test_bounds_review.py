# SPDX-License-Identifier: MIT
"""Regression tests for the bounds review (findings-bounds/README.md)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from scorecontract import Policy, Verdict, report


def _lines(rows: list[tuple[object, str]]) -> bytes:
    return b"".join(
        json.dumps({"trial_id": f"t-{i}", "score": score, "q": cluster}).encode() + b"\n"
        for i, (score, cluster) in enumerate(rows)
    )


def _one_big_failing_cluster(small: int, big: int) -> list[tuple[object, str]]:
    return [(1, f"small-{g}") for g in range(small)] + [(0, "big")] * big


def test_a_large_failing_cluster_cannot_pass_a_trial_mean_below_the_threshold() -> None:
    # 60 one-trial clusters at 1 beside one cluster of 200 trials at 0: the
    # trial mean is 60/260, the mean of the cluster means 60/61.  The gate
    # compares the trial mean with the threshold, so its bound must be on it.
    data = _lines(_one_big_failing_cluster(60, 200))
    result = report(data, scheduled=260, threshold=0.5, confidence=0.95, cluster_by="q")
    interval = result.mean.interval
    assert result.verdict is Verdict.FAIL
    assert interval.method == "empirical-bernstein" and interval.clusters == 61
    assert interval.estimate == 60 / 260
    assert interval.bound <= 60 / 260


def test_a_large_regressing_cluster_cannot_pass_the_paired_gate(tmp_path: object) -> None:
    rows = [(1, f"small-{g}") for g in range(600)] + [(1, "big")] * 2000
    baseline = _lines(rows)
    candidate = _lines(_one_big_failing_cluster(600, 2000))

    base = Path(str(tmp_path)) / "baseline.jsonl"
    base.write_bytes(baseline)
    result = report(candidate, scheduled=2600, baseline=base, max_regression=0.05, confidence=0.95, cluster_by="q")
    assert result.verdict is Verdict.FAIL
    interval = result.regression.interval
    assert interval.clusters == 601 and interval.bound <= -2000 / 2600


def test_equal_cluster_sizes_keep_the_bound_over_the_cluster_means() -> None:
    scores = [1, 1, 0.9, 0.7, 0.6, 0.8, 0.9, 1, 0.4, 0.9, 0.8, 0.6, 1, 1, 0.95, 0.85, 0.5, 0.7, 0.9, 0.8]
    data = _lines([(s, f"q{i // 4}") for i, s in enumerate(scores)])
    interval = report(data, scheduled=20, threshold=0.5, confidence=0.95, cluster_by="q").mean.interval
    # The five cluster means, taken as five independent trials.
    means = _lines([(s, f"m{i}") for i, s in enumerate((0.9, 0.825, 0.675, 0.95, 0.725))])
    alone = report(means, scheduled=5, threshold=0.5, confidence=0.95).mean.interval
    assert alone.method == interval.method == "empirical-bernstein"
    assert interval.bound == alone.bound


def test_an_underflowing_gap_is_no_estimate_of_trials_needed() -> None:
    # Scores of 1E-999 under an exact policy: the gap to the threshold is
    # below the doubles; "would need about 1 trials" for 3 trials that
    # fail was the old message.
    policy = Policy(0, minimum=Decimal("-1E-999"), maximum=Decimal("1E-999"), exact=True)
    data = (
        b'{"trial_id": "t-1", "score": 1E-999}\n{"trial_id": "t-2", "score": 1E-999}\n{"trial_id": "t-3", "score": 0}\n'
    )
    result = report(data, scheduled=3, policy=policy, confidence=0.95)
    assert result.verdict is Verdict.FAIL
    assert result.mean.interval.trials_needed is None
    assert "about 1 trials" not in result.message
