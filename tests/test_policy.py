# SPDX-License-Identifier: MIT
"""Policy: validated with the numeric contract, versioned (docs/policies.md)."""

from __future__ import annotations

import doctest
import math
import sys
from decimal import Decimal
from fractions import Fraction

import pytest

import scorecontract
from scorecontract import Policy, PolicyError, Verdict, decide, evaluate, judge, report

# The documented limit on a version string (docs/policies.md).
MAX_VERSION_LENGTH = 200


class FloatSubclass(float):
    pass


BAD_POLICIES = [
    # (id, keyword arguments, code)
    ("threshold-nan", {"threshold": math.nan}, "bad-threshold"),
    ("threshold-inf", {"threshold": math.inf}, "bad-threshold"),
    ("threshold-negative-inf", {"threshold": -math.inf}, "bad-threshold"),
    ("threshold-true", {"threshold": True}, "bad-threshold"),
    ("threshold-string", {"threshold": "0.8"}, "bad-threshold"),
    ("threshold-none", {"threshold": None}, "bad-threshold"),
    ("threshold-above", {"threshold": 1.5}, "bad-threshold"),
    ("threshold-below", {"threshold": -0.1}, "bad-threshold"),
    ("threshold-subclass", {"threshold": FloatSubclass(0.8)}, "bad-threshold"),
    ("threshold-fraction", {"threshold": Fraction(4, 5)}, "bad-threshold"),
    ("threshold-decimal-not-exact", {"threshold": Decimal("0.8")}, "bad-threshold"),
    ("threshold-decimal-nan", {"threshold": Decimal("NaN"), "exact": True}, "bad-threshold"),
    ("threshold-decimal-snan", {"threshold": Decimal("sNaN"), "exact": True}, "bad-threshold"),
    ("threshold-decimal-inf", {"threshold": Decimal("Infinity"), "exact": True}, "bad-threshold"),
    ("threshold-decimal-above", {"threshold": Decimal("1.0000000000000001"), "exact": True}, "bad-threshold"),
    ("min-nan", {"minimum": math.nan}, "bad-bounds"),
    ("max-inf", {"maximum": math.inf}, "bad-bounds"),
    ("min-bool", {"minimum": False}, "bad-bounds"),
    ("max-string", {"maximum": "1"}, "bad-bounds"),
    ("max-decimal-not-exact", {"maximum": Decimal("1")}, "bad-bounds"),
    ("inverted", {"threshold": 0.5, "minimum": 1, "maximum": 0}, "bad-bounds"),
    ("inverted-exact", {"threshold": 0.5, "minimum": Decimal("1"), "maximum": 0, "exact": True}, "bad-bounds"),
    ("threshold-outside-custom", {"threshold": 11, "minimum": 0, "maximum": 10}, "bad-threshold"),
    ("version-empty", {"version": ""}, "bad-version"),
    ("version-blank", {"version": "  \t"}, "bad-version"),
    ("version-none", {"version": None}, "bad-version"),
    ("version-int", {"version": 3}, "bad-version"),
    ("version-newline", {"version": "v1\n::error::forged"}, "bad-version"),
    ("version-carriage-return", {"version": "v1\r"}, "bad-version"),
    ("version-nul", {"version": "v\x00"}, "bad-version"),
    ("version-c1", {"version": "v\x85"}, "bad-version"),
    ("version-line-separator", {"version": "v\u2028"}, "bad-version"),
    ("version-surrogate", {"version": "v\ud800"}, "bad-version"),
    ("version-too-long", {"version": "v" * (MAX_VERSION_LENGTH + 1)}, "bad-version"),
    ("exact-int", {"exact": 1}, "bad-policy"),
    ("exact-string", {"exact": "true"}, "bad-policy"),
]


@pytest.mark.parametrize("arguments, code", [b[1:] for b in BAD_POLICIES], ids=[b[0] for b in BAD_POLICIES])
def test_bad_policy_raises_with_its_code(arguments, code):
    with pytest.raises(PolicyError) as info:
        Policy(**arguments)
    assert info.value.code == code
    assert "\n" not in str(info.value)


GOOD_POLICIES = [
    ("default", {}),
    ("zero", {"threshold": 0}),
    ("one", {"threshold": 1.0}),
    ("custom-bounds", {"threshold": 7, "minimum": 0, "maximum": 10}),
    ("degenerate-bounds", {"threshold": 0.5, "minimum": 0.5, "maximum": 0.5}),
    ("huge-int-bounds", {"threshold": 10**400, "minimum": 0, "maximum": 10**401}),
    ("exact-decimal", {"threshold": Decimal("0.8"), "exact": True}),
    ("exact-float", {"threshold": 0.8, "exact": True}),
    ("version-max-length", {"version": "v" * MAX_VERSION_LENGTH}),
    ("version-unicode", {"version": "réléase-2024"}),
]


@pytest.mark.parametrize("arguments", [g[1] for g in GOOD_POLICIES], ids=[g[0] for g in GOOD_POLICIES])
def test_good_policy_keeps_what_it_was_given(arguments):
    policy = Policy(**arguments)
    for name, value in arguments.items():
        assert getattr(policy, name) == value
        assert type(getattr(policy, name)) is type(value)


def test_version_is_in_the_policy_and_decision_dicts():
    policy = Policy(0.9, version="release-7")
    assert policy.as_dict() == {"version": "release-7", "threshold": 0.9, "min": 0, "max": 1, "exact": False}
    decision = evaluate(b'{"score": 0.95}', policy=policy)
    assert decision.as_dict()["policy"]["version"] == "release-7"
    invalid = evaluate(b'{"score": NaN}', policy=policy)
    assert invalid.verdict is Verdict.INVALID
    assert invalid.as_dict()["policy"]["version"] == "release-7"
    assert evaluate(b'{"score": 0.95}').as_dict()["policy"]["version"] == "default"


def test_policies_compare_by_value():
    assert Policy(0.9, version="a") == Policy(0.9, version="a")
    assert hash(Policy(0.9, version="a")) == hash(Policy(0.9, version="a"))
    assert Policy(0.9, version="a") != Policy(0.9, version="b")
    assert Policy(0.9) != Policy(0.9, exact=True)
    assert Policy(0.9) != Policy(0.8)


def test_custom_bounds_apply_to_scores():
    policy = Policy(7, minimum=0, maximum=10)
    assert decide(8, policy=policy) is Verdict.PASS
    assert decide(6.5, policy=policy) is Verdict.FAIL
    assert decide(10.5, policy=policy) is Verdict.INVALID


def test_threshold_shortcut_and_policy_agree():
    for score in (0.5, 0.9, 0.95, math.nan, True, 2):
        assert decide(score, threshold=0.9) is decide(score, policy=Policy(0.9))


def test_policy_argument_must_be_a_policy():
    with pytest.raises(PolicyError) as info:
        decide(0.9, policy={"threshold": 0.8})
    assert info.value.code == "bad-policy"


REPLACEMENTS = [
    ("threshold", {"threshold": 0.9}),
    ("bounds", {"minimum": -1, "maximum": 2}),
    ("version", {"version": "release-3"}),
    ("exact", {"exact": True}),
    ("review-owner", {"review_owner": "alice"}),
    ("review-owner-removed", {"review_owner": None}),
    ("require-candidate", {"require_candidate": True}),
    ("several", {"threshold": 5, "maximum": 10, "version": "scaled"}),
    ("nothing", {}),
]


@pytest.mark.parametrize("changes", [r[1] for r in REPLACEMENTS], ids=[r[0] for r in REPLACEMENTS])
def test_replace_changes_only_what_it_names(changes):
    original = Policy(0.7, version="v1", review_owner="bob")
    expected = {
        "threshold": 0.7,
        "minimum": 0,
        "maximum": 1,
        "version": "v1",
        "exact": False,
        "review_owner": "bob",
        "require_candidate": False,
        **changes,
    }
    changed = original.replace(**changes)
    assert changed == Policy(expected.pop("threshold"), **expected)
    assert original == Policy(0.7, version="v1", review_owner="bob")  # untouched
    assert type(changed) is Policy


@pytest.mark.parametrize(
    "changes, code",
    [
        ({"threshold": float("nan")}, "bad-threshold"),
        ({"threshold": None}, "bad-threshold"),
        ({"maximum": 0.5}, "bad-threshold"),  # 0.7 is then outside the bounds
        ({"minimum": 2}, "bad-bounds"),
        ({"version": ""}, "bad-version"),
        ({"exact": "yes"}, "bad-policy"),
        ({"threshold": Decimal("0.9")}, "bad-threshold"),  # not exact
    ],
    ids=["nan", "none", "threshold-outside", "inverted", "empty-version", "exact-string", "decimal"],
)
def test_replace_validates_as_the_constructor_does(changes, code):
    with pytest.raises(PolicyError) as info:
        Policy(0.7).replace(**changes)
    assert info.value.code == code


def test_replace_refuses_an_unknown_field():
    with pytest.raises(TypeError):
        Policy().replace(treshold=0.9)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Policy().replace(0.9)  # type: ignore[misc]


CALLS_WITH_A_THRESHOLD = [
    ("decide", lambda **kw: decide(0.9, **kw)),
    ("evaluate", lambda **kw: evaluate(b'{"score": 0.9}', **kw)),
    ("report", lambda **kw: report(b'{"trial_id": "a", "score": 0.9}\n', scheduled=1, **kw)),
]


@pytest.mark.parametrize("call", [c[1] for c in CALLS_WITH_A_THRESHOLD], ids=[c[0] for c in CALLS_WITH_A_THRESHOLD])
def test_threshold_none_is_refused_where_it_used_to_mean_the_default(call):
    with pytest.raises(PolicyError) as info:
        call(threshold=None)
    assert info.value.code == "bad-threshold"
    with pytest.raises(PolicyError) as info:
        call(threshold=0.8, policy=Policy())
    assert info.value.code == "bad-policy"
    with pytest.raises(PolicyError) as info:
        call(threshold=None, policy=Policy())
    assert info.value.code == "bad-policy"
    left_out, explicit = call(), call(threshold=0.8)
    assert left_out == explicit if not isinstance(left_out, Verdict) else left_out is explicit


def test_threshold_none_means_no_threshold_in_judge_alone():
    assert judge('{"score": 0.1}', threshold=None).code == "positive-score"
    assert judge('{"score": 0.1}').code == "positive-score"
    assert judge('{"score": 0.1}', threshold=0.8).code == "below-threshold"
    assert judge('{"score": 0.1}', threshold=None).threshold is None


def test_all_is_sorted_and_is_the_public_dir():
    public = {name for name in dir(scorecontract) if not name.startswith("_")}
    assert scorecontract.__all__ == sorted(scorecontract.__all__)
    assert set(scorecontract.__all__) == public | {"__version__"}
    assert {"dumps", "load_policy", "Policy"} <= public


@pytest.mark.parametrize("module", ["_policy", "_policy_file", "_dumps", "_cli._policy", "_sign", "_provenance"])
def test_docstring_examples_run(module):
    import importlib

    imported = importlib.import_module(f"scorecontract.{module}")
    failed, attempted = doctest.testmod(imported, optionflags=doctest.ELLIPSIS)
    assert failed == 0
    if module in ("_policy", "_dumps", "_sign") and sys.flags.optimize < 2:  # -OO strips docstrings
        assert attempted > 0
