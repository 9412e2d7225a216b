# SPDX-License-Identifier: MIT
"""Hoeffding's bound on a mean of bounded scores: finite-sample, variance-blind.

mean - (max - min) * sqrt(ln(1/alpha) / (2n)) (W. Hoeffding, JASA 58,
1963, theorem 2, one-sided): it assumes nothing but independent scores in
[min, max], so it holds at any n >= 1, even n = 1 or zero variance.  The
price is width: it is wider than the empirical Bernstein bound whenever
the scores vary much less than a coin flip would.
"""

from __future__ import annotations

import math

from .._bound_rules import alpha_of
from .._stats import Bound, check_side, check_sums, context, ln_up, offset, rounded, score_range, sqrt_up, to_float

TYPE_CHECKING = False
if TYPE_CHECKING:
    from fractions import Fraction

    from .._score import Number
    from .._stats import Sums

__all__ = ["hoeffding_bound"]


def hoeffding_bound(
    sums: Sums, /, *, confidence: Number, minimum: Number, maximum: Number, side: str = "lower"
) -> Bound:
    """Return Hoeffding's bound on the mean of *sums*, scores in [minimum, maximum].

    mean - (maximum - minimum) * sqrt(ln(1 / alpha) / (2 n)), alpha =
    1 - confidence (mean + ... for an upper bound), each step rounded
    against PASS.
    """
    from decimal import ROUND_CEILING
    from fractions import Fraction

    alpha = alpha_of(confidence)
    check_side(side)
    low, high = score_range(check_sums(sums), minimum, maximum)
    n = sums.count
    mean = Fraction(sums.total) / n
    up = context(ROUND_CEILING)
    spread = high - low
    width = up.multiply(rounded(spread, up), sqrt_up(up.divide(ln_up(1 / alpha), 2 * n)))

    def needed(bound: Bound, limit: Fraction, gap: Fraction) -> int | None:
        width2 = spread * spread * Fraction(-math.log(alpha)) / 2
        return max(1, math.ceil(width2 / (gap * gap)))

    return Bound(
        method="hoeffding",
        side=side,
        confidence=confidence,
        n=n,
        estimate=to_float(mean),
        bound=offset(mean, width, side),
        _alpha=alpha,
        _mean=mean,
        _needed=needed,
    )
