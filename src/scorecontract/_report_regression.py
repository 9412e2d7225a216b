# SPDX-License-Identifier: MIT
"""A report's paired comparison with a baseline: ``Regression``.

The candidate's trials are paired with the baseline's by trial id, and the
mean per-trial difference, candidate - baseline (or its confidence bound),
is compared with the largest regression allowed (docs/reports.md).
"""

from __future__ import annotations

from ._describe import format_number
from ._errors import InvalidEvidence, PolicyError
from ._score import exact_context, to_decimal
from ._value import Value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from decimal import Decimal

    from ._confidence import Interval
    from ._policy import Policy
    from ._report_gate import Gate
    from ._report_results import Report
    from ._score import Number
    from ._tally import Tally

__all__ = ["Regression", "compare_with_baseline", "interval_side"]


class Regression(Value):
    """A paired comparison with a baseline: ``Report.regression``.

    Attributes: ``name`` (``"regression"``); ``max_regression``, the
    largest regression allowed, D; ``pairs``, the scheduled trials with
    valid evidence on both sides; ``mean_difference``, the mean of the
    per-trial differences candidate - baseline (a float, None without
    pairs); ``meets``, whether the difference is at least -D (for a policy
    whose direction is ``"lower"``, at most D): the point difference, or
    its confidence bound, ``interval`` (an ``Interval`` whose
    ``unpaired_se`` shows what pairing bought), when a confidence was
    given; ``only_candidate`` and ``only_baseline``, how many trials had
    valid evidence on one side only, with the first ``max_listed`` ids in
    ``only_candidate_trials`` and ``only_baseline_trials``; and
    ``baseline``, the baseline's own ``Report``.
    """

    __slots__ = (
        "name",
        "max_regression",
        "pairs",
        "mean_difference",
        "meets",
        "interval",
        "only_candidate",
        "only_baseline",
        "only_candidate_trials",
        "only_baseline_trials",
        "baseline",
    )
    _shown = ("pairs", "mean_difference", "max_regression", "meets")

    name: str
    max_regression: Number
    pairs: int
    mean_difference: float | None
    meets: bool | None
    interval: Interval | None
    only_candidate: int
    only_baseline: int
    only_candidate_trials: tuple[str, ...]
    only_baseline_trials: tuple[str, ...]
    baseline: Report

    def __init__(self, **fields: object) -> None:
        self._fill(name="regression", **fields)

    def text(self) -> str:
        """The comparison as the verdict's message says it."""
        if self.mean_difference is None:
            return "no trial has valid evidence on both sides"
        limit = format_number(self.max_regression)
        interval = self.interval
        lower = interval_side(self.baseline.policy) == "lower"
        suffix = "" if lower else " (lower is better)"
        if interval is None:
            relation = (">=" if self.meets else "<") if lower else ("<=" if self.meets else ">")
            shown = f"-{limit}" if lower else limit
            return (
                f"mean difference {self.mean_difference:.6g} (candidate - baseline, {self.pairs} pairs) "
                f"{relation} {shown}{suffix}"
            )
        if interval.side == "lower":
            relation, shown = (">=" if self.meets else "<"), f"-{limit}"
        else:
            relation, shown = ("<=" if self.meets else ">"), limit
        text = (
            f"mean difference {self.mean_difference:.6g} (candidate - baseline), "
            f"{interval.summary()} {relation} {shown}{suffix}"
        )
        needed = interval.needed()
        return f"{text}; {needed}" if needed else text

    def as_dict(self) -> dict[str, object]:
        """Return the comparison as a JSON-ready dict (the baseline's input and counts)."""
        base = self.baseline
        return {
            "max_regression": self.max_regression,
            "pairs": self.pairs,
            "mean_difference": self.mean_difference,
            "meets_threshold": self.meets,
            "interval": None if self.interval is None else self.interval.as_dict(),
            "only_candidate": self.only_candidate,
            "only_baseline": self.only_baseline,
            "only_candidate_trials": list(self.only_candidate_trials),
            "only_baseline_trials": list(self.only_baseline_trials),
            "baseline": {
                "verdict": base.verdict.value,
                "code": base.code,
                "message": base.message,
                "valid": base.valid,
                "invalid": base.invalid,
                "ignored": base.ignored,
                "missing": base.missing,
                "mean": base.mean.as_dict(),
                "input": {"sha256": base.sha256, "bytes": base.size},
            },
        }


def interval_side(policy: Policy) -> str:
    """``"lower"`` when higher scores are better, else ``"upper"``."""
    from ._confidence import direction

    return "upper" if direction(policy) == "lower" else "lower"


def compare_with_baseline(
    tally: Tally, baseline: Report, baseline_tally: Tally | None, options: Gate, bounded: bool = True
) -> Regression:
    """Pair the candidate's trials with the baseline's and compare them.

    With a confidence and *bounded*, the comparison is on the paired
    bound, and ``InvalidEvidence`` (``insufficient-trials``) when there is
    none; else on the point difference.
    """
    from fractions import Fraction

    from ._stats import Sums, paired_bound

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
        value = context.subtract(to_decimal(mine[trial_id]), to_decimal(theirs[trial_id]))  # type: ignore[arg-type]
        values[trial_id] = value
        differences[value] = differences.get(value, 0) + 1
    side = interval_side(tally.policy)
    threshold = -to_decimal(max_regression) if side == "lower" else to_decimal(max_regression)
    mean_difference: float | None = None
    meets: bool | None = None
    interval = None
    if pairs:
        sums = Sums.of_counts(differences)
        mean_difference = float(Fraction(sums.total) / sums.count)
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
                    candidate=Sums.of(mine[t] for t in pairs),  # type: ignore[misc]
                    baseline=Sums.of(theirs[t] for t in pairs),  # type: ignore[misc]
                )
            except InvalidEvidence as exc:
                from ._confidence import _HINT

                raise InvalidEvidence(exc.code, exc.message + _HINT) from None
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
