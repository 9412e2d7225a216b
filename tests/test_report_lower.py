# SPDX-License-Identifier: MIT
"""Reports under a lower-is-better policy (mean absolute error, perplexity).

One table: for each metric and method, inputs -> (estimate, bound, verdict)
under ``direction: "lower"``, and the verdict the same inputs would get if
the direction were ignored.  Every row's two verdicts differ or sit on the
threshold, so a report that compared ``>=`` anywhere (the tally's fast
path, its full path, the mean, a bound's side, the paired limit) turns a
row red.  Each row runs through ``report()`` (float and exact policies) and
the command line with a policy file.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from decimal import Decimal
from math import log, sqrt
from statistics import fmean, stdev

import pytest

from public_support import report_cli
from scorecontract import Policy, Verdict, report
from scorecontract._cli import main
from support import FIXTURES

FLAPPING = FIXTURES / "reports" / "flapping.jsonl"
# Student t with 19 degrees of freedom at 95% (every CLT row has 20 trials),
# from any table of t: tests/data/student-t-quantiles.json has it to 25 digits.
T95_19 = 1.729132811521367


def jsonl(scores, extra=False):
    """A trials file, ids t01, t02, ...; *extra* adds a member, forcing the full path."""
    lines = []
    for index, score in enumerate(scores, 1):
        record = {"trial_id": f"t{index:02d}", "score": score}
        if extra:
            record["seed"] = index
        lines.append(json.dumps(record))
    return ("\n".join(lines) + "\n").encode("ascii")


def mirrored_flapping():
    # The flapping fixture's errors: 1 - accuracy, [0]*16 + [0.8] + [1]*3, mean 0.19.
    scores = [json.loads(line)["score"] for line in FLAPPING.read_text().splitlines()]
    if scores != [1] * 16 + [0.2] + [0] * 3:  # the rows below rest on it
        raise AssertionError(f"the flapping fixture changed: {scores}")
    return [1 - score for score in scores]


def clt_upper(scores):
    """The 95% CLT upper bound of 20 scores, mean + t(19) * s / sqrt(n), in floats: an independent reckoning."""
    return fmean(scores) + T95_19 * stdev(scores) / sqrt(len(scores))


BASE = [0.2, 0.3, 0.1, 0.25] * 5  # the baseline's errors
STEP = [0.08, 0.12, 0.1, 0.1] * 5  # mean 0.1, sample SD 0.0163
WORSE = [round(b + s, 10) for b, s in zip(BASE, STEP)]  # candidate - baseline = +0.1
BETTER = [round(b - s, 10) for b, s in zip(BASE, STEP)]  # candidate - baseline = -0.1
TIGHT_LOW = [0.1] * 10 + [0.2] * 10  # mean 0.15, SE 0.01147
TIGHT_HIGH = [0.5] * 10 + [0.6] * 10  # mean 0.55, SE 0.01147

# name -> (candidate scores, baseline scores or None, report() keywords,
#          (estimate, bound or None, verdict, verdict if the direction were ignored))
# The policy is Policy(threshold, direction="lower"), threshold 0.2 unless
# the keywords say otherwise.
TABLE = {
    # 3.0 <= 0.2 * 20, exactly; read as higher-is-better, 3.0 < 4.
    "mean 0.15, point": (TIGHT_LOW, None, {}, (0.15, None, "PASS", "FAIL")),
    # "mean score 0.31 > 0.2": ignoring the direction would PASS it.
    "mean 0.31, point": ([0.31] * 20, None, {}, (0.31, None, "FAIL", "PASS")),
    # On the threshold both directions pass: <= and >= both hold at 4 = 0.2 * 20.
    "mean 0.2 on the threshold": ([0.1] * 10 + [0.3] * 10, None, {}, (0.2, None, "PASS", "PASS")),
    # A trial passes when it scores <= 0.2: 18 of 20; read as >=, 2 of 20.
    "pass rate 0.9": (
        [0.1] * 18 + [0.5] * 2,
        None,
        {"metric": "pass-rate", "min_pass_rate": 0.9},
        (0.9, None, "PASS", "FAIL"),
    ),
    "pass rate 0.1": (
        [0.5] * 18 + [0.1] * 2,
        None,
        {"metric": "pass-rate", "min_pass_rate": 0.9},
        (0.1, None, "FAIL", "PASS"),
    ),
    # The flapping example, mirrored: 0.19 <= 0.2 at the point, but the 95%
    # upper bound is 1 - 0.658477 (tests/test_report_confidence.py's
    # reference) = 0.341523 > 0.2; at gap 0.01 it needs the same 4157 trials.
    "mirrored flapping, CLT 95%": (
        mirrored_flapping(),
        None,
        {"confidence": 0.95, "bound": "asymptotic-t"},
        (0.19, "0.341523", "FAIL", "FAIL"),
    ),
    # 0.15 + 1.729133 * 0.0114708 = 0.169835 <= 0.2; the lower bound, 0.130, is not >= 0.2.
    "mean 0.15, CLT 95%": (
        TIGHT_LOW,
        None,
        {"confidence": 0.95, "bound": "asymptotic-t"},
        (0.15, "0.169835", "PASS", "FAIL"),
    ),
    # Upper bound 0.569835 > 0.2; its lower bound 0.530 would PASS if the side were wrong.
    "mean 0.55, CLT 95%": (
        TIGHT_HIGH,
        None,
        {"confidence": 0.95, "bound": "asymptotic-t"},
        (0.55, "0.569835", "FAIL", "PASS"),
    ),
    # Hoeffding (1963), theorem 2: 0.19 + sqrt(ln 20 / 40) = 0.4636664 <= 0.5.
    "mirrored flapping, Hoeffding 95%": (
        mirrored_flapping(),
        None,
        {"threshold": 0.5, "confidence": 0.95, "bound": "hoeffding"},
        (0.19, "0.4636664", "PASS", "FAIL"),
    ),
    # Every trial scores <= 0.2: 20 of 20, Clopper-Pearson 0.05 ** (1/20) =
    # 0.8608917 >= 0.85; read as >=, 0 of 20.
    "20 of 20 passing, Clopper-Pearson 95%": (
        [0.1] * 20,
        None,
        {"metric": "pass-rate", "min_pass_rate": 0.85, "confidence": 0.95},
        (1.0, "0.8608917", "PASS", "FAIL"),
    ),
    # Paired: candidate - baseline must be <= +D.  +0.1 is a regression of
    # the error; read as higher-is-better, +0.1 >= -0.05 would PASS.
    "paired, worse by 0.1, point": (WORSE, BASE, {"max_regression": 0.05}, (0.1, None, "FAIL", "PASS")),
    "paired, better by 0.1, point": (BETTER, BASE, {"max_regression": 0.05}, (-0.1, None, "PASS", "FAIL")),
    # 0.1 + 1.729133 * 0.0163 / sqrt(20): the upper bound of the paired differences.
    "paired, worse by 0.1, CLT 95%": (
        WORSE,
        BASE,
        {"max_regression": 0.05, "confidence": 0.95, "bound": "asymptotic-t"},
        (0.1, clt_upper(STEP), "FAIL", "PASS"),
    ),
    "paired, better by 0.1, CLT 95%": (
        BETTER,
        BASE,
        {"max_regression": 0.05, "confidence": 0.95, "bound": "asymptotic-t"},
        (-0.1, clt_upper([-s for s in STEP]), "PASS", "FAIL"),
    ),
}


def _policy(keywords, exact=False, direction="lower"):
    threshold = keywords.get("threshold", 0.2)
    return Policy(threshold, direction=direction, exact=exact)


def _run(candidate, baseline, keywords, policy, extra=False):
    options = {key: value for key, value in keywords.items() if key != "threshold"}
    if baseline is not None:
        options["baseline"] = jsonl(baseline, extra)
    return report(jsonl(candidate, extra), scheduled=len(candidate), policy=policy, **options)


def _decided(result, keywords):
    if "max_regression" in keywords:
        return result.regression
    return result.pass_rate if keywords.get("metric") == "pass-rate" else result.mean


@pytest.mark.parametrize("exact", [False, True], ids=["float", "exact"])
@pytest.mark.parametrize("row", TABLE.values(), ids=TABLE.keys())
def test_each_row_through_report(row, exact):
    candidate, baseline, keywords, (estimate, bound, verdict, ignored) = row
    result = _run(candidate, baseline, keywords, _policy(keywords, exact))
    assert result.verdict is Verdict[verdict], result.message
    assert result.code == ("meets-threshold" if verdict == "PASS" else "below-threshold")
    decided = _decided(result, keywords)
    value = decided.mean_difference if "max_regression" in keywords else decided.value
    assert abs(float(value) - estimate) < 1e-12
    assert decided.meets is (verdict == "PASS")
    if bound is None:
        assert decided.interval is None
    else:
        interval = decided.interval
        side = "lower" if keywords.get("metric") == "pass-rate" else "upper"
        assert interval.side == side and interval.meets is (verdict == "PASS")
        assert abs(Decimal(interval.bound) - Decimal(bound)) <= Decimal("5e-7")
        # Rounded against PASS: an upper bound is never below the reference.
        if side == "upper" and isinstance(bound, float):
            assert interval.bound >= bound - 1e-12
    # The same inputs read as higher-is-better: the row tells the two apart.
    plain = _run(candidate, baseline, keywords, _policy(keywords, exact, "higher"))
    assert plain.verdict is Verdict[ignored]


@pytest.mark.parametrize("row", TABLE.values(), ids=TABLE.keys())
def test_the_fast_and_the_full_path_agree(row):
    # A member beyond trial_id and score sends every line down the full
    # path (read_trial, decide); canonical lines take the tally's fast path.
    candidate, baseline, keywords, _ = row
    policy = _policy(keywords)
    fast = _run(candidate, baseline, keywords, policy)
    full = _run(candidate, baseline, keywords, policy, extra=True)
    assert (fast.verdict, fast.message, fast.pass_rate, fast.mean) == (
        full.verdict,
        full.message,
        full.pass_rate,
        full.mean,
    )
    assert list(fast.trials()) == list(full.trials())


def test_fast_path_reruns_are_judged_by_the_direction():
    # A valid rerun of a trial whose first line was invalid becomes its
    # evidence; a listed rerun of a trial with evidence is handed to the
    # tally by the fast path's second comparison, which gives its code.
    lines = b'{"trial_id": "a", "score": NaN}\n{"trial_id": "a", "score": 0.1}\n{"trial_id": "b", "score": 0.9}\n'
    result = report(lines, manifest=["a", "b"], policy=Policy(0.2, direction="lower"), metric="pass-rate")
    rows = {row[0]: row[1] for row in result.trials()}
    assert rows == {"a": "PASS", "b": "FAIL"} and result.pass_rate.numerator == 1
    beyond = b'{"trial_id": "a", "score": 0.1}\n{"trial_id": "b", "score": 0.9}\n{"trial_id": "a", "score": 0.9}\n'
    again = report(beyond, scheduled=2, policy=Policy(0.2, direction="lower"), metric="pass-rate", max_listed=5)
    assert {row[0]: row[1] for row in again.trials()} == {"a": "PASS", "b": "FAIL"}
    (rerun,) = again.ignored_observations
    assert (rerun.line, rerun.code) == (3, "below-threshold")
    better = beyond.replace(b'"a", "score": 0.9', b'"a", "score": 0.15')
    (rerun,) = report(better, scheduled=2, policy=Policy(0.2, direction="lower"), max_listed=5).ignored_observations
    assert rerun.code == "meets-threshold"


def _policy_file(tmp_path, keywords, **more):
    path = tmp_path / "mae.json"
    document = {
        "version": "mae-1",
        "threshold": keywords.get("threshold", 0.2),
        "exact": False,
        "direction": "lower",
        **more,
    }
    path.write_text(json.dumps(document))
    return str(path)


@pytest.mark.parametrize("row", TABLE.values(), ids=TABLE.keys())
def test_each_row_through_the_command_line(row, tmp_path, capsys):
    candidate, baseline, keywords, (_, bound, verdict, _) = row
    trials = tmp_path / "trials.jsonl"
    trials.write_bytes(jsonl(candidate))
    argv = ["report", "--scheduled", str(len(candidate)), "--policy", _policy_file(tmp_path, keywords)]
    for key, value in keywords.items():
        if key != "threshold":
            # The library's metric (mean or pass rate) is the command's --statistic.
            argv += ["--statistic" if key == "metric" else f"--{key.replace('_', '-')}", str(value)]
    if baseline is not None:
        (tmp_path / "baseline.jsonl").write_bytes(jsonl(baseline))
        argv += ["--baseline", str(tmp_path / "baseline.jsonl")]
    status = main(argv + ["--format", "json", str(trials)])
    shown = json.loads(capsys.readouterr().out)
    assert status == (0 if verdict == "PASS" else 1)
    assert shown["verdict"] == verdict and shown["policy"]["direction"] == "lower"
    if bound is not None:
        assert "bound" in shown["message"]


def test_the_policy_files_confidence_decides_as_the_option_does(tmp_path, capsys):
    trials = tmp_path / "trials.jsonl"
    trials.write_bytes(jsonl(mirrored_flapping()))
    by_option = ["report", "--scheduled", "20", "--policy", _policy_file(tmp_path, {}), "--confidence", "0.95"]
    by_option += ["--bound", "asymptotic-t"]
    assert main(by_option + [str(trials)]) == 1
    first = capsys.readouterr().out
    by_file = [
        "report",
        "--scheduled",
        "20",
        "--policy",
        _policy_file(tmp_path, {}, confidence=0.95, bound="asymptotic-t"),
    ]
    assert main(by_file + [str(trials)]) == 1
    second = capsys.readouterr().out
    assert first.splitlines()[0] == second.splitlines()[0]
    assert "95% upper bound (asymptotic-t) 0.341524 (n=20, SE 0.0876) > threshold 0.2 (lower is better)" in second
    assert "would need about 4157 trials at this variance" in second


# -- what every output says -----------------------------------------------------------


def mirrored(**keywords):
    if "confidence" in keywords:  # these tests check the asymptotic bound's numbers
        keywords.setdefault("bound", "asymptotic-t")
    return report(jsonl(mirrored_flapping()), scheduled=20, policy=Policy(0.2, direction="lower"), **keywords)


def mirrored_cli(tmp_path, *options, **outputs):
    """``scorecontract report`` on the mirrored file, as mirrored() decides it."""
    policy = {"version": "default", "threshold": 0.2, "exact": False, "direction": "lower"}
    if "--confidence" in options and "--bound" not in options:  # as mirrored(): the asymptotic bound
        options = (*options, "--bound", "asymptotic-t")
    return report_cli(tmp_path, jsonl(mirrored_flapping()), "--scheduled", "20", *options, policy=policy, **outputs)


def test_messages_say_the_comparison_that_was_made():
    assert mirrored().message == "mean score 0.19 (3.8 / 20) <= 0.2 (lower is better)"
    result = report(jsonl([0.31] * 20), scheduled=20, policy=Policy(0.2, direction="lower"))
    assert result.message == "mean score 0.31 (6.2 / 20) > 0.2 (lower is better)"
    bounded = mirrored(confidence=0.95).message
    assert bounded.startswith(
        "mean score 0.19 (3.8 / 20), 95% upper bound (asymptotic-t) 0.341524 (n=20, SE 0.0876) > threshold 0.2"
    )
    worse = _run(WORSE, BASE, {"max_regression": 0.05}, Policy(0.2, direction="lower"))
    assert worse.message == "mean difference 0.1 (candidate - baseline, 20 pairs) > 0.05 (lower is better)"


@pytest.mark.parametrize("form", ["text", "json", "markdown", "github"])
def test_every_format_shows_the_upper_bound_and_the_direction(form, tmp_path):
    shown = mirrored_cli(tmp_path, "--confidence", "0.95", "--min-pass-rate", "0.5", form=form, name="mae.jsonl").out
    if form == "json":
        document = json.loads(shown)
        assert document["policy"]["direction"] == "lower"
        interval = document["metrics"]["mean"]["interval"]
        assert interval["side"] == "upper" and interval["meets_threshold"] is False
        assert abs(interval["bound"] - 0.341524) < 1e-6 and interval["trials_needed"] == 4157
        return
    if form == "markdown":
        assert (
            "| mean score | 0.19 | 0\\.95 | asymptotic\\-t | upper | 0\\.341524 | 20 | 0\\.0876 | 0\\.2 | no |" in shown
        )
        return
    if form == "github":
        shown = shown.replace("%25", "%")
    assert "95% upper bound (asymptotic-t) 0.341524 (n=20, SE 0.0876) > 0.2" in shown
    if form == "text":
        assert "(threshold 0.2, lower is better; decides)" in shown
        assert "trials scoring <= 0.2; minimum 0.5" in shown


def test_junit_names_each_trial_by_the_comparison_made(tmp_path):
    run = mirrored_cli(tmp_path, junit=True, receipt=True)
    root = ET.fromstring(run.junit)
    failures = [case.find("failure") for case in root.iter("testcase")]
    messages = [failure.get("message") for failure in failures if failure is not None]
    assert messages == ["line 17: score 0.8 > threshold 0.2"] + [
        f"line {line}: score 1 > threshold 0.2" for line in (18, 19, 20)
    ]
    assert root.find("testsuite").get("failures") == "4"
    receipt = run.receipt
    assert receipt["verdict"] == "PASS" and receipt["policy"]["direction"] == "lower"


def test_hoeffding_reference_is_the_closed_form():
    # The table's Hoeffding row, recomputed here so the digits have a source.
    assert abs(0.19 + sqrt(log(20) / 40) - 0.4636664) < 5e-8
