# SPDX-License-Identifier: MIT
"""``dumps`` refuses exactly what the consumer would refuse.

``dumps({"score": Decimal("1E-1001")}, policy=exact)`` once returned text
that ``evaluate`` then refused as too-many-digits: the producer checked the
digit count but not the exact exponent bound.  ``dumps`` now reads its own
output back with the consumer's decoder, so a rule added there cannot be
missed here.
"""

from __future__ import annotations

import decimal
import random
from decimal import Decimal

import pytest

from scorecontract import InvalidEvidence, Policy, Verdict, dumps, evaluate

EXACT = Policy(Decimal("0.5"), exact=True)
WIDE = Policy(0, minimum=Decimal("-1e999"), maximum=Decimal("1e999"), exact=True)


def decimals() -> list[Decimal]:
    rng = random.Random(1001)
    values = [
        Decimal("1E-1001"),
        Decimal("1E-1000"),
        Decimal("1E-999"),
        Decimal("-1E-1001"),
        Decimal("0E-1001"),
        Decimal("0E-5000"),
        Decimal("0E+2000"),
        Decimal("1E+1000"),
        Decimal("1E+1001"),
        Decimal("9.99E+1000"),
        Decimal("1." + "0" * 700),
        Decimal("0." + "1" * 638),
        Decimal("0." + "1" * 639),
        Decimal("0.5"),
        Decimal("-0"),
    ]
    for _ in range(300):
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randrange(1, 40)))
        values.append(Decimal(digits).scaleb(rng.randrange(-1100, 1100)))
    return values


@pytest.mark.parametrize("policy", [EXACT, WIDE], ids=["unit", "wide"])
def test_dumps_accepts_only_what_evaluate_accepts(policy):
    written = refused = 0
    for value in decimals():
        try:
            text = dumps({"score": value}, policy=policy)
        except InvalidEvidence as exc:
            refused += 1
            # The consumer, given the value's own text, refuses it alike.
            decision = evaluate('{"score": ' + str(value) + "}", policy=policy)
            assert decision.verdict is Verdict.INVALID, value
            assert decision.code == exc.code, value
            continue
        written += 1
        decision = evaluate(text, policy=policy)
        assert decision.verdict is not Verdict.INVALID, (value, decision.code)
        assert decision.score == value
    assert written > 20 and refused > 20


def test_the_case_from_the_review():
    with pytest.raises(InvalidEvidence) as info:
        dumps({"score": Decimal("1E-1001")}, policy=EXACT)
    assert info.value.code == "too-many-digits"
    assert evaluate('{"score": 1E-1001}', policy=EXACT).code == "too-many-digits"


def test_the_text_does_not_follow_the_thread_context():
    expected = dumps({"score": Decimal("1E-5")}, policy=EXACT)
    with decimal.localcontext(decimal.Context(capitals=0, prec=1)):
        assert dumps({"score": Decimal("1E-5")}, policy=EXACT) == expected
    assert expected == '{"score": 0.00001}'
