# SPDX-License-Identifier: MIT
"""Review findings: a baseline that is the candidate, a regression no scale allows, a judgment's wording.

A report compared with itself has every paired difference 0 and passed any
``--max-regression``, even 0 (``BASELINE=$CANDIDATE`` released anything);
``--max-regression 5`` on a [0, 1] scale allowed a regression nothing can
reach.  Both are now configuration errors, exit 2.
"""

from __future__ import annotations

import pytest

from scorecontract import Policy, PolicyError, Verdict, judge, report
from scorecontract._cli import main

LINES = b"".join(b'{"trial_id": "t%d", "score": 0.%d}\n' % (i, i) for i in range(10))


@pytest.fixture
def trials(tmp_path):
    path = tmp_path / "c10.jsonl"
    path.write_bytes(LINES)
    return path


def test_a_baseline_naming_the_trials_file_is_refused(trials, tmp_path):
    for baseline in (trials, str(trials), tmp_path / "." / "c10.jsonl"):
        with pytest.raises(PolicyError) as info:
            report(trials, scheduled=10, baseline=baseline, max_regression=0)
        assert info.value.code == "option-conflict"
        assert f"the baseline {str(baseline)!a} is the trials file {str(trials)!a}" in info.value.message


def test_a_baseline_naming_one_shard_is_refused(trials, tmp_path):
    other = tmp_path / "other.jsonl"
    other.write_bytes(b'{"trial_id": "t10", "score": 0.5}\n')
    with pytest.raises(PolicyError) as info:
        report([trials, other], scheduled=11, baseline=[other, tmp_path / "x.jsonl"], max_regression=0)
    assert info.value.code == "option-conflict"


def test_a_copy_of_the_candidate_still_compares(trials, tmp_path):
    # Identical bytes are not refused: two models with the same results on
    # a small pass/fail run write the same file (benchmarks/bounds.py draws
    # such pairs), and their difference, 0, is the true one.
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(LINES)
    assert report(trials, scheduled=10, baseline=copy, max_regression=0).verdict is Verdict.PASS


def test_the_same_scores_in_other_bytes_still_compare(trials):
    reordered = b"".join(reversed(LINES.splitlines(keepends=True)))
    result = report(trials, scheduled=10, baseline=reordered, max_regression=0)
    assert result.verdict is Verdict.PASS and result.regression.pairs == 10


def test_the_command_line_exits_2_naming_both(trials, capsys):
    baseline = trials
    for extra in ([], ["--confidence", "0.95"]):
        argv = ["report", "--scheduled", "10", *extra, "--baseline", str(baseline), "--max-regression", "0"]
        assert main([*argv, "--", str(trials)]) == 2
        err = capsys.readouterr().err
        assert "option-conflict" in err and "the candidate compared with itself" in err
        assert err.count(str(trials)) == 2


def test_a_max_regression_beyond_the_score_range_is_refused(trials, tmp_path):
    baseline = b"".join(reversed(LINES.splitlines(keepends=True)))
    for allowed in (0, 0.5, 1):
        report(trials, scheduled=10, baseline=baseline, max_regression=allowed)
    for beyond in (1.0000001, 5, 10**400):
        with pytest.raises(PolicyError) as info:
            report(trials, scheduled=10, baseline=baseline, max_regression=beyond)
        assert info.value.code == "bad-policy" and "beyond the policy's score range [0, 1]" in info.value.message
    # The range is the policy's: [0, 10] allows 5; an unbounded side has no range.
    wide = Policy(0.8, minimum=0, maximum=10)
    assert report(trials, scheduled=10, baseline=baseline, max_regression=5, policy=wide).regression.pairs == 10
    with pytest.raises(PolicyError):
        report(trials, scheduled=10, baseline=baseline, max_regression=10.5, policy=wide)
    open_ended = Policy(0.8, minimum=0, maximum=None)
    assert report(trials, scheduled=10, baseline=baseline, max_regression=1000, policy=open_ended).regression


def test_the_command_line_refuses_it_as_a_bad_option(trials, tmp_path, capsys):
    baseline = tmp_path / "b.jsonl"
    baseline.write_bytes(b"".join(reversed(LINES.splitlines(keepends=True))))
    argv = ["report", "--scheduled", "10", "--baseline", str(baseline), "--max-regression", "5", "--", str(trials)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "bad-option: --max-regression 5 is beyond the policy's score range [0, 1] (at most 1)" in err


def test_an_underflowing_numeric_string_reads_as_one_sentence():
    judgment = judge({"score": "1e-400"}, threshold=0.5)
    assert judgment.code == "unusable-score"
    assert judgment.message.startswith("score is a string ('1e-400'): number 1e-400 is not zero")
    assert "score string" not in judgment.message
