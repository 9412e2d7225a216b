# SPDX-License-Identifier: MIT
"""The exact sum counts every score as its own decimal value.

The float ``1e23`` equals the int ``99999999999999991611392``, so counting
scores in one dict keyed by value summed the second as the first: the
report was PASS in one line order and FAIL in the other.
"""

from __future__ import annotations

import itertools
import random
from decimal import Decimal

import pytest

from scorecontract import Policy, Verdict, report

POLICY = Policy(1e23, maximum=1e30)
FLOAT = b"1e23"
INT = b"99999999999999991611392"


def line(trial_id: str, score: bytes, extra: bool = False) -> bytes:
    # An extra member sends the line down the full path, not the fast one.
    seed = b', "seed": 1' if extra else b""
    return b'{"trial_id": "' + trial_id.encode() + b'", "score": ' + score + seed + b"}\n"


@pytest.mark.parametrize("extra", [(False, False), (True, True), (False, True), (True, False)])
@pytest.mark.parametrize("order", [(FLOAT, INT), (INT, FLOAT)])
def test_equal_int_and_float_are_summed_apart(order, extra):
    data = line("a", order[0], extra[0]) + line("b", order[1], extra[1])
    result = report(data, scheduled=2, policy=POLICY)
    assert (result.verdict, result.code) == (Verdict.FAIL, "below-threshold")
    assert result.mean.meets is False


def exact_value(score: bytes) -> Decimal:
    # The decimal text the producer wrote; a float literal is the repr of
    # the double it reads as (what to_decimal documents).
    text = score.decode()
    if "." in text or "e" in text.lower():
        return Decimal(repr(float(text)))
    return Decimal(int(text))


def test_random_mixtures_of_equal_values_sum_exactly():
    # Pairs of an int and a float that compare equal but differ in decimal
    # value, and pairs that are the same value (1 and 1.0).
    pairs = [
        (b"1e23", b"99999999999999991611392"),
        (b"1e22", b"10000000000000000000000"),
        (b"9007199254740993.0", b"9007199254740993"),
        (b"1.0", b"1"),
        (b"0.0", b"0"),
    ]
    rng = random.Random(5)
    policy = Policy(0, maximum=1e30)
    decided = set()
    checked = 0
    for _ in range(60):
        scores = [rng.choice(rng.choice(pairs)) for _ in range(rng.randrange(1, 8))]
        for order in itertools.islice(itertools.permutations(scores), 3):
            data = b"".join(line(f"t{i}", s, rng.random() < 0.3) for i, s in enumerate(order))
            result = report(data, scheduled=len(order), policy=policy)
            expected = sum((exact_value(s) for s in order), Decimal(0))
            assert result.valid == len(order)
            assert result.mean.numerator == float(expected)
            threshold = expected / len(order)
            at = report(data, scheduled=len(order), policy=Policy(float(threshold), maximum=1e30))
            meets = expected >= Decimal(repr(float(threshold))) * len(order)
            assert at.mean.meets is meets
            decided.add(meets)
            checked += 1
    assert checked > 100 and decided == {True, False}
