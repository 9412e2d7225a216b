# SPDX-License-Identifier: MIT
"""DeepEval runs whose scores are scripted: ``python scripted.py RUN``, offline.

generate.py runs this once per run, in ``.conformance-tmp/deepeval/<run>``
(relative, so DeepEval writes its ``.deepeval/`` folder and the results
folder there), with ``DEEPEVAL_RESULTS_FOLDER=results`` and telemetry off.
Each metric is a ``BaseMetric`` whose score for a test case is looked up
in a script, so every rate is known before DeepEval runs; no model, no
login and no network are involved.
"""

from __future__ import annotations

import sys

from deepeval import evaluate
from deepeval.errors import MissingTestCaseParamsError
from deepeval.evaluate.configs import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig
from deepeval.metrics import BaseMetric
from deepeval.test_case import LLMTestCase

NAN = float("nan")
INF = float("inf")


class Scripted(BaseMetric):
    """A metric whose score for the test case named ``case_<i>`` is ``scores[i]``.

    A score that is an exception is raised, as a judge that times out would;
    ``needs_expected=True`` raises DeepEval's ``MissingTestCaseParamsError``
    for a test case without ``expected_output``, as its own metrics do.
    """

    def __init__(
        self, name: str, scores: list[object], threshold: float | None = 0.5, needs_expected: bool = False
    ) -> None:
        self.name = name
        self.scores = scores
        self.threshold = threshold
        self.needs_expected = needs_expected
        self.async_mode = False
        self.strict_mode = False

    def measure(self, test_case: LLMTestCase, *args: object, **kwargs: object) -> float:
        if self.needs_expected and test_case.expected_output is None:
            raise MissingTestCaseParamsError(f"'expected_output' cannot be None for the '{self.name}' metric")
        score = self.scores[int(str(test_case.name).split("_")[1])]
        if isinstance(score, Exception):
            raise score
        self.score = float(score)  # type: ignore[arg-type]
        self.success = self.threshold is not None and self.score >= self.threshold
        self.reason = f"scripted {score}"
        return self.score

    async def a_measure(self, test_case: LLMTestCase, *args: object, **kwargs: object) -> float:
        return self.measure(test_case)

    def is_successful(self) -> bool:
        return bool(self.success)

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return self.name


ACCURACY = [1.0, 1.0, 0.9, 0.9, 0.8, 0.7, 0.6, 0.4, 0.2, 0.0]  # 7 of 10 >= 0.5, mean 0.65
FLUENCY = [0.9] * 5 + [0.5] * 5  # 5 of 10 >= 0.7, mean 0.7

# run: (number of test cases, metrics, error config)
RUNS = {
    "pass-fail": (
        10,
        lambda: [Scripted("Scripted Accuracy", ACCURACY), Scripted("Scripted Fluency", FLUENCY, 0.7)],
        {},
    ),
    "metric-error": (
        4,
        lambda: [
            Scripted("Scripted Accuracy", [1.0, RuntimeError("judge timed out"), 0.2, 0.7]),
            Scripted("Scripted Fluency", [0.9, 0.9, 0.9, 0.5], 0.7),
        ],
        {"ignore_errors": True},
    ),
    "aborted": (4, lambda: [Scripted("Scripted Accuracy", [1.0, 0.9, RuntimeError("judge crashed"), 0.7])], {}),
    "same-name": (
        4,
        lambda: [
            Scripted("Scripted Accuracy", [1.0, 0.9, 0.2, 0.7]),
            Scripted("Scripted Accuracy", [0.0, 0.1, 0.2, 0.3]),
        ],
        {},
    ),
    "nan-inf": (
        4,
        lambda: [
            Scripted("Scripted Accuracy", [1.0, NAN, INF, 0.7]),
            Scripted("Scripted Fluency", [0.9, 0.9, 0.9, 0.5], 0.7),
        ],
        {},
    ),
    "skip-missing": (
        4,
        lambda: [
            Scripted("Scripted Accuracy", [1.0, 0.9, 0.2, 0.7], needs_expected=True),
            Scripted("Scripted Fluency", [0.9, 0.9, 0.9, 0.5], 0.7),
        ],
        {"skip_on_missing_params": True},
    ),
    "skip-all-metrics": (
        4,
        lambda: [Scripted("Scripted Accuracy", [1.0, 0.9, 0.2, 0.7], needs_expected=True)],
        {"skip_on_missing_params": True},
    ),
    # evaluate() refuses a run in which no metric has a threshold: Fluency has one.
    "no-threshold": (
        4,
        lambda: [
            Scripted("Scripted Accuracy", [1.0, 0.9, 0.2, 0.7], threshold=None),
            Scripted("Scripted Fluency", [0.9, 0.9, 0.9, 0.5], 0.7),
        ],
        {},
    ),
}


def main(run: str) -> None:
    count, metrics, errors = RUNS[run]
    cases = [
        LLMTestCase(
            input=f"question {i}",
            actual_output=f"answer {i}",
            # skip-*: case_1 has no expected_output, so a metric that needs it is skipped.
            expected_output=None if run.startswith("skip") and i == 1 else f"answer {i}",
            name=f"case_{i}",
        )
        for i in range(count)
    ]
    evaluate(
        test_cases=cases,
        metrics=metrics(),
        async_config=AsyncConfig(run_async=False),
        display_config=DisplayConfig(print_results=False, show_indicator=False),
        cache_config=CacheConfig(write_cache=True, use_cache=False),
        error_config=ErrorConfig(**errors),
    )


if __name__ == "__main__":
    main(sys.argv[1])
