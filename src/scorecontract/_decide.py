# SPDX-License-Identifier: MIT
"""Stage 5 of the pipeline: a decoded score under a policy.

The numeric contract (``_score``) says whether a value is a number at all;
here the policy adds its bounds (rule 8 of docs/contract.md) and its
threshold (rule 9).
"""

from __future__ import annotations

from ._describe import format_number
from ._policy import UNSET, bounds_text, policy_for
from ._score import checked_number, to_decimal
from ._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._policy import Policy
    from ._score import Number

__all__ = ["checked_score", "decide", "decide_with_reason", "meets_threshold", "outcome_message", "score_problem"]


def checked_score(score: object, policy: Policy) -> Number | tuple[str, str]:
    """Return *score* if it keeps the contract under *policy*, else ``(code, message)``.

    The type and finiteness of ``checked_number``, then the range: within
    the policy's closed bounds.  A huge ``int`` is compared as an int:
    ``math.isfinite(10**400)`` would raise ``OverflowError``.  The score
    comes back typed as a number; a refusal is a tuple.
    """
    valid = checked_number(score, policy.exact)
    if isinstance(valid, tuple):
        return (valid[0], f"score is {valid[1]}")
    low, high, _ = policy.limits
    value = to_decimal(valid) if policy.exact else valid
    if not low <= value <= high:
        return ("out-of-range", f"score {format_number(score)} is outside {bounds_text(policy)}")
    return valid


def score_problem(score: object, policy: Policy) -> tuple[str, str] | None:
    """Return ``(code, message)`` if *score* breaks the contract, else None (``checked_score``)."""
    checked = checked_score(score, policy)
    return checked if isinstance(checked, tuple) else None


def meets_threshold(score: Number, policy: Policy) -> bool:
    """Return whether a score that passed ``score_problem`` meets the threshold.

    ``score >= threshold``, or ``score <= threshold`` when the policy's
    direction is ``"lower"``.  Equality passes either way: the threshold is
    the worst passing score.
    """
    value = to_decimal(score) if policy.exact else score
    if policy.direction == "lower":
        return value <= policy.limits[2]
    return value >= policy.limits[2]


def outcome_message(score: Number, policy: Policy) -> str:
    """Explain a PASS or FAIL of a valid *score*, for people.

    A ``"lower"`` policy says so: ``score 4.1 <= threshold 5 (lower is
    better)``.
    """
    meets = meets_threshold(score, policy)
    if policy.direction == "lower":
        relation = "<=" if meets else ">"
        suffix = " (lower is better)"
    else:
        relation = ">=" if meets else "<"
        suffix = ""
    return f"score {format_number(score)} {relation} threshold {format_number(policy.threshold)}{suffix}"


def decide_with_reason(score: object, policy: Policy) -> tuple[Verdict, str, str]:
    """Return ``(verdict, code, message)`` for an already decoded score."""
    valid = checked_score(score, policy)
    if isinstance(valid, tuple):
        return (Verdict.INVALID, valid[0], valid[1])
    if meets_threshold(valid, policy):
        return (Verdict.PASS, "meets-threshold", outcome_message(valid, policy))
    return (Verdict.FAIL, "below-threshold", outcome_message(valid, policy))


def decide(score: object, /, *, threshold: Number = UNSET, policy: Policy | None = None) -> Verdict:
    """Return the ``Verdict`` for an already decoded *score*.

    Pure and total: any Python object in, a ``Verdict`` out, with no I/O and
    no global state.  A score that is not an exact ``int`` or ``float``
    (``bool``, ``str``, ``None``, ``Fraction``, NumPy scalars and every
    subclass included), NaN, infinite, or outside the bounds is
    ``Verdict.INVALID``.  Otherwise ``score >= threshold`` is
    ``Verdict.PASS`` and anything lower ``Verdict.FAIL`` (a policy with
    direction ``"lower"`` passes ``score <= threshold`` instead).

    *threshold*, left out, is 0.8.  *policy*, a ``Policy``, gives the
    threshold, bounds and comparison mode instead; ``decimal.Decimal``
    scores are accepted only under an exact policy.  Giving both, or a bad
    threshold (``None``, NaN, infinite, a bool, a string, outside
    ``[0, 1]``), is a configuration error and raises ``PolicyError``: bad
    evidence never raises.

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
    valid = checked_score(score, policy)
    if isinstance(valid, tuple):
        return Verdict.INVALID
    return Verdict.PASS if meets_threshold(valid, policy) else Verdict.FAIL
