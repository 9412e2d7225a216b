# SPDX-License-Identifier: MIT
"""Every result and value class is immutable, compares by value and pickles.

One table of the six classes, each built twice from the same evidence: the
two must be equal, hash equal, survive pickling, and refuse every attempt
to change them.  A Report is checked all the way down, since what it holds
(metrics, observations, counts by code) reaches receipts.
"""

from __future__ import annotations

import copy
import json
import pickle

import pytest

import scorecontract
from scorecontract import (
    Decision,
    Judgment,
    Metric,
    Observation,
    Policy,
    Report,
    Verdict,
    evaluate,
    judge,
    report,
)
from support import fixture_bytes, manifest_cases

TRIALS = (
    b'{"trial_id": "a", "score": 0.9}\n'
    b'{"trial_id": "b", "score": NaN}\n'
    b'{"trial_id": "b", "score": 0.85}\n'
    b'{"trial_id": "a", "score": 0.1}\n'
)


def a_report() -> Report:
    return report(TRIALS, scheduled=2, max_listed=None)


MAKERS = {
    "Decision": lambda: evaluate(b'{"score": 0.9}'),
    "Decision-invalid": lambda: evaluate(b'{"score": 0.9'),
    "Judgment": lambda: judge('{"pass": true, "score": 0.9, "reason": ["a", {"b": 1}]}'),
    "Judgment-error": lambda: judge('{"reason": "considered"}', negate=True),
    "Report": a_report,
    "Metric": lambda: a_report().mean,
    "Observation": lambda: a_report().invalid_observations[0],
    "Policy": lambda: Policy(0.7, version="v1", review_owner="alice"),
}
CLASSES = {
    "Decision": Decision,
    "Decision-invalid": Decision,
    "Judgment": Judgment,
    "Judgment-error": Judgment,
    "Report": Report,
    "Metric": Metric,
    "Observation": Observation,
    "Policy": Policy,
}


def test_the_table_covers_every_value_class():
    assert {cls.__name__ for cls in CLASSES.values()} == {
        "Decision",
        "Judgment",
        "Report",
        "Metric",
        "Observation",
        "Policy",
    }
    for name in ("Metric", "Observation"):
        assert name in scorecontract.__all__ and getattr(scorecontract, name) is CLASSES[name]


@pytest.mark.parametrize("name", MAKERS)
def test_equal_values_compare_and_hash_equal(name):
    first, second = MAKERS[name](), MAKERS[name]()
    assert type(first) is CLASSES[name]
    assert first is not second
    assert first == second and not first != second
    assert hash(first) == hash(second)
    assert len({first, second}) == 1


@pytest.mark.parametrize("name", MAKERS)
def test_a_value_is_not_equal_to_another_kind(name):
    value = MAKERS[name]()
    assert value != object() and value != repr(value)
    other = next(MAKERS[n]() for n in MAKERS if CLASSES[n] is not CLASSES[name])
    assert value != other


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
@pytest.mark.parametrize("name", MAKERS)
def test_values_survive_pickling_and_copying(name, protocol):
    value = MAKERS[name]()
    again = pickle.loads(pickle.dumps(value, protocol=protocol))
    assert type(again) is type(value) and again == value and hash(again) == hash(value)
    assert copy.copy(value) == value and copy.deepcopy(value) == value
    if hasattr(value, "as_dict"):
        assert again.as_dict() == value.as_dict()


def public_attributes(value):
    return [n for n in dir(value) if not n.startswith("_") and not callable(getattr(value, n))]


@pytest.mark.parametrize("name", MAKERS)
def test_no_attribute_can_be_set_added_or_deleted(name):
    value = MAKERS[name]()
    names = public_attributes(value)
    assert len(names) >= 4, names
    before = repr(value)
    for attribute in names:
        with pytest.raises(AttributeError):
            setattr(value, attribute, None)
        with pytest.raises(AttributeError):
            delattr(value, attribute)
    with pytest.raises(AttributeError):
        value.extra = 1
    assert repr(value) == before and value == MAKERS[name]()


def test_the_reported_mutations_are_refused_and_never_reach_a_receipt():
    # The two mutations that used to succeed and change what receipts say.
    result = report(b'{"trial_id": "a", "score": 0.1}\n{"trial_id": "b", "score": "x"}\n', scheduled=2)
    before = json.dumps(result.as_dict(), sort_keys=True)
    assert result.mean.meets is False
    with pytest.raises(AttributeError):
        result.mean.meets = True
    assert result.invalid_observations[0].code == "wrong-type"
    with pytest.raises(AttributeError):
        result.invalid_observations[0].code = "meets-threshold"
    assert json.dumps(result.as_dict(), sort_keys=True) == before
    assert result.as_dict()["metric"]["meets_threshold"] is False


def test_a_reports_collections_cannot_be_changed_either():
    result = a_report()
    assert type(result.invalid_observations) is tuple
    assert type(result.ignored_observations) is tuple
    assert type(result.missing_trials) is tuple
    assert type(result.deciding_metrics) is tuple
    with pytest.raises(TypeError):
        result.invalid_by_code["syntax"] = 1  # type: ignore[index]
    assert result.invalid_by_code == {"non-standard-constant": 1}
    # What as_dict hands out is a copy: changing it changes nothing.
    shown = result.as_dict()
    shown["invalid_by_code"]["syntax"] = 7  # type: ignore[index]
    shown["invalid_observations"].clear()  # type: ignore[attr-defined]
    assert result.as_dict() != shown and result == a_report()


def test_a_judgments_members_are_read_only():
    judgment = MAKERS["Judgment"]()
    with pytest.raises(TypeError):
        judgment.members["pass"] = False  # type: ignore[index]
    shown = judgment.as_dict()
    shown["members"]["pass"] = False  # type: ignore[index]
    assert judgment.members["pass"] is True


@pytest.mark.parametrize(
    "first, second",
    [
        (lambda: evaluate(b'{"score": 1}'), lambda: evaluate(b'{"score": 1.0}')),
        (lambda: evaluate(b'{"score": 0.9}'), lambda: evaluate(b'{"score": 0.9}', threshold=0.5)),
        (lambda: judge('{"score": 1}'), lambda: judge('{"score": 1.0}')),
        (lambda: judge('{"pass": true, "r": 1}'), lambda: judge('{"pass": true, "r": 2}')),
        (lambda: judge('{"pass": true}'), lambda: judge('{"pass": true}', negate=True)),
        (lambda: Policy(0.8), lambda: Policy(0.8, version="v2")),
        (lambda: a_report(), lambda: report(TRIALS, scheduled=2, max_listed=0)),
        (lambda: a_report(), lambda: report(TRIALS + b"\n", scheduled=2, max_listed=None)),
    ],
    ids=[
        "int-vs-float-score",
        "threshold",
        "judgment-score-type",
        "judgment-members",
        "negation",
        "policy-version",
        "report-listing",
        "report-input",
    ],
)
def test_values_that_differ_compare_unequal(first, second):
    assert first() != second()


@pytest.mark.parametrize("name", ["Decision", "Judgment", "Report"])
def test_results_have_no_truth_value(name):
    with pytest.raises(TypeError, match="no truth value"):
        bool(MAKERS[name]())


def test_a_decision_read_and_unread_is_the_same_decision():
    read, unread = evaluate(b'{"score": 0.9}'), evaluate(b'{"score": 0.9}')
    assert read.message == "score 0.9 >= threshold 0.8"
    assert read == unread and hash(read) == hash(unread)


def test_reprs_name_the_fields_and_never_raise_on_huge_numbers():
    assert repr(evaluate(b'{"score": 0.9}')).startswith("Decision(verdict=Verdict.PASS, code='meets-threshold'")
    huge = Policy(0, minimum=0, maximum=10**5000)
    assert "bits" in repr(huge)
    assert repr(a_report().mean).startswith("Metric(name='mean'")
    assert repr(Verdict.PASS) == "<Verdict.PASS: 'PASS'>"


CASES = manifest_cases()


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_a_decision_dict_has_the_same_keys_and_its_location(case):
    decision = evaluate(fixture_bytes(case["file"]))
    shown = decision.as_dict()
    assert list(shown) == ["verdict", "code", "message", "score", "policy", "location", "selection"]
    assert shown["selection"] is None
    if decision.pos is None:
        assert shown["location"] is None
    else:
        assert shown["location"] == {"pos": decision.pos, "line": decision.lineno, "column": decision.colno}


def test_some_fixture_decisions_are_located_and_some_are_not():
    located = {evaluate(fixture_bytes(c["file"])).pos is None for c in CASES}
    assert located == {True, False}


@pytest.mark.parametrize("text", ['{"pass": true', '{"reason": "x"}', '{"pass": true}', "[1]"])
def test_a_judgment_dict_has_the_same_keys_and_its_location(text):
    judgment = judge(text)
    shown = judgment.as_dict()
    assert list(shown)[-2:] == ["location", "selection"] and len(shown) == 12
    assert shown["selection"] is None
    expected = (
        None if judgment.pos is None else {"pos": judgment.pos, "line": judgment.lineno, "column": judgment.colno}
    )
    assert shown["location"] == expected
