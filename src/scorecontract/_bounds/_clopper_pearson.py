# SPDX-License-Identifier: MIT
"""The exact Clopper-Pearson bound: a pass rate, or the mean of two-valued scores.

The lower bound for k successes of n is the p at which P(X >= k) = alpha
for X ~ Binomial(n, p) (Clopper and Pearson, Biometrika 26(4), 1934):
valid at every n.  It bounds the pass rate and, when every score is the
policy's minimum or its maximum, the mean (``two_valued``): such scores
are a rescaled count of successes.

Precision, and the direction of rounding: against PASS.  Bounds are
searched on a grid of 40 significant bits (spacing 2**-40 of the bound's
binary magnitude).  For n <= 2000 the binomial tail is an exact integer
sum (``math.comb`` and exact division) at each candidate p, and the bound
is the largest grid point whose exact tail is at most alpha: below the
exact bound by less than 2**-39 of it.  Above 2000 trials exact sums cost
too much (their work grows as n squared), and the tail is summed in
floating point from a Stirling-series log-binomial, with the sum's
remainder bounded geometrically and added.  Each evaluation carries an
error bound computed from the magnitudes involved, 32 units of 2**-52 per
operation (several times what the analysis needs, so a libm ``log`` a few
ulps off is covered), and the tail is inflated by that bound plus a
relative 2**-20 before it is compared with alpha: the bound comes out
lower than the exact one by less than 1.1e-6 of it (that much only for one
success; about 1e-8 at n/2 successes).
"""

from __future__ import annotations

import math

from .._bound_rules import alpha_of
from .._describe import describe_value
from .._errors import PolicyError
from .._stats import Bound, check_side, context, fraction_of, insufficient, round_down_to_float, rounded, to_float, z_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from fractions import Fraction

    from .._score import Number
    from .._stats import Needed

__all__ = ["EXACT_TRIALS", "clopper_pearson", "two_valued"]

# Exact binomial tail sums up to this many trials; floating point above.
EXACT_TRIALS = 2000
# Clopper-Pearson bounds are found to this many significant bits.
_BITS = 40
_EPS = 2.0**-52
# The floating-point tail is inflated by this much (relative), plus its
# computed error bound, before it is compared with alpha.
_TAIL_MARGIN = 2.0**-20
# Terms of the tail are summed until the rest is provably below this share.
_TAIL_TOLERANCE = 2.0**-50


def clopper_pearson(successes: int, trials: int, /, *, confidence: Number, side: str = "lower") -> Bound:
    """Return the exact Clopper-Pearson bound for *successes* of *trials*.

    The lower bound is the p at which P(X >= successes) = 1 - confidence
    for X ~ Binomial(trials, p), and 0 when there is no success; the upper
    bound is the p at which P(X <= successes) = 1 - confidence, and 1 when
    every trial succeeded.  Both are found to 40 significant bits and
    rounded against PASS (see the module's notes on precision).

        >>> b = clopper_pearson(20, 20, confidence=0.95)
        >>> b.bound  # 0.05 ** (1/20) = 0.860891659331734..., rounded down
        0.8608916593311733
        >>> b.meets(0.85), b.trials_needed(0.9)
        (True, 29)
    """
    alpha = alpha_of(confidence)
    check_side(side)
    for name, value in (("successes", successes), ("trials", trials)):
        if type(value) is not int or value < 0:
            raise PolicyError("bad-policy", f"{name} must be an int >= 0, not {describe_value(value)}")
    if trials == 0:
        raise insufficient("a pass rate over 0 trials has no bound")
    if successes > trials:
        raise PolicyError("bad-policy", f"{successes} successes of {trials} trials")
    if side == "lower":
        bound = _cp_lower(successes, trials, alpha)
    else:
        # By symmetry (p to 1 - p), the upper bound is 1 - the lower bound
        # for the failures; 1 - x rounds to nearest, so step up if needed.
        lower = _cp_lower(trials - successes, trials, alpha)
        bound = 1.0 - lower
        if fraction_of(bound) < 1 - fraction_of(lower):
            bound = math.nextafter(bound, 2.0)
    from fractions import Fraction

    return Bound(
        method="clopper-pearson",
        side=side,
        confidence=confidence,
        n=trials,
        estimate=successes / trials,
        bound=bound,
        _alpha=alpha,
        _mean=Fraction(successes, trials),
        _needed=_rate_needed(successes, trials, alpha),
    )


def _cp_lower(k: int, n: int, alpha: Fraction) -> float:
    """The Clopper-Pearson lower bound: the largest p, to 40 bits, with P(X >= k) <= alpha.

    The tail P(X >= k) rises with p, so every p it judges at most alpha is
    at or below the exact bound: the result is rounded down, and the next
    point of the grid is judged above alpha, so it is within 2**-40 of the
    bound relative to its size.
    """
    if k == 0:
        return 0.0
    ln_alpha = math.log(alpha)
    estimate = _solve_lower(k, n, ln_alpha)
    # A grid of 40 significant bits at the estimate's binary exponent.
    m = _BITS - math.frexp(estimate)[1]
    top = 1 << m

    def safe(a: int) -> bool:
        return _tail_at_most(k, n, a, m, alpha, ln_alpha)

    # p = 0 is safe (no successes are possible) and p = 1 is not (all
    # are): neither is evaluated.  Walk from the estimate to a bracket,
    # doubling the step, then bisect it.
    a = min(max(math.floor(math.ldexp(estimate, m)), 0), top - 1)
    if a == 0 or safe(a):
        lo, hi, step = a, a + 1, 1
        while hi < top and safe(hi):
            lo, step = hi, step * 2
            hi = min(lo + step, top)
    else:
        lo, hi, step = a - 1, a, 1
        while lo > 0 and not safe(lo):
            hi, step = lo, step * 2
            lo = max(hi - step, 0)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if safe(mid):
            lo = mid
        else:
            hi = mid
    # Exactly representable: lo has at most 41 significant bits.
    return math.ldexp(lo, -m)


def _tail_at_most(k: int, n: int, a: int, m: int, alpha: Fraction, ln_alpha: float, exact: bool | None = None) -> bool:
    """Whether P(X >= k) <= alpha for X ~ Binomial(n, a / 2**m), 1 <= k <= n, 0 < a < 2**m.

    *exact* (by default, n <= EXACT_TRIALS): an exact integer sum.
    Otherwise a floating-point tail inflated by its error bound, so that
    True is never wrong.
    """
    if k * (1 << m) <= n * a:
        # k <= n p: the median of a binomial is at least floor(n p) (Kaas
        # and Buhrman, Statistica Neerlandica 34, 1980), so P(X >= k) >=
        # 1/2 > alpha, since confidence > 1/2.
        return False
    if exact if exact is not None else n <= EXACT_TRIALS:
        b = (1 << m) - a
        return _tail_numerator(n, k, a, b) * alpha.denominator <= alpha.numerator << (m * n)
    log_tail, error, _ = _float_log_tail(k, n, math.ldexp(a, -m))
    return log_tail + error + _TAIL_MARGIN <= ln_alpha


def _tail_numerator(n: int, k: int, a: int, b: int) -> int:
    """sum_{j >= k} C(n, j) a**j b**(n - j): P(X >= k) times (a + b)**n, exactly.

    Term to term, u_{j+1} = u_j (n - j) a / ((j + 1) b), a division that is
    exact since u_{j+1} = C(n, j+1) a**(j+1) b**(n-j-1) is an integer: each
    step is a big integer times and over small ones.  The shorter side of
    the distribution is summed, the other taken from (a + b)**n.
    """
    u: int
    if n - k + 1 <= k:
        u = math.comb(n, k) * pow(a, k) * pow(b, n - k)
        total = u
        for j in range(k, n):
            u = u * ((n - j) * a) // ((j + 1) * b)
            total += u
        return total
    u = pow(b, n)
    total = u
    for j in range(k - 1):
        u = u * ((n - j) * a) // ((j + 1) * b)
        total += u
    whole: int = pow(a + b, n)
    return whole - total


def _float_log_tail(k: int, n: int, p: float) -> tuple[float, float, float]:
    """For k > n p: (ln of an upper estimate of P(X >= k), its error bound, W).

    P(X >= k) = u_k * W with u_k = C(n, k) p**k (1-p)**(n-k) and W the sum
    of the later terms over u_k, products of the ratios
    r_j = (n - j) p / ((j + 1)(1 - p)).  For j >= k > n p every r_j < 1 and
    they fall with j, so the terms after u_J add up to less than
    u_J r_J / (1 - r_J): that remainder is added, and the sum stops once it
    is below 2**-50 of the total.
    """
    log_comb, comb_error = _log_comb(n, k)
    log_p, log_q = math.log(p), math.log1p(-p)
    log_term = log_comb + k * log_p + (n - k) * log_q
    ratio = p / (1.0 - p)
    term = weight = 1.0
    j = k
    while j < n:
        r = (n - j) * ratio / (j + 1)
        if r < 1.0 and term * r <= _TAIL_TOLERANCE * weight * (1.0 - r):
            weight += term * r / (1.0 - r)
            break
        term *= r
        weight += term
        j += 1
    steps = j - k + 1
    magnitude = k * abs(log_p) + (n - k) * abs(log_q) + abs(log_term) + 2 * steps + abs(math.log(weight)) + 1
    error = comb_error + 32 * _EPS * magnitude
    return log_term + math.log(weight), error, weight


def _log_comb(n: int, k: int) -> tuple[float, float]:
    """(ln C(n, k), an error bound), in O(1), without cancellation.

    With ln m! = m ln m - m + ln(2 pi m) / 2 + s(m) (Stirling), and k <= n/2:
    ln C(n, k) = k ln(n/k) + (n-k) ln(1 + k/(n-k)) + ln(n / (2 pi k (n-k))) / 2
    + s(n) - s(k) - s(n-k): each part is no larger than the result, so the
    rounding errors stay relative to it.
    """
    if k == 0 or k == n:
        return 0.0, 0.0
    k = min(k, n - k)
    first = k * math.log(n / k)
    second = (n - k) * math.log1p(k / (n - k))
    third = 0.5 * (math.log(n) - math.log(2 * math.pi) - math.log(k) - math.log(n - k))
    value = first + second + third + _stirling(n) - _stirling(k) - _stirling(n - k)
    error = 32 * _EPS * (first + second + 4 * abs(third) + 8) + 1e-12
    return value, error


def _stirling(m: int) -> float:
    """s(m) = ln m! - (m ln m - m + ln(2 pi m) / 2)."""
    if m < 30:
        return math.log(math.factorial(m)) - (m * math.log(m) - m + 0.5 * math.log(2 * math.pi * m))
    # The series alternates and its error is below the first term left
    # out, 1/(1680 m**7) < 3e-14 (DLMF 5.11.10, with 5.11.11).
    return 1 / (12 * m) - 1 / (360 * m**3) + 1 / (1260 * m**5)


def _solve_lower(k: int, n: int, ln_alpha: float) -> float:
    """A floating-point estimate of the p with ln P(X >= k) = ln alpha.

    Newton's method in ln p, kept inside a bracket (bisecting when a step
    leaves it): d ln P(X >= k) / d ln p = k / W, since the derivative of the
    tail is (k / p) u_k.  Only a starting point for the exact or inflated
    test, which alone decides.
    """
    lo, hi = 0.0, k / n
    p = hi / 2
    for _ in range(200):
        if k <= n * p:
            hi = p
            p = (lo + hi) / 2
            continue
        log_tail, _, weight = _float_log_tail(k, n, p)
        f = log_tail - ln_alpha
        if f > 0:
            hi = p
        else:
            lo = p
        step = max(min(-f * weight / k, 700.0), -700.0)
        following = p * math.exp(step)
        if not lo < following < hi:
            following = (lo + hi) / 2
        if abs(following - p) <= p * 2.0**-45:
            return following
        p = following
    return p


def _cp_trials_needed(k: int, n: int, alpha: Fraction, limit: Fraction) -> int | None:
    """About how many trials at the rate k / n give a lower bound >= *limit*."""
    if limit <= 0:
        return 1
    if limit >= 1:
        return None
    ln_alpha = math.log(alpha)
    # The tail is judged at the limit rounded up to 40 significant bits:
    # a larger p makes the tail larger, so a pass there is a pass at the
    # limit.  In floating point, with its error bound, at every n: this is
    # an estimate ("about N"), and exact sums at every step would be slow.
    point = float(limit)
    m = _BITS - math.frexp(point)[1]
    numerator = math.ceil(limit * (1 << m))
    point = math.ldexp(numerator, -m)

    def passes(trials: int) -> bool:
        successes = trials * k // n
        return successes > 0 and _tail_at_most(successes, trials, numerator, m, alpha, ln_alpha, exact=False)

    rate = k / n
    z = z_of(alpha)
    approximate = z * z * rate * (1 - rate) / (rate - point) ** 2 if rate > point else math.inf
    if approximate > 1e9:
        # Beyond a billion trials the normal approximation is what is
        # meant by "about", and a search would sum millions of terms.
        return None if approximate == math.inf else math.ceil(approximate)
    lo, hi = 0, max(1, n)
    while not passes(hi):
        if hi > 4e9:
            return math.ceil(approximate)
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if passes(mid):
            hi = mid
        else:
            lo = mid
    return hi


def two_valued(k: int, n: int, alpha: Fraction, side: str, low: Fraction, high: Fraction, confidence: Number) -> Bound:
    """The mean of *n* scores of which *k* are *high* and the rest *low*: exact.

    low + (high - low) * p for the Clopper-Pearson bound p on k of n,
    computed exactly from the double p and rounded against PASS.
    """
    from decimal import ROUND_FLOOR
    from fractions import Fraction

    rate = clopper_pearson(k, n, confidence=confidence, side=side)
    exact = low + (high - low) * Fraction(rate.bound)
    if side == "lower":
        bound = round_down_to_float(rounded(exact, context(ROUND_FLOOR)))
    else:
        bound = -round_down_to_float(rounded(-exact, context(ROUND_FLOOR)))
    mean = low + (high - low) * Fraction(k, n)

    def needed(_: Bound, limit: Fraction, gap: Fraction) -> int | None:
        # The same question on the rate's scale.
        return _rate_needed(k, n, alpha)(rate, (limit - low) / (high - low), gap / (high - low))

    return Bound(
        method="clopper-pearson",
        side=side,
        confidence=confidence,
        n=n,
        estimate=to_float(mean),
        bound=bound,
        _alpha=alpha,
        _mean=mean,
        _needed=needed,
    )


def _rate_needed(successes: int, trials: int, alpha: Fraction) -> Needed:
    """The power analysis of a rate: the n at which the same observed rate would pass."""

    def needed(bound: Bound, limit: Fraction, gap: Fraction) -> int | None:
        if bound.side == "lower":
            return _cp_trials_needed(successes, trials, alpha, limit)
        return _cp_trials_needed(trials - successes, trials, alpha, 1 - limit)

    return needed
