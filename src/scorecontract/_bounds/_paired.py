# SPDX-License-Identifier: MIT
"""The paired bound: the mean per-trial difference, candidate - baseline.

A regression gate compares two runs over the same trials.  The
differences are the units: their mean is bounded by the asymptotic t
bound or, for bounded scores, by the finite-sample empirical Bernstein
bound over differences in [minimum - maximum, maximum - minimum] (with
clusters, one unit per cluster weighted by its size, ``_clustered``).  The
unpaired standard error, sqrt(SE_candidate**2 + SE_baseline**2), is shown
beside it (Miller's comparison of two models): the paired one is smaller
by as much as the two sides' scores are correlated.
"""

from __future__ import annotations

from .._bound_rules import alpha_of
from .._describe import describe_value
from .._errors import PolicyError
from .._stats import check_side, check_sums, exact_fraction, float_sqrt, sample_variance, squared_residuals

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._score import Number
    from .._stats import Bound, Clusters, Sums

__all__ = ["paired_bound"]


def paired_bound(
    differences: Sums,
    /,
    *,
    confidence: Number,
    candidate: Sums,
    baseline: Sums,
    side: str = "lower",
    clusters: Clusters | None = None,
    bound: str = "asymptotic-t",
    minimum: Number | None = None,
    maximum: Number | None = None,
) -> Bound:
    """Return the *bound* on the mean per-trial difference, candidate - baseline.

    *differences* holds the exact sums of the n per-pair differences;
    *candidate* and *baseline* the sums of each side's scores over the same
    n pairs, for the unpaired SE.  Their totals must differ by the
    differences' total.  *bound* is ``"asymptotic-t"`` or
    ``"empirical-bernstein"`` (which needs *minimum* and *maximum*, the
    scores' bounds).

    *clusters*, as for ``student_t_bound``, are ``(count, total of differences)``
    per cluster.  ``no_regression(bound, max_regression=D)`` is the gate:
    "no regression larger than D, with this confidence".  For the
    asymptotic bound, all differences equal (the same scores on both
    sides, say) is ``insufficient-trials``.
    """
    from fractions import Fraction

    alpha = alpha_of(confidence)
    check_side(side)
    n = check_sums(differences).count
    if check_sums(candidate).count != n or check_sums(baseline).count != n:
        raise PolicyError(
            "bad-policy",
            f"{n} differences but {candidate.count} candidate and {baseline.count} baseline scores",
        )
    if Fraction(candidate.total) - Fraction(baseline.total) != Fraction(differences.total):
        raise PolicyError("bad-policy", "the candidate and baseline totals do not differ by the differences' total")
    unpaired = float_sqrt(sample_variance(candidate) / n + sample_variance(baseline) / n) if n else None
    if bound == "empirical-bernstein":
        from ._empirical_bernstein import bernstein_bound

        spread = exact_fraction("maximum", maximum) - exact_fraction("minimum", minimum)
        if n == 0:
            from .._stats import insufficient

            raise insufficient("a mean over 0 pairs has no bound")
        mean, ss, units = Fraction(differences.total) / n, squared_residuals(differences), n
        scale = None
        if clusters is not None:
            from ._clustered import trial_weighted_units

            # One unit per cluster, weighted by its size: the bound is on
            # the mean difference per trial, as the gate reads it.
            values, scale = trial_weighted_units(clusters, n, differences.total, -spread)
            units = len(values)
            centre = sum(values, Fraction(0)) / units
            ss = sum(((value - centre) ** 2 for value in values), Fraction(0))
        return bernstein_bound(
            side,
            confidence,
            alpha,
            n,
            units,
            mean,
            ss,
            -spread,
            spread,
            None if clusters is None else units,
            unpaired,
            scale=scale,
        )
    if bound != "asymptotic-t":
        raise PolicyError(
            "bad-policy", f"a paired bound is 'asymptotic-t' or 'empirical-bernstein', not {describe_value(bound)}"
        )
    from ._asymptotic_t import t_bound, variance_of_mean

    mean, variance, count = variance_of_mean(differences, clusters)
    return t_bound(side, confidence, alpha, n, mean, variance, count, unpaired)
