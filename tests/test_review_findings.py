# SPDX-License-Identifier: MIT
"""Files an outside review crafted to PASS where they should not.

Each is a real harness file with one member edited (tests/data/review/);
each must be INVALID through the API and the command line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scorecontract import Policy, Source, Verdict, evaluate
from support import CorpusMissing, run_main

REVIEW = Path(__file__).parent / "data" / "review"

INSPECT = ("inspect", {"scorer": "choice", "metric": "accuracy"}, ["--scorer", "choice", "--metric", "accuracy"])
HELM = ("helm", {"metric": "exact_match", "split": "test"}, ["--metric", "exact_match", "--split", "test"])

# file -> (harness, Source options, CLI options, threshold, code, what was edited)
CASES = {
    "inspect-dataset-float.json": (*INSPECT, 0.8, "wrong-type"),  # eval.dataset.samples 1000.0, 4 ran
    "inspect-dataset-str.json": (*INSPECT, 0.8, "wrong-type"),  # "1000"
    "inspect-dataset-neg.json": (*INSPECT, 0.8, "wrong-type"),  # -1
    # one data.correct written "false": the accuracy check was switched off.
    "openai-evals-correct-string.jsonl": (
        "openai-evals",
        {"metric": "accuracy"},
        ["--metric", "accuracy"],
        0.95,
        "wrong-type",
    ),
    # HELM's mean edited to 0.95 with its sum removed or made a string.
    "helm-sum-string.json": (*HELM, 0.9, "value-mismatch"),
    "helm-sum-absent.json": (*HELM, 0.9, "value-mismatch"),
    # arithmetic.eval with its failing samples 4 and 5 appended again as passing
    # ones and a new central directory (tests/test_inspect_review.py).
    "inspect-superseded-samples.eval": (
        "inspect",
        {"scorer": "match", "metric": "accuracy"},
        ["--scorer", "match", "--metric", "accuracy"],
        0.8,
        "bad-archive",
    ),
    # promptfoo error rows with failureReason 2.0, the stats moved to failures.
    "promptfoo-error-float.json": ("promptfoo", {}, [], 0.5, "wrong-type"),
}


def test_every_review_file_is_in_the_table():
    found = sorted(path.name for path in REVIEW.iterdir())
    if not found:
        raise CorpusMissing(f"no file in {REVIEW}")
    assert found == sorted(CASES)


@pytest.mark.parametrize("name", CASES, ids=CASES)
def test_the_api_refuses_it(name):
    harness, options, _, threshold, code = CASES[name]
    decision = evaluate((REVIEW / name).read_bytes(), source=Source(harness, **options), policy=Policy(threshold))
    assert (decision.verdict, decision.code) == (Verdict.INVALID, code), decision.message


@pytest.mark.parametrize("name", CASES, ids=CASES)
def test_the_command_line_refuses_it(name):
    harness, _, flags, threshold, code = CASES[name]
    done = run_main("check", "--from", harness, *flags, "--threshold", str(threshold), "--", str(REVIEW / name))
    assert done.returncode == 3, done.stdout
    assert done.stdout.startswith(f"INVALID {code}: ".encode()), done.stdout
