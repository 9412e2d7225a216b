# SPDX-License-Identifier: MIT
"""A report's paired comparison with a baseline: ``Regression``.

The candidate's trials are paired with the baseline's by trial id, and the
mean per-trial difference, candidate - baseline (or its confidence bound),
is compared with the largest regression allowed (docs/reports.md).
"""

from __future__ import annotations

from ._errors import InvalidEvidence, PolicyError
from ._report_results import Regression, interval_side
from ._score import exact_context, to_decimal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from decimal import Decimal
    from typing import Protocol

    from ._policy import Policy
    from ._report_results import Report
    from ._score import Number
    from ._tally import Tally

    class Asked(Protocol):
        """What ``compare_with_baseline`` reads of the report's options (a ``_report_gate.Gate``).

        A protocol, not the class: the gate module imports this one, and
        naming its class here would be an import cycle.
        """

        max_regression: Number | None
        confidence: Number | None
        cluster_by: str | None
        bound: str


__all__ = ["check_regression_scale", "compare_with_baseline"]


def check_regression_scale(
    max_regression: Number, policy: Policy, option: str = "max_regression", code: str = "bad-policy"
) -> None:
    """Refuse a largest regression beyond the policy's score range (``bad-policy``, or *code*).

    Under a policy whose scores lie in [min, max], no per-trial difference
    exceeds max - min in size, so a larger D lets every candidate pass: it
    decides nothing, and is refused as configuration (D equal to the range
    is kept: the documented examples give 1 on the default [0, 1] scale).
    A policy unbounded on either side has no range to compare with.
    """
    if policy.minimum is None or policy.maximum is None:
        return
    low, high = to_decimal(policy.minimum), to_decimal(policy.maximum)
    if not (low.is_finite() and high.is_finite()):
        return
    span = exact_context().subtract(high, low)
    if to_decimal(max_regression) > span:
        from ._describe import format_number

        raise PolicyError(
            code,
            f"{option} {format_number(max_regression)} is beyond the policy's score range "
            f"[{format_number(policy.minimum)}, {format_number(policy.maximum)}] (at most "
            f"{format_number(span)}): no candidate could regress by more, so nothing would fail",
        )


def compare_with_baseline(
    tally: Tally, baseline: Report, baseline_tally: Tally | None, options: Asked, bounded: bool = True
) -> Regression:
    """Pair the candidate's trials with the baseline's and compare them.

    With a confidence and *bounded*, the comparison is on the paired
    bound, and ``InvalidEvidence`` (``insufficient-trials``) when there is
    none; else on the point difference.
    """
    from fractions import Fraction

    from ._bounds._paired import paired_bound
    from ._stats import Sums, to_float

    if tally.scores is None or baseline_tally is None or baseline_tally.scores is None:
        raise InvalidEvidence("internal-error", "a paired comparison without scores; please report it")
    mine, theirs = tally.scores, baseline_tally.scores
    pairs = [trial_id for trial_id in mine if trial_id in theirs]
    only_candidate = [trial_id for trial_id in mine if trial_id not in theirs]
    only_baseline = [trial_id for trial_id in theirs if trial_id not in mine]
    limit = tally.max_listed
    max_regression = options.max_regression
    if max_regression is None:  # unreachable: checked with the options
        raise PolicyError("bad-policy", "a baseline needs max_regression")
    context = exact_context()
    differences: dict[Decimal, int] = {}
    values: dict[str, Decimal] = {}
    for trial_id in pairs:
        value = context.subtract(to_decimal(mine[trial_id]), to_decimal(theirs[trial_id]))
        values[trial_id] = value
        differences[value] = differences.get(value, 0) + 1
    side = interval_side(tally.policy)
    threshold = -to_decimal(max_regression) if side == "lower" else to_decimal(max_regression)
    mean_difference: float | None = None
    meets: bool | None = None
    interval = None
    if pairs:
        sums = Sums.of_counts(differences)
        # to_float: differences of exact 1E+999 scores are beyond the doubles.
        mean_difference = to_float(Fraction(sums.total) / sums.count)
        # Exactly, without dividing: total >= -D * n (or <= D * n).
        product = context.multiply(threshold, len(pairs))
        meets = sums.total >= product if side == "lower" else sums.total <= product
        if options.confidence is not None and bounded:
            from ._confidence import Interval
            from ._tally import cluster_sums

            clusters = None
            if options.cluster_by is not None:
                clusters = cluster_sums(tally.cluster_of, values, pairs)
            try:
                bound = paired_bound(
                    sums,
                    confidence=options.confidence,
                    side=side,
                    clusters=clusters,
                    candidate=Sums.of(mine[t] for t in pairs),
                    baseline=Sums.of(theirs[t] for t in pairs),
                    bound=options.bound,
                    minimum=tally.policy.minimum,
                    maximum=tally.policy.maximum,
                )
            except InvalidEvidence as exc:
                from ._confidence import BOUND_HINT

                raise InvalidEvidence(exc.code, exc.message + BOUND_HINT) from None
            interval = Interval(bound, threshold)
            meets = interval.meets
    return Regression(
        max_regression=max_regression,
        pairs=len(pairs),
        mean_difference=mean_difference,
        meets=meets,
        interval=interval,
        only_candidate=len(only_candidate),
        only_baseline=len(only_baseline),
        only_candidate_trials=tuple(only_candidate if limit is None else only_candidate[:limit]),
        only_baseline_trials=tuple(only_baseline if limit is None else only_baseline[:limit]),
        baseline=baseline,
    )
