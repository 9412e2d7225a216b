# SPDX-License-Identifier: MIT
"""decide(): pure and total over any Python value (docs/contract.md, rules 6-9).

White-box: the reason code of an already decoded score is not public
(``decide()`` returns a ``Verdict``), so ``_decide.decide_with_reason`` is
checked beside it; and one test replaces it inside ``_judgment``, to show
that a comparison that is neither PASS nor FAIL never becomes a FAIL that
``negate`` flips.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import pytest

from scorecontract import Policy, PolicyError, Verdict, decide
from scorecontract._decide import decide_with_reason


class FloatSubclass(float):
    pass


class IntSubclass(int):
    pass


class Liar:
    """Claims to be at or above anything and below nothing."""

    def __ge__(self, other):
        return True

    def __gt__(self, other):
        return True

    def __le__(self, other):
        return True

    def __lt__(self, other):
        return False

    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0

    def __float__(self):
        return 0.9


class Exploding:
    """Raises from every operation a careless gate might use."""

    def _boom(self, *args):
        raise RuntimeError("evidence fought back")

    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __float__ = __index__ = _boom
    __bool__ = __repr__ = __str__ = __format__ = _boom
    __hash__ = None


VALUES = [
    # (id, value, verdict, code)
    ("float-pass", 0.9, Verdict.PASS, "meets-threshold"),
    ("float-fail", 0.7, Verdict.FAIL, "below-threshold"),
    ("threshold-equal", 0.8, Verdict.PASS, "meets-threshold"),
    (
        "just-below",
        math.nextafter(0.8, 0) if hasattr(math, "nextafter") else 0.7999999999999999,
        Verdict.FAIL,
        "below-threshold",
    ),
    ("int-one", 1, Verdict.PASS, "meets-threshold"),
    ("int-zero", 0, Verdict.FAIL, "below-threshold"),
    ("float-one", 1.0, Verdict.PASS, "meets-threshold"),
    ("float-zero", 0.0, Verdict.FAIL, "below-threshold"),
    ("negative-zero", -0.0, Verdict.FAIL, "below-threshold"),
    ("nan", float("nan"), Verdict.INVALID, "non-finite"),
    ("negative-nan", -float("nan"), Verdict.INVALID, "non-finite"),
    ("inf", math.inf, Verdict.INVALID, "non-finite"),
    ("negative-inf", -math.inf, Verdict.INVALID, "non-finite"),
    ("true", True, Verdict.INVALID, "wrong-type"),
    ("false", False, Verdict.INVALID, "wrong-type"),
    ("none", None, Verdict.INVALID, "wrong-type"),
    ("numeric-string", "0.9", Verdict.INVALID, "wrong-type"),
    ("bytes", b"0.9", Verdict.INVALID, "wrong-type"),
    ("list", [0.9], Verdict.INVALID, "wrong-type"),
    ("dict", {"score": 0.9}, Verdict.INVALID, "wrong-type"),
    ("complex", 0.9 + 0j, Verdict.INVALID, "wrong-type"),
    ("float-subclass", FloatSubclass(0.9), Verdict.INVALID, "wrong-type"),
    ("int-subclass", IntSubclass(1), Verdict.INVALID, "wrong-type"),
    ("fraction", Fraction(9, 10), Verdict.INVALID, "wrong-type"),
    ("decimal-without-exact", Decimal("0.9"), Verdict.INVALID, "wrong-type"),
    ("decimal-nan", Decimal("NaN"), Verdict.INVALID, "wrong-type"),
    ("decimal-snan", Decimal("sNaN"), Verdict.INVALID, "wrong-type"),
    ("liar", Liar(), Verdict.INVALID, "wrong-type"),
    ("exploding", Exploding(), Verdict.INVALID, "wrong-type"),
    ("type-object", float, Verdict.INVALID, "wrong-type"),
    ("huge-int", 10**400, Verdict.INVALID, "out-of-range"),
    ("huge-negative-int", -(10**400), Verdict.INVALID, "out-of-range"),
    ("enormous-int", 10**5000, Verdict.INVALID, "out-of-range"),
    ("above-one", 1.0000000000000002, Verdict.INVALID, "out-of-range"),
    ("below-zero", -5e-324, Verdict.INVALID, "out-of-range"),
    ("int-two", 2, Verdict.INVALID, "out-of-range"),
    ("int-minus-one", -1, Verdict.INVALID, "out-of-range"),
]


@pytest.mark.parametrize("value, verdict, code", [v[1:] for v in VALUES], ids=[v[0] for v in VALUES])
def test_decide(value, verdict, code):
    assert decide(value) is verdict
    assert decide_with_reason(value, Policy())[:2] == (verdict, code)


def test_huge_int_is_never_converted_to_float():
    with pytest.raises(OverflowError):
        math.isfinite(10**400)  # why the library must not call it on ints
    assert decide(10**400) is Verdict.INVALID


EXACT_VALUES = [
    ("decimal-pass", Decimal("0.9"), Verdict.PASS, "meets-threshold"),
    ("decimal-equal", Decimal("0.8"), Verdict.PASS, "meets-threshold"),
    ("decimal-just-below", Decimal("0.79999999999999999999"), Verdict.FAIL, "below-threshold"),
    ("decimal-tiny", Decimal("1e-400"), Verdict.FAIL, "below-threshold"),
    ("decimal-above", Decimal("1.0000000000000001"), Verdict.INVALID, "out-of-range"),
    ("decimal-nan", Decimal("NaN"), Verdict.INVALID, "non-finite"),
    ("decimal-snan", Decimal("sNaN"), Verdict.INVALID, "non-finite"),
    ("decimal-inf", Decimal("Infinity"), Verdict.INVALID, "non-finite"),
    ("decimal-negative-inf", Decimal("-Infinity"), Verdict.INVALID, "non-finite"),
    ("float-in-exact", 0.8, Verdict.PASS, "meets-threshold"),
    ("int-in-exact", 1, Verdict.PASS, "meets-threshold"),
    ("nan-in-exact", float("nan"), Verdict.INVALID, "non-finite"),
    ("bool-in-exact", True, Verdict.INVALID, "wrong-type"),
    ("fraction-in-exact", Fraction(9, 10), Verdict.INVALID, "wrong-type"),
]


@pytest.mark.parametrize("value, verdict, code", [v[1:] for v in EXACT_VALUES], ids=[v[0] for v in EXACT_VALUES])
def test_decide_exact(value, verdict, code):
    policy = Policy(exact=True)
    assert decide(value, policy=policy) is verdict
    assert decide_with_reason(value, policy)[:2] == (verdict, code)


def test_decimal_subclass_is_refused_even_when_exact():
    class D(Decimal):
        pass

    assert decide(D("0.9"), policy=Policy(exact=True)) is Verdict.INVALID


@pytest.mark.parametrize("threshold", [0, 0.0, 0.5, 1, 1.0, 0.8])
def test_threshold_equality_passes(threshold):
    assert decide(threshold, threshold=threshold) is Verdict.PASS


def test_threshold_zero_still_refuses_invalid():
    assert decide(float("nan"), threshold=0) is Verdict.INVALID
    assert decide(-0.5, threshold=0) is Verdict.INVALID


BAD_THRESHOLDS = [
    ("nan", float("nan")),
    ("inf", math.inf),
    ("negative-inf", -math.inf),
    ("true", True),
    ("false", False),
    ("string", "0.8"),
    ("none-like-list", [0.8]),
    ("above", 1.5),
    ("below", -0.1),
    ("huge-int", 10**5000),
    ("float-subclass", FloatSubclass(0.8)),
    ("fraction", Fraction(4, 5)),
    ("decimal-without-exact", Decimal("0.8")),
]


@pytest.mark.parametrize("threshold", [b[1] for b in BAD_THRESHOLDS], ids=[b[0] for b in BAD_THRESHOLDS])
def test_bad_threshold_is_a_configuration_error(threshold):
    with pytest.raises(PolicyError) as info:
        decide(0.9, threshold=threshold)
    assert info.value.code == "bad-threshold"
    assert isinstance(info.value, ValueError)


def test_threshold_and_policy_together_is_refused():
    with pytest.raises(PolicyError):
        decide(0.9, threshold=0.5, policy=Policy())


def test_score_is_positional_only_and_options_keyword_only():
    with pytest.raises(TypeError):
        decide(score=0.9)
    with pytest.raises(TypeError):
        decide(0.9, 0.5)


def test_decide_is_pure():
    values = [0.9, float("nan"), True, 10**400, None]
    first = [decide(v) for v in values]
    second = [decide(v) for v in values]
    assert first == second


def test_a_comparison_that_is_not_pass_or_fail_stays_a_grader_error(monkeypatch):
    # Were the threshold comparison ever to return INVALID, it must not
    # become a FAIL that negation turns into a PASS.  judge() checks the
    # score before it compares, so only replacing decide_with_reason reaches
    # this; it lives here, with decide_with_reason's other white-box tests.
    import scorecontract._judgment as judgment_module
    from scorecontract import Outcome, judge

    monkeypatch.setattr(judgment_module, "decide_with_reason", lambda score, policy: (Verdict.INVALID, "x", "y"))
    for negate in (False, True):
        assert judge('{"score": 0.9}', threshold=0.5, negate=negate).outcome is Outcome.GRADER_ERROR
