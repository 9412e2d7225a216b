# SPDX-License-Identifier: MIT
"""The bundled harness outputs (fixtures/harnesses/) gate as the docs say.

Each file is small, in its harness's real shape: an lm-evaluation-harness
results file (stderr "N/A" strings, nulls in config), a perplexity run
(lower is better), one with a NaN stderr beside a finite headline, and two
Inspect logs, one with an unscored (NaN) sample.
"""

from __future__ import annotations

import json

import pytest

from scorecontract import Policy, evaluate
from support import FIXTURES

HARNESSES = FIXTURES / "harnesses"
INSPECT_HEADLINE = "$.results.scores[?@.name == 'choice'].metrics.accuracy.value"
INSPECT_REQUIRE = [
    "$.status == 'success'",
    "$.invalidated != true",
    "$.results.completed_samples == $.results.total_samples",
]

# (file, query, policy keywords, verdict, code)
CASES = [
    ("lm-eval-results.json", '$.results.mmlu["acc,none"]', {"threshold": 0.6}, "PASS", "meets-threshold"),
    ("lm-eval-results.json", "/results/mmlu/acc,none", {"threshold": 0.65}, "FAIL", "below-threshold"),
    ("lm-eval-results.json", "/results/mmlu/acc_stderr,none", {}, "INVALID", "wrong-type"),
    ("lm-eval-results.json", "/results/gsm8k/exact_match,strict-match", {"threshold": 0.4}, "PASS", "meets-threshold"),
    ("lm-eval-results.json", "$..['acc,none']", {}, "INVALID", "ambiguous-selection"),
    ("lm-eval-results.json", "/results/arc_easy/acc,none", {}, "INVALID", "no-match"),
    ("lm-eval-results.json", "/total_evaluation_time_seconds", {}, "INVALID", "wrong-type"),
    (
        "lm-eval-perplexity.json",
        "/results/wikitext/word_perplexity,none",
        {"threshold": 20, "minimum": 1, "maximum": None, "direction": "lower"},
        "PASS",
        "meets-threshold",
    ),
    (
        "lm-eval-perplexity.json",
        "/results/wikitext/word_perplexity,none",
        {"threshold": 15, "minimum": 1, "maximum": None, "direction": "lower"},
        "FAIL",
        "below-threshold",
    ),
    (
        "lm-eval-nan-stderr.json",
        "/results/tgpred/mae,none",
        {"threshold": 0.5, "direction": "lower"},
        "INVALID",
        "non-standard-constant",
    ),
    (
        "lm-eval-nan-stderr.json",
        "/results/tgpred/mae_stderr,none",
        {"threshold": 0.5, "direction": "lower", "nonfinite_elsewhere": "list"},
        "INVALID",
        "non-standard-constant",
    ),
    (
        "lm-eval-nan-stderr.json",
        "/results/tgpred/mae,none",
        {"threshold": 0.5, "direction": "lower", "nonfinite_elsewhere": "list"},
        "PASS",
        "meets-threshold",
    ),
    ("inspect-log.json", INSPECT_HEADLINE, {"threshold": 0.8, "require": INSPECT_REQUIRE}, "PASS", "meets-threshold"),
    (
        "inspect-log.json",
        INSPECT_HEADLINE,
        {"threshold": 0.8, "require": ["$.results.scores[0].unscored_samples == 1"]},
        "INVALID",
        "requirement-failed",
    ),
    ("inspect-log.json", "$.results.scores[*].metrics.accuracy.value", {}, "INVALID", "ambiguous-selection"),
    ("inspect-log-unscored.json", INSPECT_HEADLINE, {"threshold": 0.8}, "INVALID", "non-standard-constant"),
    (
        "inspect-log-unscored.json",
        INSPECT_HEADLINE,
        {"threshold": 0.8, "nonfinite_elsewhere": "list"},
        "PASS",
        "meets-threshold",
    ),
    (
        "inspect-log-unscored.json",
        "$.samples[?@.scores.choice.value == 'I'].id",
        {"nonfinite_elsewhere": "list"},
        "INVALID",
        "non-finite",
    ),
]


def test_an_unscored_sample_is_listed_by_its_path():
    data = (HARNESSES / "inspect-log-unscored.json").read_bytes()
    decision = evaluate(data, select=INSPECT_HEADLINE, policy=Policy(0.8, nonfinite_elsewhere="list"))
    assert decision.selection is not None
    assert decision.selection.nonfinite_paths == ("$['samples'][3]['scores']['choice']['value']",)
    assert decision.selection.nonfinite_count == 1


def test_every_harness_fixture_is_gated_here_or_by_its_adapter():
    from test_headline import CASES as ADAPTER_CASES

    # Files only: samples/ holds the per-sample outputs, gated by tests/test_report_samples.py.
    on_disk = sorted(path.name for path in HARNESSES.iterdir() if path.is_file())
    if not on_disk:
        raise AssertionError("fixtures/harnesses/ is empty")
    assert on_disk == sorted({case[0] for case in CASES} | {case[1] for case in ADAPTER_CASES})


@pytest.mark.parametrize("name, query, keywords, verdict, code", CASES, ids=[f"{c[0]}:{c[1]}:{c[4]}" for c in CASES])
def test_harness_fixture(name, query, keywords, verdict, code):
    data = (HARNESSES / name).read_bytes()
    decision = evaluate(data, select=query, policy=Policy(**keywords))
    assert (decision.verdict.value, decision.code) == (verdict, code)


@pytest.mark.parametrize(
    "name",
    [
        "lm-eval-results.json",
        "lm-eval-perplexity.json",
        "lm-eval-limit.json",
        "inspect-log.json",
        "inspect-log-empty-scores.json",
        "inspect-log-v1.json",
        "promptfoo-results.json",
        "promptfoo-errors.json",
        "helm-stats.json",
        "deepeval-latest-test-run.json",
        "deepeval-temp-test-run.json",
        "simple-evals-mmlu.json",
    ],
)
def test_strict_harness_fixtures_are_plain_json(name):
    # The strict ones load with json.loads without any lenient constant.
    def refuse(token):
        raise ValueError(token)

    json.loads((HARNESSES / name).read_text(encoding="utf-8"), parse_constant=refuse)
