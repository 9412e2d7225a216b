# SPDX-License-Identifier: MIT
"""The public types, as a caller's type checker sees them.

This file is never run: CI type-checks it with ``mypy --strict`` beside the
package (``.ci/run``), and each ``assert_type`` fails there if a public
signature loses precision -- ``decide()`` returning ``object``, a field
becoming ``Any``.  pytest does not collect it (no ``test_`` prefix).
"""

from __future__ import annotations

from decimal import Decimal

from typing_extensions import assert_type

import scorecontract
from scorecontract import (
    Decision,
    InvalidEvidence,
    Judgment,
    Metric,
    Observation,
    Policy,
    PolicyError,
    Report,
    ScoreContractError,
    Verdict,
    decide,
    dumps,
    evaluate,
    judge,
    loads,
    report,
)


def check_signatures() -> None:
    assert_type(decide(0.9), Verdict)
    assert_type(decide(0.9, threshold=0.5), Verdict)
    assert_type(decide(0.9, policy=Policy(0.5)), Verdict)
    assert_type(evaluate(b'{"score": 0.9}'), Decision)
    assert_type(evaluate('{"score": 0.9}', policy=Policy(0.5, exact=True)), Decision)
    assert_type(loads(b"{}"), object)
    assert_type(evaluate(b"{}", candidate="m-1", run_id="r-1"), Decision)
    assert_type(evaluate(b"{}", source=scorecontract.Source("lm-eval", task="mmlu", metric="acc,none")), Decision)
    assert_type(evaluate(b"{}", source="simple-evals"), Decision)
    assert_type(scorecontract.sign(b"{}", key=b"0123456789abcdef"), str)
    assert_type(scorecontract.authenticate(b"{}", signature="{}", key=b"0123456789abcdef"), str)
    assert_type(scorecontract.load_key("release.key"), bytes)
    assert_type(Policy(require_candidate=True).require_candidate, bool)
    assert_type(scorecontract.__version__, str)
    assert_type(evaluate(b"{}", threshold=Decimal("0.8"), max_bytes=10), Decision)
    assert_type(decide(1, threshold=1), Verdict)
    assert_type(report(b"", scheduled=1, threshold=0.5, min_pass_rate=0.9), Report)
    assert_type(report(b"", scheduled=1, min_pass_rate=None), Report)
    assert_type(
        report(b"", scheduled=1, confidence=0.95, bound="hoeffding", cluster_by="$.q", baseline=b"", max_regression=0),
        Report,
    )
    assert_type(report([b"", b""], scheduled=1, source=scorecontract.Source("promptfoo")), Report)
    assert_type(report(b"", scheduled=1, select_score="$.score", trial_id=["id", "seed"]), Report)
    assert_type(judge("{}", threshold=None), Judgment)
    assert_type(dumps({"score": 0.9}, shape="trial"), str)
    assert_type(Policy().replace(version="v2", review_owner=None), Policy)
    assert_type(Policy(confidence=0.95, bound="hoeffding").replace(bound=None, confidence=None), Policy)
    assert_type(Policy(confidence=Decimal("0.95")).confidence, "int | float | Decimal | None")
    assert_type(Policy().bound, "str | None")
    assert_type(Policy(nonfinite_elsewhere="refuse").nonfinite_stated, bool)
    assert_type(Policy(nonfinite_elsewhere=None).replace(nonfinite_elsewhere="list").nonfinite_elsewhere, str)


def check_threshold_is_a_number() -> None:
    # threshold is typed int | float | Decimal: None and strings are type
    # errors where the library refuses them at run time.
    evaluate(b"{}", threshold="0.8")  # type: ignore[arg-type]
    decide(0.9, threshold=None)  # type: ignore[arg-type]
    Policy().replace(treshold=0.9)  # type: ignore[call-arg]


def check_decision(decision: Decision) -> None:
    assert_type(decision.verdict, Verdict)
    assert_type(decision.code, str)
    assert_type(decision.message, str)
    assert_type(decision.score, "int | float | Decimal | None")
    assert_type(decision.policy, Policy)
    assert_type(decision.pos, "int | None")
    assert_type(decision.lineno, "int | None")
    assert_type(decision.colno, "int | None")
    assert_type(decision.as_dict(), "dict[str, object]")
    assert_type(decision.verdict.exit_code, int)
    assert_type(decision.verdict.releases, bool)


def check_policy(policy: Policy) -> None:
    assert_type(policy.threshold, "int | float | Decimal")
    assert_type(policy.version, str)
    assert_type(policy.exact, bool)
    assert_type(policy.review_owner, "str | None")
    assert_type(policy.limits, "tuple[int | float | Decimal, int | float | Decimal, int | float | Decimal]")


def check_report(result: Report, metric: Metric, observation: Observation) -> None:
    assert_type(result.verdict, Verdict)
    assert_type(result.mean, Metric)
    assert_type(result.deciding_metrics, "tuple[str, ...]")
    assert_type(result.invalid_observations, "tuple[Observation, ...]")
    assert_type(result.missing_trials, "tuple[str, ...]")
    assert_type(metric.meets, "bool | None")
    assert_type(metric.denominator, int)
    assert_type(result.confidence, "int | float | Decimal | None")
    if metric.interval is not None:
        assert_type(metric.interval.bound, float)
        assert_type(metric.interval.trials_needed, "int | None")
    if result.regression is not None:
        assert_type(result.regression.pairs, int)
        assert_type(result.regression.baseline, Report)
    assert_type(observation.line, int)
    assert_type(observation.trial_id, "str | None")
    assert_type(observation.where, str)
    assert_type(observation.location(), str)


def check_judgment(judgment: Judgment) -> None:
    assert_type(judgment.verdict, Verdict)
    assert_type(judgment.code, str)
    assert_type(judgment.score, "int | float | Decimal | None")
    assert_type(judgment.threshold, "int | float | Decimal | None")


def check_errors(error: InvalidEvidence, policy_error: PolicyError) -> None:
    base: ScoreContractError = error
    other: ValueError = policy_error
    assert_type(other, ValueError)
    assert_type(base.code, str)
    assert_type(error.message, str)
    assert_type(error.pos, "int | None")
    assert_type(error.lineno, "int | None")
    assert_type(error.colno, "int | None")


def check_keyword_only() -> None:
    # Options are keyword-only: passing one positionally is a type error,
    # which mypy must report (warn_unused_ignores, part of --strict, fails
    # the run if the ignore is not needed).
    decide(0.9, 0.5)  # type: ignore[call-arg]
    evaluate(b"{}", 0.5)  # type: ignore[call-arg]
    loads(b"{}", True)  # type: ignore[call-arg]
