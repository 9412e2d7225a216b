# SPDX-License-Identifier: MIT
"""The JSONPath Compliance Test Suite (RFC 9535), every case a test.

See tests/data/jsonpath-cts/README.md for where the suite comes from.  Each
document is decoded by ``scorecontract.loads``, the strict loader a gate
uses, and the query runs through ``scorecontract._jsonpath.query``.  A valid
selector must give exactly the expected values and normalized paths (one of
the allowed orders where the suite gives several); an invalid one must be
refused with ``bad-selector``.  A wrong answer is never acceptable: a case
this implementation cannot pass must be listed in KNOWN_FAILURES with the
reason, and a listed case that starts passing fails the suite, so the list
stays true.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from scorecontract import PolicyError, loads, query
from support import ROOT, CorpusMissing

CORPUS = ROOT / "tests" / "data" / "jsonpath-cts"
CASE_COUNT = 703

# name -> why this implementation does not pass it.  Empty: all 703 pass.
KNOWN_FAILURES: dict[str, str] = {}


def cts_cases():
    suite = json.loads((CORPUS / "cts.json").read_text(encoding="utf-8"))
    cases = suite["tests"]
    if not cases:
        raise CorpusMissing("tests/data/jsonpath-cts/cts.json has no cases")
    return cases


CASES = cts_cases()


def outcome(case, exact=False):
    """Return "pass", or why the case fails."""
    selector = case["selector"]
    try:
        document = loads(json.dumps(case["document"]), exact=exact) if "document" in case else None
        got = query(document, selector)
    except PolicyError as exc:
        if case.get("invalid_selector") and exc.code == "bad-selector":
            return "pass"
        return f"refused: {exc}"
    if case.get("invalid_selector"):
        return f"accepted an invalid selector, selecting {got!r}"
    paths = [path for path, _ in got]
    if "result" in case:
        allowed = [(case["result"], case["result_paths"])]
    else:
        allowed = list(zip(case["results"], case["results_paths"]))
    for values, expected_paths in allowed:
        if paths != expected_paths:
            continue
        # Compared as JSON text: [true] is not [1], [1.0] is not [1].  In
        # exact mode the values are Decimals; the paths say it all.
        if exact or json.dumps([value for _, value in got]) == json.dumps(values):
            return "pass"
    return f"selected {got!r}, expected one of {allowed!r}"


def test_the_suite_is_all_there_and_unaltered():
    pinned = {}
    for line in (CORPUS / "SHA256SUMS").read_text(encoding="ascii").splitlines():
        digest, name = line.split("  ", 1)
        pinned[name] = digest
    assert set(pinned) == {"cts.json", "LICENSE"}
    for name, digest in pinned.items():
        assert hashlib.sha256((CORPUS / name).read_bytes()).hexdigest() == digest, name
    assert len(CASES) == CASE_COUNT
    assert len({case["name"] for case in CASES}) == CASE_COUNT  # the ids are unique
    invalid = sum(1 for case in CASES if case.get("invalid_selector"))
    assert 0 < invalid < CASE_COUNT


def test_the_known_failures_are_few_and_real():
    names = {case["name"] for case in CASES}
    assert set(KNOWN_FAILURES) <= names
    assert len(KNOWN_FAILURES) <= 5
    assert all(reason.strip() for reason in KNOWN_FAILURES.values())


def test_the_oracle_catches_wrong_answers():
    # Guards outcome(): it must notice a wrong value, a wrong type, a wrong
    # path and a lenient parser.
    case = {"selector": "$[0]", "document": [1, 2], "result": [1], "result_paths": ["$[0]"]}
    assert outcome(case) == "pass"
    assert outcome({**case, "result": [2]}) != "pass"
    assert outcome({**case, "document": [1.0, 2], "result": [1]}) != "pass"
    assert outcome({**case, "document": [True, 2], "result": [1]}) != "pass"
    assert outcome({**case, "result_paths": ["$[1]"]}) != "pass"
    assert outcome({"selector": "$[01]", "invalid_selector": True}) == "pass"
    assert outcome({"selector": "$[1]", "invalid_selector": True}) != "pass"


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_case(case):
    result = outcome(case)
    if case["name"] in KNOWN_FAILURES:
        # A listed case must still fail, so that the list stays true.
        assert result != "pass", f"{case['name']} passes now: remove it from KNOWN_FAILURES"
    else:
        assert result == "pass"


def test_every_case_passes_in_exact_mode_too():
    # Decimal documents (evaluate(exact=True)) meet float literals.
    failing = [case["name"] for case in CASES if outcome(case, exact=True) != "pass"]
    assert failing == sorted(KNOWN_FAILURES)


class _Summary:
    def __init__(self, text: str) -> None:
        self.text = text

    def pytest_terminal_summary(self, terminalreporter):
        terminalreporter.write_line(self.text)


def test_the_pass_count(request):
    passed = sum(1 for case in CASES if outcome(case) == "pass")
    line = (
        f"JSONPath Compliance Test Suite: {passed} of {len(CASES)} cases pass"
        f" ({len(KNOWN_FAILURES)} listed as known failures)"
    )
    print(line)
    plugins = request.config.pluginmanager
    if plugins.get_plugin("terminalreporter") is not None and not plugins.has_plugin("jsonpath-cts-summary"):
        plugins.register(_Summary(line), "jsonpath-cts-summary")
    assert passed == CASE_COUNT - len(KNOWN_FAILURES)
    assert passed == 703
