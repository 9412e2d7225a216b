# SPDX-License-Identifier: MIT
"""Exact mode: numbers compared as their decimal text (docs/policies.md)."""

from __future__ import annotations

import decimal
from decimal import Decimal

import pytest

from scorecontract import InvalidEvidence, Policy, Verdict, decide, evaluate, loads
from scorecontract._cli import main
from support import run_fresh, run_main

EXACT = Policy(exact=True)

RECORDS = [
    # (id, number text, float-mode verdict and code, exact-mode verdict and code)
    ("just-below-20-digits", "0.79999999999999999999", ("PASS", "meets-threshold"), ("FAIL", "below-threshold")),
    ("just-above-one", "1.0000000000000001", ("PASS", "meets-threshold"), ("INVALID", "out-of-range")),
    # A double reads 1e-400 as 0.0: refused, since that flips "score > 0".
    ("tiny", "1e-400", ("INVALID", "underflow"), ("FAIL", "below-threshold")),
    ("tiny-negative", "-1e-400", ("INVALID", "underflow"), ("INVALID", "out-of-range")),
    ("threshold", "0.8", ("PASS", "meets-threshold"), ("PASS", "meets-threshold")),
    ("threshold-other-spelling", "80e-2", ("PASS", "meets-threshold"), ("PASS", "meets-threshold")),
    ("trailing-zeros", "0.80000000000000000000", ("PASS", "meets-threshold"), ("PASS", "meets-threshold")),
    ("negative-zero", "-0.0", ("FAIL", "below-threshold"), ("FAIL", "below-threshold")),
    ("integer-one", "1", ("PASS", "meets-threshold"), ("PASS", "meets-threshold")),
    ("overflow", "1e400", ("INVALID", "non-finite"), ("INVALID", "out-of-range")),
    ("exponent-beyond-decimal", "1e9999999999999999999999", ("INVALID", "non-finite"), ("INVALID", "too-many-digits")),
    (
        "negative-exponent-beyond-decimal",
        "1e-9999999999999999999999",
        ("INVALID", "underflow"),
        ("INVALID", "too-many-digits"),
    ),
]


@pytest.mark.parametrize("number, floating, exact", [r[1:] for r in RECORDS], ids=[r[0] for r in RECORDS])
def test_float_and_exact_paths(number, floating, exact):
    record = '{"score": %s}' % number
    as_float = evaluate(record)
    as_exact = evaluate(record.encode(), policy=EXACT)
    assert (as_float.verdict.value, as_float.code) == floating
    assert (as_exact.verdict.value, as_exact.code) == exact


def test_exact_score_is_the_decimal_text():
    decision = evaluate(b'{"score": 1e-400}', policy=EXACT)
    assert type(decision.score) is Decimal
    assert decision.score == Decimal("1e-400") and decision.score != 0
    assert evaluate(b'{"score": 1e-400}').code == "underflow"
    assert evaluate(b'{"score": 0.79999999999999999999}', policy=EXACT).score == Decimal("0.79999999999999999999")
    assert type(evaluate(b'{"score": 1}', policy=EXACT).score) is int


def test_loads_exact_decodes_decimals():
    assert loads('{"score": 0.79999999999999999999}', exact=True) == {"score": Decimal("0.79999999999999999999")}
    with pytest.raises(InvalidEvidence) as info:
        loads('{"score": NaN}', exact=True)
    assert info.value.code == "non-standard-constant"


HOSTILE_CONTEXTS = {
    # Every trap on, one digit of precision, a tiny exponent range: any
    # rounding or any mixed float comparison would raise or change a result.
    "all-traps": decimal.Context(
        prec=1,
        Emax=1,
        Emin=-1,
        traps=[
            decimal.Inexact,
            decimal.Rounded,
            decimal.Overflow,
            decimal.Underflow,
            decimal.Subnormal,
            decimal.Clamped,
            decimal.InvalidOperation,
            decimal.DivisionByZero,
            decimal.FloatOperation,
        ],
    ),
    # No trap at all: an invalid operation would quietly give NaN.
    "no-traps": decimal.Context(prec=1, traps=[]),
}


@pytest.mark.parametrize("context", list(HOSTILE_CONTEXTS.values()), ids=list(HOSTILE_CONTEXTS))
def test_the_threads_decimal_context_cannot_change_a_result(context):
    expected = {r[1]: r[3] for r in RECORDS}
    policies = [EXACT, Policy(Decimal("0.8"), exact=True), Policy(0.8, minimum=0.0, maximum=1.0, exact=True)]
    with decimal.localcontext(context):
        for policy in policies:
            for number, verdict in expected.items():
                decision = evaluate('{"score": %s}' % number, policy=policy)
                assert (decision.verdict.value, decision.code) == verdict, (number, policy)
        assert decide(Decimal("sNaN"), policy=EXACT) is Verdict.INVALID
        assert decide(0.1, policy=Policy(0.1, exact=True)) is Verdict.PASS


@pytest.mark.parametrize("value", ["NaN", "-NaN", "sNaN", "-sNaN", "Infinity", "-Infinity"])
def test_decimal_specials_are_invalid_never_an_exception(value):
    for policy in (EXACT, Policy(0)):
        assert decide(Decimal(value), policy=policy) is Verdict.INVALID


def test_a_float_counts_as_its_shortest_decimal_text():
    # Decimal(0.1) would be 0.1000000000000000055..., above a threshold of
    # Decimal("0.1000000000000000001"); repr(0.1) is "0.1", below it.
    policy = Policy(Decimal("0.1000000000000000001"), exact=True)
    assert decide(0.1, policy=policy) is Verdict.FAIL
    assert decide(Decimal("0.1000000000000000001"), policy=policy) is Verdict.PASS


# The command line: the acceptance items.


@pytest.fixture
def just_below(tmp_path):
    path = tmp_path / "score.json"
    path.write_bytes(b'{"score": 0.79999999999999999999}\n')
    return str(path)


def test_cli_exact_fails_what_the_float_path_passes(just_below, capsys):
    assert main(["check", just_below]) == 0
    assert capsys.readouterr().out.startswith("PASS meets-threshold: ")
    assert main(["check", "--exact", just_below]) == 1
    assert capsys.readouterr().out.startswith("FAIL below-threshold: score 0.79999999999999999999 < ")


@pytest.mark.parametrize("optimize", [0, 1], ids=["plain", "O"])
def test_cli_exact_in_a_fresh_interpreter(just_below, optimize):
    # Fresh interpreter: the decimal path with and without -O (no assert
    # may carry it).  One interpreter for the three calls.
    plain, exact, over = run_fresh(
        [
            (["check", just_below], b""),
            (["check", "--exact", just_below], b""),
            (["check", "--exact", "-"], b'{"score": 1.0000000000000001}'),
        ],
        optimize=optimize,
    )
    assert plain.returncode == 0
    assert exact.returncode == 1
    assert over.returncode == 3


@pytest.mark.parametrize(
    "threshold, status",
    [("0.79999999999999999999", 0), ("0.79999999999999999998", 0), ("0.8", 1), ("0.7999999999999999999999", 1)],
)
def test_cli_exact_threshold_is_decimal_text(just_below, threshold, status):
    # Without --exact every one of these thresholds is the double 0.8.
    assert main(["check", "--exact", "--threshold", threshold, just_below]) == status


@pytest.mark.parametrize("exact", [[], ["--exact"]], ids=["float", "exact"])
@pytest.mark.parametrize(
    "threshold",
    [
        "nan",
        "NaN",
        "inf",
        "Infinity",
        "-Infinity",
        "1.5",
        "true",
        "false",
        "null",
        '"0.8"',
        "[0.8]",
        "1e400",
        "1e9999999999999999999999",
        "",
        "0.8 0.9",
    ],
)
def test_cli_bad_threshold_exits_2_with_one_line(just_below, capsys, threshold, exact):
    status = main(["check", *exact, f"--threshold={threshold}", just_below])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert err.startswith("scorecontract: error: bad-threshold: --threshold ")
    assert err.count("\n") == 1


@pytest.mark.parametrize("threshold", ["nan", "inf", "1.5", "true"])
def test_cli_bad_threshold_through_run_main(just_below, threshold):
    result = run_main("check", "--threshold", threshold, just_below)
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.count(b"\n") == 1 and b"Traceback" not in result.stderr


@pytest.mark.parametrize(
    "literal, code",
    [
        ("1e-1000", None),
        ("1e-1001", "too-many-digits"),
        ("1e-999999999", "too-many-digits"),
        ("1e-99999999999", "too-many-digits"),
        ("1e1001", "too-many-digits"),
        ("1e1000", None),
    ],
)
def test_exact_mode_bounds_the_exponent(literal, code):
    # A billion-place expansion would make a report's exact sum take
    # seconds, and a larger one raise MemoryError; no score needs it.
    from scorecontract import InvalidEvidence, loads

    if code is None:
        assert type(loads(literal, exact=True)).__name__ == "Decimal"
    else:
        with pytest.raises(InvalidEvidence) as info:
            loads(literal, exact=True)
        assert info.value.code == code


def test_report_with_a_tiny_exact_score_stays_invalid_and_quick():
    from scorecontract import Policy, Verdict, report

    data = b'{"trial_id": "a", "score": 1e-99999999999}\n{"trial_id": "b", "score": 0.9}\n'
    result = report(data, scheduled=2, policy=Policy(exact=True))
    assert result.verdict is Verdict.INVALID
    assert result.invalid == 1
