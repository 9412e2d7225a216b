# SPDX-License-Identifier: MIT
"""promptfoo's population, as the one coverage rule reads it (docs/harnesses.md, promptfoo).

Each case edits a file promptfoo 0.123.1 wrote itself (the conformance
corpus) in one place, and asks ``check --from promptfoo`` and ``report
--from promptfoo`` the same question: the two must agree, because both
hand the same counts to ``_base.reconcile``.  The corpus covers the runs
promptfoo can make; these are the shapes it cannot be made to write
(a repeated row, a config whose population is not stated, a filter a
later release may record).
"""

from __future__ import annotations

import copy
import json

import pytest

from scorecontract import Source, Verdict, evaluate, report
from support import ROOT

CORPUS = ROOT / "tests" / "data" / "conformance" / "promptfoo"


def corpus(name: str) -> dict:
    path = CORPUS / name / "results.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["results"]["results"], path  # no data, no test
    return document


def both(document: dict, allow_partial: bool = False, threshold: float = 0.5) -> tuple[str, str]:
    """The codes of check and report (pass flags) on *document*."""
    raw = json.dumps(document)
    options = {"allow_partial": True} if allow_partial else {}
    checked = evaluate(raw, source=Source("promptfoo", **options), threshold=threshold)
    reported = report(raw.encode(), source=Source("promptfoo", metric="pass", **options), threshold=threshold)
    return checked.code, reported.code


# -- a row that repeats another ----------------------------------------------------------------------


def _repeat_row(document: dict, *, stated: bool) -> dict:
    rows = document["results"]["results"]
    rows[1] = copy.deepcopy(rows[0])  # both pass, so stats still tally
    if not stated:
        del document["config"]["tests"]
    return document


@pytest.mark.parametrize("stated", [True, False], ids=["config-tests-stated", "not-stated"])
def test_a_repeated_row_is_refused_by_check_and_report_alike(stated):
    document = _repeat_row(corpus("basic"), stated=stated)
    assert both(document) == ("population-mismatch", "population-mismatch")
    message = evaluate(json.dumps(document), source="promptfoo").message
    assert "row [1] repeats row [0]" in message and "distinct (testIdx, promptIdx, repeatIndex)" in message


def test_rows_told_apart_by_their_repeat_index_are_not_repeats():
    document = _repeat_row(corpus("basic"), stated=False)
    rows = document["results"]["results"]
    rows[0]["repeatIndex"], rows[1]["repeatIndex"] = 0, 1
    document["runtimeOptions"]["repeat"] = 2  # a repeatIndex is below the run's repeat
    assert both(document, threshold=0.7) == ("meets-threshold", "meets-threshold")


def test_a_repeated_row_of_one_provider_is_refused_with_provider():
    document = corpus("providers")
    rows = document["results"]["results"]
    echo = [number for number, row in enumerate(rows) if row["promptIdx"] == 0]
    rows[echo[1]] = copy.deepcopy(rows[echo[0]])
    raw = json.dumps(document)
    assert evaluate(raw, source=Source("promptfoo", provider="echo")).code == "population-mismatch"
    assert report(raw.encode(), source=Source("promptfoo", metric="pass")).code == "population-mismatch"


# -- config.tests: stated where the file fixes it, else not guessed -----------------------------------


def _set(document: dict, where: tuple, value: object) -> dict:
    owner = document
    for key in where[:-1]:
        owner = owner[key]
    owner[where[-1]] = value
    return document


# first-n ran 4 of the 10 tests of config.tests, all passing.
STATED = [
    ("as-written", (), None),
    ("defaultTest-null", ("config", "defaultTest"), None),
    ("vars-array-of-numbers", ("config", "tests", 0, "vars", "said"), [1, 2]),
    ("vars-empty-array", ("config", "tests", 0, "vars", "said"), []),
    ("repeat-not-a-number", ("config", "tests", 0, "options"), {"repeat": "2"}),
    ("disable-expansion-without-an-array", ("config", "tests", 0, "options"), {"disableVarExpansion": True}),
]
# One test the file does not fix counts as the fewest rows it can make
# (0, or 1 per prompt): the other 9 tests still say 4 rows are part of them.
FLOOR = [
    ("test-not-an-object", ("config", "tests", 0), "file://more.yaml"),
    ("vars-a-file", ("config", "tests", 0, "vars"), "file://vars.yaml"),
    ("var-a-glob", ("config", "tests", 0, "vars", "said"), "file://docs/*.txt"),
    ("test-providers", ("config", "tests", 0, "providers"), ["echo"]),
    ("repeat-a-float", ("config", "tests", 0, "options"), {"repeat": 2.0}),
    ("no-runtime-repeat", ("runtimeOptions", "repeat"), None),
]
NOT_STATED = [
    ("tests-a-file", ("config", "tests"), "file://tests.csv"),
    ("tests-empty", ("config", "tests"), []),
    ("scenarios", ("config", "scenarios"), [{"config": [{"vars": {}}], "tests": [{}]}]),
    ("redteam", ("config", "redteam"), {"plugins": ["harmful"]}),
    ("transformVars", ("config", "defaultTest", "options"), {"transformVars": "vars"}),
    ("defaultTest-prompts", ("config", "defaultTest", "prompts"), ["p"]),
    ("defaultTest-a-file", ("config", "defaultTest"), "file://default.yaml"),
]


@pytest.mark.parametrize("where, value", [case[1:] for case in STATED], ids=[case[0] for case in STATED])
def test_a_stated_population_makes_a_filtered_run_partial(where, value):
    document = corpus("first-n")
    if where:
        _set(document, where, value)
    assert both(document) == ("partial-run", "partial-run")
    assert both(document, allow_partial=True) == ("meets-threshold", "meets-threshold")


@pytest.mark.parametrize("where, value", [case[1:] for case in FLOOR], ids=[case[0] for case in FLOOR])
def test_a_test_the_file_does_not_fix_leaves_the_others_counted(where, value):
    document = _set(corpus("first-n"), where, value)
    assert both(document) == ("partial-run", "partial-run")
    assert both(document, allow_partial=True) == ("meets-threshold", "meets-threshold")


@pytest.mark.parametrize("where, value", [case[1:] for case in NOT_STATED], ids=[case[0] for case in NOT_STATED])
def test_a_population_the_file_does_not_fix_is_not_guessed(where, value):
    # Only the counts and rows are reconciled: 4 of 4, as promptfoo says.
    document = _set(corpus("first-n"), where, value)
    assert both(document) == ("meets-threshold", "meets-threshold")


def test_var_combinations_and_repeats_make_the_population():
    # 2 tests in config.tests: one of 3 combinations, one of 1, is the 4 that ran.
    document = corpus("first-n")
    tests = document["config"]["tests"]
    tests[:] = [copy.deepcopy(tests[0]), copy.deepcopy(tests[1])]
    tests[0]["vars"]["said"] = ["paris", "rome", "bern"]
    assert both(document) == ("meets-threshold", "meets-threshold")
    tests[1]["options"] = {"repeat": 2}
    assert both(document) == ("partial-run", "partial-run")  # 5 of them now
    document["runtimeOptions"]["repeat"] = 3  # tests[1] keeps its own 2: 3 x 3 + 2
    assert both(document) == ("partial-run", "partial-run")
    del tests[1]["options"]
    tests[0]["vars"]["said"] = ["paris"]
    document["runtimeOptions"]["repeat"] = 2  # 2 tests x 2: the 4 that ran
    assert both(document) == ("meets-threshold", "meets-threshold")


def test_rows_that_hold_a_whole_array_say_promptfoo_did_not_expand_it():
    document = corpus("first-n")
    tests = document["config"]["tests"]
    tests[:] = [copy.deepcopy(tests[n]) for n in range(4)]
    tests[0]["vars"]["said"] = ["paris", "rome"]
    assert both(document) == ("partial-run", "partial-run")  # 2 + 1 + 1 + 1 tests, 4 ran
    rows = document["results"]["results"]
    rows[0]["vars"]["said"] = ["paris", "rome"]  # PROMPTFOO_DISABLE_VAR_EXPANSION: 4 tests, 4 rows
    assert both(document) == ("meets-threshold", "meets-threshold")


def test_more_rows_than_config_tests_declares_is_a_mismatch():
    document = corpus("basic")
    del document["config"]["tests"][5:]
    assert both(document, threshold=0.7) == ("population-mismatch", "population-mismatch")


# -- the filters promptfoo records -----------------------------------------------------------------


@pytest.mark.parametrize(
    "key, value",
    [("filterRange", "0:10"), ("providerFilter", "echo"), ("filterFirstN", 4), ("filterPattern", "")],
    ids=["filterRange", "providerFilter", "a-later-filterFirstN", "an-empty-pattern"],
)
def test_a_recorded_filter_is_a_partial_run_whatever_the_counts(key, value):
    document = corpus("basic")
    document["runtimeOptions"][key] = value
    assert both(document, threshold=0.7) == ("partial-run", "partial-run")
    assert both(document, allow_partial=True, threshold=0.7) == ("meets-threshold", "meets-threshold")
    assert key in evaluate(json.dumps(document), source="promptfoo", threshold=0.7).message


def test_a_null_filter_is_no_filter():
    document = corpus("basic")
    document["runtimeOptions"]["filterRange"] = None
    assert both(document, threshold=0.7) == ("meets-threshold", "meets-threshold")


def test_a_provider_filter_leaves_the_prompt_of_a_provider_that_ran_whole():
    document = corpus("providers")
    document["runtimeOptions"]["providerFilter"] = "echo|scripted-py"
    raw = json.dumps(document)
    assert evaluate(raw, source="promptfoo", threshold=0.5).code == "partial-run"
    assert evaluate(raw, source=Source("promptfoo", provider="echo"), threshold=1).verdict is Verdict.PASS
    document["runtimeOptions"]["filterRange"] = "0:2"
    assert evaluate(json.dumps(document), source=Source("promptfoo", provider="echo")).code == "partial-run"


def test_one_prompt_is_reconciled_with_config_tests_too():
    raw = json.dumps(corpus("first-n"))
    assert evaluate(raw, source=Source("promptfoo", provider="echo")).code == "partial-run"


def test_a_prompt_that_never_ran_is_said_only_where_the_file_shows_it():
    document = corpus("filter-prompts")
    assert both(document) == ("partial-run", "partial-run")
    # A provider limited to some prompts may leave one unrun: not a filter.
    limited = copy.deepcopy(document)
    limited["config"]["providers"][0]["prompts"] = ["B {{x}} {{y}}"]
    assert both(limited) == ("meets-threshold", "meets-threshold")
    # A prompt that ran is not one of config.prompts (read from a file): nothing is said.
    loaded = copy.deepcopy(document)
    loaded["config"]["prompts"] = ["file://prompts.txt", "A {{x}} {{y}}"]
    assert both(loaded) == ("meets-threshold", "meets-threshold")


# -- assertions that crashed -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "reason",
    ["Custom function threw error: boom", "Python code execution failed: boom", "Ruby code execution failed: boom"],
    ids=["javascript", "python", "ruby"],
)
def test_an_assertion_that_crashed_is_a_grader_error(reason):
    document = corpus("assert-throws")
    row = document["results"]["results"][2]
    for result in (row["gradingResult"], *row["gradingResult"]["componentResults"]):
        result["reason"] = reason
    raw = json.dumps(document)
    decision = evaluate(raw, source="promptfoo", threshold=0.5)
    assert decision.code == "grader-errors" and reason.split(":")[0] in decision.message
    assert "$['results']['results'][2]" in decision.message
    trials = report(raw.encode(), source=Source("promptfoo", metric="pass"), threshold=0.5)
    assert (trials.verdict, trials.invalid_by_code) == (Verdict.INVALID, {"grader-errors": 1})


def test_a_passing_assertion_that_says_it_crashed_is_its_pass():
    document = corpus("basic")
    row = document["results"]["results"][0]
    row["gradingResult"]["componentResults"][0]["reason"] = "Custom function threw error: but passed"
    assert both(document, threshold=0.7) == ("meets-threshold", "meets-threshold")


def test_an_ungraded_row_of_another_prompt_is_named_by_its_own_place():
    document = corpus("providers")
    rows = document["results"]["results"]
    number = next(n for n, row in enumerate(rows) if row["promptIdx"] == 2 and row["success"] is False)
    rows[number]["gradingResult"]["componentResults"][0]["metadata"] = {"graderError": True}
    decision = evaluate(json.dumps(document), source=Source("promptfoo", provider="scripted-js"))
    assert decision.code == "grader-errors" and f"$['results']['results'][{number}]" in decision.message


# -- what report says where check does ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["results.csv", "results.jsonl", "results.yaml", "results.html"])
def test_report_says_which_output_to_write_as_check_does(name):
    data = (CORPUS / "formats" / name).read_bytes()
    checked = evaluate(data, source="promptfoo")
    reported = report(data, source=Source("promptfoo", metric="pass"))
    assert (reported.code, reported.verdict) == (checked.code, Verdict.INVALID)
    assert "promptfoo eval -o results.json" in reported.message


def test_an_empty_run_is_empty_run_through_both():
    document = json.loads((CORPUS / "filter-empty" / "results.json").read_text(encoding="utf-8"))
    assert document["results"]["stats"]["successes"] == 0 and document["config"]["tests"]
    assert both(document) == ("empty-run", "empty-run")
