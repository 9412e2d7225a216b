# SPDX-License-Identifier: MIT
"""Headline adapters: each harness's own output gated by name, through the
API (``evaluate(source=...)``) and the command line (``check --from``).

One table drives both: every bundled harness fixture, the trap it holds,
and the verdict, code and words that trap must produce.  Inspect ``.eval``
logs, ZIP bombs and duplicate members are built here with ``zipfile``.
"""

from __future__ import annotations

import copy
import io
import itertools
import json
import os
import re
import zipfile

import pytest

from scorecontract import InvalidEvidence, Policy, PolicyError, Source, Verdict, evaluate, loads
from scorecontract._cli import main
from support import FIXTURES, run_fresh, run_main, sample


def registered_harnesses():
    """The harnesses ``--from`` takes, as ``scorecontract report --help`` lists them."""
    usage = run_main("report", "--help").stdout.decode()
    found = re.search(r"\[--from \{([a-z,-]+)\}\]", usage)
    if found is None:
        raise AssertionError("report --help lists no harnesses")
    return tuple(found.group(1).split(","))


def adapter_help(harness):
    """``scorecontract check --from HARNESS --help``, printed at 80 columns."""
    result = run_main("check", "--from", harness, "--help")
    assert result.returncode == 0 and result.stderr == b"", result
    return result.stdout.decode()


def follows(harness):
    """What the adapter's help says it follows, its wrapped lines joined."""
    text = adapter_help(harness)
    block = text.split("\nfollows:", 1)[1].split("\n\n", 1)[0]
    lines = block.split("\n")
    # Continuation lines are indented under the label; the next label is not.
    kept = [lines[0]] + [line for line in itertools.takewhile(lambda line: line.startswith(" "), lines[1:])]
    return " ".join(line.strip() for line in kept)


HARNESSES = registered_harnesses()

HARNESS_FIXTURES = FIXTURES / "harnesses"
PERPLEXITY = {"threshold": 20, "minimum": 1, "maximum": None, "direction": "lower"}

# (id, fixture, harness, options, policy keywords, verdict, code, a text the message holds)
CASES = [
    (
        "lm-eval headline",
        "lm-eval-results.json",
        "lm-eval",
        {"task": "mmlu", "metric": "acc,none"},
        {"threshold": 0.6},
        "PASS",
        "meets-threshold",
        "score 0.6121 >= threshold 0.6 (the value at $['results']['mmlu']['acc,none'])",
    ),
    (
        "lm-eval filter key",
        "lm-eval-results.json",
        "lm-eval",
        {"task": "gsm8k", "metric": "exact_match,strict-match"},
        {"threshold": 0.45},
        "FAIL",
        "below-threshold",
        "score 0.4124 < threshold 0.45",
    ),
    (
        "lm-eval N/A stderr is never a number",
        "lm-eval-results.json",
        "lm-eval",
        {"task": "mmlu", "metric": "acc_stderr,none"},
        {},
        "INVALID",
        "wrong-type",
        "is a string ('N/A'), not a number",
    ),
    (
        "lm-eval unknown task",
        "lm-eval-results.json",
        "lm-eval",
        {"task": "arc_easy", "metric": "acc,none"},
        {},
        "INVALID",
        "no-match",
        "the lm-eval results file has no task 'arc_easy' (--task); its tasks and groups: 'gsm8k', 'mmlu'",
    ),
    (
        "lm-eval --limit run",
        "lm-eval-limit.json",
        "lm-eval",
        {"task": "negotiationtom_belief", "metric": "acc,none"},
        {"threshold": 0.5},
        "INVALID",
        "partial-run",
        "lm-eval covered 20 of 13812 documents of negotiationtom_belief (n-samples effective 20 at "
        "$['n-samples']['negotiationtom_belief']['effective']; n-samples original 13812 at "
        "$['n-samples']['negotiationtom_belief']['original']; config.limit selects 20 at $['config']['limit']); "
        "pass --allow-partial to gate a partial run",
    ),
    (
        "lm-eval --limit run allowed",
        "lm-eval-limit.json",
        "lm-eval",
        {"task": "negotiationtom_belief", "metric": "acc,none", "allow_partial": True},
        {"threshold": 0.5},
        "PASS",
        "meets-threshold",
        "score 0.55 >= threshold 0.5",
    ),
    (
        "lm-eval Infinity headline",
        "lm-eval-infinity.json",
        "lm-eval",
        {"task": "tgpred", "metric": "mae,none"},
        {"threshold": 0.5, "direction": "lower"},
        "INVALID",
        "non-standard-constant",
        "$['results']['tgpred']['mae,none']",
    ),
    (
        "lm-eval NaN stderr is listed",
        "lm-eval-nan-stderr.json",
        "lm-eval",
        {"task": "tgpred", "metric": "mae,none"},
        {"threshold": 0.5, "direction": "lower"},
        "PASS",
        "meets-threshold",
        "listed and not judged (the first at $['results']['tgpred']['mae_stderr,none'])",
    ),
    (
        "lm-eval perplexity, lower is better",
        "lm-eval-perplexity.json",
        "lm-eval",
        {"task": "wikitext", "metric": "word_perplexity,none"},
        PERPLEXITY,
        "PASS",
        "meets-threshold",
        "score 16.2357 <= threshold 20 (lower is better)",
    ),
    (
        "inspect headline",
        "inspect-log.json",
        "inspect",
        {"scorer": "choice", "metric": "accuracy"},
        {},
        "PASS",
        "meets-threshold",
        "score 0.85 >= threshold 0.8 (the value at $['results']['scores'][0]['metrics']['accuracy']['value'])",
    ),
    (
        "inspect second scorer",
        "inspect-log.json",
        "inspect",
        {"scorer": "model_graded_qa", "metric": "accuracy"},
        {},
        "FAIL",
        "below-threshold",
        "$['results']['scores'][1]['metrics']['accuracy']['value']",
    ),
    (
        "inspect unknown scorer",
        "inspect-log.json",
        "inspect",
        {"scorer": "match", "metric": "accuracy"},
        {},
        "INVALID",
        "no-match",
        "the Inspect log has no scorer 'match' (--scorer); its scorers: 'choice', 'model_graded_qa'",
    ),
    (
        "inspect unknown metric",
        "inspect-log.json",
        "inspect",
        {"scorer": "choice", "metric": "mean"},
        {},
        "INVALID",
        "no-match",
        "Inspect's scorer 'choice' has no metric 'mean' (--metric); its metrics: 'accuracy', 'stderr'",
    ),
    (
        "inspect unscored samples of the gated scorer",
        "inspect-log-unscored.json",
        "inspect",
        {"scorer": "choice", "metric": "accuracy"},
        {},
        "INVALID",
        "population-mismatch",
        "results.completed_samples 4 at $['results']['completed_samples']; scored_samples of 'choice' 3 at "
        "$['results']['scores'][0]['scored_samples']; completed_samples less the unscored_samples of 'choice' 3",
    ),
    (
        "inspect NaN only in samples, good headline",
        "inspect-log-nan-samples.json",
        "inspect",
        {"scorer": "choice", "metric": "accuracy"},
        {"threshold": 0.7},
        "PASS",
        "meets-threshold",
        "1 non-finite number elsewhere in the document, listed and not judged "
        "(the first at $['samples'][3]['scores']['model_graded_qa']['value'])",
    ),
    (
        "inspect NaN samples of the gated scorer",
        "inspect-log-nan-samples.json",
        "inspect",
        {"scorer": "model_graded_qa", "metric": "accuracy"},
        {"threshold": 0.6},
        "INVALID",
        "population-mismatch",
        "completed_samples less the unscored_samples of 'model_graded_qa' 3",
    ),
    (
        "inspect success with empty scores",
        "inspect-log-empty-scores.json",
        "inspect",
        {"scorer": "choice", "metric": "accuracy"},
        {},
        "INVALID",
        "empty-run",
        "results.scores is empty",
    ),
    (
        "inspect log version 1",
        "inspect-log-v1.json",
        "inspect",
        {"scorer": "model_graded_fact", "metric": "accuracy"},
        {},
        "PASS",
        "meets-threshold",
        "(the value at $['results']['metrics']['accuracy']['value'])",
    ),
    (
        "inspect log version 1, another scorer",
        "inspect-log-v1.json",
        "inspect",
        {"scorer": "choice", "metric": "accuracy"},
        {},
        "INVALID",
        "requirement-failed",
        "was scored by a string ('model_graded_fact'), not 'choice'",
    ),
    (
        "inspect log version 1, NaN headline",
        "inspect-log-v1-nan.json",
        "inspect",
        {"scorer": "model_graded_fact", "metric": "accuracy"},
        {},
        "INVALID",
        "non-standard-constant",
        "$['results']['metrics']['accuracy']['value']",
    ),
    (
        "promptfoo pass rate, exactly at the threshold",
        "promptfoo-results.json",
        "promptfoo",
        {},
        {"threshold": 0.8},
        "PASS",
        "meets-threshold",
        "pass rate successes / (successes + failures + errors) 4/5 = 0.8 >= threshold 0.8, compared exactly",
    ),
    (
        "promptfoo one provider",
        "promptfoo-results.json",
        "promptfoo",
        {"provider": "anthropic:claude-3-5-haiku"},
        {"threshold": 0.8},
        "FAIL",
        "below-threshold",
        "pass rate of provider 'anthropic:claude-3-5-haiku' 7/10 = 0.7 < threshold 0.8",
    ),
    (
        "promptfoo unknown provider",
        "promptfoo-results.json",
        "promptfoo",
        {"provider": "openai:gpt-5"},
        {},
        "INVALID",
        "no-match",
        "no prompt of provider 'openai:gpt-5' (--provider); its providers: 'openai:gpt-4o-mini', 'anthropic:claude-3-5-haiku'",
    ),
    (
        "promptfoo errors",
        "promptfoo-errors.json",
        "promptfoo",
        {},
        {"threshold": 0.5},
        "INVALID",
        "grader-errors",
        "promptfoo reports 2 errors",
    ),
    (
        "promptfoo errors allowed count as not passed",
        "promptfoo-errors.json",
        "promptfoo",
        {"allow_errors": True},
        {"threshold": 0.7},
        "PASS",
        "meets-threshold",
        "7/10 = 0.7 >= threshold 0.7",
    ),
    (
        "helm test split, no perturbation",
        "helm-stats.json",
        "helm",
        {"metric": "exact_match"},
        {"threshold": 0.6},
        "PASS",
        "meets-threshold",
        "score 0.62 >= threshold 0.6 (the value at $[4]['mean'])",
    ),
    (
        "helm valid split",
        "helm-stats.json",
        "helm",
        {"metric": "exact_match", "split": "valid"},
        {"threshold": 0.65},
        "FAIL",
        "below-threshold",
        "(the value at $[3]['mean'])",
    ),
    (
        "helm count 0",
        "helm-stats.json",
        "helm",
        {"metric": "prefix_exact_match"},
        {},
        "INVALID",
        "empty-run",
        "has count 0: no instance was scored",
    ),
    (
        "helm NaN stat deleted",
        "helm-stats.json",
        "helm",
        {"metric": "f1_score"},
        {},
        "INVALID",
        "no-match",
        "no stat 'f1_score' (--metric); its stats: 'num_references'",
    ),
    (
        "deepeval exact mean",
        "deepeval-latest-test-run.json",
        "deepeval",
        {"metric": "Answer Relevancy"},
        {"threshold": 0.85},
        "PASS",
        "meets-threshold",
        "mean 'Answer Relevancy' score over 3 test cases 17/20 = 0.85 >= threshold 0.85",
    ),
    (
        "deepeval timed-out metric has no score",
        "deepeval-latest-test-run.json",
        "deepeval",
        {"metric": "Faithfulness"},
        {},
        "INVALID",
        "grader-errors",
        "errored on 1 test case",
    ),
    (
        "deepeval missing metric",
        "deepeval-latest-test-run.json",
        "deepeval",
        {"metric": "Bias"},
        {},
        "INVALID",
        "no-match",
        "no metric 'Bias' (--metric); its metrics: 'Answer Relevancy', 'Faithfulness'",
    ),
    (
        "deepeval empty metricsScores",
        "deepeval-temp-test-run.json",
        "deepeval",
        {"metric": "Answer Relevancy"},
        {},
        "INVALID",
        "empty-run",
        "metricsScores is empty",
    ),
    (
        "openai-evals final report",
        "openai-evals-log.jsonl",
        "openai-evals",
        {},
        {"threshold": 0.8},
        "PASS",
        "meets-threshold",
        "score 0.8 >= threshold 0.8 (the value at $['final_report']['accuracy'])",
    ),
    (
        "openai-evals another metric",
        "openai-evals-log.jsonl",
        "openai-evals",
        {"metric": "boostrap_std"},
        {},
        "INVALID",
        "requirement-failed",
        "'boostrap_std' on line 12 is not a value its events determine",
    ),
    (
        "openai-evals two final reports",
        "openai-evals-two-reports.jsonl",
        "openai-evals",
        {},
        {},
        "INVALID",
        "ambiguous-selection",
        "2 lines of the openai/evals log hold final_report (lines 12, 24)",
    ),
    (
        "openai-evals NaN accuracy",
        "openai-evals-nan.jsonl",
        "openai-evals",
        {},
        {},
        "INVALID",
        "non-standard-constant",
        "$['final_report']['accuracy']",
    ),
    (
        "simple-evals score",
        "simple-evals-mmlu.json",
        "simple-evals",
        {},
        {},
        "PASS",
        "meets-threshold",
        "score 0.8123 >= threshold 0.8 (the value at $['score'])",
    ),
    (
        "simple-evals null score",
        "simple-evals-null.json",
        "simple-evals",
        {},
        {},
        "INVALID",
        "wrong-type",
        "the value at $['score'] is null, not a number",
    ),
    (
        "simple-evals NaN metric",
        "simple-evals-null.json",
        "simple-evals",
        {"metric": "f1_score"},
        {},
        "INVALID",
        "non-standard-constant",
        "$['f1_score']",
    ),
]

IDS = [case[0] for case in CASES]
FLAGS = {
    "task": "--task",
    "metric": "--metric",
    "scorer": "--scorer",
    "provider": "--provider",
    "split": "--split",
    "allow_partial": "--allow-partial",
    "allow_errors": "--allow-errors",
}


def cli_arguments(harness, options, keywords):
    """The command line that asks what the API call asks."""
    argv = ["check", "--from", harness]
    for name, value in options.items():
        argv += [FLAGS[name]] if value is True else [FLAGS[name], value]
    for keyword, flag in (("threshold", "--threshold"), ("minimum", "--min"), ("maximum", "--max")):
        if keyword in keywords:
            value = keywords[keyword]
            argv += [flag, "none" if value is None else json.dumps(value)]
    if "direction" in keywords:
        argv += ["--direction", keywords["direction"]]
    return argv


@pytest.mark.parametrize("name, harness, options, keywords, verdict, code, text", [c[1:] for c in CASES], ids=IDS)
def test_adapter_through_the_api(name, harness, options, keywords, verdict, code, text):
    raw = (HARNESS_FIXTURES / name).read_bytes()
    decision = evaluate(raw, source=Source(harness, **options), policy=Policy(**keywords))
    assert (decision.verdict.value, decision.code) == (verdict, code)
    assert text in decision.message
    # Only a valid headline has a score; no adapter makes one up.
    assert (decision.score is None) == (verdict == "INVALID")
    selection = decision.as_dict()["selection"]
    assert selection["source"]["harness"] == harness
    assert selection["source"]["options"] == options
    # The policy applied lists non-finite numbers elsewhere.
    assert decision.policy.nonfinite_elsewhere == "list"


@pytest.mark.parametrize("name, harness, options, keywords, verdict, code, text", [c[1:] for c in CASES], ids=IDS)
def test_adapter_through_the_command_line(name, harness, options, keywords, verdict, code, text, tmp_path, capsys):
    receipt = tmp_path / "receipt.json"
    argv = [*cli_arguments(harness, options, keywords), "--receipt", str(receipt), "--", str(HARNESS_FIXTURES / name)]
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == Verdict(verdict).exit_code
    assert out.startswith(f"{verdict} {code}: ")
    assert text in out
    assert err == ""
    written = loads(receipt.read_bytes())
    assert (written["verdict"], written["code"]) == (verdict, code)
    assert written["selection"]["source"]["harness"] == harness
    assert written["selection"]["source"]["options"] == options
    assert written["evidence"]["path"] == str(HARNESS_FIXTURES / name)


def test_every_harness_is_in_the_table_with_a_pass_and_an_invalid():
    # Which fixture files must be gated somewhere is tests/test_harness_fixtures.py's.
    assert {case[2] for case in CASES} == set(HARNESSES)
    # Each has a headline adapter: its own help, naming it.
    assert all(
        adapter_help(harness).startswith(f"usage: scorecontract check --from {harness} ") for harness in HARNESSES
    )
    for harness in HARNESSES:
        verdicts = {case[5] for case in CASES if case[2] == harness}
        assert {"PASS", "INVALID"} <= verdicts, harness
    for case in CASES:
        assert (HARNESS_FIXTURES / case[1]).is_file(), case[1]


def test_the_receipt_names_the_resolved_path_and_the_options(capsys):
    path = str(HARNESS_FIXTURES / "lm-eval-limit.json")
    status = main(
        ["check", "--format", "json", "--from", "lm-eval", "--task", "negotiationtom_belief", "--metric", "acc,none"]
        + ["--allow-partial", "--threshold", "0.5", "--", path]
    )
    assert status == 0
    receipt = loads(capsys.readouterr().out)
    assert receipt["selection"]["path"] == "$['results']['negotiationtom_belief']['acc,none']"
    assert receipt["selection"]["source"] == {
        "harness": "lm-eval",
        "options": {"allow_partial": True, "metric": "acc,none", "task": "negotiationtom_belief"},
        "partial": "20 of 13812 documents of negotiationtom_belief",
        "not_numbers": [
            "$['results']['negotiationtom_belief']['f1_stderr,none']",
            "$['results']['negotiationtom_belief']['micro_f1_stderr,none']",
        ],
    }
    assert receipt["policy"]["nonfinite_elsewhere"] == "list"


def test_a_computed_value_names_its_fraction_in_the_receipt():
    raw = (HARNESS_FIXTURES / "deepeval-latest-test-run.json").read_bytes()
    decision = evaluate(raw, source=Source("deepeval", metric="Answer Relevancy"), policy=Policy(0.85))
    source = decision.as_dict()["selection"]["source"]
    assert source["value"] == "17/20"
    assert source["wrapped"] is True
    assert decision.selection.path == "$['testRunData']['metricsScores'][0]"
    assert decision.score == 0.85


# -- lm-eval's direction --------------------------------------------------------------


def test_a_direction_that_contradicts_higher_is_better_is_configuration():
    raw = (HARNESS_FIXTURES / "lm-eval-perplexity.json").read_bytes()
    source = Source("lm-eval", task="wikitext", metric="word_perplexity,none")
    with pytest.raises(PolicyError) as caught:
        evaluate(raw, source=source, policy=Policy(20, minimum=1, maximum=None))
    assert caught.value.code == "option-conflict"
    assert "higher_is_better false" in caught.value.message


def test_the_command_line_takes_the_direction_from_the_file_when_none_is_stated(capsys):
    path = str(HARNESS_FIXTURES / "lm-eval-perplexity.json")
    argv = ["check", "--from", "lm-eval", "--task", "wikitext", "--metric", "word_perplexity,none"]
    argv += ["--threshold", "20", "--min", "1", "--max", "none"]
    assert main([*argv, "--", path]) == 0
    assert "(lower is better)" in capsys.readouterr().out
    assert main([*argv, "--direction", "lower", "--", path]) == 0
    capsys.readouterr()
    assert main([*argv, "--direction", "higher", "--", path]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("scorecontract: error: option-conflict: lm-eval marks 'word_perplexity' of 'wikitext' lower")


def test_a_higher_is_better_that_is_not_a_boolean_is_invalid():
    raw = b'{"results": {"t": {"acc,none": 0.9}}, "higher_is_better": {"t": {"acc": "yes"}}, '
    raw += b'"n-samples": {"t": {"original": 5, "effective": 5}}}'
    decision = evaluate(raw, source=Source("lm-eval", task="t", metric="acc,none"))
    assert (decision.verdict, decision.code) == (Verdict.INVALID, "wrong-type")


@pytest.mark.parametrize(
    "counts, code",
    [
        (None, "missing-member"),
        ('{"original": 5}', "missing-member"),
        ('{"original": 5, "effective": 5.0}', "wrong-type"),
        ('{"original": 5, "effective": null}', "wrong-type"),
        ('{"original": 5, "effective": true}', "wrong-type"),
        ('{"original": 5, "effective": 6}', "population-mismatch"),
        ('{"original": 5, "effective": 4}', "partial-run"),
        ('{"original": 5, "effective": 5}', "meets-threshold"),
    ],
)
def test_lm_eval_coverage_is_never_guessed(counts, code):
    raw = '{"results": {"t": {"acc,none": 0.9}}'
    if counts is not None:
        raw += f', "n-samples": {{"t": {counts}}}'
    raw += "}"
    decision = evaluate(raw, source=Source("lm-eval", task="t", metric="acc,none"))
    assert decision.code == code


# -- promptfoo: an exact fraction, never metrics.score -----------------------------------


def promptfoo_rows(passes, failures=0, errors=0, prompt=0):
    """Rows as promptfoo writes them: passing, failing, then errors (failureReason 2)."""
    kinds = [(True, 0)] * passes + [(False, 1)] * failures + [(False, 2)] * errors
    return [
        {"promptIdx": prompt, "testIdx": index, "success": success, "failureReason": reason}
        for index, (success, reason) in enumerate(kinds)
    ]


def promptfoo(stats, prompts=(), rows=None):
    """A promptfoo results file: one row per test counted in *stats*, of prompt 0, unless *rows*."""
    if rows is None:
        counts = [stats.get(name) for name in ("successes", "failures", "errors")]
        rows = promptfoo_rows(*(count if type(count) is int and count > 0 else 0 for count in counts))
    if not prompts and type(rows) is list:
        # promptfoo writes one entry per prompt, its metrics counting its rows.
        kinds = [
            (row.get("success") is True and row.get("failureReason") != 2, row.get("failureReason") == 2)
            for row in rows
        ]
        metrics = {"testPassCount": sum(p for p, _ in kinds), "testErrorCount": sum(e for _, e in kinds)}
        metrics["testFailCount"] = len(rows) - metrics["testPassCount"] - metrics["testErrorCount"]
        prompts = [{"provider": "p", "metrics": metrics}] if rows else []
    return json.dumps({"results": {"version": 3, "prompts": list(prompts), "results": rows, "stats": stats}})


@pytest.mark.parametrize(
    "stats, rows, code",
    [
        # True is an int to Python, and 4.0 a float equal to 4: neither is a count.
        ({"successes": True, "failures": 0, "errors": 0}, None, "wrong-type"),
        ({"successes": 4, "failures": False, "errors": 0}, None, "wrong-type"),
        ({"successes": 4.0, "failures": 1, "errors": 0}, None, "wrong-type"),
        # A huge count that no row backs: not a pass rate of 1.
        ({"successes": 10**30, "failures": 1, "errors": 0}, [{"promptIdx": 0}] * 5, "population-mismatch"),
        ({"successes": 4, "failures": 1, "errors": 0}, [{"promptIdx": 0}] * 4, "population-mismatch"),
        ({"successes": 4, "failures": 1, "errors": 0}, {"rows": 5}, "wrong-type"),
        ({"successes": 0, "failures": 0, "errors": 3}, None, "grader-errors"),
    ],
)
def test_promptfoo_counts_are_backed_by_rows(stats, rows, code):
    assert evaluate(promptfoo(stats, rows=rows), source="promptfoo").code == code


def test_promptfoo_provider_counts_are_backed_by_that_prompts_rows():
    prompts = [
        {"provider": "a", "metrics": {"testPassCount": 2, "testFailCount": 0, "testErrorCount": 0}},
        {"provider": "b", "metrics": {"testPassCount": 10**30, "testFailCount": 0, "testErrorCount": 0}},
    ]
    rows = promptfoo_rows(2) + promptfoo_rows(2, prompt=1)
    raw = promptfoo({"successes": 4, "failures": 0, "errors": 0}, prompts, rows)
    assert evaluate(raw, source=Source("promptfoo", provider="a")).verdict is Verdict.PASS
    refused = evaluate(raw, source=Source("promptfoo", provider="b"))
    assert (refused.code, refused.score) == ("population-mismatch", None)
    assert "rows of promptIdx 1" in refused.message
    rows[0] = {"promptIdx": True}
    raw = promptfoo({"successes": 4, "failures": 0, "errors": 0}, prompts, rows)
    assert evaluate(raw, source=Source("promptfoo", provider="a")).code == "wrong-type"


def test_promptfoo_errors_only_allowed_is_a_fail_not_a_pass():
    raw = promptfoo({"successes": 0, "failures": 0, "errors": 3})
    decision = evaluate(raw, source=Source("promptfoo", allow_errors=True))
    assert (decision.verdict, decision.score) == (Verdict.FAIL, 0.0)


def test_promptfoo_never_reads_metrics_score():
    # metrics.score is a sum (12 here, over 1): the gate reads the counts.
    prompt = {"provider": "p", "metrics": {"score": 12, "testPassCount": 1, "testFailCount": 3, "testErrorCount": 0}}
    raw = promptfoo({"successes": 1, "failures": 3, "errors": 0}, [prompt])
    assert evaluate(raw, source=Source("promptfoo")).code == "below-threshold"
    assert evaluate(raw, source=Source("promptfoo", provider="p")).score == 0.25


def test_promptfoo_compares_the_fraction_exactly():
    # 2/3 is above the float 0.6666666666666666 and below 0.66666666666666667.
    raw = promptfoo({"successes": 2, "failures": 1, "errors": 0})
    assert evaluate(raw, source=Source("promptfoo"), threshold=0.6666666666666666).verdict is Verdict.PASS
    exact = Policy(__import__("decimal").Decimal("0.66666666666666667"), exact=True)
    assert evaluate(raw, source=Source("promptfoo"), policy=exact).verdict is Verdict.FAIL


@pytest.mark.parametrize(
    "stats, code",
    [
        ({"successes": 0, "failures": 0, "errors": 0}, "empty-run"),
        ({"successes": 3, "failures": 0}, "missing-member"),
        ({"successes": 3, "failures": None, "errors": 0}, "wrong-type"),
        ({"successes": 3, "failures": "1", "errors": 0}, "wrong-type"),
        ({"successes": 3.0, "failures": 1, "errors": 0}, "wrong-type"),
        ({"successes": 3, "failures": -1, "errors": 0}, "wrong-type"),
        ({"successes": 3, "failures": 0, "errors": 1}, "grader-errors"),
    ],
)
def test_promptfoo_counts_are_whole_numbers(stats, code):
    assert evaluate(promptfoo(stats), source="promptfoo").code == code


def test_a_nan_count_is_invalid():
    raw = '{"results": {"stats": {"successes": NaN, "failures": 0, "errors": 0}}}'
    assert evaluate(raw, source="promptfoo").code == "non-standard-constant"


# -- DeepEval: wrapped or plain, every score a number ---------------------------------------


@pytest.mark.parametrize("wrap", [True, False])
@pytest.mark.parametrize(
    "scores, code",
    [
        ("[0.5, 1]", "FAIL"),
        ("[0.9, 0.7]", "PASS"),
        ("[0.9, null]", "wrong-type"),
        ('[0.9, "0.7"]', "wrong-type"),
        ("[0.9, true]", "wrong-type"),
        ("[0.9, NaN]", "non-standard-constant"),
        ("[]", "empty-run"),
        ("0.9", "wrong-type"),
    ],
)
def test_deepeval_scores(wrap, scores, code):
    # The test cases hold the same scores, the first passing, the second not.
    cases = ", ".join(
        f'{{"name": "c{index}", "success": {flag}, "metricsData": '
        f'[{{"name": "M", "score": {score}, "success": {flag}}}]}}'
        for index, (score, flag) in enumerate(zip(scores.strip("[]").split(", "), ("true", "false")))
        if score
    )
    entry = f'{{"metric": "M", "scores": {scores}, "passes": 1, "fails": 1, "errors": 0}}'
    run = f'{{"testCases": [{cases}], "metricsScores": [{entry}], "testPassed": 1, "testFailed": 1}}'
    raw = f'{{"testRunData": {run}}}' if wrap else run
    decision = evaluate(raw, source=Source("deepeval", metric="M"))
    assert code in (decision.verdict.value, decision.code)


def test_deepeval_scores_agree_with_their_counts():
    cases = [
        {"name": f"c{i}", "success": True, "metricsData": [{"name": "M", "score": 0.9, "success": True}]}
        for i in (0, 1)
    ]
    entry = {"metric": "M", "scores": [0.9, 0.8], "passes": 3, "fails": 0, "errors": 0}
    run = json.dumps({"testCases": cases, "metricsScores": [entry], "testPassed": 2, "testFailed": 0})
    decision = evaluate(run, source=Source("deepeval", metric="M"))
    assert decision.code == "population-mismatch"
    assert "scores 2 at $['metricsScores'][0]['scores']; passes + fails 3 at $['metricsScores'][0]" in decision.message


def test_deepeval_link_only_file_is_invalid():
    raw = b'{"testRunLink": "https://app.confident-ai.com/project/x/evaluation/test-runs/y"}'
    decision = evaluate(raw, source=Source("deepeval", metric="M"))
    assert decision.code == "missing-member" and "holds only testRunLink" in decision.message


# -- openai-evals: JSON Lines framing ----------------------------------------------------------


def test_openai_evals_lines_are_strict_and_named():
    good = (HARNESS_FIXTURES / "openai-evals-log.jsonl").read_text()
    broken = good.replace('"type": "match"', '"type": "match", "type": "x"', 1)
    decision = evaluate(broken, source="openai-evals")
    assert decision.code == "duplicate-member"
    assert decision.message.startswith("line 3: ")
    assert evaluate(good.replace("final_report", "final"), source="openai-evals").code == "no-match"
    assert evaluate(good, source="openai-evals").as_dict()["selection"]["source"]["line"] == 12


def test_openai_evals_nan_on_other_lines_is_counted():
    lines = [
        '{"spec": {"run_id": "r"}}',
        '{"run_id": "r", "type": "metrics", "data": {"score": NaN, "accuracy": 0.9}}',
        '{"final_report": {"accuracy": 0.9}}',
    ]
    decision = evaluate("\n".join(lines), source="openai-evals")
    assert decision.verdict is Verdict.PASS
    assert decision.as_dict()["selection"]["source"]["nonfinite_on_other_lines"] == 1


# -- Inspect .eval logs, built here ------------------------------------------------------------


def eval_log(members, compression=zipfile.ZIP_DEFLATED):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def inspect_members():
    log = json.loads((HARNESS_FIXTURES / "inspect-log.json").read_text())
    sample = {"id": 4, "epoch": 1, "scores": {"choice": {"value": "NaN-marker"}}}
    return [
        ("_journal/start.json", json.dumps({"version": 2, "eval": log["eval"]})),
        ("header.json", json.dumps(log)),
        ("summaries.json", "[]"),
        ("samples/4_epoch_1.json", json.dumps(sample).replace('"NaN-marker"', "NaN")),
    ]


CHOICE = Source("inspect", scorer="choice", metric="accuracy")


def test_an_eval_log_is_gated_on_its_header():
    decision = evaluate(eval_log(inspect_members()), source=CHOICE)
    assert (decision.verdict, decision.code) == (Verdict.PASS, "meets-threshold")
    source = decision.as_dict()["selection"]["source"]
    assert source["member"] == "header.json"
    # The sample's NaN is in its own member, which is never read.
    assert decision.selection.nonfinite_count == 0


def test_an_eval_log_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "2025-06-02T10-14-07_popularity.eval"
    path.write_bytes(eval_log(inspect_members()))
    argv = ["check", "--format", "json", "--from", "inspect", "--scorer", "choice", "--metric", "accuracy", str(path)]
    assert main(argv) == 0
    receipt = loads(capsys.readouterr().out)
    assert receipt["selection"]["source"]["member"] == "header.json"
    assert receipt["evidence"]["length"] == path.stat().st_size


def test_an_eval_log_without_a_header_is_invalid():
    members = [item for item in inspect_members() if item[0] != "header.json"]
    decision = evaluate(eval_log(members), source=CHOICE)
    assert decision.code == "bad-archive"
    assert "header.json" in decision.message


def test_an_eval_log_with_two_headers_is_invalid():
    members = inspect_members()
    low = json.loads(members[1][1])
    low["results"]["scores"][0]["metrics"]["accuracy"]["value"] = 0.1
    with pytest.warns(UserWarning):  # zipfile warns of the duplicate it writes
        raw = eval_log([*members, ("header.json", json.dumps(low))])
    decision = evaluate(raw, source=CHOICE)
    assert decision.code == "bad-archive"
    assert "twice" in decision.message


def test_an_eval_log_bomb_is_refused_before_it_inflates():
    bomb = '{"version": 2, "pad": "' + " " * (8 << 20) + '"}'
    compressed = eval_log([("header.json", bomb)])
    assert len(compressed) < 64 << 10
    # Over the byte limit once inflated, however small the archive.
    decision = evaluate(compressed, source=CHOICE)
    assert decision.code == "archive-too-large"
    assert "over the limit of 1048576" in decision.message
    # Under a larger limit, the ratio alone refuses it.
    ratio = evaluate(compressed, source=CHOICE, max_bytes=64 << 20)
    assert ratio.code == "archive-too-large"
    assert "compression ratio over 100" in ratio.message
    # Stored, the archive itself is over the limit: evidence too large.
    stored = evaluate(eval_log([("header.json", bomb)], zipfile.ZIP_STORED), source=CHOICE)
    assert stored.code == "too-large"


def test_an_eval_log_that_is_not_a_zip_is_invalid():
    decision = evaluate(b"PK\x03\x04 not really a zip", source=CHOICE)
    assert decision.code == "bad-archive"


def test_an_eval_log_with_an_encrypted_member_is_invalid():
    raw = bytearray(eval_log([("header.json", "{}")]))
    # Set bit 0 of the general purpose flag in the local and central headers.
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = raw.index(signature) + offset
        raw[at] |= 1
    assert evaluate(bytes(raw), source=CHOICE).code == "bad-archive"


# -- configuration ----------------------------------------------------------------------------------


def test_a_bare_harness_name_is_a_source_without_options():
    raw = (HARNESS_FIXTURES / "simple-evals-mmlu.json").read_bytes()
    assert evaluate(raw, source="simple-evals") == evaluate(raw, source=Source("simple-evals"))
    with pytest.raises(PolicyError) as caught:
        evaluate(raw, source="lm-eval")
    assert caught.value.code == "missing-option"


@pytest.mark.parametrize(
    "source, code",
    [
        (Source("lm-eval", task="t", metric="m", scorer="s"), "bad-option"),
        (Source("helm", metric="m", provider="p"), "bad-option"),
        (Source("inspect", scorer="s"), "missing-option"),
        (Source("helm", metric=""), "bad-option"),
        (Source("helm", metric=1), "bad-option"),
        (Source("lm-eval", task="t", metric="m", allow_partial="yes"), "bad-option"),
        ("lm_eval", "bad-option"),
        (("lm-eval",), "bad-option"),
    ],
)
def test_a_bad_source_is_configuration(source, code):
    with pytest.raises(PolicyError) as caught:
        evaluate(b"{}", source=source)
    assert caught.value.code == code


@pytest.mark.parametrize(
    "keywords", [{"select": "$.score"}, {"candidate": "m-1"}, {"candidate": "m-1", "run_id": "r-1"}]
)
def test_a_source_is_not_combined_with_a_query_or_a_candidate(keywords):
    with pytest.raises(PolicyError) as caught:
        evaluate(b'{"score": 0.9}', source="simple-evals", **keywords)
    assert caught.value.code == "option-conflict"


def test_user_requirements_compose_with_the_adapter():
    raw = (HARNESS_FIXTURES / "promptfoo-results.json").read_bytes()
    holds = Policy(0.8, require=["$.results.version == 3"])
    fails = Policy(0.8, require=["$.results.version == 4"])
    assert evaluate(raw, source="promptfoo", policy=holds).verdict is Verdict.PASS
    assert evaluate(raw, source="promptfoo", policy=fails).code == "requirement-failed"
    lm = (HARNESS_FIXTURES / "lm-eval-results.json").read_bytes()
    source = Source("lm-eval", task="mmlu", metric="acc,none")
    assert evaluate(lm, source=source, policy=Policy(0.6, require=["$.git_hash == 'x'"])).code == "requirement-failed"


def test_evidence_over_the_limit_is_invalid_for_every_adapter():
    for case in CASES:
        raw = (HARNESS_FIXTURES / case[1]).read_bytes()
        decision = evaluate(raw, source=Source(case[2], **case[3]), max_bytes=16)
        assert decision.code == "too-large", case[0]


# -- help ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("harness", HARNESSES)
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_check_from_harness_help(harness, flag, capsys):
    assert main(["check", "--from", harness, flag]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith(f"usage: scorecontract check --from {harness}")
    for label in ("selects:", "requires:", "lists:", "follows:", "exit status"):
        assert label in out
    # The usage line is the adapter's own, whole at any width.
    first = out.split("\n", 1)[0]
    assert first.endswith(" PATH") and first == adapter_help(harness).split("\n", 1)[0]
    narrow = run_main("check", "--from", harness, flag, env={**os.environ, "COLUMNS": "40"})
    assert narrow.stdout.decode().split("\n", 1)[0] == first


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--from", "lm-eval", "--task", "mmlu", "--help"],
        ["check", "--from", "lm-eval", "x.json", "--help"],
        ["check", "--receipt", "r", "--from", "lm-eval", "--help"],
        ["check", "--from=lm-eval", "--help", "x"],
    ],
)
def test_adapter_help_beside_anything_else_is_refused(argv, capsys):
    assert main(argv) == 2
    assert capsys.readouterr().out == ""


def test_adapter_help_of_an_unknown_harness_is_a_usage_error(capsys):
    assert main(["check", "--from", "lm_eval", "--help"]) == 2
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.parametrize("optimize", [1, 2])
def test_adapters_hold_without_asserts(optimize):
    # Fresh interpreter under -O and -OO (adapter help is no docstring):
    # one for both calls.
    limited = str(HARNESS_FIXTURES / "lm-eval-limit.json")
    partial, helped = run_fresh(
        [
            (["check", "--from", "lm-eval", "--task", "negotiationtom_belief", "--metric", "acc,none", limited], b""),
            (["check", "--from", "helm", "--help"], b""),
        ],
        optimize=optimize,
    )
    assert partial.returncode == 3
    assert partial.stdout.startswith(b"INVALID partial-run: lm-eval covered 20 of 13812 documents")
    assert helped.returncode == 0 and b"selects:" in helped.stdout


# -- the documentation ---------------------------------------------------------------------------


def harness_sections():
    from support import ROOT

    text = (ROOT / "docs" / "harnesses.md").read_text(encoding="utf-8")
    sections = {}
    for chunk in text.split("\n## ")[1:]:
        title, _, body = chunk.partition("\n")
        sections[title.split(":", 1)[0]] = body
    if not sections:
        raise AssertionError("docs/harnesses.md has no sections")
    return text, sections


@pytest.mark.parametrize("harness", HARNESSES)
def test_each_harness_has_its_documented_section_and_recipe(harness):
    _, sections = harness_sections()
    body = sections[harness]
    for label in ("**Selects**", "**Requires**", "**Lists**", "**Follows**"):
        assert label in body
    # What its file states of the population, and what must agree.
    assert "**Reconciles**" in body
    assert f"scorecontract check --from {harness} " in body
    # The versions the help names are the ones the page names.
    commit = follows(harness).rsplit(" ", 1)[-1]
    assert commit in body


@pytest.mark.parametrize("harness", ["lm-eval", "inspect", "helm", "deepeval", "openai-evals"])
def test_each_adapter_follows_the_release_its_corpus_was_written_by(harness):
    # tests/data/conformance/<harness>/manifest.json names the release that
    # wrote the files; the adapter and its section name the same one.
    from support import ROOT

    manifest = json.loads((ROOT / "tests" / "data" / "conformance" / harness / "manifest.json").read_text())
    release = manifest["release"]
    _, sections = harness_sections()
    assert release in follows(harness) and release in sections[harness], release


def test_the_page_warns_against_promptfoo_metrics_score_and_leaves_room_for_reports():
    text, sections = harness_sections()
    assert "**Never gate on `metrics.score`.** It is a **sum**" in sections["promptfoo"]
    # The per-sample section (tests/test_report_samples.py) follows the headline adapters.
    assert text.index("\n## In Python\n") < text.index("\n## Per-sample reports\n")


def test_adapter_decisions_are_values():
    import pickle

    raw = (HARNESS_FIXTURES / "lm-eval-limit.json").read_bytes()
    source = Source("lm-eval", task="negotiationtom_belief", metric="acc,none", allow_partial=True)
    decision = evaluate(raw, source=source, threshold=0.5)
    assert pickle.loads(pickle.dumps(decision)) == decision
    assert hash(decision) == hash(evaluate(raw, source=source, threshold=0.5))
    assert decision.selection.source is source


def test_a_missing_file_still_names_the_harness_in_its_receipt(tmp_path, capsys):
    argv = ["check", "--format", "json", "--from", "helm", "--metric", "exact_match", str(tmp_path / "stats.json")]
    assert main(argv) == 3
    receipt = loads(capsys.readouterr().out)
    assert receipt["code"] == "file-not-found"
    assert receipt["selection"]["source"] == {"harness": "helm", "options": {"metric": "exact_match"}}


# -- no adapter turns a bad value into a number ---------------------------------------------------------

BAD_VALUES = [None, "0.9", True, float("nan"), float("inf"), [0.9], {"value": 0.9}]
_KEY = __import__("re").compile(r"\['((?:[^'\\]|\\.)*)'\]|\[(\d+)\]")


def path_keys(path):
    return [name if index == "" else int(index) for name, index in _KEY.findall(path)]


def replaced(document, keys, value):
    *parents, last = keys
    for key in parents:
        document = document[key]
    if value is _DELETE:
        del document[last]
    else:
        document[last] = value


def path_copy(document, keys):
    """*document* with the containers on the way to *keys*' member copied.

    ``replaced`` on the result leaves *document* as it was, without the
    cost of a deep copy of a whole harness file per mutation.
    """
    clone = parent = copy.copy(document)
    for key in keys[:-1]:
        parent[key] = copy.copy(parent[key])
        parent = parent[key]
    return clone


_DELETE = object()
PASSING = [case for case in CASES if case[5] == "PASS"]


@pytest.mark.parametrize("value", [*BAD_VALUES, _DELETE], ids=[repr(v) for v in BAD_VALUES] + ["absent"])
@pytest.mark.parametrize("case", PASSING, ids=[case[0] for case in PASSING])
def test_a_bad_headline_is_never_a_number(case, value):
    _, name, harness, options, keywords, _, _, _ = case
    text = (HARNESS_FIXTURES / name).read_text(encoding="utf-8")
    source = Source(harness, **options)
    decision = evaluate(text, source=source, policy=Policy(**keywords))
    lines = text.split("\n")
    line = decision.as_dict()["selection"]["source"].get("line")
    document = json.loads(lines[line - 1] if line else text)
    keys = path_keys(decision.selection.path)
    # The computed ones: a count, or one score of the list.
    if harness == "promptfoo":
        keys.append("testFailCount" if "provider" in options else "successes")
    elif harness == "deepeval":
        keys += ["scores", 0]
    replaced(document, keys, value)
    broken = json.dumps(document)
    if line:
        lines[line - 1] = broken
        broken = "\n".join(lines)
    after = evaluate(broken, source=source, policy=Policy(**keywords))
    assert after.verdict is Verdict.INVALID, (keys, value, after)
    assert after.score is None


# -- mutation: no broken run is ever a PASS ------------------------------------------------------

# The values a member is replaced with: every one is wrong wherever the
# adapter reads a number, a count, a flag or a name (True is an int to
# Python; 1.5 and -1 are no counts).  A huge count is a whole number, so
# it has tests of its own (promptfoo's rows).
MUTATIONS = [_DELETE, None, "x", "true", True, False, float("nan"), float("inf"), -1, 1.5, [], {}]


def critical_members(harness, options, path_keys_of_value, document):
    """(keys, optional) of what the decision rests on, for one passing case.

    A mutation at a required member, or at one of its ancestors, must never
    PASS; one at an optional member (Inspect's invalidated, lm-eval's
    higher_is_better) must not PASS unless it deletes it.
    """
    keys = path_keys_of_value
    if harness == "lm-eval":
        task, metric = options["task"], options["metric"]
        # With --allow-partial a file without n-samples is gated (and says
        # so); its counts, where written, are still read strictly.
        partial = options.get("allow_partial", False)
        counts = [(("n-samples", task, name), partial) for name in ("original", "effective")]
        return [(("results", task, metric), False), *counts, (("higher_is_better", task, metric.split(",")[0]), True)]
    if harness == "inspect":
        head = [(("version",), False), (("status",), False), (("invalidated",), True)]
        if document.get("version") == 1:
            return [*head, (("results", "scorer", "name"), False), (tuple(keys), False)]
        entry = tuple(keys[:3])
        return [
            *head,
            (("results", "completed_samples"), False),
            (("results", "total_samples"), False),
            ((*entry, "name"), False),
            ((*entry, "unscored_samples"), True),
            (tuple(keys), False),
        ]
    if harness == "promptfoo":
        return [((*keys, name), False) for name in ("successes", "failures", "errors")]
    if harness == "helm":
        index = keys[0]
        return [((index, "name", "name"), False), ((index, "name", "split"), False), ((index, "count"), False)] + [
            (tuple(keys), False)
        ]
    if harness == "deepeval":
        entry = tuple(keys)
        members = [((*entry, name), False) for name in ("metric", "scores", "passes", "fails", "errors")]
        scores = document
        for key in (*entry, "scores"):
            scores = scores[key]
        return members + [((*entry, "scores", index), False) for index in range(len(scores))]
    return [(tuple(keys), False)]  # openai-evals, simple-evals: the value itself


def member_paths(node, keep, prefix=()):
    """Every member path of *node*; of an array's elements, the first two
    and those on the way to a path in *keep*."""
    if isinstance(node, dict):
        items = list(node.items())
    elif isinstance(node, list):
        items = [
            (index, item)
            for index, item in enumerate(node)
            if index < 2 or any(path[: len(prefix) + 1] == (*prefix, index) for path in keep)
        ]
    else:
        return
    for key, item in items:
        yield (*prefix, key)
        yield from member_paths(item, keep, (*prefix, key))


@pytest.mark.exhaustive
@pytest.mark.parametrize("case", PASSING, ids=[case[0] for case in PASSING])
def test_no_mutation_of_a_passing_run_passes_unless_what_it_rests_on_is_intact(case):
    import math

    _, name, harness, options, keywords, _, _, _ = case
    text = (HARNESS_FIXTURES / name).read_text(encoding="utf-8")
    source = Source(harness, **options)
    policy = Policy(**keywords)
    before = evaluate(text, source=source, policy=policy)
    assert before.verdict is Verdict.PASS
    lines = text.split("\n")
    line = before.as_dict()["selection"]["source"].get("line")
    original = json.loads(lines[line - 1] if line else text)
    value_keys = tuple(path_keys(before.selection.path))
    critical = critical_members(harness, options, list(value_keys), original)
    tried = guarded = 0
    for keys in member_paths(original, [path for path, _ in critical]):
        old = original
        for key in keys:
            old = old[key]
        # What the decision rests on (and the containers on the way) gets
        # every mutation, and so does every member outside an array; one
        # inside an array element (a sample, a row) is deleted and gets two
        # others, chosen per member by a fixed seed (all under --exhaustive).
        on_the_way = any(critical_keys[: len(keys)] == keys for critical_keys, _ in critical)
        in_an_array = any(type(key) is int for key in keys)
        sampled = in_an_array and not on_the_way
        values = [_DELETE, *sample(MUTATIONS[1:], 2, f"{name} {keys!r}")] if sampled else MUTATIONS
        for value in values:
            if value is not _DELETE and type(value) is type(old) and (value == old or (value != value and old != old)):
                continue
            document = path_copy(original, keys)
            replaced(document, list(keys), value)
            mutated = json.dumps(document)
            if line:
                mutated = "\n".join([*lines[: line - 1], mutated, *lines[line:]])
            tried += 1
            try:
                after = evaluate(mutated, source=source, policy=policy)
            except PolicyError as exc:
                # Only lm-eval's higher_is_better turned against the policy.
                assert exc.code == "option-conflict" and "higher_is_better" in keys, (keys, value, exc)
                continue
            assert after.code != "internal-error", (keys, value, after)
            rests = [
                (critical_keys, optional)
                for critical_keys, optional in critical
                if critical_keys[: len(keys)] == keys and (not optional or len(keys) == len(critical_keys))
            ]
            must_refuse = any(not optional or value is not _DELETE for _, optional in rests)
            guarded += must_refuse
            if after.verdict is Verdict.PASS:
                if keys == value_keys and type(value) in (int, float) and after.score == value:
                    continue  # the headline replaced by another valid number is gated as that number
                assert not must_refuse, (keys, value, after)
                # Whatever else changed, the gated value did not.
                assert type(after.score) is type(before.score), (keys, value, after)
                assert after.score == before.score or math.isnan(after.score), (keys, value, after)
    assert tried > 20 and guarded > 5, (tried, guarded)
    assert json.loads(lines[line - 1] if line else text) == original  # no mutation leaked into it


# -- regressions found in review ---------------------------------------------------------------


def fixture_document(name):
    return json.loads((HARNESS_FIXTURES / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "invalidated, code",
    [
        (False, "meets-threshold"),
        (True, "requirement-failed"),
        # Inspect writes a bool: the string "true", null or 1 is not "not invalidated".
        ("true", "wrong-type"),
        ("false", "wrong-type"),
        (None, "wrong-type"),
        (1, "wrong-type"),
        (0, "wrong-type"),
    ],
)
def test_inspect_invalidated_is_a_boolean_or_absent(invalidated, code):
    log = fixture_document("inspect-log.json")
    log["invalidated"] = invalidated
    assert evaluate(json.dumps(log), source=CHOICE).code == code
    del log["invalidated"]
    assert evaluate(json.dumps(log), source=CHOICE).code == "meets-threshold"


def test_inspect_invalidated_string_on_the_command_line(tmp_path, capsys):
    log = fixture_document("inspect-log.json")
    log["invalidated"] = "true"
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    argv = ["check", "--from", "inspect", "--scorer", "choice", "--metric", "accuracy", str(path)]
    assert main(argv) == 3
    assert capsys.readouterr().out.startswith("INVALID wrong-type: the Inspect log's invalidated is a string ('true')")


def deepeval_entry(**changes):
    """The fixture run with its first metric's entry changed; its test cases follow the scores."""
    run = fixture_document("deepeval-latest-test-run.json")
    run["testRunData"]["metricsScores"][0].update(changes)
    scores = changes.get("scores")
    if type(scores) is list and len(scores) == 3:
        for case, score in zip(run["testRunData"]["testCases"], scores):
            case["metricsData"][0]["score"] = score
    return json.dumps(run)


RELEVANCY = Source("deepeval", metric="Answer Relevancy")


@pytest.mark.parametrize(
    "changes, code",
    [
        # Each score is a score: 1.5 and 0.2 average to 0.85, inside [0, 1].
        ({"scores": [1.5, 0.2, 0.85]}, "out-of-range"),
        ({"scores": [-0.5, 1, 1]}, "out-of-range"),
        ({"passes": "3"}, "wrong-type"),
        ({"passes": True, "fails": 2}, "wrong-type"),
        ({"fails": 0.0}, "wrong-type"),
        ({"fails": None}, "wrong-type"),
        ({"passes": 2}, "population-mismatch"),
    ],
)
def test_deepeval_scores_and_counts_meet_the_contract(changes, code):
    assert evaluate(deepeval_entry(**changes), source=RELEVANCY, threshold=0.85).code == code


def test_deepeval_counts_are_required():
    run = fixture_document("deepeval-latest-test-run.json")
    del run["testRunData"]["metricsScores"][0]["passes"]
    assert evaluate(json.dumps(run), source=RELEVANCY, threshold=0.85).code == "missing-member"


def test_deepeval_scores_on_another_scale_need_bounds():
    raw = deepeval_entry(scores=[8, 9, 10])
    assert evaluate(raw, source=RELEVANCY, threshold=0.85).code == "out-of-range"
    assert evaluate(raw, source=RELEVANCY, policy=Policy(8.5, maximum=10)).verdict is Verdict.PASS


@pytest.mark.parametrize("counts", ["x", None, [], 5])
def test_lm_eval_n_samples_that_is_not_an_object_is_invalid_even_when_partial_is_allowed(counts):
    results = fixture_document("lm-eval-limit.json")
    source = Source("lm-eval", task="negotiationtom_belief", metric="acc,none", allow_partial=True)
    for where in ("task", "whole"):
        document = json.loads(json.dumps(results))
        if where == "task":
            document["n-samples"]["negotiationtom_belief"] = counts
        else:
            document["n-samples"] = counts
        assert evaluate(json.dumps(document), source=source, threshold=0.5).code == "wrong-type", where


# -- a stated nonfinite_elsewhere "refuse" is honoured ------------------------------------------

NAN_SAMPLES = "inspect-log-nan-samples.json"


def test_an_adapter_lists_only_where_the_policy_is_silent():
    raw = (HARNESS_FIXTURES / NAN_SAMPLES).read_bytes()
    silent = evaluate(raw, source=CHOICE, policy=Policy(0.7))
    assert (silent.code, silent.selection.nonfinite_count) == ("meets-threshold", 1)
    assert silent.policy.nonfinite_elsewhere == "list"
    listed = evaluate(raw, source=CHOICE, policy=Policy(0.7, nonfinite_elsewhere="list"))
    assert listed.code == "meets-threshold"
    refused = evaluate(raw, source=CHOICE, policy=Policy(0.7, nonfinite_elsewhere="refuse"))
    assert (refused.verdict, refused.code) == (Verdict.INVALID, "non-standard-constant")
    assert refused.policy.nonfinite_elsewhere == "refuse" and refused.policy.nonfinite_stated
    assert refused.policy.as_dict()["nonfinite_elsewhere"] == "refuse"


def test_a_stated_refuse_survives_replace_and_a_silent_policy_stays_silent():
    stated = Policy(0.7, nonfinite_elsewhere="refuse")
    assert stated.replace(threshold=0.6).nonfinite_stated
    silent = Policy(0.7)
    assert not silent.replace(threshold=0.6).nonfinite_stated
    assert "nonfinite_elsewhere" not in silent.as_dict()
    assert silent != stated and silent.nonfinite_elsewhere == stated.nonfinite_elsewhere == "refuse"
    with pytest.raises(PolicyError):
        Policy(0.7, nonfinite_elsewhere="ignore")


def test_a_policy_file_that_states_refuse_is_honoured(tmp_path, capsys):
    from scorecontract import load_policy

    path = tmp_path / "policy.json"
    path.write_text('{"version": "v", "threshold": 0.7, "exact": false, "nonfinite_elsewhere": "refuse"}')
    policy = load_policy(path)
    assert policy.nonfinite_stated and load_policy(path) == policy
    raw = (HARNESS_FIXTURES / NAN_SAMPLES).read_bytes()
    assert evaluate(raw, source=CHOICE, policy=policy).code == "non-standard-constant"
    argv = ["check", "--from", "inspect", "--scorer", "choice", "--metric", "accuracy", "--policy", str(path)]
    assert main([*argv, str(HARNESS_FIXTURES / NAN_SAMPLES)]) == 3
    assert capsys.readouterr().out.startswith("INVALID non-standard-constant")
    silent = tmp_path / "silent.json"
    silent.write_text('{"version": "v", "threshold": 0.7, "exact": false}')
    argv[-1] = str(silent)
    assert main([*argv, str(HARNESS_FIXTURES / NAN_SAMPLES)]) == 0
    capsys.readouterr()


def test_openai_evals_refuse_covers_the_other_lines():
    raw = "\n".join(
        [
            '{"spec": {"run_id": "r"}}',
            '{"run_id": "r", "type": "metrics", "data": {"score": NaN, "accuracy": 0.9}}',
            '{"final_report": {"accuracy": 0.9}, "run_id": "r"}',
        ]
    )
    assert evaluate(raw, source="openai-evals").code == "meets-threshold"
    refused = evaluate(raw, source="openai-evals", policy=Policy(nonfinite_elsewhere="refuse"))
    assert refused.code == "non-standard-constant"
    assert refused.message.startswith("line 2 of the openai/evals log holds a non-finite number at $['data']['score']")


@pytest.mark.parametrize("harness", ["promptfoo", "deepeval"])
def test_computed_adapters_honour_a_stated_refuse(harness):
    if harness == "promptfoo":
        document = json.loads(promptfoo({"successes": 4, "failures": 1, "errors": 0}))
        document["results"]["results"][0]["score"] = float("nan")
        source = Source("promptfoo")
    else:
        document = fixture_document("deepeval-latest-test-run.json")
        document["testRunData"]["testCases"][0]["evaluationCost"] = float("nan")
        source = RELEVANCY
    raw = json.dumps(document)
    assert evaluate(raw, source=source, threshold=0.8).verdict is Verdict.PASS
    refused = evaluate(raw, source=source, policy=Policy(0.8, nonfinite_elsewhere="refuse"))
    assert refused.code == "non-standard-constant"


# -- lm-eval groups: coverage is the subtasks' -------------------------------------------------


def lm_eval_group(effective=100, extra=None):
    """An lm-eval results file for group g of subgroup s (tasks a, b) and task c, as lm-eval
    writes it: n-samples for the tasks only."""
    document = {
        "results": {"g": {"acc,none": 0.9}, "s": {"acc,none": 0.9}, "a": {"acc,none": 0.9}},
        "groups": {"g": {"acc,none": 0.9}, "s": {"acc,none": 0.9}},
        "group_subtasks": {"g": ["s", "c"], "s": ["a", "b"], "a": [], "b": [], "c": []},
        "higher_is_better": {"g": {"acc": True}},
        "n-samples": {
            "a": {"original": 100, "effective": 100},
            "b": {"original": 100, "effective": effective},
            "c": {"original": 50, "effective": 50},
        },
    }
    if extra:
        extra(document)
    return json.dumps(document)


GROUP = Source("lm-eval", task="g", metric="acc,none")
PARTIAL_GROUP = Source("lm-eval", task="g", metric="acc,none", allow_partial=True)


def test_a_full_group_passes_on_its_subtasks_counts():
    decision = evaluate(lm_eval_group(), source=GROUP)
    assert decision.verdict is Verdict.PASS
    assert "partial" not in decision.as_dict()["selection"]["source"]


def test_a_group_with_a_limited_subtask_is_a_partial_run():
    decision = evaluate(lm_eval_group(effective=20), source=GROUP)
    assert decision.code == "partial-run"
    assert "lm-eval covered 20 of 100 documents of b, a subtask of g (n-samples effective 20 at" in decision.message
    allowed = evaluate(lm_eval_group(effective=20), source=PARTIAL_GROUP)
    assert allowed.verdict is Verdict.PASS
    assert allowed.as_dict()["selection"]["source"]["partial"] == "20 of 100 documents of b, a subtask of g"


def test_a_group_with_an_unaccounted_subtask_is_invalid():
    def drop(document):
        del document["n-samples"]["c"]

    assert evaluate(lm_eval_group(extra=drop), source=GROUP).code == "missing-member"
    assert evaluate(lm_eval_group(extra=drop), source=PARTIAL_GROUP).verdict is Verdict.PASS


@pytest.mark.parametrize("subtasks", [[1], ["s", None]])
def test_a_group_whose_subtasks_are_not_names_is_invalid(subtasks):
    def spoil(document):
        document["group_subtasks"]["g"] = subtasks

    assert evaluate(lm_eval_group(extra=spoil), source=PARTIAL_GROUP).code == "wrong-type"


@pytest.mark.parametrize(
    "subtasks",
    [
        {"s": ["a", "b", "g"]},  # a subgroup lists its group
        {"g": ["g"]},  # a group lists itself, and so stands for no document
        {"g": ["s"], "s": ["g"]},  # two groups list each other, with no task under either
    ],
    ids=["through a subgroup", "itself", "each other"],
)
def test_a_cycle_of_groups_is_invalid(subtasks):
    # lm-eval's writer assumes no cycle (evaluator_utils._get_root_groups):
    # a file with one was not written by it, and a cycle must not stand in
    # for the n-samples of the tasks it hides.
    def cycle(document):
        document["group_subtasks"].update(subtasks)

    for source in (GROUP, PARTIAL_GROUP):
        decision = evaluate(lm_eval_group(extra=cycle), source=source)
        assert decision.code == "requirement-failed" and "a cycle of groups" in decision.message


def test_requirements_read_the_document_the_adapter_reads():
    raw = (
        '{"spec": {"run_id": "r"}}\n{"run_id": "r", "type": "metrics", "data": {"accuracy": 0.9}}\n'
        '{"final_report": {"accuracy": 0.9}, "run_id": "r"}\n'
    )
    on_line = evaluate(raw, source="openai-evals", policy=Policy(require=["$.run_id == 'r'"]))
    assert on_line.verdict is Verdict.PASS
    elsewhere = evaluate(raw, source="openai-evals", policy=Policy(require=["$.spec.run_id == 'r'"]))
    assert elsewhere.code == "requirement-failed"


@pytest.mark.parametrize(
    "fixture, source, path",
    [
        ("promptfoo-errors.json", Source("promptfoo"), "$['results']['stats']"),
        (
            "deepeval-latest-test-run.json",
            Source("deepeval", metric="Faithfulness"),
            "$['testRunData']['metricsScores'][1]",
        ),
    ],
)
def test_a_refused_count_names_the_node_it_was_read_from(fixture, source, path):
    decision = evaluate((HARNESS_FIXTURES / fixture).read_bytes(), source=source)
    assert (decision.code, decision.selection.path) == ("grader-errors", path)
    assert decision.as_dict()["selection"]["path"] == path


def test_the_promptfoo_pass_rate_is_a_fraction_whatever_the_scale():
    raw = (HARNESS_FIXTURES / "promptfoo-results.json").read_bytes()
    assert evaluate(raw, source="promptfoo", policy=Policy(80, maximum=100)).code == "below-threshold"
    assert evaluate(raw, source="promptfoo", policy=Policy(0.8, maximum=100)).code == "meets-threshold"


ARCHIVE_MUTATIONS = [None, b"", b"{}", b"NaN", b"\xff\xfe", b'{"status": "error"}', "twice"]


def test_no_mutation_of_a_passing_eval_log_passes_unless_its_header_is_intact():
    import warnings

    members = inspect_members()
    before = evaluate(eval_log(members), source=CHOICE)
    assert before.verdict is Verdict.PASS
    tried = guarded = 0
    for index, (name, _) in enumerate(members):
        for data in ARCHIVE_MUTATIONS:
            changed = list(members)
            if data is None:
                del changed[index]
            elif data == "twice":
                changed.append(members[index])
            else:
                changed[index] = (name, data)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # zipfile warns on a duplicate name
                raw = eval_log(changed)
            after = evaluate(raw, source=CHOICE)
            tried += 1
            assert after.code != "internal-error", (name, data, after)
            if name == "header.json" or data == "twice":
                guarded += 1
                assert after.verdict is Verdict.INVALID, (name, data, after)
            elif after.verdict is Verdict.PASS:
                assert after.score == before.score, (name, data, after)
    assert tried == len(members) * len(ARCHIVE_MUTATIONS) and guarded > len(ARCHIVE_MUTATIONS)


def test_inspect_refusals_of_the_log_itself():
    text = (HARNESS_FIXTURES / "inspect-log.json").read_text()
    log = json.loads(text)
    # The metric twice in one metrics object: the strict parser refuses the log.
    doubled = text.replace('"accuracy": {', '"accuracy": {"name": "accuracy", "value": 0.1}, "accuracy": {', 1)
    assert doubled != text
    assert evaluate(doubled, source=CHOICE).code == "duplicate-member"
    twice = json.loads(text)
    twice["results"]["scores"].append(twice["results"]["scores"][0])
    assert evaluate(json.dumps(twice), source=CHOICE).code == "ambiguous-selection"
    for version in (3, 0, "2", True, None, 2.0):
        log["version"] = version
        assert evaluate(json.dumps(log), source=CHOICE).code == "requirement-failed", version


@pytest.mark.parametrize("error", [{"message": "boom", "traceback": ""}, None, ""])
def test_a_success_log_that_holds_an_error_contradicts_itself(error):
    log = fixture_document("inspect-log.json")
    log["error"] = error
    decision = evaluate(json.dumps(log), source=CHOICE)
    assert (decision.code, decision.score) == ("requirement-failed", None)
    assert "holds an error" in decision.message
    members = [(name, json.dumps(log) if name == "header.json" else data) for name, data in inspect_members()]
    assert evaluate(eval_log(members), source=CHOICE).code == "requirement-failed"


def inspect_counts(name, **counts):
    """The fixture log *name* with its results' sample counts replaced (None deletes one)."""
    log = fixture_document(name)
    for key, value in counts.items():
        if value is None:
            log["results"].pop(key, None)
        else:
            log["results"][key] = value
    return json.dumps(log)


def lm_eval_counts(counts):
    return json.dumps({"results": {"t": {"acc,none": 0.9}}, "n-samples": {"t": counts}})


PROVIDER_A = [{"provider": "a", "metrics": {"testPassCount": 5, "testFailCount": 0, "testErrorCount": 0}}]
V1 = "inspect-log-v1.json"
V1_SCORER = {"scorer": "model_graded_fact", "metric": "accuracy"}

# (id, document, harness, options, code): counts that their own evidence
# contradicts, or that count nothing, are never a PASS.  Each refusal has
# its control beside it, the same document made consistent.
COUNTED = [
    (
        "promptfoo 5 successes, every row success false",
        promptfoo({"successes": 5, "failures": 0, "errors": 0}, rows=promptfoo_rows(0, 5)),
        "promptfoo",
        {},
        "population-mismatch",
    ),
    (
        "promptfoo provider 5 passes, every row success false",
        promptfoo({"successes": 5, "failures": 0, "errors": 0}, PROVIDER_A, promptfoo_rows(0, 5)),
        "promptfoo",
        {"provider": "a"},
        "population-mismatch",
    ),
    (
        "promptfoo 1 success of 5, every row success true",
        promptfoo({"successes": 1, "failures": 4, "errors": 0}, rows=promptfoo_rows(5)),
        "promptfoo",
        {},
        "population-mismatch",
    ),
    (
        "promptfoo errors allowed, rows that are failures",
        promptfoo({"successes": 4, "failures": 0, "errors": 1}, rows=promptfoo_rows(4, 1)),
        "promptfoo",
        {"allow_errors": True},
        "population-mismatch",
    ),
    (
        "promptfoo success true on an error row is an error",
        promptfoo(
            {"successes": 5, "failures": 0, "errors": 0},
            rows=[*promptfoo_rows(4), {"promptIdx": 0, "testIdx": 4, "success": True, "failureReason": 2}],
        ),
        "promptfoo",
        {},
        "population-mismatch",
    ),
    (
        "promptfoo rows that agree",
        promptfoo({"successes": 4, "failures": 0, "errors": 1}, rows=promptfoo_rows(4, 0, 1)),
        "promptfoo",
        {"allow_errors": True},
        "meets-threshold",
    ),
    (
        "promptfoo provider rows that agree",
        promptfoo({"successes": 5, "failures": 0, "errors": 0}, PROVIDER_A, promptfoo_rows(5)),
        "promptfoo",
        {"provider": "a"},
        "meets-threshold",
    ),
    (
        "inspect v1, 3 of 10 samples completed",
        inspect_counts(V1, completed_samples=3, total_samples=10),
        "inspect",
        V1_SCORER,
        "partial-run",
    ),
    ("inspect v1, one count written", inspect_counts(V1, completed_samples=10), "inspect", V1_SCORER, "missing-member"),
    (
        "inspect v1, a count that is not a number",
        inspect_counts(V1, completed_samples="10", total_samples=10),
        "inspect",
        V1_SCORER,
        "wrong-type",
    ),
    (
        "inspect v1, 0 of 0 samples",
        inspect_counts(V1, completed_samples=0, total_samples=0),
        "inspect",
        V1_SCORER,
        "empty-run",
    ),
    (
        "inspect v1, 10 of 10 samples",
        inspect_counts(V1, completed_samples=10, total_samples=10),
        "inspect",
        V1_SCORER,
        "meets-threshold",
    ),
    ("inspect v1, no counts", inspect_counts(V1), "inspect", V1_SCORER, "meets-threshold"),
    (
        "inspect v2, 0 of 0 samples",
        inspect_counts("inspect-log.json", completed_samples=0, total_samples=0),
        "inspect",
        {"scorer": "choice", "metric": "accuracy"},
        "population-mismatch",
    ),
    (
        "lm-eval 0 of 0 documents",
        lm_eval_counts({"original": 0, "effective": 0}),
        "lm-eval",
        {"task": "t", "metric": "acc,none"},
        "empty-run",
    ),
    (
        "lm-eval 0 of 0 documents, partial allowed",
        lm_eval_counts({"original": 0, "effective": 0}),
        "lm-eval",
        {"task": "t", "metric": "acc,none", "allow_partial": True},
        "empty-run",
    ),
    (
        "lm-eval 0 of 5 documents, partial allowed",
        lm_eval_counts({"original": 5, "effective": 0}),
        "lm-eval",
        {"task": "t", "metric": "acc,none", "allow_partial": True},
        "empty-run",
    ),
    (
        "lm-eval 1 of 0 documents",
        lm_eval_counts({"original": 0, "effective": 1}),
        "lm-eval",
        {"task": "t", "metric": "acc,none"},
        "population-mismatch",
    ),
    (
        "lm-eval 1 of 5 documents, partial allowed",
        lm_eval_counts({"original": 5, "effective": 1}),
        "lm-eval",
        {"task": "t", "metric": "acc,none", "allow_partial": True},
        "meets-threshold",
    ),
]


@pytest.mark.parametrize("document, harness, options, code", [c[1:] for c in COUNTED], ids=[c[0] for c in COUNTED])
def test_counts_their_evidence_contradicts_are_never_a_pass(document, harness, options, code):
    decision = evaluate(document, source=Source(harness, **options), policy=Policy(threshold=0.5))
    assert decision.code == code, decision.message
    assert (decision.verdict is Verdict.PASS) == (code == "meets-threshold")
    assert (decision.score is None) == (decision.verdict is Verdict.INVALID)


@pytest.mark.parametrize("document, harness, options, code", [c[1:] for c in COUNTED], ids=[c[0] for c in COUNTED])
def test_counts_their_evidence_contradicts_on_the_command_line(document, harness, options, code, tmp_path, capsys):
    path = tmp_path / "evidence.json"
    path.write_text(document, encoding="utf-8")
    status = main([*cli_arguments(harness, options, {"threshold": 0.5}), "--", str(path)])
    out = capsys.readouterr().out
    assert status == (0 if code == "meets-threshold" else 3), out
    assert out.startswith(f"{'PASS' if code == 'meets-threshold' else 'INVALID'} {code}: ")


def promptfoo_agrees(rows, counts):
    """Whether promptfoo's *counts* agree with its *rows*, as check reads them.

    True if ``--from promptfoo --allow-errors`` passes at threshold 0, False
    if it refuses the file as ``population-mismatch``; any other refusal is
    raised.  The counts are the run's stats and its one prompt's metrics.
    """
    document = json.loads((HARNESS_FIXTURES / "promptfoo-errors.json").read_bytes())
    successes, failures, errors = counts
    document["results"]["results"] = [
        {"testIdx": number, "promptIdx": 0, **row} if type(row) is dict else row for number, row in enumerate(rows)
    ]
    document["results"]["stats"].update(successes=successes, failures=failures, errors=errors)
    [prompt] = document["results"]["prompts"]
    prompt["metrics"].update(testPassCount=successes, testFailCount=failures, testErrorCount=errors)
    decision = evaluate(json.dumps(document), source=Source("promptfoo", allow_errors=True), threshold=0)
    if decision.code == "population-mismatch":
        return False
    if decision.verdict is not Verdict.PASS:
        raise InvalidEvidence(decision.code, decision.message)
    return True


def test_promptfoo_check_and_report_classify_a_row_alike():
    # One classification of a row (a pass, a failure or an error), which
    # check and report both compare with the counts.
    rows = [
        {"success": True, "failureReason": 0},
        {"success": True, "failureReason": 2},  # an error, whatever success says
        {"success": False, "failureReason": 2},
        {"success": False, "failureReason": 1},
        {"success": "true"},  # not a pass
    ]
    assert promptfoo_agrees(rows, (1, 2, 2))
    for other in [(2, 1, 2), (0, 3, 2), (1, 3, 1), (1, 1, 3), (2, 2, 1), (0, 2, 3)]:
        assert not promptfoo_agrees(rows, other), other
    # A row that is no object is no row promptfoo writes.
    with pytest.raises(InvalidEvidence) as info:
        promptfoo_agrees([*rows, None], (1, 3, 2))
    assert info.value.code == "not-an-object"
    # No rows: no counts agree but zero, which is an empty run.
    for other in [(1, 0, 0), (0, 1, 0), (0, 0, 1)]:
        assert not promptfoo_agrees([], other), other
    with pytest.raises(InvalidEvidence) as info:
        promptfoo_agrees([], (0, 0, 0))
    assert info.value.code == "empty-run"


@pytest.mark.parametrize("reason", [2.0, "2", True, [2]], ids=["float", "string", "bool", "list"])
def test_a_promptfoo_failure_reason_that_is_not_0_1_or_2_is_invalid(reason):
    # An outside review: error rows written as 2.0, with the stats moved to
    # failures, passed a low threshold without --allow-errors.
    with pytest.raises(InvalidEvidence) as info:
        promptfoo_agrees(
            [{"success": True, "failureReason": 0}, {"success": False, "failureReason": reason}], (1, 1, 0)
        )
    assert info.value.code == "wrong-type"


# -- messages that get a user unstuck (issue 20, part 5) -----------------------------------------------

# One option set per harness, good for its own fixture.
OWN_OPTIONS = {
    "lm-eval": {"task": "mmlu", "metric": "acc,none"},
    "inspect": {"scorer": "choice", "metric": "accuracy"},
    "promptfoo": {},
    "helm": {"metric": "exact_match"},
    "deepeval": {"metric": "Answer Relevancy"},
    "openai-evals": {},
    "simple-evals": {},
}
OWN_FIXTURE = {
    "lm-eval": "lm-eval-results.json",
    "inspect": "inspect-log.json",
    "promptfoo": "promptfoo-results.json",
    "helm": "helm-stats.json",
    "deepeval": "deepeval-latest-test-run.json",
    "openai-evals": "openai-evals-log.jsonl",
    "simple-evals": "simple-evals-mmlu.json",
}
INTERNAL = ("builtins.", "scorecontract.", "_Absent", "object at 0x", "Traceback")


@pytest.mark.parametrize("harness", HARNESSES)
@pytest.mark.parametrize("fixture", sorted(set(OWN_FIXTURE.values())))
def test_another_harness_file_is_invalid_in_words_without_internal_names(harness, fixture):
    assert set(OWN_OPTIONS) == set(HARNESSES)
    raw = (HARNESS_FIXTURES / fixture).read_bytes()
    decision = evaluate(raw, source=Source(harness, **OWN_OPTIONS[harness]), threshold=0.0)
    if fixture == OWN_FIXTURE[harness]:
        assert decision.verdict is Verdict.PASS, decision
        return
    assert decision.verdict is Verdict.INVALID, decision
    assert decision.code != "internal-error"
    for internal in INTERNAL:
        assert internal not in decision.message, decision.message


# (harness, fixture, options, the words the refusal must hold: the option, and what exists)
UNSTUCK = [
    ("lm-eval", "lm-eval-results.json", {"task": "hellaswag", "metric": "acc,none"}, ["(--task)", "'gsm8k', 'mmlu'"]),
    ("lm-eval", "lm-eval-results.json", {"task": "mmlu", "metric": "acc"}, ["(--metric)", "'acc,none'"]),
    ("inspect", "inspect-log.json", {"scorer": "nope", "metric": "accuracy"}, ["(--scorer)", "'choice'"]),
    ("inspect", "inspect-log.json", {"scorer": "choice", "metric": "acc"}, ["(--metric)", "'accuracy'"]),
    ("inspect", "inspect-log-v1.json", {"scorer": "model_graded_fact", "metric": "acc"}, ["(--metric)", "'accuracy'"]),
    ("helm", "helm-stats.json", {"metric": "exact"}, ["(--metric)", "'exact_match'"]),
    ("helm", "helm-stats.json", {"metric": "exact_match", "split": "train"}, ["(--split)", "'valid', 'test'"]),
    ("deepeval", "deepeval-latest-test-run.json", {"metric": "relevancy"}, ["(--metric)", "'Answer Relevancy'"]),
    ("promptfoo", "promptfoo-results.json", {"provider": "gpt"}, ["(--provider)", "'openai:gpt-4o-mini'"]),
    ("openai-evals", "openai-evals-log.jsonl", {"metric": "acc"}, ["(--metric)", "'accuracy'"]),
    ("simple-evals", "simple-evals-mmlu.json", {"metric": "acc"}, ["(--metric)", "'score'"]),
]


@pytest.mark.parametrize("harness, fixture, options, words", UNSTUCK, ids=lambda value: str(value)[:40])
def test_a_refusal_names_the_option_and_lists_what_exists(harness, fixture, options, words, capsys):
    raw = (HARNESS_FIXTURES / fixture).read_bytes()
    decision = evaluate(raw, source=Source(harness, **options))
    assert decision.code == "no-match"
    for word in words:
        assert word in decision.message, decision.message
    status = main([*cli_arguments(harness, options, {}), "--", str(HARNESS_FIXTURES / fixture)])
    out = capsys.readouterr().out
    assert status == 3
    assert out.startswith("INVALID no-match: ") and all(word in out for word in words), out


def test_a_long_list_of_names_is_cut():
    document = {"results": {f"task{index}": {"acc,none": 0.5} for index in range(50)}}
    decision = evaluate(json.dumps(document), source=Source("lm-eval", task="x", metric="acc,none"))
    assert decision.code == "no-match" and "'task39' and 10 more" in decision.message
