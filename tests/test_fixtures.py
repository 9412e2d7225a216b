# SPDX-License-Identifier: MIT
"""Every counterexample in fixtures/ gets its manifest's verdict and code."""

from __future__ import annotations

import pytest

from scorecontract import Verdict, evaluate
from support import FIXTURES, fixture_bytes, manifest_cases

CASES = manifest_cases()
IDS = [case["file"] for case in CASES]


def test_corpus_is_not_empty():
    assert len(CASES) >= 40


def test_every_fixture_file_is_in_the_manifest():
    # Directories hold their own corpora: fixtures/reports/ trial files
    # (tests/test_report_confidence.py), fixtures/harnesses/ harness outputs
    # (tests/test_harness_fixtures.py).
    on_disk = {p.name for p in FIXTURES.iterdir() if p.name not in ("manifest.json", "reports", "harnesses")}
    listed = {case["file"] for case in CASES}
    assert on_disk == listed


def test_manifest_covers_every_verdict():
    assert {case["verdict"] for case in CASES} == {"PASS", "FAIL", "INVALID"}


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_fixture_as_bytes(case):
    decision = evaluate(fixture_bytes(case["file"]))
    assert (decision.verdict, decision.code) == (Verdict[case["verdict"]], case["code"])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_fixture_as_str(case):
    data = fixture_bytes(case["file"])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pytest.skip("not UTF-8, so there is no str form; bytes form is tested")
    decision = evaluate(text)
    expected_code = case.get("str_code", case["code"])
    assert (decision.verdict, decision.code) == (Verdict[case["verdict"]], expected_code)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_score_present_exactly_when_valid(case):
    decision = evaluate(fixture_bytes(case["file"]))
    if decision.verdict is Verdict.INVALID:
        assert decision.score is None
    else:
        assert type(decision.score) in (int, float)
