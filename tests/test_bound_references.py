# SPDX-License-Identifier: MIT
"""The gate's bounds against vendored references from scipy, statsmodels and mpmath.

tests/data/bounds/*.json were computed once by tools/bounds/make_references.py
(the command and the library versions are in each file): each case gives
the inputs, the library's double, and the same bound at 25 digits from
mpmath (``bound``), which the script checked against the library.  Neither
library is a dependency: the suite reads the JSON.

Each bound is asked of ``report()``, as the gate asks for it, and must be

- never less conservative than the reference: a lower bound at or below
  it, an upper bound at or above it (compared exactly in decimal; the
  reference's 25 digits are far closer to the exact value than the
  package's rounding against PASS);
- within a stated tolerance of it: Student t, clustered and paired bounds
  within 2e-9 of their width (the t quantile's relative raise of 2**-30)
  plus the double's rounding; Clopper-Pearson within a relative 2**-39 of
  the bound (40 significant bits) up to 2,000 trials, where its tails are
  exact integer sums, and within a relative 1e-8 above, where they are
  floating point (measured: up to 6.3e-9 at 2,001 trials, about 27 bits).
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from scorecontract import Policy, report
from support import ROOT, CorpusMissing

DATA = ROOT / "tests" / "data" / "bounds"
T_TOLERANCE = Decimal("2e-9")  # of the width
CP_TOLERANCE = Decimal(2) ** -39  # of the bound, up to CP_EXACT_TRIALS
CP_FLOAT_TOLERANCE = Decimal("1e-8")  # of the bound, above
CP_EXACT_TRIALS = 2000
ROUNDING = Decimal("1e-15")  # the final double, relative to the bound's magnitude


def cases(name):
    document = json.loads((DATA / name).read_text(encoding="utf-8"))
    if document.get("made_by") != "tools/bounds/make_references.py" or not document.get("command"):
        raise CorpusMissing(f"{name} does not say how it was made")
    found = document["cases"]
    if not found:
        raise CorpusMissing(f"{name} holds no cases")
    return found


def each_bound(name):
    return [
        pytest.param(case, bound, id=f"{case['name']}-{bound['side']}-{bound['confidence']}")
        for case in cases(name)
        for bound in case["bounds"]
    ]


def lines(scores, clusters=None):
    if clusters is None:
        return "".join(f'{{"trial_id": "t{i}", "score": {s}}}\n' for i, s in enumerate(scores)).encode()
    return "".join(
        f'{{"trial_id": "t{i}", "score": {s}, "cluster": {c}}}\n' for i, (s, c) in enumerate(zip(scores, clusters))
    ).encode()


def policy(side):
    # Unbounded scores (the Wikipedia example scores up to 9); the side of
    # the mean's bound follows the direction.
    return Policy(0.5, minimum=None, maximum=None, direction="lower" if side == "upper" else "higher")


def assert_conservative_and_close(got, reference, width, side):
    got, reference = Decimal(got), Decimal(reference)
    gap = reference - got if side == "lower" else got - reference
    assert gap >= 0, f"{got} is less conservative than the reference {reference}"
    assert gap <= T_TOLERANCE * Decimal(width) + ROUNDING * (abs(reference) + 1), (got, reference)


def test_every_reference_file_records_its_command_and_versions():
    names = sorted(path.name for path in DATA.glob("*.json"))
    assert names == ["clopper-pearson.json", "clustered.json", "formulas.json", "paired.json", "student-t.json"]
    for name in names:
        document = json.loads((DATA / name).read_text(encoding="utf-8"))
        # formulas.json: each finite-sample bound's own formula in mpmath;
        # the others: the asymptotic and exact bounds as scipy and statsmodels give them.
        generator = "make_formula_references.py" if name == "formulas.json" else "make_references.py"
        assert document["command"] == f"python tools/bounds/{generator}"
        needed = {"mpmath"} if name == "formulas.json" else {"scipy", "statsmodels", "mpmath"}
        assert needed <= set(document["versions"])
        assert (ROOT / "tools" / "bounds" / generator).is_file()


@pytest.mark.parametrize(
    "case", cases("clopper-pearson.json"), ids=lambda c: f"{c['successes']}-of-{c['trials']}-{c['confidence']}"
)
def test_clopper_pearson_matches_scipy_and_statsmodels(case):
    k, n = case["successes"], case["trials"]
    result = report(
        lines(["1"] * k + ["0"] * (n - k)),
        scheduled=n,
        threshold=0.5,
        confidence=Decimal(case["confidence"]),
        metric="pass-rate",
        min_pass_rate=0.5,
    )
    interval = result.pass_rate.interval
    assert interval.method == "clopper-pearson" and interval.n == n and interval.side == case["side"] == "lower"
    got, reference = Decimal(interval.bound), Decimal(case["bound"])
    assert got <= reference, f"{got} is above the exact lower bound {reference}"
    tolerance = CP_TOLERANCE if n <= CP_EXACT_TRIALS else CP_FLOAT_TOLERANCE
    assert reference - got <= tolerance * reference, (got, reference)
    if k == 0:
        assert got == 0


@pytest.mark.parametrize("case, bound", each_bound("student-t.json"))
def test_the_mean_bound_is_student_t_as_scipy_computes_it(case, bound):
    scores = case["scores"]
    result = report(
        lines(scores),
        scheduled=len(scores),
        policy=policy(bound["side"]),
        confidence=Decimal(bound["confidence"]),
        bound="asymptotic-t",
    )
    interval = result.mean.interval
    assert interval.method == "asymptotic-t" and interval.side == bound["side"] and interval.n == len(scores)
    assert_conservative_and_close(interval.bound, bound["bound"], bound["width"], bound["side"])


@pytest.mark.parametrize("case, bound", each_bound("clustered.json"))
def test_the_clustered_bound_is_statsmodels_cluster_with_t_of_g_minus_1(case, bound):
    scores, clusters = case["scores"], case["clusters"]
    result = report(
        lines(scores, clusters),
        scheduled=len(scores),
        policy=policy(bound["side"]),
        confidence=Decimal(bound["confidence"]),
        bound="asymptotic-t",
        cluster_by="cluster",
    )
    interval = result.mean.interval
    assert interval.method == "asymptotic-t" and interval.clusters == len(set(clusters))
    assert interval.se == pytest.approx(float(bound["se"]), rel=1e-12)
    assert interval.se == pytest.approx(bound["statsmodels_se"], rel=1e-9)
    assert_conservative_and_close(interval.bound, bound["bound"], bound["width"], bound["side"])


@pytest.mark.parametrize("case, bound", each_bound("paired.json"))
def test_the_paired_bound_is_scipy_ttest_rel(case, bound):
    candidate, baseline = case["candidate"], case["baseline"]
    result = report(
        lines(candidate),
        scheduled=len(candidate),
        policy=policy(bound["side"]),
        confidence=Decimal(bound["confidence"]),
        bound="asymptotic-t",
        baseline=lines(baseline),
        max_regression=1,
    )
    interval = result.regression.interval
    assert interval.side == bound["side"] and interval.n == len(candidate)
    assert interval.unpaired_se == pytest.approx(float(bound["unpaired_se"]), rel=1e-12)
    assert_conservative_and_close(interval.bound, bound["bound"], bound["width"], bound["side"])
