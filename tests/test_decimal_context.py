# SPDX-License-Identifier: MIT
"""No decision depends on the caller's decimal context, and none raises from it.

The report's exact fast path once computed ``high + 1`` in the thread's
context, where rounding (28 digits by default, 1 with ``prec = 1``) turned
it back into ``high``: a score with an exponent past the exact bound then
passed the range check and released.  A context that traps ``Inexact`` made
``report()`` raise ``decimal.Inexact``.  Every case below runs under the
default context and under hostile ones, and must come out the same.
"""

from __future__ import annotations

import decimal
import json
from decimal import Decimal
from pathlib import Path

import pytest

from scorecontract import Policy, decide, dumps, evaluate, judge, load_policy, loads, report


def policy_from_bytes(data: bytes, tmp: Path) -> Policy:
    """``load_policy`` of a file holding *data*: the public way in.

    The file's path is in messages, so it is the same for every call.
    """
    path = tmp / "policy.json"
    path.write_bytes(data)
    return load_policy(path)


ALL_SIGNALS = [
    decimal.Clamped,
    decimal.DivisionByZero,
    decimal.Inexact,
    decimal.InvalidOperation,
    decimal.Overflow,
    decimal.Rounded,
    decimal.Subnormal,
    decimal.Underflow,
    decimal.FloatOperation,
]


def hostile_contexts() -> dict[str, decimal.Context]:
    def context(**fields: object) -> decimal.Context:
        base = decimal.Context()
        for name, value in fields.items():
            setattr(base, name, value)
        return base

    traps = {signal: False for signal in ALL_SIGNALS}
    inexact = {**traps, decimal.Inexact: True, decimal.Rounded: True}
    return {
        "prec-1": context(prec=1),
        "prec-1-round-up": context(prec=1, rounding=decimal.ROUND_UP),
        "traps-inexact-rounded": context(traps=inexact),
        "everything": context(
            prec=1,
            Emin=-1,
            Emax=1,
            capitals=0,
            clamp=1,
            rounding=decimal.ROUND_FLOOR,
            traps={signal: True for signal in ALL_SIGNALS},
        ),
    }


EXACT_BIG = Policy(Decimal("1e29"), maximum=Decimal("1e30"), exact=True)
EXACT = Policy(Decimal("0.8"), exact=True)
POLICIES = [None, Policy(0.5), EXACT, EXACT_BIG, Policy(Decimal("1e-400"), exact=True)]
SCORES = [
    b"0.9",
    b"0.8",
    b"0.79999999999999999999",
    b"1",
    b"0",
    b"1e-400",
    b"1e-999",
    b"1e-1001",
    b"99999999999999999999e999",
    b"99999999999999999999e-999",
    b"1e30",
    b"1.5e29",
    b"3",
    b"-0.0",
]


def line(trial_id: str, score: bytes) -> bytes:
    return b'{"trial_id": "' + trial_id.encode() + b'", "score": ' + score + b"}\n"


def report_cases() -> list[tuple[bytes, dict[str, object]]]:
    cases: list[tuple[bytes, dict[str, object]]] = []
    for score in SCORES:
        for policy in POLICIES:
            data = line("t-1", score)
            cases.append((data, {"scheduled": 1, "policy": policy}))
    # Means that do not divide evenly, both metrics.
    thirds = line("a", b"0.1") + line("b", b"0.2") + line("c", b"0.4")
    for policy in (None, Policy(0.2), Policy(Decimal("0.2333333333333333333333333334"), exact=True), EXACT):
        for metric in ("mean", "pass-rate"):
            cases.append((thirds, {"scheduled": 3, "policy": policy, "metric": metric}))
    cases.append(
        (thirds, {"scheduled": 3, "metric": "pass-rate", "min_pass_rate": Decimal("0.6666666666666666666666666667")})
    )
    cases.append((thirds, {"scheduled": 3, "metric": "pass-rate", "min_pass_rate": 2 / 3}))
    # The exact sum of long decimals, with exponents far apart.
    wide = line("a", b"1e-999") + line("b", b"0.99999999999999999999999999999999999999")
    cases.append((wide, {"scheduled": 2, "policy": Policy(Decimal("0.5"), exact=True)}))
    return cases


def normalised(value: object) -> str:
    # Messages quote numbers through str(Decimal), which follows the
    # context's capitals: compare the text case-blind, nothing else.
    return json.dumps(value, default=str, sort_keys=True).lower()


def report_outcome(data: bytes, options: dict[str, object]) -> str:
    result = report(data, **options)  # type: ignore[arg-type]
    return normalised(result.as_dict())


def evaluate_outcome(score: bytes, policy: Policy | None) -> str:
    decision = evaluate(b'{"score": ' + score + b"}", policy=policy)
    return normalised([decision.verdict.value, decision.code, decision.message, decision.score])


def other_outcomes(tmp: Path) -> str:
    results: list[object] = []
    for value in (Decimal("0.8"), Decimal("0.79999999999999999999999"), Decimal("1e-1001"), 0.8, 1):
        results.append(decide(value, policy=EXACT).value)
        try:
            results.append(dumps({"score": value}, policy=EXACT))
        except ValueError as exc:
            results.append(type(exc).__name__ + str(exc))
    for text in ('{"pass": true, "score": 0.81}', '{"score": 1e-400}', '{"score": 0.79999999999999999999}'):
        results.append(judge(text, policy=EXACT).code)
        results.append(judge(text, threshold=0.8).code)
        results.append(loads(text, exact=True))
    for text in (
        b'{"version": "v", "exact": true, "threshold": 1e-400, "max": 1e30}',
        b'{"version": "v", "exact": true, "threshold": 0.8, "max": 1e99999999999999999999}',
        b'{"version": "v", "exact": false, "threshold": 0.8}',
    ):
        try:
            results.append(policy_from_bytes(text, tmp).as_dict())
        except ValueError as exc:
            results.append(str(exc))
    return normalised(results)


REPORT_CASES = report_cases()


@pytest.mark.parametrize("name", list(hostile_contexts()))
def test_reports_do_not_depend_on_the_context(name):
    expected = [report_outcome(data, options) for data, options in REPORT_CASES]
    with decimal.localcontext(hostile_contexts()[name]):
        got = [report_outcome(data, options) for data, options in REPORT_CASES]
    assert got == expected
    assert len(expected) > 70


@pytest.mark.parametrize("name", list(hostile_contexts()))
def test_evaluate_does_not_depend_on_the_context(name):
    cases = [(score, policy) for score in SCORES for policy in POLICIES]
    expected = [evaluate_outcome(score, policy) for score, policy in cases]
    with decimal.localcontext(hostile_contexts()[name]):
        got = [evaluate_outcome(score, policy) for score, policy in cases]
    assert got == expected


@pytest.mark.parametrize("name", list(hostile_contexts()))
def test_decide_dumps_judge_loads_and_policies_do_not_depend_on_the_context(name, tmp_path):
    expected = other_outcomes(tmp_path)
    with decimal.localcontext(hostile_contexts()[name]):
        assert other_outcomes(tmp_path) == expected


def test_the_fast_path_exponent_bound_is_not_rounded_away():
    # The case from the review: 1e30 + 1 rounds to 1e30 at 28 digits.
    data = line("t-1", b"99999999999999999999e999")
    for context in [decimal.Context(), *hostile_contexts().values()]:
        with decimal.localcontext(context):
            result = report(data, scheduled=1, policy=EXACT_BIG)
        assert result.invalid_by_code == {"too-many-digits": 1}
        assert result.code == "missing-evidence"


def test_a_tiny_exponent_under_prec_1():
    # 1e-1001 is past the exact bound; under prec = 1, the old high + 1
    # was 2 for high = 1, which happened to work, but 1e29 + 1 was 1e29.
    with decimal.localcontext(decimal.Context(prec=1)):
        policy = Policy(Decimal("0"), maximum=Decimal("1e29"), exact=True)
        tiny = report(line("t-1", b"99999999999999999999e-1020"), scheduled=1, policy=policy)
        huge = report(line("t-1", b"99999999999999999999e990"), scheduled=1, policy=policy)
    assert tiny.invalid_by_code == {"too-many-digits": 1}
    assert huge.invalid_by_code == {"too-many-digits": 1}


def test_report_under_a_context_that_traps_inexact_does_not_raise():
    traps = decimal.Context(traps=[decimal.Inexact, decimal.Rounded])
    data = line("a", b"0.1") + line("b", b"0.2") + line("c", b"0.4")
    with decimal.localcontext(traps):
        result = report(data, scheduled=3, threshold=0.2)
    assert result.verdict.value == "PASS"
    assert result.mean.value == pytest.approx(0.7 / 3)


@pytest.mark.parametrize("score, shown", [(b"2e999", Decimal("2e999")), (b"1e-999", Decimal("1e-999"))])
def test_a_sum_a_double_cannot_hold_is_shown_as_its_decimal(score, shown, tmp_path):
    # float() of the exact sum was inf (or 0.0): the JSON output raised
    # ValueError (exit 70) and the text said "mean score inf".
    policy = Policy(Decimal("0"), maximum=Decimal("1e1000"), exact=True)
    result = report(line("t-1", score), scheduled=1, policy=policy)
    assert result.verdict.value == "PASS"
    assert result.mean.numerator == shown and result.mean.value == shown
    text = json.dumps(result.as_dict(), allow_nan=False, default=str)
    assert "inf" not in text.lower().replace("infinity", "")
    path = tmp_path / "t.jsonl"
    path.write_bytes(line("t-1", score))
    policy_file = tmp_path / "p.json"
    policy_file.write_text('{"version": "v", "exact": true, "threshold": 0, "max": 1e1000}')
    from support import run_main

    out = run_main("report", "--policy", str(policy_file), "--scheduled", "1", "--format", "json", "--", str(path))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["verdict"] == "PASS"


def test_ordinary_sums_stay_floats():
    result = report(line("a", b"0.5") + line("b", b"0.25"), scheduled=2, threshold=0.3)
    assert type(result.mean.numerator) is float and type(result.mean.value) is float
