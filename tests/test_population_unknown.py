# SPDX-License-Identifier: MIT
"""Under a bare ``--scheduled N``, a line whose trial cannot be made out is INVALID.

With ``scheduled=2`` and the lines t-1 (valid), t-2 (unreadable) and t-3
(valid), the first two distinct readable ids were t-1 and t-3: the report
PASSed although t-2 was scheduled and failed.  A bare count cannot tell a
failed trial from one that was never scheduled, so any observation without
a readable trial id makes the report INVALID (``population-unknown``); a
manifest names the population, and then today's rule stands.
"""

from __future__ import annotations

import pytest

from scorecontract import Policy, Verdict, report
from support import run_main

T1 = b'{"trial_id": "t-1", "score": 0.9}'
T3 = b'{"trial_id": "t-3", "score": 0.9}'
UNREADABLE = {
    "truncated": b'{"trial_id": "t-2", "sco',
    "bad-utf8-elsewhere": b'{"trial_id": "t-2", "note": "\xff", "score": 0.9}',
    "duplicated-trial-id": b'{"trial_id": "t-2", "trial_id": "t-2", "score": 0.9}',
    "wrapped-in-array": b'[{"trial_id": "t-2", "score": 0.9}]',
    "no-trial-id": b'{"score": 0.1}',
    "numeric-trial-id": b'{"trial_id": 2, "score": 0.9}',
    "empty-trial-id": b'{"trial_id": "", "score": 0.9}',
    "blank": b"",
    "not-json": b"t-2 crashed",
}


def lines(*parts: bytes) -> bytes:
    return b"\n".join(parts) + b"\n"


@pytest.mark.parametrize("bad", list(UNREADABLE.values()), ids=list(UNREADABLE))
@pytest.mark.parametrize("where", ["middle", "first", "last"])
def test_a_bare_count_with_an_unattributed_line_is_invalid(bad, where):
    order = {"middle": (T1, bad, T3), "first": (bad, T1, T3), "last": (T1, T3, bad)}[where]
    result = report(lines(*order), scheduled=2)
    assert (result.verdict, result.code) == (Verdict.INVALID, "population-unknown")
    assert "manifest" in result.message
    line = order.index(bad) + 1
    assert f"line {line}" in result.message


@pytest.mark.parametrize("bad", list(UNREADABLE.values()), ids=list(UNREADABLE))
def test_a_review_owner_does_not_soften_it(bad):
    result = report(lines(T1, bad, T3), scheduled=2, policy=Policy(review_owner="alice"))
    assert (result.verdict, result.code) == (Verdict.INVALID, "population-unknown")


@pytest.mark.parametrize("bad", list(UNREADABLE.values()), ids=list(UNREADABLE))
def test_with_a_manifest_the_rule_is_unchanged(bad):
    # t-2 is in the manifest and has no valid evidence: missing-evidence.
    result = report(lines(T1, bad, T3), manifest=["t-1", "t-2", "t-3"])
    assert (result.verdict, result.code) == (Verdict.INVALID, "missing-evidence")
    # Only t-1 and t-3 were scheduled: the unreadable line is an invalid
    # observation that cannot be about either, since both have evidence.
    result = report(lines(T1, bad, T3), manifest=["t-1", "t-3"])
    assert result.verdict is Verdict.PASS


def test_an_overlong_line_counts_as_unattributed():
    long_line = b'{"trial_id": "t-2", "score": 0.9, "pad": "' + b"x" * 500 + b'"}'
    result = report(lines(T1, long_line, T3), scheduled=2, max_line_bytes=100)
    assert result.invalid_by_code == {"too-large": 1}
    assert result.code == "population-unknown"


def test_a_readable_id_on_an_invalid_line_is_still_attributed():
    # NaN makes the line invalid, but its id is readable: t-2 is in the
    # population and lacks evidence; t-3 is beyond the count.
    nan = b'{"trial_id": "t-2", "score": NaN}'
    result = report(lines(T1, nan, T3), scheduled=2)
    assert result.code == "population-mismatch"
    result = report(lines(T1, nan), scheduled=2)
    assert result.code == "missing-evidence"


def test_the_clean_file_still_passes():
    assert report(lines(T1, T3), scheduled=2).verdict is Verdict.PASS


def test_the_command_line_says_invalid(tmp_path):
    path = tmp_path / "trials.jsonl"
    path.write_bytes(lines(T1, UNREADABLE["truncated"], T3))
    result = run_main("report", "--scheduled", "2", "--", str(path))
    assert result.returncode == 3, result.stderr
    assert b"population-unknown" in result.stdout
