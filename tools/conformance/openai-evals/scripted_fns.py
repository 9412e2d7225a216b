# SPDX-License-Identifier: MIT
"""Scripted completion functions and one scripted eval for openai/evals.

Dev-only, loaded by ``oaieval`` (evals 3.0.1.post1) through the local registry
registry/ (its completion_fns/*.yaml name the classes here).  Each answers
from the sample id written in the prompt ("qN:"), so the ground truth does
not depend on the order of evals' threads.
"""

from __future__ import annotations

import re
from typing import Any

import evals
import evals.metrics
import evals.record
from evals.api import CompletionResult

ID = re.compile(r"\bq(\d+):")


def sample_id(prompt: Any) -> int:
    text = prompt if isinstance(prompt, str) else " ".join(str(m.get("content", "")) for m in prompt)
    found = ID.findall(text)
    if not found:
        raise ValueError("no sample id in the prompt")
    return int(found[0])


def target(n: int) -> int:
    return n + (n + 1)


class Result(CompletionResult):
    def __init__(self, text: str) -> None:
        self.text = text

    def get_completions(self) -> list[str]:
        return [self.text]


class ScriptedAnswers:
    """Right on the sample ids in *right*, "<target> or so" on *near*, wrong elsewhere; raises on *crash_on*."""

    def __init__(
        self, right: list[int], near: list[int] | None = None, crash_on: int | None = None, **kwargs: Any
    ) -> None:
        self.right = set(right)
        self.near = set(near or [])
        self.crash_on = crash_on

    def __call__(self, prompt: Any, **kwargs: Any) -> Result:
        n = sample_id(prompt)
        if n == self.crash_on:
            raise RuntimeError(f"scripted completion function crashed on sample q{n}")
        if n in self.right:
            return Result(str(target(n)))
        if n in self.near:
            return Result(f"about {target(n)} or so")
        return Result(str(target(n) + 1))


class ScriptedGrader:
    """A model-graded eval's grader: replies the letter *grades[n-1]* for sample qN."""

    def __init__(self, grades: str, **kwargs: Any) -> None:
        self.grades = grades.split(",")

    def __call__(self, prompt: Any, **kwargs: Any) -> Result:
        return Result(self.grades[sample_id(prompt) - 1])


class ScoredEval(evals.Eval):
    """Records each sample's ``scripted_score`` (NaN and inf included) and reports their plain mean.

    The final report is ``{"score": mean}``: a NaN sample makes it NaN, an
    infinite one Infinity, as any mean of floats would.
    """

    def __init__(self, completion_fns: Any, samples_jsonl: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(completion_fns, *args, **kwargs)
        self.samples_jsonl = samples_jsonl

    def eval_sample(self, sample: Any, rng: Any) -> None:
        self.completion_fn(prompt=sample["input"])
        evals.record.record_metrics(score=float(sample["scripted_score"]))

    def run(self, recorder: Any) -> dict[str, float]:
        self.eval_all_samples(recorder, self.get_samples())
        scores = recorder.get_scores("score")
        return {"score": sum(scores) / len(scores)}
