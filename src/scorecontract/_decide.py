# SPDX-License-Identifier: MIT
"""Stage 5 of the pipeline: the decision (SPEC section 2, rule 9)."""

from __future__ import annotations

from ._describe import format_number
from ._policy import policy_for
from ._score import score_problem, to_decimal
from ._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from decimal import Decimal

    from ._policy import Policy

__all__ = ["decide", "decide_with_reason", "meets_threshold", "outcome_message"]


def meets_threshold(score: int | float | Decimal, policy: Policy) -> bool:
    """Return ``score >= threshold`` for a score that passed ``score_problem``."""
    if policy._exact:
        return to_decimal(score) >= policy._bounds[2]
    # Equality passes: the threshold is the lowest passing score.
    return score >= policy._bounds[2]


def outcome_message(score: object, policy: Policy) -> str:
    """Explain a PASS or FAIL of a valid *score*, for people."""
    relation = ">=" if meets_threshold(score, policy) else "<"  # type: ignore[arg-type]
    return f"score {format_number(score)} {relation} threshold {format_number(policy.threshold)}"


def decide_with_reason(score: object, policy: Policy) -> tuple[Verdict, str, str]:
    """Return ``(verdict, code, message)`` for an already decoded score."""
    problem = score_problem(score, policy)
    if problem is not None:
        return (Verdict.INVALID, problem[0], problem[1])
    if meets_threshold(score, policy):  # type: ignore[arg-type]
        return (Verdict.PASS, "meets-threshold", outcome_message(score, policy))
    return (Verdict.FAIL, "below-threshold", outcome_message(score, policy))


def decide(
    score: object, /, *, threshold: object = None, policy: Policy | None = None
) -> Verdict:
    """Return the ``Verdict`` for an already decoded *score*.

    Pure and total: any Python object in, a ``Verdict`` out, with no I/O and
    no global state.  A score that is not an exact ``int`` or ``float``
    (``bool``, ``str``, ``None``, ``Fraction``, NumPy scalars and every
    subclass included), NaN, infinite, or outside the bounds is
    ``Verdict.INVALID``.  Otherwise ``score >= threshold`` is
    ``Verdict.PASS`` and anything lower ``Verdict.FAIL``.

    *threshold* defaults to 0.8.  *policy*, a ``Policy``, gives the
    threshold, bounds and comparison mode instead; ``decimal.Decimal``
    scores are accepted only under an exact policy.  Giving both, or a bad
    threshold (NaN, infinite, a bool, a string, outside ``[0, 1]``), is a
    configuration error and raises ``PolicyError``: bad evidence never
    raises.

    A caller holding a NumPy scalar converts it explicitly, with
    ``float(x)``, and so takes responsibility for that conversion.

        >>> decide(0.8)
        <Verdict.PASS: 'PASS'>
        >>> decide(float("nan"))
        <Verdict.INVALID: 'INVALID'>
        >>> decide(True)
        <Verdict.INVALID: 'INVALID'>
    """
    policy = policy_for(threshold, policy)
    if score_problem(score, policy) is not None:
        return Verdict.INVALID
    return Verdict.PASS if meets_threshold(score, policy) else Verdict.FAIL  # type: ignore[arg-type]
