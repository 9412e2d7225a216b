# SPDX-License-Identifier: MIT
"""A report refuses the policy keys it does not apply, never ignores them.

The report's tally counts a trial as passing when its score is at least the
threshold.  A lower-is-better policy judged that way would pass a bad mean
(0.5 against a ceiling of 0.2), so such a policy is a configuration error
until the report honours it.
"""

from __future__ import annotations

import json

import pytest

from scorecontract import Policy, PolicyError, report
from scorecontract._cli import main

LINES = b'{"trial_id": "t-1", "score": 0.5}\n{"trial_id": "t-2", "score": 0.5}\n'


@pytest.mark.parametrize(
    "changes",
    [
        {"direction": "lower"},
        {"require": ("$.score >= 0",)},
        {"nonfinite_elsewhere": "list"},
    ],
    ids=["direction-lower", "require", "nonfinite-list"],
)
def test_report_refuses_keys_it_does_not_apply(changes):
    policy = Policy(0.2).replace(**changes)
    with pytest.raises(PolicyError) as info:
        report(LINES, scheduled=2, policy=policy)
    assert info.value.code == "bad-policy"


def test_a_lower_policy_file_is_exit_2_for_report_not_a_pass(tmp_path, capsys):
    trials = tmp_path / "trials.jsonl"
    trials.write_bytes(LINES)
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"threshold": 0.2, "direction": "lower", "version": "ceiling", "exact": False}))
    status = main(["report", "--scheduled", "2", "--policy", str(policy), "--", str(trials)])
    assert status == 2
    assert "direction 'lower'" in capsys.readouterr().err


def test_the_default_policy_still_reports():
    assert report(LINES, scheduled=2, policy=Policy(0.5)).verdict.value == "PASS"
