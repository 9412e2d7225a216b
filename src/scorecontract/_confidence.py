# SPDX-License-Identifier: MIT
"""Confidence-bounded decisions for a report's metrics (docs/reports.md).

The bounds are one module each in ``_bounds`` (``_bounds.REGISTRY``);
this module chooses which bound a metric decides on, keeps what was decided as an immutable value
(``Interval``, kept in reports and receipts), and words it.  Every number
shown beside a threshold is rounded against PASS, as the bound itself is:
a lower bound of 0.7999996 is shown as 0.799999, never as 0.8, so no
message reads "0.8 < threshold 0.8".
"""

from __future__ import annotations

from ._bound_rules import alpha_of, check_bound
from ._describe import describe_value, format_number
from ._errors import InvalidEvidence, PolicyError
from ._value import Value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from decimal import Decimal

    from ._policy import Policy
    from ._score import Number
    from ._stats import Bound, Sums

__all__ = [
    "BOUND_HINT",
    "Interval",
    "check_bound",
    "check_confidence",
    "direction",
    "mean_bound",
    "pass_rate_bound",
    "resolve_confidence",
]


BOUND_HINT = " (in a report: bound='empirical-bernstein', --bound empirical-bernstein; or the pass rate's Clopper-Pearson)"


class Interval(Value):
    """The one-sided confidence bound a metric decided on.

    Attributes: ``method`` (a name in ``_bounds.REGISTRY``:
    ``"empirical-bernstein"``, ``"clopper-pearson"``, ``"hoeffding"`` or
    ``"asymptotic-t"``), ``side`` (``"lower"``: PASS
    needs ``bound >= threshold``; ``"upper"``: ``bound <= threshold``),
    ``confidence`` (as given), ``n`` (the trials, or pairs, that decided),
    ``estimate`` (the point estimate, a float), ``bound`` (a float rounded
    against PASS), ``se`` (the standard error, or None), ``clusters``
    (their number, or None), ``unpaired_se`` (for a paired bound, or None),
    ``meets`` (whether the bound is on the PASS side of the threshold) and
    ``trials_needed`` (about how many trials the same estimate and
    variance would need to pass, or None when none would, or it passes).
    """

    __slots__ = (
        "method",
        "side",
        "confidence",
        "n",
        "estimate",
        "bound",
        "se",
        "clusters",
        "unpaired_se",
        "meets",
        "trials_needed",
    )
    _shown = ("method", "side", "confidence", "n", "estimate", "bound", "se")

    method: str
    side: str
    confidence: Number
    n: int
    estimate: float
    bound: float
    se: float | None
    clusters: int | None
    unpaired_se: float | None
    meets: bool
    trials_needed: int | None

    def __init__(self, bound: Bound, threshold: Number) -> None:
        from ._stats import bound_fields

        meets = bound.meets(threshold)
        self._fill(
            **bound_fields(bound),
            meets=meets,
            trials_needed=None if meets else bound.trials_needed(threshold),
        )

    def summary(self) -> str:
        """``95% lower bound (asymptotic-t) 0.658476 (n=20, SE 0.0876)``, as ``Bound.summary``.

        The bound has six significant digits, rounded against PASS (down
        for a lower bound, up for an upper one); the standard errors three,
        to nearest (they are shown, never compared).
        """
        from ._stats import bound_summary

        return bound_summary(self)

    def shown_bound(self) -> str:
        """The bound to six significant digits, rounded against PASS."""
        from ._stats import shown_bound

        return shown_bound(self.bound, self.side)

    def shown_se(self) -> str:
        """The standard error to three significant digits, or ``n/a``."""
        return "n/a" if self.se is None else f"{self.se:.3g}"

    def needed(self) -> str:
        """``would need about N trials at this variance``, or why none would."""
        if self.meets:
            return ""
        if self.trials_needed is None:
            return "no number of trials would pass at this estimate"
        basis = {
            "clopper-pearson": "at this rate",
            "hoeffding": "at this mean",
        }.get(self.method, "at this variance")
        return f"would need about {self.trials_needed} trials {basis}"

    def as_dict(self) -> dict[str, object]:
        """Return the interval as a JSON-ready dict: ``Bound.as_dict()`` and the decision."""
        from ._stats import json_bound_fields

        return {**json_bound_fields(self), "meets_threshold": self.meets, "trials_needed": self.trials_needed}


def direction(policy: Policy) -> str:
    """The policy's direction, ``"higher"`` (the default) or ``"lower"``.

    Read with a default so a policy without the attribute is "higher is
    better", as every policy was before directions existed.
    """
    value = getattr(policy, "direction", "higher")
    if value not in ("higher", "lower"):
        raise PolicyError("bad-policy", f"direction must be 'higher' or 'lower', not {describe_value(value)}")
    return str(value)


def check_confidence(confidence: object, bound: object, policy: Policy) -> None:
    """Refuse a bad *confidence* or *bound* as configuration (``PolicyError``)."""
    check_bound(confidence, bound, policy.minimum, policy.maximum)


def resolve_confidence(policy: Policy, confidence: Number | None, bound: str) -> tuple[Number | None, str]:
    """The ``(confidence, bound)`` a report decides at: the policy's, or the keywords'.

    *bound* is ``UNSET`` when left out: then the default, finite-sample
    for bounded scores (``_bounds.default_bound``).  A policy that states
    a confidence fixes both (its bound left out is the default); a keyword may repeat the
    policy's value, but one that contradicts it raises ``PolicyError``
    (``option-conflict``): the versioned policy is not overridden, and the
    keyword is not silently dropped.
    """
    from ._bounds import default_bound
    from ._policy import UNSET

    default = default_bound(policy.minimum, policy.maximum)
    stated = policy.confidence
    if stated is None:
        return confidence, default if bound is UNSET else bound
    policy_bound = default if policy.bound is None else policy.bound
    if confidence is not None:
        from ._score import to_decimal

        alpha_of(confidence)  # a NaN is bad-policy, not a conflict
        if to_decimal(confidence) != to_decimal(stated):
            raise PolicyError(
                "option-conflict",
                f"confidence {format_number(confidence)} contradicts the policy's confidence "
                f"{format_number(stated)}: give it in one place",
            )
    if bound is not UNSET and bound != policy_bound:
        raise PolicyError(
            "option-conflict",
            f"bound {describe_value(bound)} contradicts the policy's bound {policy_bound!r}: give it in one place",
        )
    return stated, policy_bound


def pass_rate_bound(passed: int, valid: int, confidence: Number, threshold: Number) -> Interval:
    """The Clopper-Pearson lower bound for *passed* of *valid* trials."""
    from ._bounds._clopper_pearson import clopper_pearson

    return Interval(clopper_pearson(passed, valid, confidence=confidence, side="lower"), threshold)


def mean_bound(
    sums: Sums,
    confidence: Number,
    threshold: Number,
    method: str,
    policy: Policy,
    clusters: list[tuple[int, int | Decimal]] | None = None,
) -> Interval:
    """The bound *method* (a name in ``_bounds.REGISTRY``) on the mean; ``InvalidEvidence`` if none.

    The side follows the policy's direction: a lower bound when higher
    scores are better, an upper one when lower are.
    """
    side = "upper" if direction(policy) == "lower" else "lower"
    low, high = policy.minimum, policy.maximum
    try:
        if method == "asymptotic-t":
            from ._bounds._asymptotic_t import student_t_bound

            bound = student_t_bound(sums, confidence=confidence, side=side, clusters=clusters)
        elif low is None or high is None:  # check_confidence refused it already
            raise PolicyError("bad-bounds", f"the {method} bound needs finite score bounds")
        elif method == "hoeffding":
            from ._bounds._hoeffding import hoeffding_bound

            bound = hoeffding_bound(sums, confidence=confidence, minimum=low, maximum=high, side=side)
        else:
            from ._bounds._empirical_bernstein import empirical_bernstein_bound

            bound = empirical_bernstein_bound(
                sums, confidence=confidence, minimum=low, maximum=high, side=side, clusters=clusters
            )
    except InvalidEvidence as exc:
        # Only the asymptotic bound refuses data; the hint points to one
        # that holds at any n, when the scores are bounded.
        hint = BOUND_HINT if clusters is None and default_bound_of(policy) != "asymptotic-t" else ""
        raise InvalidEvidence(exc.code, exc.message + hint) from None
    return Interval(bound, threshold)


def default_bound_of(policy: Policy) -> str:
    """The bound *policy*'s mean is decided on when none is stated."""
    from ._bounds import default_bound

    return default_bound(policy.minimum, policy.maximum)
