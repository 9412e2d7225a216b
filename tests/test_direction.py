# SPDX-License-Identifier: MIT
"""Direction and scale: "lower" policies, and bounds that are null (unbounded)."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest

from scorecontract import Policy, PolicyError, Verdict, decide, evaluate

LOWER = Policy(5, minimum=0, maximum=None, direction="lower", version="ppl")


@pytest.mark.parametrize(
    ("score", "verdict"),
    [(0, Verdict.PASS), (4.99, Verdict.PASS), (5, Verdict.PASS), (5.0000001, Verdict.FAIL), (10**300, Verdict.FAIL)],
)
def test_lower_passes_at_or_below_the_threshold(score, verdict):
    assert decide(score, policy=LOWER) is verdict
    decision = evaluate(f'{{"score": {score}}}', policy=LOWER)
    assert decision.verdict is verdict
    assert "lower is better" in decision.message
    assert decision.as_dict()["policy"]["direction"] == "lower"


def test_lower_under_exact_compares_decimal_text():
    policy = Policy(Decimal("0.5"), direction="lower", exact=True)
    assert evaluate('{"score": 0.50000000000000000001}', policy=policy).verdict is Verdict.FAIL
    assert evaluate('{"score": 0.5}', policy=policy).verdict is Verdict.PASS


def test_higher_is_the_default_and_is_not_named():
    decision = evaluate('{"score": 0.9}')
    assert Policy().direction == "higher"
    assert "direction" not in decision.as_dict()["policy"]
    assert "lower" not in decision.message


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -math.inf])
def test_unbounded_sides_still_refuse_non_finite(value):
    policy = Policy(0, minimum=None, maximum=None)
    assert decide(value, policy=policy) is Verdict.INVALID
    assert decide(-1e308, policy=policy) is Verdict.FAIL
    assert decide(1e308, policy=policy) is Verdict.PASS


def test_unbounded_bounds_in_messages_and_policy_dict():
    policy = Policy(1, minimum=0, maximum=None)
    decision = evaluate('{"score": -2}', policy=policy)
    assert decision.code == "out-of-range"
    assert "no maximum" in decision.message
    assert policy.as_dict()["max"] is None
    assert evaluate('{"score": 1e308}', policy=policy).verdict is Verdict.PASS


@pytest.mark.parametrize("direction", ["up", "Lower", None, True, ""])
def test_bad_direction_is_configuration(direction):
    with pytest.raises(PolicyError) as caught:
        Policy(0.5, direction=direction)
    assert caught.value.code == "bad-policy"


def test_threshold_outside_one_sided_bounds():
    with pytest.raises(PolicyError) as caught:
        Policy(-1, minimum=0, maximum=None)
    assert caught.value.code == "bad-threshold"
    assert "no maximum" in caught.value.message


def test_replace_keeps_and_changes_the_new_fields():
    changed = LOWER.replace(version="ppl-2")
    assert changed.direction == "lower" and changed.maximum is None
    assert LOWER.replace(direction="higher").direction == "higher"


def test_hoeffding_refuses_an_unbounded_policy():
    import io

    from scorecontract import report

    trials = io.BytesIO(b'{"trial_id": "a", "score": 0.9}\n{"trial_id": "b", "score": 0.7}\n')
    with pytest.raises(PolicyError) as caught:
        report(trials, scheduled=2, policy=Policy(0.5, maximum=None), confidence=0.95, bound="hoeffding")
    assert caught.value.code == "bad-bounds" and "unbounded" in caught.value.message
