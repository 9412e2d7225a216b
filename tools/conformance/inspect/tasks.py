# SPDX-License-Identifier: MIT
"""Inspect tasks and scripted models with a ground truth known in advance.

Dev-only: imported by generate.py inside a venv holding inspect-ai 0.3.285,
never by scorecontract.  Every model is ``mockllm/model`` with a callable
``custom_outputs`` that answers from the sample id written in the prompt, so
the answers do not depend on the order Inspect runs the samples in.  Each
scripted output carries token usage: without it mockllm counts tokens with a
tokenizer it would download.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Score,
    Target,
    accuracy,
    includes,
    match,
    mean,
    model_graded_qa,
    scorer,
    stderr,
)
from inspect_ai.solver import Generate, TaskState, generate, solver

# Five questions "qN: What is A plus B?" with ids 1..5; the target is A + B.
QUESTIONS = [(n, n, n + 1) for n in range(1, 6)]
ID = re.compile(r"\bq(\d+):")


def dataset() -> MemoryDataset:
    """Return the five-sample dataset every task here uses."""
    return MemoryDataset(
        [Sample(id=n, input=f"q{n}: What is {a} plus {b}?", target=str(a + b)) for n, a, b in QUESTIONS],
        name="arithmetic5",
    )


def target_of(n: int) -> int:
    return QUESTIONS[n - 1][1] + QUESTIONS[n - 1][2]


def sample_id(messages: list[Any]) -> int:
    """The sample id written in the prompt (the last message that names one)."""
    for message in reversed(messages):
        found = ID.search(message.text)
        if found:
            return int(found.group(1))
    raise ValueError("no sample id in the prompt")


def output(text: str) -> ModelOutput:
    out = ModelOutput.from_content(model="mockllm/model", content=text)
    out.usage = ModelUsage(input_tokens=10, output_tokens=len(text.split()), total_tokens=10 + len(text.split()))
    return out


def answering(correct: set[int], near: set[int] = frozenset()) -> Any:
    """A mockllm that answers the sample ids in *correct* right.

    Ids in *near* get the target followed by a 0 ("70" for 7): ``match``
    (the end of the answer, as a number) refuses it, ``includes`` accepts it.
    Every other id gets target + 1.
    """

    def outputs(messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        n = sample_id(messages)
        if n in correct:
            return output(str(target_of(n)))
        if n in near:
            return output(f"{target_of(n)}0")
        return output(str(target_of(n) + 1))

    return get_model("mockllm/model", custom_outputs=outputs)


def answering_once_in_three(always: set[int], once: set[int]) -> Any:
    """Right on *always*; on *once*, right on the first of every three calls.

    Over three epochs each id in *once* is right exactly once, whichever
    epoch runs first, so every reducer's value is known in advance.
    """
    calls: Counter[int] = Counter()

    def outputs(messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        n = sample_id(messages)
        calls[n] += 1
        right = n in always or (n in once and calls[n] % 3 == 1)
        return output(str(target_of(n) if right else target_of(n) + 1))

    return get_model("mockllm/model", custom_outputs=outputs)


def grading(grades: dict[int, str]) -> Any:
    """A mockllm grader that replies ``GRADE: X`` with X from *grades* by sample id."""

    def outputs(messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        return output(f"The answer was judged.\n\nGRADE: {grades[sample_id(messages)]}")

    return get_model("mockllm/model", custom_outputs=outputs)


@solver
def fail_on(ids: set[int]) -> Any:
    """A solver that raises on the sample ids in *ids*, else generates."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if int(state.sample_id) in ids:
            raise RuntimeError(f"scripted solver error on sample {state.sample_id}")
        return await generate(state)

    return solve


@scorer(metrics=[accuracy(), stderr()])
def match_or_raise(ids: set[int]) -> Any:
    """``match``, except that it raises on the sample ids in *ids*."""
    inner = match()

    async def score(state: TaskState, target: Target) -> Score:
        if int(state.sample_id) in ids:
            raise ValueError(f"scripted scorer error on sample {state.sample_id}")
        return await inner(state, target)

    return score


@scorer(metrics=[accuracy()])
def unscored_on(ids: set[int]) -> Any:
    """1 for a right answer, 0 otherwise, NaN (Inspect's "unscored") on *ids*."""

    async def score(state: TaskState, target: Target) -> Score:
        if int(state.sample_id) in ids:
            return Score(value=math.nan, explanation="scripted: not scored")
        right = state.output.completion.strip() == target.text
        return Score(value=1 if right else 0, answer=state.output.completion)

    return score


@scorer(metrics=[mean()])
def infinite_on(ids: set[int]) -> Any:
    """1 for a right answer, 0 otherwise, +inf on *ids*: the mean is inf."""

    async def score(state: TaskState, target: Target) -> Score:
        if int(state.sample_id) in ids:
            return Score(value=math.inf, explanation="scripted: infinite")
        right = state.output.completion.strip() == target.text
        return Score(value=1 if right else 0, answer=state.output.completion)

    return score


@scorer(metrics={"exact": [accuracy()], "short": [accuracy()]})
def exact_and_short() -> Any:
    """A dict-valued scorer: ``exact`` (the answer is the target) and ``short`` (at most 2 characters)."""

    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion.strip()
        return Score(
            value={"exact": CORRECT if answer == target.text else INCORRECT, "short": 1 if len(answer) <= 2 else 0}
        )

    return score


@task
def arithmetic() -> Task:
    """``match`` over five questions."""
    return Task(dataset=dataset(), solver=generate(), scorer=match(), name="arithmetic")


@task
def arithmetic_two_scorers() -> Task:
    return Task(dataset=dataset(), solver=generate(), scorer=[match(), includes()], name="arithmetic_two_scorers")


@task
def arithmetic_dict_scorer() -> Task:
    return Task(dataset=dataset(), solver=generate(), scorer=exact_and_short(), name="arithmetic_dict_scorer")


@task
def arithmetic_epochs(reducers: list[str]) -> Task:
    return Task(
        dataset=dataset(), solver=generate(), scorer=match(), epochs=Epochs(3, reducers), name="arithmetic_epochs"
    )


@task
def arithmetic_solver_error() -> Task:
    return Task(dataset=dataset(), solver=fail_on({4}), scorer=match(), name="arithmetic_solver_error")


@task
def arithmetic_scorer_error() -> Task:
    return Task(dataset=dataset(), solver=generate(), scorer=match_or_raise({5}), name="arithmetic_scorer_error")


@task
def arithmetic_unscored() -> Task:
    return Task(dataset=dataset(), solver=generate(), scorer=unscored_on({4, 5}), name="arithmetic_unscored")


@task
def arithmetic_all_unscored() -> Task:
    return Task(
        dataset=dataset(), solver=generate(), scorer=unscored_on({1, 2, 3, 4, 5}), name="arithmetic_all_unscored"
    )


@task
def arithmetic_infinite() -> Task:
    return Task(dataset=dataset(), solver=generate(), scorer=infinite_on({5}), name="arithmetic_infinite")


@task
def arithmetic_graded(grader: Any) -> Task:
    return Task(
        dataset=dataset(),
        solver=generate(),
        scorer=model_graded_qa(partial_credit=True, model=grader),
        name="arithmetic_graded",
    )
