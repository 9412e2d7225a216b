# SPDX-License-Identifier: MIT
"""The asymptotic bound: Student t on the standard error (``"asymptotic-t"``).

mean - t * SE (or mean + t * SE for an upper bound), with t the Student t
quantile with n - 1 degrees of freedom (``_student_t``) and SE from the
sample variance, the n - 1 denominator (E. Miller, "Adding Error Bars to
Evals", arXiv 2411.00640, 2024).  With clusters, SE is the cluster-robust
G/(G-1) * CR0 and t has G - 1 degrees of freedom: the default of
statsmodels and of Inspect.

Asymptotic: it keeps its confidence only as n (or G) grows.  Skewed
scores make it PASS more often than it says even at n = 20, and five
clusters of four about twice as often (docs/reports.md, "Simulation").
For bounded scores the default is the finite-sample empirical Bernstein
bound; this one stays available, and every output names it
``asymptotic-t``.

Computed in decimal at 40 digits from the exact sums, each step rounded
against PASS; the only input that is not exact is the t quantile, raised
by a relative 2**-30 above its measured error (``_student_t``).  Refused
as ``insufficient-trials`` for n = 1, zero variance and fewer than two
clusters: the bound would have width 0 or rest on nothing.
"""

from __future__ import annotations

import math

from .._bound_rules import alpha_of
from .._stats import (
    Bound,
    check_side,
    check_sums,
    context,
    float_sqrt,
    insufficient,
    offset,
    rounded,
    sqrt_up,
    squared_residuals,
    to_float,
    z_of,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from fractions import Fraction

    from .._score import Number
    from .._stats import Clusters, Sums

__all__ = ["METHOD", "student_t_bound", "t_bound", "variance_of_mean"]

METHOD = "asymptotic-t"


def student_t_bound(
    sums: Sums, /, *, confidence: Number, side: str = "lower", clusters: Clusters | None = None
) -> Bound:
    """Return the asymptotic (Student t) bound on the mean of the numbers in *sums*.

    mean - t * SE for a lower bound, mean + t * SE for an upper one, with
    t the *confidence* quantile of Student's t with n - 1 degrees of
    freedom and SE**2 = s**2 / n, s**2 the sample variance (the n - 1
    denominator).  Two trials of 0.9 and 0.95 give t(1) = 6.31 and a 95%
    lower bound of 0.767; the normal quantile, 1.645, gave 0.884.

    *clusters*, when given, is an iterable of ``(count, total)`` pairs, one
    per cluster (for example per question, when several trials share one):
    the counts must add up to n and the totals to the sum.  SE is then the
    cluster-robust variance with the small-sample factor G / (G - 1), and t
    has G - 1 degrees of freedom (statsmodels' default, and Inspect's)::

        SE**2 = G / (G - 1) * sum_c E_c**2 / n**2

    with E_c the cluster's total residual, sum of s_i - mean over its
    trials.  With one trial per cluster it is exactly the unclustered SE
    and t(n - 1).
    """
    alpha = alpha_of(confidence)
    check_side(side)
    mean, variance, count = variance_of_mean(check_sums(sums), clusters)
    return t_bound(side, confidence, alpha, sums.count, mean, variance, count)


def variance_of_mean(sums: Sums, clusters: Clusters | None) -> tuple[Fraction, Fraction, int | None]:
    """Return (mean, SE**2, number of clusters or None), refusing what cannot bound."""
    from fractions import Fraction

    from ._clustered import MIN_CLUSTERS, cluster_residuals, few_clusters

    n = sums.count
    if n < 2:
        raise insufficient(
            f"an asymptotic bound needs at least 2 trials, not {n}: its standard error would be undefined"
        )
    mean = Fraction(sums.total) / n
    ss = squared_residuals(sums)
    if ss == 0:
        raise insufficient(f"all {n} values are equal (zero variance): an asymptotic bound would have width 0")
    if clusters is None:
        return mean, ss / (n * (n - 1)), None
    count, between = cluster_residuals(clusters, n, sums.total, mean)
    if count < MIN_CLUSTERS:
        raise few_clusters(count)
    if between == 0:
        raise insufficient(
            f"every one of the {count} clusters has the same mean: an asymptotic bound would have width 0"
        )
    # CR0 with the small-sample factor G / (G - 1) (statsmodels' default).
    return mean, between * count / ((count - 1) * n * n), count


def t_bound(
    side: str,
    confidence: Number,
    alpha: Fraction,
    n: int,
    mean: Fraction,
    variance: Fraction,
    clusters: int | None,
    unpaired_se: float | None = None,
) -> Bound:
    """mean -/+ t * sqrt(*variance*), t from Student t(n - 1), or t(G - 1) for G *clusters*."""
    from decimal import ROUND_CEILING, Decimal

    from .._student_t import quantile

    up = context(ROUND_CEILING)
    # The quantile is already rounded up (above its error).  alpha >= 1e-12
    # (alpha_of), so float(alpha) keeps its digits.
    t = quantile(float(alpha), (n if clusters is None else clusters) - 1)
    width = up.multiply(Decimal(t), sqrt_up(rounded(variance, up)))

    def needed(bound: Bound, limit: Fraction, gap: Fraction) -> int | None:
        # n * SE**2 is the per-trial variance; the quantile is Student's t
        # at the n sought, found by iterating from the normal's (t falls
        # towards z as n grows, so this settles in a few steps).  A
        # clustered design is assumed to keep its trials per cluster.
        from fractions import Fraction

        spread = n * variance
        per_cluster = Fraction(n, clusters or n)
        sought = 2
        z = z_of(alpha)
        for _ in range(8):
            sought = max(2, math.ceil(Fraction(z) ** 2 * spread / (gap * gap)))
            df = sought - 1 if clusters is None else max(1, math.ceil(sought / per_cluster) - 1)
            following = quantile(float(alpha), df)
            if following == z:
                break
            z = following
        return sought

    return Bound(
        method=METHOD,
        side=side,
        confidence=confidence,
        n=n,
        estimate=to_float(mean),
        bound=offset(mean, width, side),
        se=float_sqrt(variance),
        clusters=clusters,
        unpaired_se=unpaired_se,
        _alpha=alpha,
        _mean=mean,
        _needed=needed,
    )
