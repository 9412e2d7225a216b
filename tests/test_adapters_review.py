# SPDX-License-Identifier: MIT
"""Regression tests for the adversarial review's openai-evals, simple-evals and DeepEval findings.

Each test mutates a conformance corpus file the way the review's crafted
file did, and asserts the verdict the harness's own content demands.
"""

from __future__ import annotations

import json
from pathlib import Path

from scorecontract import Policy, Source, Verdict, evaluate, report

CORPUS = Path(__file__).parent / "data" / "conformance"
OPENAI = CORPUS / "openai-evals"
DEEPEVAL_RUN = CORPUS / "deepeval" / "pass-fail" / ".deepeval" / ".latest_test_run.json"


def lines_of(name):
    return [json.loads(line) for line in (OPENAI / name).read_text().splitlines() if line.strip()]


def log(lines):
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def test_07_a_sample_matched_twice_is_refused_by_check_and_report_alike():
    lines = lines_of("arith.jsonl")
    right = [line for line in lines if line.get("type") == "match" and line["data"]["correct"]]
    copied = []
    for line in lines:
        if line.get("type") == "match" and not line["data"]["correct"]:
            line = {**right[0], "event_id": line["event_id"]}
        copied.append(line)
    copied[1]["final_report"]["accuracy"] = 1.0
    decision = evaluate(log(copied), source="openai-evals", policy=Policy(0.9))
    assert (decision.verdict, decision.code) == (Verdict.INVALID, "population-mismatch")
    assert report(log(copied).encode(), source=Source("openai-evals"), threshold=0.9).code == "population-mismatch"


def test_16_a_log_without_its_spec_line_or_with_max_samples_dropped_is_invalid():
    lines = lines_of("max-samples.jsonl")
    assert evaluate(log(lines[1:]), source="openai-evals", policy=Policy(0.2)).code == "missing-member"
    for edit in ("delete", "null"):
        spec = json.loads(json.dumps(lines[0]))
        if edit == "delete":
            del spec["spec"]["run_config"]["max_samples"]
        else:
            spec["spec"]["run_config"]["max_samples"] = None
        decision = evaluate(log([spec, *lines[1:]]), source="openai-evals", policy=Policy(0.2))
        assert decision.code == "value-mismatch" and "--max_samples 4" in decision.message


def test_23_a_spec_line_of_another_run_is_invalid():
    spliced = [lines_of("arith.jsonl")[0], *lines_of("max-samples.jsonl")[1:]]
    decision = evaluate(log(spliced), source="openai-evals", policy=Policy(0.2))
    assert decision.code == "value-mismatch" and "run_id" in decision.message


def test_09_dropped_or_retyped_match_events_are_invalid():
    lines = lines_of("arith.jsonl")
    lines[1]["final_report"]["accuracy"] = 1.0
    wrong = [line for line in lines if line.get("type") == "match" and not line["data"]["correct"]]
    dropped = [line for line in lines if line not in wrong]
    assert evaluate(log(dropped), source="openai-evals", policy=Policy(0.9)).code == "population-mismatch"
    for line in wrong:
        line["type"] = "sampling"
    decision = evaluate(log(lines), source="openai-evals", policy=Policy(0.9))
    assert decision.code == "missing-member" and "data.prompt" in decision.message


def test_08_every_gated_metric_is_reconciled_with_its_events_or_refused():
    fuzzy = lines_of("fuzzy.jsonl")
    fuzzy[1]["final_report"]["f1_score"] = 0.99
    f1 = evaluate(log(fuzzy), source=Source("openai-evals", metric="f1_score"), policy=Policy(0.9))
    assert f1.code == "value-mismatch" and "f1_score" in f1.message
    graded = lines_of("graded.jsonl")
    graded[1]["final_report"]["score"] = 0.9
    assert evaluate(log(graded), source=Source("openai-evals", metric="score"), policy=Policy(0.9)).code == (
        "value-mismatch"
    )
    graded = lines_of("graded.jsonl")
    graded[1]["final_report"]["counts/C"] = 5
    assert evaluate(log(graded), source=Source("openai-evals", metric="counts/C"), policy=Policy(1)).code == (
        "value-mismatch"
    )
    std = evaluate(log(lines_of("arith.jsonl")), source=Source("openai-evals", metric="boostrap_std"))
    assert std.code == "requirement-failed" and "'accuracy'" in std.message
    whole = evaluate(log(lines_of("fuzzy.jsonl")), source=Source("openai-evals", metric="f1_score"), policy=Policy(0.6))
    assert whole.verdict is Verdict.PASS


def test_06_a_simple_evals_mean_over_no_samples_is_empty_run():
    raw = json.dumps({"score": 0.9, "score:n_samples": 0, "score:std": 0.1})
    assert evaluate(raw, source="simple-evals", policy=Policy(0.8)).code == "empty-run"
    assert evaluate(raw.replace('"score:n_samples": 0', '"score:n_samples": 3'), source="simple-evals").code == (
        "meets-threshold"
    )


def deepeval_run():
    return json.loads(DEEPEVAL_RUN.read_text())


ACCURACY = Source("deepeval", metric="Scripted Accuracy")


def test_03_an_errored_metrics_data_entry_is_grader_errors_in_check_too():
    document = deepeval_run()
    document["testRunData"]["testCases"][9]["metricsData"][0]["error"] = "timeout"
    raw = json.dumps(document)
    assert evaluate(raw, source=ACCURACY, policy=Policy(0.65)).code == "grader-errors"
    assert report(raw.encode(), source=ACCURACY, threshold=0.65).invalid_by_code == {"grader-errors": 1}


def test_04_a_wrapper_beside_a_plain_run_is_ambiguous():
    document = deepeval_run()
    document["metricsScores"] = document["testRunData"]["metricsScores"]
    raw = json.dumps(document)
    assert evaluate(raw, source=ACCURACY, policy=Policy(0.65)).code == "ambiguous-selection"
    assert report(raw.encode(), source=ACCURACY, threshold=0.65).code == "ambiguous-selection"


def test_05_success_flags_that_contradict_scores_and_thresholds_are_a_mismatch():
    document = deepeval_run()
    run = document["testRunData"]
    for case in run["testCases"]:
        case["metricsData"][0]["score"] = 1.0
    run["metricsScores"][0]["scores"] = [1.0] * len(run["testCases"])
    decision = evaluate(json.dumps(document), source=ACCURACY, policy=Policy(0.8))
    assert decision.code == "value-mismatch" and "success flags" in decision.message
    assert evaluate(DEEPEVAL_RUN.read_bytes(), source=ACCURACY, policy=Policy(0.65)).verdict is Verdict.PASS


# -- a second review (adversary2, findings 07 and 08) -------------------------------------


def test_a_case_without_a_finite_score_beside_forged_scores_is_a_mismatch():
    # metricsScores forged to all 1.0 and one case's own score nulled: the
    # null must not switch the comparison of the scores with the cases off.
    document = deepeval_run()
    run = document["testRunData"]
    run["metricsScores"][0]["scores"] = [1.0] * len(run["testCases"])
    run["testCases"][7]["metricsData"][0]["score"] = None
    decision = evaluate(json.dumps(document), source=ACCURACY, policy=Policy(0.8))
    assert (decision.verdict, decision.code) == (Verdict.INVALID, "value-mismatch")
    assert "$['testRunData']['testCases'][7]" in decision.message


def test_a_test_case_copied_over_another_is_refused_by_check_and_report_alike():
    # Cases 5-9 replaced by copies of cases 0-4, the counts restated to fit.
    document = deepeval_run()
    run = document["testRunData"]
    cases = run["testCases"]
    cases[5:] = [json.loads(json.dumps(case)) for case in cases[:5]]
    scores = [case["metricsData"][0]["score"] for case in cases]
    entry = run["metricsScores"][0]
    entry["scores"] = scores
    passed = sum(1 for case in cases if case["success"] is True)
    entry["passes"], entry["fails"] = passed, len(cases) - passed
    run["testPassed"], run["testFailed"] = passed, len(cases) - passed
    raw = json.dumps(document)
    decision = evaluate(raw, source=ACCURACY, policy=Policy(0.1))
    assert (decision.verdict, decision.code) == (Verdict.INVALID, "population-mismatch")
    assert "twice" in decision.message
    assert report(raw.encode(), source=ACCURACY, threshold=0.1).code == "population-mismatch"
