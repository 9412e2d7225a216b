# SPDX-License-Identifier: MIT
"""Verdict: no truth value, explicit exit codes."""

from __future__ import annotations

import pytest

from scorecontract import Verdict, evaluate


@pytest.mark.parametrize("verdict", list(Verdict), ids=[v.name for v in Verdict])
def test_verdict_has_no_truth_value(verdict):
    with pytest.raises(TypeError):
        bool(verdict)
    with pytest.raises(TypeError):
        if verdict:
            pass


def test_decision_has_no_truth_value():
    with pytest.raises(TypeError):
        bool(evaluate('{"score": NaN}'))


def test_only_pass_releases():
    assert [v for v in Verdict if v.releases] == [Verdict.PASS]


def test_exit_codes():
    assert {v: v.exit_code for v in Verdict} == {
        Verdict.PASS: 0,
        Verdict.FAIL: 1,
        Verdict.INVALID: 3,
        Verdict.REVIEW: 4,
    }


def test_verdict_is_not_equal_to_its_name():
    # A str mix-in would make "INVALID" == Verdict.INVALID and invite
    # string comparisons; the enum stays distinct.
    assert Verdict.PASS != "PASS"
    assert Verdict("PASS") is Verdict.PASS
