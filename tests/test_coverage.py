# SPDX-License-Identifier: MIT
"""Coverage reconciled by one rule: every class of wrong verdict issue 20 measured.

Each case is a file as today's harness releases write it (or as an outside
review crafted it), reduced to what the case is about, gated through the
API (``evaluate(raw, source=...)``, ``report(...)``) and the command line
(``check --from``, ``report --from``, in-process).  Each refusal has its
control beside it: the same file made whole, or the opt-in that gates it.
"""

from __future__ import annotations

import json

import pytest

from craft import eval_members, write_eval
from scorecontract import Policy, PolicyError, Source, Verdict, evaluate, report
from scorecontract._cli import main

DATE = "2026-12-01T10-00-00.000000"


def run(argv, capsys):
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# -- Inspect ------------------------------------------------------------------------------------


def inspect_log(samples=10, ran=10, *, value=1.0, config=None, scored=None, status="success", extra=None):
    """An Inspect log (version 2) of a dataset of *samples*, *ran* of them run and scored."""
    log = {
        "version": 2,
        "status": status,
        "eval": {
            "task": "popularity",
            "dataset": {"name": "popularity", "samples": samples, "sample_ids": list(range(1, ran + 1))},
            "config": dict(config or {}),
        },
        "results": {
            "total_samples": ran,
            "completed_samples": ran,
            "scores": [
                {
                    "name": "match",
                    "scorer": "match",
                    "scored_samples": ran if scored is None else scored,
                    "unscored_samples": 0 if scored is None else ran - scored,
                    "metrics": {"accuracy": {"name": "accuracy", "value": value}},
                }
            ],
        },
        "samples": [{"id": index, "epoch": 1, "scores": {"match": {"value": value}}} for index in range(1, ran + 1)],
    }
    for path, member in (extra or {}).items():
        node = log
        *parents, last = path.split(".")
        for key in parents:
            node = node[key]
        node[last] = member
    return json.dumps(log)


MATCH = Source("inspect", scorer="match", metric="accuracy")
MATCH_PARTIAL = Source("inspect", scorer="match", metric="accuracy", allow_partial=True)
PER_SAMPLE = Source("inspect", scorer="match")
PER_SAMPLE_PARTIAL = Source("inspect", scorer="match", allow_partial=True)


@pytest.mark.parametrize(
    "config",
    [{"limit": 6}, {"sample_id": [1, 2, 3, 4, 5, 6]}, {"limit": [0, 6]}],
    ids=["--limit 6", "--sample-id", "--limit 0,6"],
)
def test_an_inspect_run_of_a_selection_is_partial_in_check_and_report(config, capsys, tmp_path):
    # inspect-ai writes a --limit 6 run of 10 samples with total_samples and
    # completed_samples 6: only eval.dataset.samples says the dataset is 10.
    raw = inspect_log(10, 6, config=config)
    decision = evaluate(raw, source=MATCH, threshold=0.8)
    assert decision.code == "partial-run"
    assert "Inspect covered 6 of 10 samples" in decision.message
    assert "eval.dataset.samples 10 at $['eval']['dataset']['samples']" in decision.message
    assert evaluate(raw, source=MATCH_PARTIAL, threshold=0.8).verdict is Verdict.PASS
    trials = report(raw.encode(), source=PER_SAMPLE)
    assert (trials.verdict, trials.code) == (Verdict.INVALID, "partial-run")
    allowed = report(raw.encode(), source=PER_SAMPLE_PARTIAL)
    assert (allowed.verdict, allowed.scheduled) == (Verdict.PASS, 6)
    # The whole dataset, by the same counts, is no partial run.
    whole = inspect_log(10, 10)
    assert evaluate(whole, source=MATCH).verdict is Verdict.PASS
    assert report(whole.encode(), source=PER_SAMPLE).verdict is Verdict.PASS
    path = tmp_path / "run.json"
    path.write_text(raw)
    status, out, _ = run(
        ["check", "--from", "inspect", "--scorer", "match", "--metric", "accuracy", "--", str(path)], capsys
    )
    assert status == 3 and out.startswith("INVALID partial-run: Inspect covered 6 of 10 samples")
    status, out, _ = run(
        ["check", "--from", "inspect", "--scorer", "match", "--metric", "accuracy", "--allow-partial", "--", str(path)],
        capsys,
    )
    assert status == 0 and out.startswith("PASS meets-threshold")
    status, out, _ = run(["report", "--from", "inspect", "--scorer", "match", "--", str(path)], capsys)
    assert status == 3 and out.startswith("INVALID partial-run")
    status, out, _ = run(
        ["report", "--from", "inspect", "--scorer", "match", "--allow-partial", "--", str(path)], capsys
    )
    assert status == 0 and out.startswith("PASS")


def test_a_limit_larger_than_the_dataset_selects_it_whole():
    assert evaluate(inspect_log(10, 10, config={"limit": 20}), source=MATCH).verdict is Verdict.PASS


def test_inspect_scored_below_completed_is_a_population_mismatch(capsys, tmp_path):
    raw = inspect_log(10, 10, scored=7)
    decision = evaluate(raw, source=MATCH)
    assert decision.code == "population-mismatch"
    assert "results.completed_samples 10" in decision.message and "scored_samples of 'match' 7" in decision.message
    # --allow-partial does not gate counts that contradict each other.
    assert evaluate(raw, source=MATCH_PARTIAL).code == "population-mismatch"
    assert report(raw.encode(), source=PER_SAMPLE).code == "population-mismatch"
    path = tmp_path / "run.json"
    path.write_text(raw)
    status, out, _ = run(
        ["check", "--from", "inspect", "--scorer", "match", "--metric", "accuracy", "--", str(path)], capsys
    )
    assert status == 3 and out.startswith("INVALID population-mismatch")


@pytest.mark.parametrize(
    "change, code",
    [
        ({"error": {"message": "boom", "traceback": ""}}, "requirement-failed"),  # success beside an error
        ({"results.total_samples": 12, "eval.dataset.samples": 12}, "partial-run"),  # completed < total
        ({"status": "error"}, "requirement-failed"),
        ({"invalidated": "true"}, "wrong-type"),
    ],
    ids=["error member", "completed below total", "status error", "invalidated not a bool"],
)
def test_report_from_inspect_refuses_what_check_refuses(change, code):
    raw = inspect_log(10, 10, extra=change)
    assert evaluate(raw, source=MATCH).code == code
    assert report(raw.encode(), source=PER_SAMPLE).code == code


def test_a_cancelled_inspect_log_with_metrics_is_a_partial_run():
    raw = inspect_log(10, 10, status="cancelled")
    decision = evaluate(raw, source=MATCH)
    assert decision.code == "partial-run" and "the log's status is 'cancelled'" in decision.message
    assert evaluate(raw, source=MATCH_PARTIAL).verdict is Verdict.PASS
    assert report(raw.encode(), source=PER_SAMPLE).code == "partial-run"


def test_inspect_early_stopping_is_a_partial_run():
    stops = {"manager": "m", "early_stops": [{"id": 9, "epoch": 1}], "metadata": {}}
    raw = inspect_log(10, 10, extra={"results.early_stopping": stops})
    assert evaluate(raw, source=MATCH).code == "partial-run"
    assert evaluate(raw, source=MATCH_PARTIAL).verdict is Verdict.PASS


def test_inspect_epochs_multiply_the_dataset_and_a_reducer_the_scored_samples():
    log = json.loads(inspect_log(5, 10, config={"epochs": 2}))
    log["eval"]["dataset"]["sample_ids"] = [1, 2, 3, 4, 5]
    # Inspect logs each of the 5 samples once per epoch (the ids are the dataset's).
    log["samples"] = [{"id": i, "epoch": e, "scores": {"match": {"value": 1.0}}} for e in (1, 2) for i in range(1, 6)]
    log["results"]["scores"][0].update(reducer="mean", scored_samples=5, unscored_samples=0)
    assert evaluate(json.dumps(log), source=MATCH).verdict is Verdict.PASS
    log["results"]["scores"][0]["scored_samples"] = 4
    assert evaluate(json.dumps(log), source=MATCH).code == "population-mismatch"
    # inspect-ai 0.3.285 writes the default reducer as null, counting per sample...
    log["results"]["scores"][0].update(reducer=None, scored_samples=5)
    del log["results"]["scores"][0]["reducer"]
    assert evaluate(json.dumps(log), source=MATCH).verdict is Verdict.PASS
    # ...and older logs count each epoch.
    log["results"]["scores"][0].update(scored_samples=10)
    assert evaluate(json.dumps(log), source=MATCH).verdict is Verdict.PASS
    log["results"]["scores"][0].update(scored_samples=7)
    assert evaluate(json.dumps(log), source=MATCH).code == "population-mismatch"


def test_several_scores_of_one_name_are_chosen_by_the_callers_reducer():
    log = json.loads(inspect_log(10, 10))
    mean = log["results"]["scores"][0]
    best = json.loads(json.dumps(mean))
    mean["reducer"], best["reducer"] = "mean", "max"
    best["metrics"]["accuracy"]["value"] = 0.2
    log["results"]["scores"].append(best)
    raw = json.dumps(log)
    ambiguous = evaluate(raw, source=MATCH)
    assert ambiguous.code == "ambiguous-selection" and "(--reducer): 'mean', 'max'" in ambiguous.message
    assert evaluate(raw, source=Source("inspect", scorer="match", metric="accuracy", reducer="max")).score == 0.2
    assert evaluate(raw, source=Source("inspect", scorer="match", metric="accuracy", reducer="mean")).score == 1.0
    unknown = evaluate(raw, source=Source("inspect", scorer="match", metric="accuracy", reducer="median"))
    assert unknown.code == "no-match" and "(--reducer)" in unknown.message
    log["results"]["headline"] = {"scorer": "match", "score": "match", "metric": "accuracy", "reducer": "max"}
    # The file's own headline may not choose for a caller who named the score...
    assert evaluate(json.dumps(log), source=MATCH).code == "ambiguous-selection"
    # ...but is what a caller who named nothing asked for.
    assert evaluate(json.dumps(log), source="inspect").score == 0.2


def test_without_scorer_and_metric_a_log_without_a_headline_is_configuration():
    with pytest.raises(PolicyError) as caught:
        evaluate(inspect_log(), source="inspect")
    assert caught.value.code == "missing-option" and "results.headline" in caught.value.message
    with pytest.raises(PolicyError) as caught:
        evaluate(inspect_log(), source=Source("inspect", scorer="match"))
    assert caught.value.code == "missing-option"


def test_a_dict_valued_scorer_is_read_per_sample_by_its_key():
    log = json.loads(inspect_log(4, 4))
    log["results"]["scores"][0].update(name="correct", scorer="grade")
    for sample in log["samples"]:
        sample["scores"] = {"grade": {"value": {"correct": 1, "style": 0}}}
    result = report(json.dumps(log).encode(), source=Source("inspect", scorer="correct"))
    assert (result.verdict, result.valid) == (Verdict.PASS, 4)


# -- lm-eval --------------------------------------------------------------------------------------


def lm_eval(original=5, effective=5, *, extra=None, metric="acc,none", value=0.9):
    document = {
        "results": {"t": {"alias": "t", "name": "t", "sample_len": effective, metric: value}},
        "n-samples": {"t": {"original": original, "effective": effective}},
        "higher_is_better": {"t": {metric.split(",")[0]: True}},
        "config": {"limit": None},
    }
    document.update(extra or {})
    return json.dumps(document)


TASK = Source("lm-eval", task="t", metric="acc,none")
TASK_PARTIAL = Source("lm-eval", task="t", metric="acc,none", allow_partial=True)


def test_an_lm_eval_nanmean_cannot_stand_for_its_documents():
    # nanmean skips the documents without a value while n-samples counts
    # them: a finite headline over 2 of 5 documents.  The results file
    # cannot say how many; report --from lm-eval counts them.
    configs = {"configs": {"t": {"metric_list": [{"metric": "acc", "aggregation": "nanmean"}]}}}
    raw = lm_eval(extra=configs)
    decision = evaluate(raw, source=TASK)
    assert decision.code == "partial-run" and "nanmean" in decision.message
    assert evaluate(raw, source=TASK_PARTIAL).verdict is Verdict.PASS
    mean = {"configs": {"t": {"metric_list": [{"metric": "acc", "aggregation": "mean"}]}}}
    assert evaluate(lm_eval(extra=mean), source=TASK).verdict is Verdict.PASS


@pytest.mark.parametrize(
    "limit, code",
    [
        (2, "partial-run"),
        (0.4, "partial-run"),
        (5, "meets-threshold"),
        (20.0, "meets-threshold"),
        (1.0, "population-mismatch"),
    ],
)
def test_lm_eval_config_limit_is_counted_as_lm_eval_counts_it(limit, code):
    # get_sample_size: under 1.0 a fraction (ceil), else a count: 1.0 is
    # one document, which 5 effective documents contradict.
    ran = min(5, 2 if limit in (2, 0.4) else 5)
    raw = lm_eval(5, ran, extra={"config": {"limit": limit}})
    assert evaluate(raw, source=TASK).code == code


def test_lm_eval_sample_len_must_agree_with_n_samples():
    document = json.loads(lm_eval())
    document["results"]["t"]["sample_len"] = 4
    decision = evaluate(json.dumps(document), source=TASK)
    assert decision.code == "population-mismatch"
    assert "n-samples effective 5 at $['n-samples']['t']['effective']; sample_len 4" in decision.message


def test_a_group_cycle_stands_for_nothing():
    document = {
        "results": {"g": {"acc,none": 0.9}},
        "group_subtasks": {"g": ["h"], "h": ["g"]},
        "n-samples": {},
    }
    for source in (
        Source("lm-eval", task="g", metric="acc,none"),
        Source("lm-eval", task="g", metric="acc,none", allow_partial=True),
    ):
        assert evaluate(json.dumps(document), source=source).code == "requirement-failed"


def test_a_group_sample_count_must_be_its_tasks_sum():
    document = {
        "results": {"g": {"acc,none": 0.9, "sample_count": {"acc,none": 30}}, "a": {"acc,none": 0.9}},
        "group_subtasks": {"g": ["a", "b"]},
        "n-samples": {"a": {"original": 10, "effective": 10}, "b": {"original": 10, "effective": 10}},
    }
    source = Source("lm-eval", task="g", metric="acc,none")
    assert evaluate(json.dumps(document), source=source).code == "population-mismatch"
    document["results"]["g"]["sample_count"]["acc,none"] = 20
    assert evaluate(json.dumps(document), source=source).verdict is Verdict.PASS


def _lm_eval_samples(tmp_path, lines, documents=3, filters=("strict-match", "flexible-extract")):
    results = {
        "results": {"gsm": {f"exact_match,{name}": 0.9 for name in filters}},
        "n-samples": {"gsm": {"original": documents, "effective": documents}},
        "higher_is_better": {"gsm": {"exact_match": True}},
    }
    results_path = tmp_path / f"results_{DATE}.json"
    results_path.write_text(json.dumps(results))
    samples = tmp_path / f"samples_gsm_{DATE}.jsonl"
    samples.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(results_path), str(samples)


def test_six_lines_of_one_filter_do_not_fill_three_documents_under_two_filters(tmp_path, capsys):
    lines = [{"doc_id": index, "filter": "strict-match", "exact_match": 1.0} for index in range(6)]
    results, samples = _lm_eval_samples(tmp_path, lines)
    source = Source("lm-eval", metric="exact_match", results=results)
    result = report(samples, source=source)
    assert result.verdict is Verdict.INVALID
    assert result.invalid_by_code == {"not-scheduled": 3}
    assert result.missing == 3
    whole = [
        {"doc_id": i, "filter": f, "exact_match": 1.0} for f in ("strict-match", "flexible-extract") for i in range(3)
    ]
    results, samples = _lm_eval_samples(tmp_path, whole)
    assert report(samples, source=source).verdict is Verdict.PASS
    status, out, _ = run(
        ["report", "--from", "lm-eval", "--metric", "exact_match", "--results", results, "--", samples], capsys
    )
    assert status == 0, out


def test_a_file_may_not_choose_the_direction_of_its_own_comparison(tmp_path, capsys):
    # higher_is_better false on acc would pass an accuracy of 0.1 against 0.8.
    document = json.loads(lm_eval(value=0.1))
    document["higher_is_better"]["t"]["acc"] = False
    path = tmp_path / f"results_{DATE}.json"
    path.write_text(json.dumps(document))
    status, out, _ = run(["check", "--from", "lm-eval", "--task", "t", "--metric", "acc,none", "--", str(path)], capsys)
    assert status == 3
    assert out.startswith("INVALID direction-conflict: ")
    assert "lower is better (higher_is_better false), but 'acc' is higher is better" in out
    decision = evaluate(json.dumps(document), source=TASK)
    assert decision.code == "direction-conflict"
    # A direction the caller states is followed: here the file agrees with it.
    status, out, _ = run(
        ["check", "--from", "lm-eval", "--task", "t", "--metric", "acc,none", "--direction", "lower", "--", str(path)],
        capsys,
    )
    assert status == 0 and "(lower is better)" in out
    # A metric whose direction is known is gated by it, whatever the file says or not.
    perplexity = json.loads(lm_eval(metric="word_perplexity,none", value=12.0))
    perplexity["higher_is_better"]["t"]["word_perplexity"] = False
    argv = ["check", "--from", "lm-eval", "--task", "t", "--metric", "word_perplexity,none"]
    argv += ["--threshold", "20", "--min", "1", "--max", "none"]
    for stated in (False, None, True):
        if stated is None:
            del perplexity["higher_is_better"]["t"]["word_perplexity"]
        else:
            perplexity["higher_is_better"]["t"]["word_perplexity"] = stated
        path.write_text(json.dumps(perplexity))
        status, out, _ = run([*argv, "--", str(path)], capsys)
        if stated is True:  # the file says higher: refused, never followed
            assert status == 3 and out.startswith("INVALID direction-conflict"), out
        else:
            assert status == 0 and "(lower is better)" in out, out
    # An unknown metric's direction is the caller's to state.
    custom = json.loads(lm_eval(metric="loss,none", value=0.2))
    custom["higher_is_better"]["t"]["loss"] = False
    path.write_text(json.dumps(custom))
    status, _, err = run(
        ["check", "--from", "lm-eval", "--task", "t", "--metric", "loss,none", "--", str(path)], capsys
    )
    assert status == 2 and "option-conflict" in err and "--direction lower" in err


def test_report_from_lm_eval_follows_the_same_direction_rule(tmp_path, capsys):
    lines = [{"doc_id": i, "filter": "none", "acc": 0.1} for i in range(3)]
    results = {
        "results": {"gsm": {"acc,none": 0.1}},
        "n-samples": {"gsm": {"original": 3, "effective": 3}},
        "higher_is_better": {"gsm": {"acc": False}},
    }
    results_path = tmp_path / f"results_{DATE}.json"
    results_path.write_text(json.dumps(results))
    samples = tmp_path / f"samples_gsm_{DATE}.jsonl"
    samples.write_text("".join(json.dumps(line) + "\n" for line in lines))
    argv = ["report", "--from", "lm-eval", "--metric", "acc", "--results", str(results_path)]
    status, out, _ = run([*argv, "--", str(samples)], capsys)
    assert status == 3 and out.startswith("INVALID direction-conflict: ")
    result = report(str(samples), source=Source("lm-eval", metric="acc", results=str(results_path)))
    assert result.code == "direction-conflict"


# -- openai/evals ----------------------------------------------------------------------------------


def oaieval(max_samples, events, correct=None):
    correct = events if correct is None else correct
    lines = [{"spec": {"run_config": {"max_samples": max_samples}, "run_id": "r"}}]
    lines.append({"final_report": {"accuracy": correct / events, "boostrap_std": 0.1}})
    for index in range(events):
        lines.append(
            {
                "run_id": "r",
                "event_id": index,
                "sample_id": f"s.{index}",
                "type": "match",
                "data": {"correct": index < correct},
            }
        )
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def test_an_openai_evals_max_samples_run_is_partial(tmp_path, capsys):
    raw = oaieval(5, 5)
    decision = evaluate(raw, source="openai-evals")
    assert decision.code == "partial-run" and "max_samples 5 at line 1" in decision.message
    assert evaluate(raw, source=Source("openai-evals", allow_partial=True)).verdict is Verdict.PASS
    # A dataset smaller than max_samples ran whole.
    assert evaluate(oaieval(100, 5), source="openai-evals").verdict is Verdict.PASS
    assert evaluate(oaieval(None, 5), source="openai-evals").verdict is Verdict.PASS
    path = tmp_path / "log.jsonl"
    path.write_text(raw)
    status, out, _ = run(["check", "--from", "openai-evals", "--", str(path)], capsys)
    assert status == 3 and out.startswith("INVALID partial-run")
    status, out, _ = run(["check", "--from", "openai-evals", "--allow-partial", "--", str(path)], capsys)
    assert status == 0


def test_an_openai_evals_accuracy_its_events_contradict_is_invalid():
    raw = oaieval(None, 5, correct=2).replace('"accuracy": 0.4', '"accuracy": 0.9')
    decision = evaluate(raw, source="openai-evals")
    assert decision.code == "value-mismatch" and "5 match events say 2 correct" in decision.message


# -- DeepEval ---------------------------------------------------------------------------------------


def deepeval_run(cases, metric_scores, passes=None):
    test_cases = [
        {
            "name": f"case {index}",
            "metricsData": [{"name": name, "score": score, "success": score >= 0.5} for name, score in data],
        }
        for index, data in enumerate(cases)
    ]
    for case in test_cases:
        # DeepEval: a case succeeds when every metric on it does.
        case["success"] = all(item["success"] for item in case["metricsData"])
    passes = sum(score >= 0.5 for score in metric_scores) if passes is None else passes
    entry = {
        "metric": "Relevancy",
        "scores": metric_scores,
        "passes": passes,
        "fails": len(metric_scores) - passes,
        "errors": 0,
    }
    passed = sum(case["success"] for case in test_cases)
    run = {
        "testCases": test_cases,
        "metricsScores": [entry],
        "testPassed": passed,
        "testFailed": len(test_cases) - passed,
    }
    return json.dumps({"testRunData": run})


RELEVANCY = Source("deepeval", metric="Relevancy")


def test_two_deepeval_metrics_sharing_a_name_are_refused(tmp_path, capsys):
    # DeepEval merges them into one entry: 8 scores for 4 test cases.
    cases = [[("Relevancy", 0.9), ("Relevancy", 0.8)] for _ in range(4)]
    raw = deepeval_run(cases, [0.9, 0.8] * 4)
    decision = evaluate(raw, source=RELEVANCY)
    assert decision.code == "population-mismatch" and "holds 2 metrics named 'Relevancy'" in decision.message
    single = deepeval_run([[("Relevancy", 0.9)] for _ in range(4)], [0.9] * 4)
    assert evaluate(single, source=RELEVANCY).verdict is Verdict.PASS
    path = tmp_path / "run.json"
    path.write_text(raw)
    status, out, _ = run(["check", "--from", "deepeval", "--metric", "Relevancy", "--", str(path)], capsys)
    assert status == 3 and out.startswith("INVALID population-mismatch")


def test_deepeval_metrics_scores_its_test_cases_contradict_are_invalid():
    raw = deepeval_run([[("Relevancy", 0.1)] for _ in range(3)], [1.0, 1.0, 1.0])
    decision = evaluate(raw, source=RELEVANCY)
    assert decision.code == "value-mismatch"
    raw = deepeval_run([[("Relevancy", 0.9)] for _ in range(3)], [0.9, 0.9, 0.9], passes=3)
    assert evaluate(raw, source=RELEVANCY).verdict is Verdict.PASS
    fewer = deepeval_run([[("Relevancy", 0.9)] for _ in range(2)], [0.9, 0.9, 0.9])
    assert evaluate(fewer, source=RELEVANCY).code == "population-mismatch"


@pytest.mark.parametrize("exact", [False, True], ids=["floats", "exact-decimals"])
def test_the_values_a_file_states_twice_are_compared_in_exact_mode_too(exact):
    # Under --exact the loader makes Decimals: the comparisons read them too.
    policy = Policy(0.5, exact=exact)
    raw = deepeval_run([[("Relevancy", 0.1)] for _ in range(3)], [1.0, 1.0, 1.0])
    assert evaluate(raw, source=RELEVANCY, policy=policy).code == "value-mismatch"
    raw = oaieval(None, 5, correct=2).replace('"accuracy": 0.4', '"accuracy": 0.9')
    assert evaluate(raw, source="openai-evals", policy=policy).code == "value-mismatch"
    whole = oaieval(None, 5, correct=2)
    assert evaluate(whole, source="openai-evals", policy=Policy(0.4, exact=exact)).verdict is Verdict.PASS


CORPUS = __import__("pathlib").Path(__file__).parent / "data" / "conformance"
PASS_FAIL = CORPUS / "deepeval" / "pass-fail" / ".deepeval" / ".latest_test_run.json"
ACCURACY = Source("deepeval", metric="Scripted Accuracy")


def without_case(run, index):
    """The DeepEval run with test case *index* deleted, and its scores and passes with it."""
    data = run["testRunData"]
    case = data["testCases"].pop(index)
    for entry in data["metricsScores"]:
        item = next(item for item in case["metricsData"] if item["name"] == entry["metric"])
        entry["scores"].remove(item["score"])
        entry["passes" if item["success"] else "fails"] -= 1
    return run


def test_a_deepeval_test_case_deleted_with_its_scores_is_refused_by_the_run_counts(tmp_path, capsys):
    # DeepEval 4.3.1 wrote the run: 10 cases, testPassed 5, testFailed 5.
    whole = json.loads(PASS_FAIL.read_text())
    assert evaluate(json.dumps(whole), source=ACCURACY, threshold=0.65).verdict is Verdict.PASS
    # Deleting case_9 (Accuracy 0.0) with its scores and passes lifts the mean to 0.72.
    cut = json.dumps(without_case(whole, 9))
    decision = evaluate(cut, source=ACCURACY, threshold=0.7)
    assert decision.code == "population-mismatch"
    assert "testPassed + testFailed 10 at $['testRunData']['testPassed']" in decision.message
    assert report(cut.encode(), source=ACCURACY, threshold=0.5).code == "population-mismatch"
    path = tmp_path / "run.json"
    path.write_text(cut)
    status, out, _ = run(["check", "--from", "deepeval", "--metric", "Scripted Accuracy", "--", str(path)], capsys)
    assert status == 3 and out.startswith("INVALID population-mismatch")


def test_deepeval_test_passed_and_failed_are_the_test_cases_own_successes():
    run_ = json.loads(PASS_FAIL.read_text())
    run_["testRunData"]["testCases"][9]["success"] = True  # 6 say true, testPassed says 5
    decision = evaluate(json.dumps(run_), source=ACCURACY, threshold=0.5)
    assert decision.code == "value-mismatch" and "testPassed and testFailed are 5 and 5" in decision.message
    assert report(json.dumps(run_).encode(), source=ACCURACY, threshold=0.5).code == "value-mismatch"
    del run_["testRunData"]["testCases"][9]["success"]  # a case without one counts in neither
    assert evaluate(json.dumps(run_), source=ACCURACY, threshold=0.5).code == "population-mismatch"


@pytest.mark.parametrize(
    "members, code",
    [
        (["testPassed"], "missing-member"),
        (["testFailed"], "missing-member"),
        (["testCases", "conversationalTestCases"], "missing-member"),
        # conversationalTestCases [] is left: a run of no test cases, under 10 scores.
        (["testCases"], "population-mismatch"),
    ],
)
def test_deepeval_run_counts_are_required(members, code):
    run_ = json.loads(PASS_FAIL.read_text())
    for member in members:
        del run_["testRunData"][member]
    assert evaluate(json.dumps(run_), source=ACCURACY, threshold=0.5).code == code
    assert report(json.dumps(run_).encode(), source=ACCURACY, threshold=0.5).code == code


# -- promptfoo ----------------------------------------------------------------------------------------


def promptfoo_run(rows):
    passes = sum(1 for row in rows if row["success"])
    stats = {"successes": passes, "failures": len(rows) - passes, "errors": 0}
    metrics = {"testPassCount": passes, "testFailCount": len(rows) - passes, "testErrorCount": 0}
    prompts = [{"provider": "echo", "metrics": metrics}]
    return json.dumps({"results": {"version": 3, "stats": stats, "prompts": prompts, "results": rows}})


def promptfoo_row(index, success, grader_error=False):
    component = {"pass": success, "score": 1 if success else 0, "reason": "ok"}
    if grader_error:
        component.update(reason="HTTP 503", metadata={"graderError": True})
    return {
        "testIdx": index,
        "promptIdx": 0,
        "success": success,
        "score": 1 if success else 0,
        "failureReason": 0 if success else 1,
        "gradingResult": {"pass": success, "componentResults": [component]},
    }


def test_promptfoo_rows_whose_grader_failed_are_errors_not_failures(tmp_path, capsys):
    rows = [promptfoo_row(0, True), promptfoo_row(1, True), promptfoo_row(2, False, grader_error=True)]
    raw = promptfoo_run(rows)
    decision = evaluate(raw, source="promptfoo", threshold=0.6)
    assert (
        decision.code == "grader-errors" and "graderError" in decision.message and "--allow-errors" in decision.message
    )
    allowed = evaluate(raw, source=Source("promptfoo", allow_errors=True), threshold=0.6)
    assert allowed.verdict is Verdict.PASS and allowed.score == 2 / 3
    trials = report(raw.encode(), source=Source("promptfoo", metric="pass"))
    assert trials.invalid_by_code == {"grader-errors": 1} and trials.verdict is Verdict.INVALID
    path = tmp_path / "results.json"
    path.write_text(raw)
    status, out, _ = run(["check", "--from", "promptfoo", "--threshold", "0.6", "--", str(path)], capsys)
    assert status == 3 and out.startswith("INVALID grader-errors")
    clean = promptfoo_run([promptfoo_row(0, True), promptfoo_row(1, True), promptfoo_row(2, False)])
    assert evaluate(clean, source="promptfoo", threshold=0.6).verdict is Verdict.PASS


@pytest.mark.parametrize(
    "text, kind",
    [
        ("<html><body>promptfoo</body></html>", "HTML"),
        ('{"testIdx": 0, "success": true}\n{"testIdx": 1, "success": false}\n', "JSON Lines"),
        ("- testIdx: 0\n  success: true\n", "YAML"),
        ("id,testIdx,success\n1,0,true\n", "CSV"),
    ],
    ids=["html", "jsonl", "yaml", "csv"],
)
def test_promptfoo_outputs_other_than_json_say_which_to_write(text, kind):
    decision = evaluate(text, source="promptfoo")
    assert decision.verdict is Verdict.INVALID
    assert kind in decision.message and "promptfoo eval -o results.json" in decision.message


def test_promptfoo_counts_that_vanish_a_row_are_a_population_mismatch():
    # A NaN-scored row fails promptfoo's own store and is missing from
    # results.results, while stats still counts it.
    rows = [promptfoo_row(0, True), promptfoo_row(1, True)]
    document = json.loads(promptfoo_run(rows))
    document["results"]["stats"]["failures"] = 1
    raw = json.dumps(document)
    assert evaluate(raw, source="promptfoo").code == "population-mismatch"
    assert report(raw.encode(), source=Source("promptfoo")).code == "population-mismatch"


# -- HELM ------------------------------------------------------------------------------------------


def helm_stat(name, split, mean, count=1, total=None):
    total = mean * count if total is None else total
    return {"name": {"name": name, "split": split}, "count": count, "sum": total, "min": 0.0, "max": 1.0, "mean": mean}


def test_a_helm_mean_that_contradicts_its_sum_and_count_is_invalid(tmp_path, capsys):
    stats = [helm_stat("exact_match", "test", 0.9, count=50, total=31.0)]
    decision = evaluate(json.dumps(stats), source=Source("helm", metric="exact_match"))
    assert decision.code == "value-mismatch" and "sum / count is 31.0 / 50 = 0.62" in decision.message
    good = [helm_stat("exact_match", "test", 0.62, count=50, total=31.0)]
    assert (
        evaluate(json.dumps(good), source=Source("helm", metric="exact_match"), threshold=0.6).verdict is Verdict.PASS
    )
    path = tmp_path / "stats.json"
    path.write_text(json.dumps(stats))
    status, out, _ = run(["check", "--from", "helm", "--metric", "exact_match", "--", str(path)], capsys)
    assert status == 3 and out.startswith("INVALID value-mismatch")


def test_helm_per_instance_stats_of_two_splits_read_one_split(tmp_path, capsys):
    # per_instance_stats.json holds the valid and the test split, and each
    # (instance, trial) once per metric class.
    instances = []
    for split, names in (("valid", ("v1", "v2")), ("test", ("t1", "t2", "t3"))):
        for name in names:
            instances.append(
                {"instance_id": name, "train_trial_index": 0, "stats": [helm_stat("exact_match", split, 1.0)]}
            )
            instances.append(
                {"instance_id": name, "train_trial_index": 0, "stats": [helm_stat("num_references", split, 1.0)]}
            )
    raw = json.dumps(instances).encode()
    result = report(raw, source=Source("helm", metric="exact_match", split="test"), scheduled=3)
    assert (result.verdict, result.valid, result.invalid) == (Verdict.PASS, 3, 0)
    assert dict(result.reading)["other_splits"] == {"valid": 2}
    valid = report(raw, source=Source("helm", metric="exact_match", split="valid"), scheduled=2)
    assert (valid.verdict, valid.valid) == (Verdict.PASS, 2)
    both = report(raw, source=Source("helm", metric="exact_match"), scheduled=5)
    assert both.code == "ambiguous-selection" and "(--split)" in both.message
    path = tmp_path / "per_instance_stats.json"
    path.write_bytes(raw)
    status, out, _ = run(
        [
            "report",
            "--from",
            "helm",
            "--metric",
            "exact_match",
            "--split",
            "test",
            "--scheduled",
            "3",
            "--",
            str(path),
        ],
        capsys,
    )
    assert status == 0, out


def test_a_helm_instance_mean_that_contradicts_its_sum_is_an_invalid_observation():
    instances = [
        {"instance_id": "a", "train_trial_index": 0, "stats": [helm_stat("exact_match", "test", 1.0, total=0.0)]}
    ]
    result = report(
        json.dumps(instances).encode(), source=Source("helm", metric="exact_match", split="test"), scheduled=1
    )
    assert result.invalid_by_code == {"value-mismatch": 1}


# -- one file, one answer: check and report agree --------------------------------------------------------


@pytest.mark.parametrize(
    "raw, check_source, report_source",
    [
        (inspect_log(10, 6, config={"limit": 6}), MATCH, PER_SAMPLE),
        (inspect_log(10, 10, scored=9), MATCH, PER_SAMPLE),
        (inspect_log(10, 10, extra={"error": {"message": "x"}}), MATCH, PER_SAMPLE),
        (inspect_log(10, 10, status="cancelled"), MATCH, PER_SAMPLE),
    ],
    ids=["limit", "scored below completed", "error member", "cancelled"],
)
def test_check_and_report_cannot_disagree_about_one_file(raw, check_source, report_source):
    checked = evaluate(raw, source=check_source)
    reported = report(raw.encode(), source=report_source)
    assert checked.verdict is Verdict.INVALID and reported.verdict is Verdict.INVALID
    assert checked.code == reported.code


# -- per-sample reports of DeepEval and openai/evals ------------------------------------------------


def test_report_from_deepeval_reads_each_test_case_the_metric_measured(tmp_path, capsys):
    raw = deepeval_run([[("Relevancy", 0.9)], [("Relevancy", 0.3)]], [0.9, 0.3])
    result = report(raw.encode(), source=Source("deepeval", metric="Relevancy"), threshold=0.5)
    assert (result.verdict, result.scheduled, result.valid) == (Verdict.PASS, 2, 2)
    assert [trial[0] for trial in result.trials()] == ['["case 0"]', '["case 1"]']
    # A test case the metric did not measure (skip_on_missing_params) leaves
    # the mean over fewer: refused in both commands.
    skipped = deepeval_run([[("Relevancy", 0.9)], [("Relevancy", 0.3)], [("Other", 1.0)]], [0.9, 0.3])
    assert report(skipped.encode(), source=Source("deepeval", metric="Relevancy")).code == "population-mismatch"
    assert evaluate(skipped, source=RELEVANCY).code == "population-mismatch"
    # The rule check --from deepeval applies: merged metrics, contradicted counts.
    merged = deepeval_run([[("Relevancy", 0.9), ("Relevancy", 0.8)] for _ in range(2)], [0.9, 0.8] * 2)
    assert report(merged.encode(), source=Source("deepeval", metric="Relevancy")).code == "population-mismatch"
    errored = json.loads(raw)
    errored["testRunData"]["testCases"][1]["metricsData"][0].update(score=None, error="timed out")
    errored["testRunData"]["metricsScores"][0].update(scores=[0.9], passes=1, fails=0, errors=1)
    result = report(json.dumps(errored).encode(), source=Source("deepeval", metric="Relevancy"), threshold=0.5)
    assert (result.verdict, result.invalid_by_code) == (Verdict.INVALID, {"grader-errors": 1})
    path = tmp_path / "run.json"
    path.write_text(raw)
    status, out, _ = run(
        ["report", "--from", "deepeval", "--metric", "Relevancy", "--threshold", "0.5", "--", str(path)], capsys
    )
    assert status == 0 and out.startswith("PASS")


def test_report_from_openai_evals_reads_each_match_event(tmp_path, capsys):
    raw = oaieval(None, 4, correct=3)
    result = report(raw.encode(), source=Source("openai-evals"), threshold=0.5)
    assert (result.verdict, result.scheduled, result.mean.numerator, result.mean.denominator) == (Verdict.PASS, 4, 3, 4)
    limited = oaieval(4, 4, correct=3)
    assert report(limited.encode(), source=Source("openai-evals")).code == "partial-run"
    assert (
        report(limited.encode(), source=Source("openai-evals", allow_partial=True), threshold=0.5).verdict
        is Verdict.PASS
    )
    not_bool = raw.replace('"correct": false', '"correct": 0', 1)
    assert report(not_bool.encode(), source=Source("openai-evals"), threshold=0.5).invalid_by_code == {"wrong-type": 1}
    path = tmp_path / "log.jsonl"
    path.write_text(limited)
    status, out, _ = run(["report", "--from", "openai-evals", "--", str(path)], capsys)
    assert status == 3 and out.startswith("INVALID partial-run")


# -- a record twice: one rule, check and report alike ---------------------------------------------


def _inspect_twice(tmp_path):
    """arithmetic.json (inspect-ai 0.3.285) with its failing sample 4 replaced by a copy of sample 1."""
    log = json.loads((CORPUS / "inspect" / "arithmetic.json").read_text())
    log["samples"][3] = json.loads(json.dumps(log["samples"][0]))
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    return path


def _eval_twice(tmp_path):
    """arithmetic.eval with member samples/4_epoch_1.json holding sample 1 (DEFLATE, which every Python reads)."""
    members = eval_members(CORPUS / "inspect" / "arithmetic.eval")
    members["samples/4_epoch_1.json"] = members["samples/1_epoch_1.json"]
    return write_eval(tmp_path / "log.eval", members)


def _lm_eval_twice(tmp_path):
    """lm-eval 0.4.13's basic mc10 samples with the line of document 9 replaced by document 0's."""
    folder = CORPUS / "lm-eval" / "basic"
    lines = (folder / "samples_mc10_2026-12-01T22-15-49.548908.jsonl").read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if json.loads(line)["doc_id"] == 9)
    lines[index] = next(line for line in lines if json.loads(line)["doc_id"] == 0)
    path = tmp_path / "samples_mc10_2026-12-01T22-15-49.548908.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def _helm_twice(tmp_path):
    """HELM 0.5.16's per-instance stats with instance id3's exact_match written a second time."""
    instances = json.loads((CORPUS / "helm" / "full" / "per_instance_stats.json").read_text())
    entry = next(item for item in instances if item["instance_id"] == "id3" and len(item["stats"]) > 1)
    stat = next(stat for stat in entry["stats"] if stat["name"]["name"] == "exact_match")
    later = next(item for item in instances if item["instance_id"] == "id3" and item is not entry)
    later["stats"].append(json.loads(json.dumps(stat)))
    path = tmp_path / "per_instance_stats.json"
    path.write_text(json.dumps(instances))
    return path


LM_EVAL_RESULTS = str(CORPUS / "lm-eval" / "basic" / "results_2026-12-01T22-15-49.548908.json")


@pytest.mark.parametrize(
    "make, argv, held",
    [
        (
            _inspect_twice,
            ["report", "--from", "inspect", "--scorer", "match", "--labels", "C=1,I=0"],
            "the Inspect log's samples hold [1,1] twice, at $['samples'][0] and at $['samples'][3]",
        ),
        (
            _inspect_twice,
            ["check", "--from", "inspect", "--scorer", "match", "--metric", "accuracy"],
            "the Inspect log's samples hold [1,1] twice, at $['samples'][0] and at $['samples'][3]",
        ),
        (
            _eval_twice,
            ["report", "--from", "inspect", "--scorer", "match", "--labels", "C=1,I=0"],
            "the Inspect log's samples hold [1,1] twice, at samples/1_epoch_1.json and at samples/4_epoch_1.json",
        ),
        (
            _lm_eval_twice,
            ["report", "--from", "lm-eval", "--metric", "acc", "--results", LM_EVAL_RESULTS],
            'lm-eval\'s sample lines of mc10 hold [0,"none"] twice, at observation 1 and at observation 10',
        ),
        (
            _helm_twice,
            ["report", "--from", "helm", "--metric", "exact_match", "--split", "test", "--scheduled", "5"],
            "HELM's per-instance stats hold 'exact_match' (split 'test') of [\"id3\",0] twice",
        ),
    ],
    ids=["inspect-json-report", "inspect-json-check", "inspect-eval-report", "lm-eval-report", "helm-report"],
)
def test_a_record_the_harness_writes_once_held_twice_is_a_population_mismatch(make, argv, held, tmp_path, capsys):
    path = make(tmp_path)
    status, out, err = run([*argv, "--threshold", "0.5", "--", str(path)], capsys)
    assert status == 3 and out.startswith("INVALID population-mismatch: ") and held in out, out
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "argv, file",
    [
        (["check", "--from", "inspect", "--scorer", "match", "--metric", "accuracy"], "inspect/arithmetic.json"),
        (["report", "--from", "inspect", "--scorer", "match", "--labels", "C=1,I=0"], "inspect/arithmetic.json"),
        (["report", "--from", "inspect", "--scorer", "match", "--labels", "C=1,I=0"], "inspect/arithmetic.eval"),
        (
            ["report", "--from", "lm-eval", "--metric", "acc", "--results", LM_EVAL_RESULTS],
            "lm-eval/basic/samples_mc10_2026-12-01T22-15-49.548908.jsonl",
        ),
        (
            ["report", "--from", "helm", "--metric", "exact_match", "--split", "test", "--scheduled", "5"],
            "helm/full/per_instance_stats.json",
        ),
    ],
)
def test_the_same_files_whole_pass(argv, file, capsys):
    # The controls: the files the harnesses wrote, each record once.
    status, out, _ = run([*argv, "--threshold", "0.5", "--", str(CORPUS / file)], capsys)
    assert status == 0 and out.startswith("PASS meets-threshold"), out


def test_lm_eval_lines_without_a_results_file_follow_the_reports_rule_for_reruns(tmp_path, capsys):
    # Without --results nothing declares the lines one run's: a repeated
    # line is a rerun (the first counts), and document 9 is then missing.
    path = _lm_eval_twice(tmp_path)
    argv = ["report", "--from", "lm-eval", "--metric", "acc", "--scheduled", "10", "--threshold", "0.5"]
    status, out, _ = run([*argv, "--", str(path)], capsys)
    assert status == 3 and out.startswith("INVALID missing-evidence"), out


@pytest.mark.parametrize(
    "file, superseded",
    [
        # edit_eval_log + write_eval_log(header_only=True) appended a new header.json.
        ("edited-tags.eval", ["header.json"]),
        # Rewritten whole by write_eval_log: nothing left behind.
        ("edited-score.eval", None),
        ("arithmetic.eval", None),
    ],
)
def test_an_eval_receipt_names_the_superseded_entries_inspect_left(file, superseded, tmp_path, capsys):
    receipt = tmp_path / "receipt.json"
    argv = ["check", "--from", "inspect", "--scorer", "match", "--metric", "accuracy", "--threshold", "0.5"]
    status, _, _ = run([*argv, "--receipt", str(receipt), "--", str(CORPUS / "inspect" / file)], capsys)
    source = json.loads(receipt.read_text())["selection"]["source"]
    assert status == 0 and source["member"] == "header.json"
    assert source.get("superseded") == superseded


# -- HELM: the rounding of a mean may not decide ----------------------------------------------------


def _helm_stats(total):
    """HELM 0.5.16's stats.json (test exact_match: sum 0.6, count 1, mean 0.6) with the sum made *total*."""
    stats = json.loads((CORPUS / "helm" / "full" / "stats.json").read_text())
    for stat in stats:
        name = stat["name"]
        if name["name"] == "exact_match" and name["split"] == "test" and "perturbation" not in name:
            stat["sum"] = total
    return json.dumps(stats)


@pytest.mark.parametrize(
    "total, threshold, direction, expected",
    [
        (0.6, "0.6", "higher", "PASS"),
        # HELM's stats.json holds the mean of the per-instance means, count 1:
        # a sum of 0.5999999 is within the rounding of the mean 0.6, but
        # below the threshold 0.6 that the mean meets.
        (0.5999999, "0.6", "higher", "value-mismatch"),
        (0.5999999, "0.5", "higher", "PASS"),
        (0.5999999, "0.59999995", "higher", "value-mismatch"),
        (0.6000001, "0.6", "higher", "PASS"),
        (0.6000001, "0.6", "lower", "value-mismatch"),
        (0.5999999, "0.6", "lower", "PASS"),
        # Beyond the rounding: the mean contradicts its sum whatever the threshold.
        (0.5, "0.1", "higher", "value-mismatch"),
    ],
)
def test_a_helm_mean_and_its_sum_over_count_must_fall_on_one_side_of_the_threshold(
    total, threshold, direction, expected
):
    policy = Policy(float(threshold), direction=direction)
    decision = evaluate(_helm_stats(total), source=Source("helm", metric="exact_match"), policy=policy)
    assert expected in (decision.verdict.value, decision.code), decision.message


def test_a_helm_per_instance_mean_the_rounding_would_decide_is_an_invalid_observation():
    instances = json.loads((CORPUS / "helm" / "full" / "per_instance_stats.json").read_text())
    for instance in instances:
        for stat in instance["stats"]:
            if stat["name"]["name"] == "exact_match" and stat["mean"] == 1:
                stat["sum"] = 0.9999995  # its mean 1 meets the threshold 1; the sum does not
    result = report(
        json.dumps(instances).encode(),
        source=Source("helm", metric="exact_match", split="test"),
        threshold=1,
        scheduled=5,
    )
    codes = dict(result.invalid_by_code)
    assert result.verdict is Verdict.INVALID and codes == {"value-mismatch": 3}, codes


def test_check_and_report_count_the_sample_members_of_an_eval_alike(tmp_path, capsys):
    # arithmetic.eval (inspect-ai 0.3.285, 5 samples) with a sixth member, a
    # copy of sample 1 named for a sample 6 the run never scheduled.
    members = eval_members(CORPUS / "inspect" / "arithmetic.eval")
    members["samples/6_epoch_1.json"] = members["samples/1_epoch_1.json"]
    path = write_eval(tmp_path / "log.eval", members)
    said = "holds more samples than its run had: samples in the log 6 at samples/*.json"
    for argv in (
        ["check", "--from", "inspect", "--scorer", "match", "--metric", "accuracy"],
        ["report", "--from", "inspect", "--scorer", "match", "--labels", "C=1,I=0"],
    ):
        status, out, _ = run([*argv, "--threshold", "0.5", "--", str(path)], capsys)
        assert status == 3 and out.startswith("INVALID population-mismatch") and said in out, out
