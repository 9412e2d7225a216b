# SPDX-License-Identifier: MIT
"""The finite-sample default for bounded scores: empirical Bernstein (``"empirical-bernstein"``).

For n independent scores in [a, b], R = b - a, alpha = 1 - confidence and
L = ln(2 / alpha), the one-sided lower bound is::

    mean - sqrt(2 * S**2 * L / n) - R * L / (3 * n)
    S = min(R / 2, c + sqrt(s**2 + c**2)),    c = R * sqrt(L / (2 * (n - 1)))

with s**2 the sample variance (the n - 1 denominator).  It holds at every
n, by two steps of probability alpha / 2 each:

- Bernstein's inequality for variables at most R above their mean (the
  lower tail of scores in [a, b]) with variance sigma**2: the mean is
  below the average by more than sqrt(2 sigma**2 ln(1/d) / n) +
  R ln(1/d) / (3n) with probability at most d (Boucheron, Lugosi and
  Massart, "Concentration Inequalities", 2013, theorem 2.10);
- sigma**2 - s**2 <= sigma * R sqrt(2 ln(1/d) / (n - 1)) but with
  probability d, for independent scores in [a, b] (A. Maurer and M.
  Pontil, "Empirical Bernstein bounds and sample variance penalization",
  COLT 2009, the proof of theorem 10, by the self-bounding property of
  the sample variance).  Solved for sigma, that is sigma <= c +
  sqrt(s**2 + c**2) with c = R sqrt(ln(1/d) / (2 (n - 1))); theorem 10
  states the looser sigma <= s + 2c.  And sigma <= R / 2 always
  (Popoviciu's inequality), so the smaller of the two serves.

Maurer and Pontil's theorem 4 is the same bound with theorem 10's looser
step and the cross term folded into 7 R L / (3 (n - 1)); the bound here is
never wider than theirs.  The cap R / 2 makes the bound valid at
n = 1 too, and never much wider than Hoeffding's.  The upper bound is the
mirror image.  The bound is then clipped to [a, b], where the mean lies.

When every score is a or b (0 or 1 under a [0, 1] policy) the mean is a
rescaled count of successes, and its bound is the exact Clopper-Pearson
(``_clopper_pearson.two_valued``), narrower at every n.  Chosen on the
observed scores, it stays honest: whatever the scores' distribution in
[a, b] with mean mu, the shares at b and at a are at most mu and 1 - mu
(rescaled), so each term of P(all two-valued, k of them b) is at most
the Bernoulli(mu) one, and the chance that the exact bound passes mu on
two-valued samples is at most alpha.  The switch can add only this
bound's own chance on samples that are not two-valued.

With clusters there is one unit per cluster, weighted by its size so
that the bound is on the trial mean (``_clustered``), over a range wider
by the largest cluster's share.  With a baseline they are the per-pair differences,
in [a - b, b - a].

Cost: a handful of 40-digit decimal operations on the exact sums, the
same as the asymptotic bound: nothing per trial.
"""

from __future__ import annotations

import math

from .._bound_rules import alpha_of
from .._stats import (
    Bound,
    check_side,
    check_sums,
    context,
    ln_up,
    round_down_to_float,
    round_up_to_float,
    rounded,
    score_range,
    sqrt_up,
    squared_residuals,
    to_float,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from fractions import Fraction

    from .._score import Number
    from .._stats import Clusters, Sums

__all__ = ["METHOD", "bernstein_bound", "empirical_bernstein_bound"]

METHOD = "empirical-bernstein"


def empirical_bernstein_bound(
    sums: Sums,
    /,
    *,
    confidence: Number,
    minimum: Number,
    maximum: Number,
    side: str = "lower",
    clusters: Clusters | None = None,
) -> Bound:
    """Return the finite-sample bound on the mean of *sums*, scores in [minimum, maximum].

    The empirical Bernstein bound of the module's notes, or the exact
    Clopper-Pearson bound when every score is *minimum* or *maximum*.
    *clusters*, as for ``student_t_bound``, are ``(count, total)`` pairs, one per
    cluster: the bound is then on the trial mean over one unit per cluster
    (``_clustered.trial_weighted_units``).

        >>> from scorecontract._stats import Sums
        >>> b = empirical_bernstein_bound(Sums.of([0.9] * 50 + [0.7] * 50), confidence=0.95,
        ...                               minimum=0, maximum=1)
        >>> b.method, round(b.bound, 4)
        ('empirical-bernstein', 0.7046)
        >>> empirical_bernstein_bound(Sums.of([1] * 29 + [0]), confidence=0.95,
        ...                           minimum=0, maximum=1).method
        'clopper-pearson'
    """
    from fractions import Fraction

    alpha = alpha_of(confidence)
    check_side(side)
    low, high = score_range(check_sums(sums), minimum, maximum)
    n = sums.count
    total = Fraction(sums.total)
    if clusters is not None:
        from ._clustered import trial_weighted_units

        units, scale = trial_weighted_units(clusters, n, sums.total, low)
        count = len(units)
        centre = sum(units, Fraction(0)) / count
        ss = sum(((value - centre) ** 2 for value in units), Fraction(0))
        return bernstein_bound(side, confidence, alpha, n, count, total / n, ss, low, high, count, scale=scale)
    # Every score is low or high exactly when sum (x - low)(high - x) = 0:
    # each term is >= 0 for a score in [low, high], and 0 only at the ends.
    if (low + high) * total - Fraction(sums.squares) - n * low * high == 0:
        from ._clopper_pearson import two_valued

        successes = (total - n * low) / (high - low)
        return two_valued(int(successes), n, alpha, side, low, high, confidence)
    return bernstein_bound(side, confidence, alpha, n, n, total / n, squared_residuals(sums), low, high, None)


def bernstein_bound(
    side: str,
    confidence: Number,
    alpha: Fraction,
    n: int,
    units: int,
    mean: Fraction,
    ss: Fraction,
    low: Fraction,
    high: Fraction,
    clusters: int | None,
    unpaired_se: float | None = None,
    *,
    scale: Fraction | None = None,
) -> Bound:
    """The bound of the module's notes over *units* independent values in [*low*, *high*].

    *mean* and *ss* (the sum of squared residuals) are the units'; *n* is
    the trials they stand for, shown.  With *scale* the units range over
    *scale* times (*high* - *low*) (clusters of unequal size,
    ``_clustered.trial_weighted_units``) and *mean* is the trial mean they
    stand for.  Every step rounds up the width.
    """
    from decimal import ROUND_CEILING, ROUND_FLOOR

    up = context(ROUND_CEILING)
    span = (high - low) * (1 if scale is None else scale)
    spread = rounded(span, up)
    log = ln_up(2 / alpha)
    cap = up.divide(spread, 2)
    if units >= 2:
        c = up.multiply(spread, sqrt_up(up.divide(log, 2 * (units - 1))))
        sigma = min(cap, up.add(c, sqrt_up(up.add(rounded(ss / (units - 1), up), up.multiply(c, c)))))
    else:
        sigma = cap
    width = up.add(
        sqrt_up(up.divide(up.multiply(up.multiply(2, up.multiply(sigma, sigma)), log), units)),
        up.divide(up.multiply(spread, log), 3 * units),
    )
    if side == "lower":
        down = context(ROUND_FLOOR)
        bound = max(
            round_down_to_float(down.subtract(rounded(mean, down), width)), round_down_to_float(rounded(low, down))
        )
    else:
        bound = min(round_up_to_float(up.add(rounded(mean, up), width)), round_up_to_float(rounded(high, up)))
    variance = to_float(ss / (units - 1)) if units >= 2 else 0.0
    range_ = to_float(span)
    log_float = float(log)

    def needed(_: Bound, limit: Fraction, gap: Fraction) -> int | None:
        # The same sample variance over more units: the width falls with
        # their number, so the first that fits is found by doubling and
        # bisection (in floating point: this is "about N").
        target = to_float(gap)
        if not (math.isfinite(target) and math.isfinite(range_) and math.isfinite(variance)):
            return None  # beyond the doubles: no estimate worth printing
        if target <= 0 or range_ <= 0:
            # Below the doubles (scores of 1E-999): the gap or the range
            # underflowed to 0 and every m would "fit", one trial included.
            return None

        def fits(m: int) -> bool:
            c = range_ * math.sqrt(log_float / (2 * (m - 1))) if m >= 2 else 0.0
            sd = range_ / 2 if m < 2 else min(range_ / 2, c + math.sqrt(variance + c * c))
            return math.sqrt(2 * sd * sd * log_float / m) + range_ * log_float / (3 * m) <= target

        lo, hi = 0, 1
        while not fits(hi):
            if hi > 2**62:
                return None
            lo, hi = hi, hi * 2
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if fits(mid):
                hi = mid
            else:
                lo = mid
        # Clusters are assumed to keep their trials per cluster.
        return hi if clusters is None else math.ceil(hi * n / units)

    return Bound(
        method=METHOD,
        side=side,
        confidence=confidence,
        n=n,
        estimate=to_float(mean),
        bound=bound,
        clusters=clusters,
        unpaired_se=unpaired_se,
        _alpha=alpha,
        _mean=mean,
        _needed=needed,
    )
