# SPDX-License-Identifier: MIT
"""Reports that decide on confidence bounds, clustered errors and a baseline.

Each table row gives a method's inputs and what it must come to: the
estimate, the bound (to the digits its source gives) and the verdict, with
the source of every reference value.  The statistics engine has its own
tables (tests/test_stats.py); here the same numbers must come out of
``report()`` and the command line, in every output, and decide.
"""

from __future__ import annotations

import json
import pickle
import xml.etree.ElementTree as ET
from decimal import Decimal
from fractions import Fraction
from math import sqrt

import pytest

from public_support import report_cli
from scorecontract import Policy, PolicyError, Verdict, report
from scorecontract._cli import main
from support import FIXTURES

REPORTS = FIXTURES / "reports"
FLAPPING = REPORTS / "flapping.jsonl"
CLUSTERED = REPORTS / "clustered.jsonl"
CANDIDATE = REPORTS / "candidate.jsonl"
BASELINE = REPORTS / "baseline.jsonl"


def jsonl(scores, **members):
    """A trials file: one line per score, ids t01, t02, ..."""
    lines = []
    for index, score in enumerate(scores, 1):
        record = {"trial_id": f"t{index:02d}", **{k: v[index - 1] for k, v in members.items()}, "score": score}
        lines.append(json.dumps(record))
    return ("\n".join(lines) + "\n").encode("ascii")


def scores_of(path):
    return [json.loads(line)["score"] for line in path.read_text().splitlines()]


def test_the_fixtures_are_what_the_tables_say():
    # The tables below rest on these files: a test that found other data
    # would prove nothing.
    assert sorted(p.name for p in REPORTS.iterdir()) == [
        "baseline.jsonl",
        "candidate.jsonl",
        "clustered.jsonl",
        "flapping.jsonl",
    ]
    assert scores_of(FLAPPING) == [1] * 16 + [0.2] + [0] * 3
    assert len(scores_of(CLUSTERED)) == 24
    assert len(scores_of(CANDIDATE)) == len(scores_of(BASELINE)) == 30


GALLEON = [1] * 3275 + [0] * 1725  # Miller (2024): 65.5% of MATH's 5,000 questions

# name -> (scores, report() keywords) -> (estimate, bound digits, verdict, would-need or None)
TABLE = {
    # The point estimate decides without a confidence: 16.2 >= 0.8 * 20.
    "flapping, point estimate": ((FLAPPING, {"threshold": 0.8}), (0.81, None, "PASS", None)),
    # 0.81 - 1.729133 * sqrt(2.918 / 19 / 20) = 0.658477 (t(19) from any t
    # table); (t(4156) / 0.01)**2 * 0.153579 = 4156.2, so 4157 trials.
    "flapping, CLT 95%": (
        (FLAPPING, {"threshold": 0.8, "confidence": 0.95, "bound": "asymptotic-t"}),
        (0.81, "0.658477", "FAIL", 4157),
    ),
    # Hoeffding (1963), theorem 2: 0.81 - sqrt(ln 20 / 40) = 0.5363336.
    "flapping, Hoeffding 95%": (
        (FLAPPING, {"threshold": 0.5, "confidence": 0.95, "bound": "hoeffding"}),
        (0.81, "0.5363336", "PASS", None),
    ),
    # Miller (2024): SE = sqrt(0.655 * 0.345 / 4999) = 0.006723; 0.655 -
    # 1.645158 * SE = 0.643939 at 95% (t(4999)), 0.639354 at 99% (t =
    # 2.327094); t**2 * n * SE**2 / 0.015**2 with t at the n found.
    "Miller MATH, CLT 95%": (
        (GALLEON, {"threshold": 0.64, "confidence": 0.95, "bound": "asymptotic-t"}),
        (0.655, "0.643939", "PASS", None),
    ),
    "Miller MATH, CLT 99%": (
        (GALLEON, {"threshold": 0.64, "confidence": Decimal("0.99"), "bound": "asymptotic-t"}),
        (0.655, "0.639354", "FAIL", 5440),
    ),
    # Wikipedia, "Standard deviation": 2,4,4,4,5,5,7,9 has sample SD
    # sqrt(32/7); 5 - 1.894579 * sqrt(32/7/8) = 3.567833 (t(7)).
    "Wikipedia SD, CLT 95%": (
        ([2, 4, 4, 4, 5, 5, 7, 9], {"policy": Policy(3.5, maximum=10), "confidence": 0.95, "bound": "asymptotic-t"}),
        (5.0, "3.567833", "PASS", None),
    ),
    # The default for bounded scores, finite-sample: Miller's 0/1 scores are
    # a count, so the exact Clopper-Pearson bound for 3275 of 5000
    # (scipy.stats.beta.ppf(0.05, 3275, 1726) = 0.6437771), and
    # the flapping scores take the empirical Bernstein bound (its numbers
    # are checked in tests/test_bounds.py), far below the t bound at n = 20.
    "Miller MATH, default 95%": ((GALLEON, {"threshold": 0.64, "confidence": 0.95}), (0.655, "0.643777", "PASS", None)),
    "flapping, default 95%": ((FLAPPING, {"threshold": 0.8, "confidence": 0.95}), (0.81, "0.444838", "FAIL", 12306)),
    # Clopper-Pearson, R's binom.test(8, 10)$conf.int: lower 0.4439045 (the
    # two-sided 95% interval's end is the one-sided 97.5% bound).
    "R binom.test(8, 10), pass": (
        ([1] * 8 + [0] * 2, {"metric": "pass-rate", "min_pass_rate": 0.44, "confidence": Decimal("0.975")}),
        (0.8, "0.4439045", "PASS", None),
    ),
    # At the same rate 0.8 the bound first reaches 0.45 at 13 trials (the
    # engine's search; tests/test_stats.py checks it against fractions).
    "R binom.test(8, 10), fail": (
        ([1] * 8 + [0] * 2, {"metric": "pass-rate", "min_pass_rate": 0.45, "confidence": Decimal("0.975")}),
        (0.8, "0.4439045", "FAIL", 13),
    ),
    # 20 of 20: the lower bound is 0.05 ** (1/20) = 0.8608917 (closed form).
    "20 of 20, Clopper-Pearson 95%": (
        ([1] * 20, {"metric": "pass-rate", "min_pass_rate": 0.85, "confidence": 0.95}),
        (1.0, "0.8608917", "PASS", None),
    ),
    # A minimum pass rate of 1 (the default) no bound can reach.
    "20 of 20, minimum 1": (([1] * 20, {"metric": "pass-rate", "confidence": 0.95}), (1.0, "0.8608917", "FAIL", None)),
}


def _source(scores):
    return scores.read_bytes() if hasattr(scores, "read_bytes") else jsonl(scores)


@pytest.mark.parametrize("inputs, expected", TABLE.values(), ids=TABLE.keys())
def test_each_method_decides_through_report(inputs, expected):
    scores, keywords = inputs
    estimate, digits, verdict, needed = expected
    data = _source(scores)
    result = report(data, scheduled=data.count(b"\n"), **keywords)
    assert result.verdict is Verdict[verdict]
    assert result.code == ("meets-threshold" if verdict == "PASS" else "below-threshold")
    metric = result.pass_rate if keywords.get("metric") == "pass-rate" else result.mean
    assert metric.value == estimate
    if digits is None:
        assert metric.interval is None and result.confidence is None
        return
    interval = metric.interval
    assert interval is not None and interval.estimate == estimate and interval.n == data.count(b"\n")
    assert abs(Decimal(interval.bound) - Decimal(digits)) <= Decimal("5e-7")
    assert metric.meets is interval.meets is (verdict == "PASS")
    assert interval.trials_needed == needed
    if needed is not None:
        assert f"would need about {needed} trials" in result.message
    assert result.confidence == keywords["confidence"]


@pytest.mark.parametrize("inputs, expected", TABLE.values(), ids=TABLE.keys())
def test_each_method_decides_through_the_command_line(inputs, expected, tmp_path, capsys):
    scores, keywords = inputs
    estimate, digits, verdict, needed = expected
    data = _source(scores)
    path = tmp_path / "trials.jsonl"
    path.write_bytes(data)
    n = data.count(b"\n")
    argv = ["report", "--scheduled", str(n)]
    for key, value in keywords.items():
        if key == "policy":
            (tmp_path / "policy.json").write_text(
                json.dumps(
                    {
                        "version": "p",
                        "threshold": value.threshold,
                        "max": value.maximum,
                        "exact": False,
                    }
                )
            )
            argv += ["--policy", str(tmp_path / "policy.json")]
        else:
            # The library's metric (mean or pass rate) is the command's --statistic.
            flag = "--statistic" if key == "metric" else f"--{key.replace('_', '-')}"
            argv += [flag, str(value)]
    status = main(argv + [str(path)])
    out = capsys.readouterr().out
    assert status == (0 if verdict == "PASS" else 1)
    assert out.startswith(f"{verdict} ")
    if digits is not None:
        assert f"(n={n}" in out and "bound" in out


FLAP_TEXT = (
    "mean score 0.81 (16.2 / 20), 95% lower bound (asymptotic-t) 0.658476 (n=20, SE 0.0876) < threshold 0.8; "
    "would need about 4157 trials at this variance"
)


def flapping(**keywords):
    # The asymptotic bound, named: these tests check its numbers.
    keywords.setdefault("bound", "asymptotic-t")
    return report(FLAPPING, scheduled=20, threshold=0.8, confidence=0.95, **keywords)


def flapping_cli(tmp_path, *options, **outputs):
    """``scorecontract report`` on the flapping file, as flapping() decides it."""
    argv = ("--scheduled", "20", "--threshold", "0.8", *options)
    if "--confidence" in options and "--bound" not in options:  # as flapping(): the asymptotic bound, named
        argv = (*argv, "--bound", "asymptotic-t")
    return report_cli(tmp_path, FLAPPING.read_bytes(), *argv, name="flapping.jsonl", **outputs)


def test_the_flapping_message_says_it_all():
    result = flapping()
    assert result.message == FLAP_TEXT


@pytest.mark.parametrize("form", ["text", "json", "markdown", "github"])
def test_every_format_shows_estimate_bound_confidence_method_and_n(form, tmp_path):
    shown = flapping_cli(tmp_path, "--confidence", "0.95", form=form).out
    if form == "json":
        interval = json.loads(shown)["metrics"]["mean"]["interval"]
        assert interval == {
            "method": "asymptotic-t",
            "side": "lower",
            "confidence": 0.95,
            "n": 20,
            "estimate": 0.81,
            "bound": interval["bound"],
            "se": interval["se"],
            "clusters": None,
            "unpaired_se": None,
            "meets_threshold": False,
            "trials_needed": 4157,
        }
        assert abs(interval["bound"] - 0.658476) < 1e-6 and abs(interval["se"] - 0.0876296) < 1e-6
        assert json.loads(shown)["confidence"] == 0.95 and json.loads(shown)["bound"] == "asymptotic-t"
        return
    if form == "markdown":
        assert (
            "| mean score | 0.81 | 0\\.95 | asymptotic\\-t | lower | 0\\.658476 | 20 | 0\\.0876 | 0\\.8 | no |" in shown
        )
        assert "Would need about 4157 trials at this variance." in shown
        return
    if form == "github":
        shown = shown.replace("%25", "%")  # workflow_command escapes %
    assert "0.81" in shown and "95% lower bound (asymptotic-t) 0.658476 (n=20, SE 0.0876)" in shown
    assert "would need about 4157 trials at this variance" in shown


def test_junit_properties_carry_the_bound(tmp_path):
    root = ET.fromstring(flapping_cli(tmp_path, "--confidence", "0.95", junit=True).junit)
    properties = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert properties["confidence"] == "0.95"
    assert properties["mean_bound_method"] == "asymptotic-t" and properties["mean_bound_side"] == "lower"
    assert properties["mean_estimate"] == "0.81" and properties["mean_bound_n"] == "20"
    assert abs(float(properties["mean_bound"]) - 0.658476) < 1e-6
    assert abs(float(properties["mean_se"]) - 0.0876296) < 1e-6
    assert properties["mean_trials_needed"] == "4157"
    # Without a confidence, none of it.
    plain = ET.fromstring(flapping_cli(tmp_path, junit=True).junit)
    assert not [p for p in plain.iter("property") if p.get("name", "").startswith(("mean_", "confidence"))]


def test_the_receipt_holds_the_bound_and_it_is_what_decided(tmp_path):
    receipt = flapping_cli(tmp_path, "--confidence", "0.95", receipt=True).receipt
    assert receipt["confidence"] == 0.95 and receipt["bound"] == "asymptotic-t" and receipt["cluster_by"] is None
    mean = receipt["metrics"]["mean"]
    assert mean["meets_threshold"] is False and mean["interval"]["meets_threshold"] is False
    assert mean["decides"] is True
    # The same file without a confidence: no interval, and it passes.
    plain = flapping_cli(tmp_path, receipt=True).receipt
    assert plain["confidence"] is None and plain["bound"] is None
    assert plain["metrics"]["mean"]["interval"] is None and plain["verdict"] == "PASS"


def test_reports_with_bounds_stay_values():
    result = report(CANDIDATE, scheduled=30, baseline=BASELINE, max_regression=0.05, confidence=0.95)
    again = pickle.loads(pickle.dumps(result))
    assert again == result and hash(again) == hash(result)
    assert again.regression.interval == result.regression.interval
    with pytest.raises(AttributeError):
        result.mean.interval = None  # type: ignore[misc]
    with pytest.raises(AttributeError):
        result.regression.meets = True  # type: ignore[misc]


# -- rounding against PASS in what is shown --------------------------------------------


def test_a_lower_bound_is_shown_rounded_down():
    # Over every k of 40 trials, the six digits shown are never above the
    # bound: to nearest, some would be (that is what this test needs to
    # find, or it proves nothing).
    rounded_up_to_nearest = 0
    for k in range(1, 41):
        result = report(
            jsonl([1] * k + [0] * (40 - k)), scheduled=40, metric="pass-rate", min_pass_rate=0, confidence=0.95
        )
        interval = result.pass_rate.interval
        shown = Decimal(interval.shown_bound())
        assert shown <= Decimal(interval.bound)
        assert Decimal(interval.bound) - shown < Decimal("1e-5")
        if Decimal(f"{interval.bound:.6g}") > Decimal(interval.bound):
            rounded_up_to_nearest += 1
    assert rounded_up_to_nearest > 0


# -- insufficient trials --------------------------------------------------------------


@pytest.mark.parametrize("scores", [[1], [0.5] * 7, [1] * 20], ids=["n=1", "zero variance", "all pass"])
def test_the_clt_refuses_as_insufficient_trials_with_a_hint(scores):
    data = jsonl(scores)
    result = report(data, scheduled=len(scores), threshold=0.4, confidence=0.95, bound="asymptotic-t")
    assert result.verdict is Verdict.INVALID and result.code == "insufficient-trials"
    assert "empirical-bernstein" in result.message and "Clopper-Pearson" in result.message
    # The finite-sample default decides them all.
    default = report(data, scheduled=len(scores), threshold=0.4, confidence=0.95)
    assert default.deciding is True and default.mean.interval.n == len(scores)
    assert result.deciding is False and result.mean.interval is None
    # Hoeffding holds at any n, and so does Clopper-Pearson.
    assert report(data, scheduled=len(scores), threshold=0, confidence=0.95, bound="hoeffding").mean.interval.n == len(
        scores
    )
    rate = report(data, scheduled=len(scores), threshold=0.4, metric="pass-rate", min_pass_rate=0, confidence=0.95)
    assert rate.verdict is Verdict.PASS


def test_insufficient_trials_on_the_command_line_exits_3(tmp_path, capsys):
    path = tmp_path / "one.jsonl"
    path.write_bytes(jsonl([1]))
    argv = ["report", "--scheduled", "1", "--confidence", "0.95", str(path)]
    assert main(argv[:-1] + ["--bound", "asymptotic-t", str(path)]) == 3
    assert capsys.readouterr().out.startswith("INVALID insufficient-trials: ")
    # The finite-sample default decides one trial: too few to pass.
    assert main(argv) == 1
    assert capsys.readouterr().out.startswith("FAIL below-threshold: ")


def test_no_evidence_is_still_invalid_before_any_bound():
    result = report(b"", scheduled=3, confidence=0.95)
    assert result.verdict is Verdict.INVALID and result.code == "missing-evidence"
    assert result.mean.interval is None


# -- clustered standard errors ---------------------------------------------------------


def cr1_clustered_se(values, labels):
    """G / (G - 1) * sum_c E_c**2 / n**2, square-rooted: statsmodels' cluster SE of a mean.

    E_c is the sum of cluster c's residuals, computed here trial by trial
    in fractions, independently of the package's sums of sums.
    """
    n = len(values)
    mean = Fraction(sum(Fraction(repr(v)) for v in values), n)
    totals = {}
    for value, label in zip(values, labels):
        totals[label] = totals.get(label, 0) + Fraction(repr(value)) - mean
    g = len(totals)
    return sqrt(Fraction(g, g - 1) * sum(total * total for total in totals.values()) / (n * n))


def test_clustered_se_is_cr1_and_can_turn_a_pass_into_a_fail():
    records = [json.loads(line) for line in CLUSTERED.read_text().splitlines()]
    values = [r["score"] for r in records]
    labels = [r["question_id"] for r in records]
    plain = report(CLUSTERED, scheduled=24, threshold=0.7, confidence=0.95, bound="asymptotic-t")
    clustered = report(
        CLUSTERED, scheduled=24, threshold=0.7, confidence=0.95, cluster_by="question_id", bound="asymptotic-t"
    )
    assert plain.verdict is Verdict.PASS and clustered.verdict is Verdict.FAIL
    interval = clustered.mean.interval
    assert interval.method == "asymptotic-t" and interval.clusters == 8 and interval.n == 24
    assert abs(interval.se - cr1_clustered_se(values, labels)) < 1e-12
    assert interval.se > plain.mean.interval.se
    assert "8 clusters" in clustered.message and clustered.cluster_by == "question_id"
    # A JSONPath query and a JSON Pointer select the same member.
    for query in ("$.question_id", "/question_id"):
        again = report(CLUSTERED, scheduled=24, threshold=0.7, confidence=0.95, cluster_by=query, bound="asymptotic-t")
        assert again.mean.interval.se == interval.se


@pytest.mark.parametrize(
    "value, code",
    [(None, "missing-cluster"), (0.5, "bad-cluster"), (True, "bad-cluster"), ([1], "bad-cluster")],
    ids=["absent", "float", "bool", "array"],
)
def test_a_trial_without_a_readable_cluster_is_an_invalid_observation(value, code):
    lines = [json.dumps({"trial_id": f"t{i}", "q": f"q{i % 2}", "score": i / 10}) for i in range(4)]
    bad = {"trial_id": "t4", "score": 0.9}
    if value is not None:
        bad["q"] = value
    data = ("\n".join(lines + [json.dumps(bad)]) + "\n").encode()
    result = report(data, scheduled=5, threshold=0.1, confidence=0.9, cluster_by="q")
    assert result.invalid == 1 and result.invalid_by_code == {code: 1}
    assert result.invalid_observations[0].trial_id == "t4" and result.invalid_observations[0].line == 5
    # The population is incomplete, exactly as for any other invalid line.
    assert result.verdict is Verdict.INVALID and result.code == "missing-evidence"
    assert result.missing_trials == ("t4",)
    # Without clustering the same line is valid evidence.
    assert report(data, scheduled=5, threshold=0.1, confidence=0.9).valid == 5


def test_a_reruns_cluster_does_not_count():
    lines = [
        {"trial_id": "a", "q": "x", "score": 1},
        {"trial_id": "b", "q": "y", "score": 0},
        {"trial_id": "c", "q": "x", "score": 0.5},
        {"trial_id": "a", "q": "z", "score": 0},
    ]
    data = ("\n".join(json.dumps(line) for line in lines) + "\n").encode()
    result = report(data, scheduled=3, threshold=0, confidence=0.9, cluster_by="q")
    assert result.ignored == 1 and result.mean.interval.clusters == 2


def test_one_cluster_is_insufficient():
    data = jsonl([1, 0, 1], q=["x", "x", "x"])
    result = report(data, scheduled=3, threshold=0, confidence=0.9, cluster_by="q")
    assert result.verdict is Verdict.INVALID and result.code == "insufficient-trials"


# -- the paired regression gate ---------------------------------------------------------


def paired_reference():
    """Mean difference, paired SE and unpaired SE of the fixture pair, in fractions."""
    c = [Fraction(repr(v)) for v in scores_of(CANDIDATE)]
    b = [Fraction(repr(v)) for v in scores_of(BASELINE)]
    n = len(c)

    def var(xs):
        m = sum(xs) / n
        return sum((x - m) ** 2 for x in xs) / (n - 1)

    d = [x - y for x, y in zip(c, b)]
    return float(sum(d) / n), sqrt(var(d) / n), sqrt(var(c) / n + var(b) / n)


def test_paired_gate_decides_on_the_paired_bound_and_shows_the_unpaired_se():
    mean, paired_se, unpaired_se = paired_reference()
    result = report(
        CANDIDATE, scheduled=30, baseline=BASELINE, max_regression=0.05, confidence=0.95, bound="asymptotic-t"
    )
    assert result.verdict is Verdict.PASS and result.deciding_metrics == ("regression",)
    regression = result.regression
    assert regression.pairs == 30 and regression.only_candidate == regression.only_baseline == 0
    assert abs(regression.mean_difference - mean) < 1e-15
    interval = regression.interval
    assert abs(interval.se - paired_se) < 1e-12 and abs(interval.unpaired_se - unpaired_se) < 1e-12
    # 1.644854 is z at 95%: the paired bound clears -0.05, the unpaired
    # SE would not have.
    assert interval.bound <= mean - 1.6448536269514722 * paired_se
    assert interval.bound >= -0.05 > mean - 1.6448536269514722 * unpaired_se
    assert "unpaired SE" in result.message and "candidate - baseline" in result.message
    assert regression.baseline.sha256 != result.sha256


def test_paired_gate_fails_with_a_tighter_limit_and_says_what_it_would_need():
    result = report(CANDIDATE, scheduled=30, baseline=BASELINE, max_regression=0.01, confidence=0.95)
    assert result.verdict is Verdict.FAIL and result.code == "below-threshold"
    assert "< -0.01" in result.message and "would need about" in result.message


def test_paired_gate_without_confidence_compares_the_point_difference():
    # Mean difference -0.1/30 = -0.00333: at least -0.005, not at least -0.003.
    assert report(CANDIDATE, scheduled=30, baseline=BASELINE, max_regression=0.005).verdict is Verdict.PASS
    result = report(CANDIDATE, scheduled=30, baseline=BASELINE, max_regression=0.003)
    assert result.verdict is Verdict.FAIL and result.regression.interval is None
    assert result.message == "mean difference -0.00333333 (candidate - baseline, 30 pairs) < -0.003"


def test_the_same_scores_on_both_sides_are_insufficient_under_the_clt():
    # The same scores in another order: the candidate's file itself as the
    # baseline is refused (tests/test_misc_review.py).
    same = b"".join(reversed(CANDIDATE.read_bytes().splitlines(keepends=True)))
    result = report(CANDIDATE, scheduled=30, baseline=same, max_regression=0, confidence=0.95, bound="asymptotic-t")
    assert result.verdict is Verdict.INVALID and result.code == "insufficient-trials"
    assert report(CANDIDATE, scheduled=30, baseline=same, max_regression=0).verdict is Verdict.PASS


def test_a_baseline_lacking_a_trial_is_invalid_or_review():
    lines = BASELINE.read_bytes().splitlines(keepends=True)
    short = b"".join(lines[:-1])
    manifest = [f"t{i:02d}" for i in range(1, 31)]
    result = report(CANDIDATE, manifest=manifest, baseline=short, max_regression=0.05, confidence=0.95)
    assert result.verdict is Verdict.INVALID and result.code == "missing-evidence"
    assert result.message.startswith("the baseline: 1 of 30 scheduled trials lack valid evidence")
    assert result.regression.only_candidate == 1 and result.regression.only_candidate_trials == ("t30",)
    assert result.regression.baseline.missing_trials == ("t30",)
    owned = Policy(0.8, review_owner="alice")
    review = report(CANDIDATE, manifest=manifest, policy=owned, baseline=short, max_regression=0.05)
    assert review.verdict is Verdict.REVIEW


def test_a_candidate_lacking_a_trial_is_invalid_whatever_the_baseline():
    short = b"".join(CANDIDATE.read_bytes().splitlines(keepends=True)[1:])
    result = report(short, scheduled=30, baseline=BASELINE, max_regression=1)
    assert result.verdict is Verdict.INVALID and result.code == "missing-evidence"


def test_bare_counts_naming_different_trials_cannot_be_paired():
    candidate = jsonl([1, 0.5, 0])
    baseline = b'{"trial_id": "t01", "score": 1}\n{"trial_id": "t02", "score": 0.5}\n{"trial_id": "x", "score": 0}\n'
    result = report(candidate, scheduled=3, baseline=baseline, max_regression=0.1)
    assert result.verdict is Verdict.INVALID and result.code == "population-mismatch"
    assert result.regression.only_candidate_trials == ("t03",)
    assert result.regression.only_baseline_trials == ("x",)


def test_paired_outputs_show_the_comparison(tmp_path):
    result = report(CANDIDATE, scheduled=30, baseline=BASELINE, max_regression=0.05, confidence=0.95)

    def paired(form="text", **outputs):
        argv = ("--scheduled", "30", "--max-regression", "0.05", "--confidence", "0.95")
        return report_cli(tmp_path, CANDIDATE.read_bytes(), *argv, baseline=BASELINE.read_bytes(), form=form, **outputs)

    text = paired().out
    assert "paired: mean difference -0.00333333 (candidate - baseline), 95% lower bound" in text
    assert f"baseline: {BASELINE.stat().st_size} bytes" in text
    assert "Paired comparison with the baseline" in paired("markdown").out
    assert "unpaired SE" in paired("github").out
    run = paired(receipt=True, junit=True)
    receipt = run.receipt
    assert receipt["regression"]["pairs"] == 30 and receipt["regression"]["interval"]["unpaired_se"] > 0
    assert receipt["regression"]["baseline"]["input"]["sha256"] == result.regression.baseline.sha256
    root = ET.fromstring(run.junit)
    properties = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert properties["pairs"] == "30" and properties["max_regression"] == "0.05"
    assert "difference_unpaired_se" in properties


def test_paired_gate_on_the_command_line(capsys):
    argv = [
        "report",
        "--scheduled",
        "30",
        "--baseline",
        str(BASELINE),
        "--max-regression",
        "0.05",
        "--confidence",
        "0.95",
        "--bound",
        "asymptotic-t",
        str(CANDIDATE),
    ]
    assert main(argv) == 0
    assert capsys.readouterr().out.startswith("PASS meets-threshold: mean difference -0.00333333")
    assert main(argv[:6] + ["0.01"] + argv[7:]) == 1


# -- options: none silently ignored --------------------------------------------------------


@pytest.mark.parametrize(
    "keywords, code",
    [
        ({"cluster_by": "q"}, "bad-policy"),
        ({"bound": "hoeffding"}, "bad-policy"),
        ({"confidence": 0.95, "bound": "wald"}, "bad-policy"),
        ({"confidence": 0.5}, "bad-policy"),
        ({"confidence": 1}, "bad-policy"),
        ({"confidence": True}, "bad-policy"),
        ({"max_regression": 0.1}, "bad-policy"),
        ({"baseline": b""}, "bad-policy"),
        ({"baseline": b"", "max_regression": -1}, "bad-threshold"),
        ({"baseline": b"", "max_regression": 0.1, "metric": "pass-rate"}, "bad-policy"),
        ({"confidence": 0.9, "cluster_by": "$["}, "bad-selector"),
        ({"confidence": 0.9, "cluster_by": ""}, "bad-policy"),
    ],
    ids=str,
)
def test_options_that_would_decide_nothing_are_refused(keywords, code):
    with pytest.raises(PolicyError) as caught:
        report(FLAPPING, scheduled=20, **keywords)
    assert caught.value.code == code


def test_direction_lower_decides_on_the_upper_bound():
    assert Policy(0.8).direction == "higher"
    lower_is_better = Policy(0.5, direction="lower")
    result = report(
        jsonl([0.1, 0.2, 0.3, 0.2]), scheduled=4, policy=lower_is_better, confidence=0.95, bound="asymptotic-t"
    )
    interval = result.as_dict()["metrics"]["mean"]["interval"]
    assert interval["side"] == "upper" and interval["bound"] > 0.2 and interval["meets_threshold"] is True
    assert result.verdict is Verdict.PASS
    with pytest.raises(PolicyError):
        Policy(0.8, direction="sideways")


def test_candidate_binds_the_candidates_file_only():
    # The baseline is another model's run: its lines name that model.
    candidate = b"".join(
        line.rstrip(b"}\n") + b', "candidate": "m-2"}\n' for line in CANDIDATE.read_bytes().splitlines(keepends=True)
    )
    baseline = b"".join(
        line.rstrip(b"}\n") + b', "candidate": "m-1"}\n' for line in BASELINE.read_bytes().splitlines(keepends=True)
    )
    result = report(candidate, scheduled=30, candidate="m-2", baseline=baseline, max_regression=0.05)
    assert result.verdict is Verdict.PASS and result.regression.pairs == 30
    # The candidate's own lines are still bound.
    wrong = report(baseline, scheduled=30, candidate="m-2", baseline=baseline, max_regression=0.05)
    assert wrong.verdict is Verdict.INVALID and wrong.invalid_by_code == {"candidate-mismatch": 30}


def test_exact_policies_decide_on_the_same_bounds():
    exact = Policy(Decimal("0.8"), exact=True)
    result = report(FLAPPING, scheduled=20, policy=exact, confidence=Decimal("0.95"), bound="asymptotic-t")
    assert result.message == FLAP_TEXT
    default = report(FLAPPING, scheduled=20, policy=exact, confidence=Decimal("0.95"))
    assert default.mean.interval.bound == flapping(bound="empirical-bernstein").mean.interval.bound
    # What the receipt is made of: Report.as_dict(), exact numbers kept.
    assert result.as_dict()["confidence"] == Decimal("0.95")
    paired = report(
        CANDIDATE,
        scheduled=30,
        policy=exact,
        confidence=Decimal("0.95"),
        baseline=BASELINE,
        max_regression=Decimal("0.05"),
    )
    floats = report(CANDIDATE, scheduled=30, confidence=0.95, baseline=BASELINE, max_regression=0.05)
    assert paired.regression.interval.bound == floats.regression.interval.bound


def test_a_cluster_query_must_select_exactly_one_value():
    lines = [
        json.dumps({"trial_id": f"t{i}", "meta": {"q": [f"q{i % 2}"] * (1 + (i == 3))}, "score": i / 10})
        for i in range(4)
    ]
    data = ("\n".join(lines) + "\n").encode()
    result = report(data, scheduled=4, threshold=0, confidence=0.9, cluster_by="$.meta.q[*]")
    assert result.invalid_by_code == {"bad-cluster": 1}
    assert "not 2 values" in result.invalid_observations[0].message
    assert result.invalid_observations[0].trial_id == "t3"


def test_not_deciding_still_lists_the_pairs_and_never_raises():
    # The candidate lacks t01; the baseline has every trial.  Over the 29
    # pairs every difference is 0, which has no CLT bound: the report is
    # still missing-evidence, with the comparison listed, not an exception.
    scores = scores_of(BASELINE)
    manifest = [f"t{i:02d}" for i in range(1, 31)]
    candidate = b"".join(line for line in BASELINE.read_bytes().splitlines(keepends=True)[1:])
    result = report(candidate, manifest=manifest, baseline=BASELINE, max_regression=0.05, confidence=0.95)
    assert result.verdict is Verdict.INVALID and result.code == "missing-evidence"
    assert result.regression.pairs == 29 and result.regression.only_baseline_trials == ("t01",)
    assert result.regression.interval is None and result.regression.mean_difference == 0.0
    assert len(scores) == 30
    # And the baseline lacking one, with identical pairs: the same.
    short = b"".join(BASELINE.read_bytes().splitlines(keepends=True)[1:])
    other = report(BASELINE, manifest=manifest, baseline=short, max_regression=0.05, confidence=0.95)
    assert other.verdict is Verdict.INVALID and other.message.startswith("the baseline: ")
    assert other.regression.only_candidate_trials == ("t01",)


# -- bounds an option does not reach: refused, never ignored ------------------------------------


def _two_clusters(tmp_path):
    """100 trials in 2 clusters, all scoring 1: 2 clusters cannot support n=100 independent trials."""
    path = tmp_path / "two-clusters.jsonl"
    lines = [json.dumps({"trial_id": f"t{i}", "score": 1, "q": i % 2}) for i in range(100)]
    path.write_text("\n".join(lines) + "\n")
    return path


def _reordered(path):
    """A copy of *path* with its lines reversed: the same scores, other bytes (a baseline)."""
    other = path.with_name("baseline-" + path.name)
    other.write_bytes(b"".join(reversed(path.read_bytes().splitlines(keepends=True))))
    return other


@pytest.mark.parametrize(
    "keywords",
    [
        {"bound": "hoeffding", "cluster_by": "q"},
        {"metric": "pass-rate", "cluster_by": "q"},
        {"min_pass_rate": 0.5, "cluster_by": "q"},
        {"bound": "hoeffding", "baseline": "SELF", "max_regression": 0.1},
    ],
    ids=str,
)
def test_a_bound_that_would_ignore_clusters_or_a_baseline_is_refused(tmp_path, keywords):
    path = _two_clusters(tmp_path)
    keywords = {key: (_reordered(path) if value == "SELF" else value) for key, value in keywords.items()}
    with pytest.raises(PolicyError) as caught:
        report(path, scheduled=100, threshold=0.5, confidence=0.9, **keywords)
    assert caught.value.code == "option-conflict"
    assert "clustered bounds" in caught.value.message or "paired difference is bounded by" in caught.value.message
    # A policy that states bound hoeffding is refused alike.
    policy = Policy(0.5, confidence=0.9, bound="hoeffding")
    rest = {key: value for key, value in keywords.items() if key != "bound"}
    if "bound" in keywords:
        with pytest.raises(PolicyError) as caught:
            report(path, scheduled=100, policy=policy, **rest)
        assert caught.value.code == "option-conflict"
    # The asymptotic bound on the mean takes the clusters (and the baseline):
    # all scores equal leave it no width, which is INVALID, never a PASS at
    # n=100.  The finite-sample default over 2 cluster means cannot pass.
    clt = {key: value for key, value in rest.items() if key not in ("metric", "min_pass_rate")}
    result = report(path, scheduled=100, threshold=0.5, confidence=0.9, bound="asymptotic-t", **clt)
    assert (result.verdict, result.code) == (Verdict.INVALID, "insufficient-trials")
    result = report(path, scheduled=100, threshold=0.5, confidence=0.9, **clt)
    assert result.verdict is Verdict.FAIL


@pytest.mark.parametrize(
    "options",
    [
        ["--bound", "hoeffding", "--cluster-by", "q"],
        ["--statistic", "pass-rate", "--cluster-by", "q"],
        ["--min-pass-rate", "0.5", "--cluster-by", "q"],
        ["--bound", "hoeffding", "--baseline", "SELF", "--max-regression", "0.1"],
    ],
    ids=" ".join,
)
def test_the_command_line_refuses_a_bound_that_would_ignore_an_option(tmp_path, capsys, options):
    path = _two_clusters(tmp_path)
    options = [str(_reordered(path)) if option == "SELF" else option for option in options]
    argv = ["report", "--scheduled", "100", "--threshold", "0.5", "--confidence", "0.9", *options, str(path)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "option-conflict" in err and "cannot be combined with" in err
    policy = tmp_path / "policy.json"
    policy.write_text(
        json.dumps({"version": "h-1", "threshold": 0.5, "exact": False, "confidence": 0.9, "bound": "hoeffding"})
    )
    if "--bound" in options:
        rest = [option for option in options if option not in ("--bound", "hoeffding")]
        assert main(["report", "--scheduled", "100", "--policy", str(policy), *rest, str(path)]) == 2
        assert "option-conflict" in capsys.readouterr().err


def test_a_clustered_bound_never_suggests_a_bound_that_is_refused_beside_clusters():
    # Hoeffding and Clopper-Pearson ignore clusters and are refused beside
    # --cluster-by, so an unbounded clustered mean must not point to them.
    lines = b"".join(
        b'{"trial_id": "%s", "score": 1, "q": "%s"}\n' % (name.encode(), name[0].encode())
        for name in ("a1", "a2", "b1", "b2")
    )
    clustered = report(lines, scheduled=4, confidence=0.95, cluster_by="q", bound="asymptotic-t")
    plain = report(lines, scheduled=4, confidence=0.95, bound="asymptotic-t")
    assert (clustered.code, plain.code) == ("insufficient-trials", "insufficient-trials")
    assert "Hoeffding" not in clustered.message and "hoeffding" not in clustered.message
    assert "--bound empirical-bernstein" in plain.message
