# SPDX-License-Identifier: MIT
"""Source: a harness name and its adapter's options, as an immutable value."""

import pickle

import pytest

from scorecontract import PolicyError, Source


def test_options_are_sorted_and_frozen():
    source = Source("inspect", scorer="match", labels={"P": 0.5, "C": 1}, metric="accuracy")
    assert source.harness == "inspect"
    assert source.options == (("labels", (("C", 1), ("P", 0.5))), ("metric", "accuracy"), ("scorer", "match"))
    assert source.get("scorer") == "match"
    assert source.get("task") is None
    assert source.get("task", "x") == "x"
    assert source.as_dict() == {"labels": (("C", 1), ("P", 0.5)), "metric": "accuracy", "scorer": "match"}
    assert hash(source) == hash(Source("inspect", metric="accuracy", labels={"C": 1, "P": 0.5}, scorer="match"))
    assert pickle.loads(pickle.dumps(source)) == source
    with pytest.raises(AttributeError):
        source.harness = "helm"  # type: ignore[misc]


@pytest.mark.parametrize("harness", ["lm_eval", "LM-EVAL", "", 1, None])
def test_unknown_harness_is_a_policy_error(harness):
    with pytest.raises(PolicyError) as caught:
        Source(harness)
    assert caught.value.code == "bad-option"
    assert "lm-eval" in caught.value.message


def test_options_beyond_the_adapter_are_refused():
    source = Source("lm-eval", task="mmlu", metric="acc,none", scorer="match")
    source.refuse_options_beyond(("task", "metric", "scorer"), "check --from lm-eval")
    with pytest.raises(PolicyError) as caught:
        source.refuse_options_beyond(("task", "metric"), "check --from lm-eval")
    assert caught.value.code == "bad-option"
    assert "check --from lm-eval does not take scorer" in caught.value.message
