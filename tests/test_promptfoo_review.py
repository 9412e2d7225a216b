# SPDX-License-Identifier: MIT
"""An adversarial review of promptfoo's population checks (findings2, 01 to 11).

Each case edits a file promptfoo 0.123.1 wrote itself (the conformance
corpus) the way the review did, and each was a PASS before its fix: both
``check --from promptfoo`` and ``report --from promptfoo`` must now refuse
it, since both read the same counts and rows.
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


def both(document: dict, threshold: float = 0.5) -> tuple[str, str]:
    """The codes of check and report (pass flags) on *document*."""
    raw = json.dumps(document)
    checked = evaluate(raw, source="promptfoo", threshold=threshold)
    reported = report(raw.encode(), source=Source("promptfoo", metric="pass"), threshold=threshold)
    return checked.code, reported.code


def restate(document: dict) -> dict:
    """Stats and each prompt's metrics restated to the rows, as a forger would."""
    rows = document["results"]["results"]
    passes = [row for row in rows if row.get("success") is True]
    document["results"]["stats"].update(successes=len(passes), failures=len(rows) - len(passes), errors=0)
    for index, prompt in enumerate(document["results"]["prompts"]):
        mine = [row for row in rows if row.get("promptIdx") == index]
        good = [row for row in mine if row.get("success") is True]
        prompt["metrics"].update(testPassCount=len(good), testFailCount=len(mine) - len(good), testErrorCount=0)
    return document


# -- 15: a prompt's metrics are matched with its own rows ------------------------------------------


def test_rows_moved_from_one_prompt_to_another_are_refused():
    document = corpus("vars")
    rows = document["results"]["results"]
    passing = [row for row in rows if row["promptIdx"] == 0 and row["success"]]
    copies = []
    for number, row in enumerate(passing[: sum(row["promptIdx"] == 1 for row in rows)]):
        copies.append({**copy.deepcopy(row), "testIdx": 100 + number})
    rows[:] = [row for row in rows if row["promptIdx"] != 1] + copies
    passes = sum(row["success"] for row in rows)
    document["results"]["stats"].update(successes=passes, failures=len(rows) - passes)
    assert both(document, threshold=0.85) == ("population-mismatch", "population-mismatch")


# -- 04: every id a whole number of the run -------------------------------------------------------


def _id_edit(name: str) -> dict:
    document = corpus("basic")
    rows = document["results"]["results"]
    good = [row for row in rows if row["success"]]
    extra = [copy.deepcopy(row) for row in good[:3]]
    for number, row in enumerate(extra):
        row["testIdx"] = 7 + number
    rows[:] = [*good, *extra]
    for number, row in enumerate(rows):
        row["testIdx"] = number
    forged = rows[-1]
    if name == "testIdx-float":
        forged["testIdx"] = 0.0
    elif name == "testIdx-absent":
        del forged["testIdx"]
    elif name == "testIdx-string":
        forged["testIdx"] = "0"
    elif name == "repeatIndex-null":
        forged["testIdx"], forged["repeatIndex"] = 0, None
    elif name == "repeatIndex-1-of-repeat-1":
        forged["testIdx"], forged["repeatIndex"] = 0, 1
    elif name == "testIdx-out-of-range":
        forged["testIdx"] = 10
        del document["config"]["tests"][9:]  # 9 tests; the forged row claims the tenth's
        document["results"]["results"].pop(-2)
    return restate(document)


@pytest.mark.parametrize(
    "name, code",
    [
        ("testIdx-float", "wrong-type"),
        ("testIdx-absent", "missing-member"),
        ("testIdx-string", "wrong-type"),
        ("repeatIndex-null", "wrong-type"),
        ("repeatIndex-1-of-repeat-1", "population-mismatch"),
        ("testIdx-out-of-range", "population-mismatch"),
    ],
)
def test_a_row_id_outside_the_run_is_refused(name, code):
    document = _id_edit(name)
    checked, reported = both(document, threshold=0.9)
    assert checked == code
    assert reported != "meets-threshold"


def test_the_unforged_ids_pass():
    document = corpus("repeat")
    assert both(document, threshold=0.75) == ("meets-threshold", "meets-threshold")


# -- 01, 02: a count the file cannot fix is a floor, not nothing ---------------------------------


@pytest.mark.parametrize("repeat", [1.0, "1", 0, True], ids=["float", "string", "zero", "bool"])
def test_a_run_repeat_promptfoo_never_writes_is_refused(repeat):
    document = corpus("first-n")
    document["runtimeOptions"]["repeat"] = repeat
    assert both(document)[0] == "wrong-type"


def test_an_absent_run_repeat_keeps_one_row_per_test_as_a_floor():
    document = corpus("first-n")
    del document["runtimeOptions"]["repeat"]
    assert both(document) == ("partial-run", "partial-run")
    whole = corpus("repeat")  # 12 rows of 4 tests: above the floor, nothing said
    del whole["runtimeOptions"]["repeat"]
    assert both(whole, threshold=0.75) == ("meets-threshold", "meets-threshold")


@pytest.mark.parametrize(
    "key, value", [("options", {"repeat": 1.0}), ("providers", ["echo"])], ids=["repeat-float", "providers"]
)
def test_one_uncountable_test_leaves_the_others_counted(key, value):
    document = corpus("first-n")
    document["config"]["tests"][0][key] = value
    assert both(document) == ("partial-run", "partial-run")


# -- 03: expansion is read from the vars some test declares as arrays ------------------------------


def test_a_stray_array_var_does_not_switch_expansion_off():
    document = corpus("first-n")
    test = document["config"]["tests"][0]
    test["vars"]["said"] = [f"s{n}" for n in range(10)]
    document["config"]["tests"][:] = [test]
    row = document["results"]["results"][0]
    row["vars"].update(said="s0", z=["anything"])
    row["testIdx"], row["success"], row["failureReason"] = 0, True, 0
    document["results"]["results"][:] = [row]
    assert both(restate(document), threshold=1) == ("partial-run", "partial-run")


# -- 05, 10: a provider or prompt that never ran ---------------------------------------------------


def test_a_configured_provider_that_never_ran_is_a_partial_run():
    document = corpus("basic")
    document["config"]["providers"] = ["echo", "openai:gpt-4o"]
    assert both(document, threshold=0.6) == ("partial-run", "partial-run")
    document["runtimeOptions"]["providerFilter"] = "echo"  # said by the filter itself
    assert both(document, threshold=0.6) == ("partial-run", "partial-run")


@pytest.mark.parametrize("how", ["prompts-null", "prompts-all", "providers-map"])
def test_a_provider_limit_that_limits_nothing_keeps_the_unran_prompt(how):
    document = corpus("filter-prompts")
    providers = document["config"]["providers"]
    if how == "prompts-null":
        providers[0]["prompts"] = None
    elif how == "prompts-all":
        providers[0]["prompts"] = list(document["config"]["prompts"])
    else:
        document["config"]["providers"] = {f"p{n}": provider for n, provider in enumerate(providers)}
    assert both(document, threshold=0.1) == ("partial-run", "partial-run")


# -- 06: a crash past the walk's bound -------------------------------------------------------------


def test_a_crash_behind_ten_thousand_components_is_not_graded():
    document = corpus("assert-throws")
    row = document["results"]["results"][2]
    padding = [{"pass": True, "score": 1, "reason": "ok"}] * 10_001
    row["gradingResult"]["reason"] = "see the components"  # the crash only in a component, first of 10,001
    row["gradingResult"]["componentResults"] = [*row["gradingResult"]["componentResults"], *padding]
    raw = json.dumps(document)
    decision = evaluate(raw, source="promptfoo", threshold=0.5)
    assert decision.code == "grader-errors" and "more than" in decision.message
    trials = report(raw.encode(), source=Source("promptfoo", metric="pass"), threshold=0.5)
    assert (trials.verdict, trials.invalid_by_code) == (Verdict.INVALID, {"grader-errors": 1})


# -- 11: the version followed, and an error row's failureReason -----------------------------------


def test_another_results_version_is_refused_naming_the_one_followed():
    document = corpus("basic")
    document["results"]["version"] = 2
    decision = evaluate(json.dumps(document), source="promptfoo", threshold=0.7)
    assert decision.code == "requirement-failed" and "results.version 3" in decision.message
    assert both(document, threshold=0.7)[1] == "requirement-failed"


def test_an_error_row_without_its_failure_reason_is_refused():
    document = corpus("provider-error")
    row = next(row for row in document["results"]["results"] if row["failureReason"] == 2)
    del row["failureReason"]
    document["results"]["stats"].update(failures=2, errors=0)
    document["results"]["prompts"][0]["metrics"].update(testFailCount=2, testErrorCount=0)
    assert both(document, threshold=0.6) == ("missing-member", "missing-member")
