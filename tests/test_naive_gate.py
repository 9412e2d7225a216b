# SPDX-License-Identifier: MIT
"""The seed's naive gate beside the strict one: why this library exists."""

from __future__ import annotations

import json

import pytest

from scorecontract import Verdict, evaluate


def naive_gate(raw: str) -> str:
    """The vulnerable gate from the first article, verbatim in spirit."""
    score = json.loads(raw)["score"]
    if score < 0.8:
        return "FAIL"
    return "PASS"


COUNTEREXAMPLES = [
    ("nan", '{"score": NaN}', "non-standard-constant"),
    ("overflow", '{"score": 1e400}', "non-finite"),
    ("true", '{"score": true}', "wrong-type"),
    ("duplicate", '{"score": 0.1, "score": 0.9}', "duplicate-member"),
    ("escaped-duplicate", '{"score": 0.1, "\\u0073core": 0.9}', "duplicate-member"),
]


@pytest.mark.parametrize("raw, code", [c[1:] for c in COUNTEREXAMPLES], ids=[c[0] for c in COUNTEREXAMPLES])
def test_naive_gate_passes_what_the_strict_gate_refuses(raw, code):
    assert naive_gate(raw) == "PASS"
    decision = evaluate(raw)
    assert decision.verdict is Verdict.INVALID
    assert decision.code == code


@pytest.mark.parametrize("raw, verdict", [('{"score": 0.9}', "PASS"), ('{"score": 0.7}', "FAIL")])
def test_both_gates_agree_on_honest_evidence(raw, verdict):
    assert naive_gate(raw) == verdict
    assert evaluate(raw).verdict is Verdict[verdict]


def test_the_seed_fix_still_passes_infinity():
    # "return PASS if score >= 0.8 else FAIL" fixes NaN but not infinity.
    score = json.loads('{"score": 1e400}')["score"]
    assert ("PASS" if score >= 0.8 else "FAIL") == "PASS"
