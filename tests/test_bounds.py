# SPDX-License-Identifier: MIT
"""The bounds behind ``_bounds.REGISTRY``: the table, each bound against its reference, the default.

The reference values are each bound's formula in 50-digit mpmath, from the
scores' decimal text (tests/data/bounds-reference.json, made by
tools/bounds/make_bounds_reference.py); every bound must be at or below
its reference (a lower bound, rounded against PASS) and within 1e-12 of it.
"""

from __future__ import annotations

import importlib
import json
from decimal import Decimal
from pathlib import Path

import pytest

from scorecontract import Policy, PolicyError, Verdict, loads, report
from scorecontract._bound_rules import bound_names
from scorecontract._bounds import REGISTRY, default_bound
from scorecontract._bounds._empirical_bernstein import empirical_bernstein_bound
from scorecontract._bounds._hoeffding import hoeffding_bound
from scorecontract._bounds._paired import paired_bound
from scorecontract._stats import Sums
from support import CorpusMissing, run_main

REFERENCE = Path(__file__).parent / "data" / "bounds-reference.json"


def _cases():
    cases = json.loads(REFERENCE.read_text())["cases"]
    if len(cases) < 10:
        raise CorpusMissing(f"only {len(cases)} reference bounds in {REFERENCE}")
    return cases


def _scores(runs):
    return [Decimal(score) for score, count in runs for _ in range(count)]


def _computed(case):
    confidence = Decimal(case["confidence"])
    side, low, high = case["side"], Decimal(case["minimum"]), Decimal(case["maximum"])
    if case["kind"] == "eb-clusters":
        clusters = [[Decimal(s) for s in cluster] for cluster in case["scores"]]
        flat = [s for cluster in clusters for s in cluster]
        return empirical_bernstein_bound(
            Sums.of(flat),
            confidence=confidence,
            minimum=low,
            maximum=high,
            side=side,
            clusters=[(len(c), sum(c)) for c in clusters],
        )
    scores = _scores(case["scores"])
    if case["kind"] == "eb-paired":
        # Any candidate and baseline with these differences: baseline 0.5.
        candidate = [Decimal("0.5") + d for d in scores]
        return paired_bound(
            Sums.of(scores),
            confidence=confidence,
            candidate=Sums.of(candidate),
            baseline=Sums.of([Decimal("0.5")] * len(scores)),
            side=side,
            bound="empirical-bernstein",
            minimum=low,
            maximum=high,
        )
    if case["kind"] == "hoeffding":
        return hoeffding_bound(Sums.of(scores), confidence=confidence, minimum=low, maximum=high, side=side)
    return empirical_bernstein_bound(Sums.of(scores), confidence=confidence, minimum=low, maximum=high, side=side)


@pytest.mark.parametrize("name", list(_cases()))
def test_each_bound_matches_its_reference_rounded_against_pass(name):
    case = _cases()[name]
    bound = _computed(case)
    expected = Decimal(case["bound"])
    method = {"cp": "clopper-pearson", "hoeffding": "hoeffding"}.get(case["kind"], "empirical-bernstein")
    assert bound.method == method and bound.side == case["side"]
    exact = Decimal(bound.bound)
    if case["side"] == "lower":
        assert exact <= expected
    else:
        assert exact >= expected
    # 1e-12 for the decimal bounds; Clopper-Pearson is found to 40 bits
    # (docs/reports.md, "Precision and rounding").
    tolerance = Decimal("1e-6") if case["kind"] == "cp" else Decimal("1e-12")
    assert abs(exact - expected) <= tolerance * max(1, abs(expected))


# -- the registry ---------------------------------------------------------------------


def test_every_registered_bound_is_a_module_that_states_what_it_applies_to():
    assert len(REGISTRY) >= 4
    for name, (module, applies, guarantee, needs, text) in REGISTRY.items():
        loaded = importlib.import_module(f"scorecontract._bounds.{module}")
        assert loaded.__all__, name
        assert set(applies) <= {"mean", "pass-rate", "paired", "clustered"} and applies, name
        assert guarantee in ("finite-sample", "asymptotic") and needs in ("", "bounded") and text, name
    # --bound's choices are the bounds on a mean, and the asymptotic one says so in its name.
    assert bound_names() == tuple(name for name, entry in REGISTRY.items() if "mean" in entry[1])
    for name in bound_names():
        assert (REGISTRY[name][2] == "asymptotic") is ("asymptotic" in name)


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
    assert default_bound(minimum, maximum) == expected
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
    means = [Decimal(s) for s in ("0.9", "0.825", "0.675", "0.95", "0.725")]
    alone = empirical_bernstein_bound(Sums.of(means), confidence=0.95, minimum=0, maximum=1)
    assert interval.bound == alone.bound
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


@pytest.mark.parametrize("name", list(REGISTRY) + ["_clustered", "_paired"])
def test_the_examples_in_each_bound_module_run(name):
    import doctest

    module = importlib.import_module(f"scorecontract._bounds.{REGISTRY[name][0] if name in REGISTRY else name}")
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0
