"""Independent 50-digit recomputation: every finite-sample bound is on the safe side of mpmath's value.

Run from the repo root: PYTHONPATH=src <python with mpmath> findings-bounds/math/check_rounding.py
"""

import random
from decimal import Decimal

import mpmath

from scorecontract._bounds._clopper_pearson import clopper_pearson
from scorecontract._bounds._empirical_bernstein import empirical_bernstein_bound
from scorecontract._bounds._hoeffding import hoeffding_bound
from scorecontract._stats import Sums

mpmath.mp.dps = 50
rng = random.Random(7)


def eb(values, alpha, side, lo, hi):
    n = len(values)
    r = hi - lo
    mean = mpmath.fsum(values) / n
    log = mpmath.log(2 / alpha)
    sigma = r / 2
    if n > 1:
        var = mpmath.fsum((v - mean) ** 2 for v in values) / (n - 1)
        c = r * mpmath.sqrt(log / (2 * (n - 1)))
        sigma = min(sigma, c + mpmath.sqrt(var + c * c))
    w = mpmath.sqrt(2 * sigma**2 * log / n) + r * log / (3 * n)
    return max(lo, mean - w) if side == "lower" else min(hi, mean + w)


def cp_lower(k, n, alpha):
    if k == 0:
        return mpmath.mpf(0)
    lo, hi = mpmath.mpf(0), mpmath.mpf(1)
    for _ in range(170):  # P(X >= k | p) = I_p(k, n - k + 1), increasing in p
        mid = (lo + hi) / 2
        if mpmath.betainc(k, n - k + 1, 0, mid, regularized=True) <= alpha:
            lo = mid
        else:
            hi = mid
    return lo


bad = 0
checked = 0
for trial in range(300):
    n = rng.choice([1, 2, 3, 5, 10, 30, 100, 400])
    conf = rng.choice(["0.9", "0.95", "0.99", "0.999999"])
    alpha = 1 - mpmath.mpf(conf)
    side = rng.choice(["lower", "upper"])
    digits = rng.choice([1, 3, 17])
    scores = [Decimal(rng.randint(0, 10**digits)) / 10**digits for _ in range(n)]
    got = empirical_bernstein_bound(Sums.of(scores), confidence=Decimal(conf), minimum=0, maximum=1, side=side)
    if got.method == "clopper-pearson":
        continue
    ref = eb([mpmath.mpf(str(s)) for s in scores], alpha, side, 0, 1)
    checked += 1
    if (side == "lower" and mpmath.mpf(got.bound) > ref) or (side == "upper" and mpmath.mpf(got.bound) < ref):
        bad += 1
        print("EB unsafe", n, conf, side, got.bound, ref)
    elif abs(mpmath.mpf(got.bound) - ref) > 1e-12 * max(1, abs(ref)):
        print("EB far", n, conf, side, got.bound, ref)
    h = hoeffding_bound(Sums.of(scores), confidence=Decimal(conf), minimum=0, maximum=1, side=side)
    mean = mpmath.fsum(mpmath.mpf(str(s)) for s in scores) / n
    hw = mpmath.sqrt(mpmath.log(1 / alpha) / (2 * n))
    href = max(0, mean - hw) if side == "lower" else min(1, mean + hw)
    if (side == "lower" and mpmath.mpf(h.bound) > href) or (side == "upper" and mpmath.mpf(h.bound) < href):
        bad += 1
        print("Hoeffding unsafe", n, conf, side, h.bound, href)
for n in (1, 2, 7, 30, 100, 999):
    for k in sorted({0, 1, n // 2, n - 1, n}):
        got = clopper_pearson(k, n, confidence=Decimal("0.95"), side="lower")
        ref = cp_lower(k, n, mpmath.mpf("0.05"))
        checked += 1
        if mpmath.mpf(got.bound) > ref:
            bad += 1
            print("CP unsafe", k, n, got.bound, ref)
print(f"checked {checked}, unsafe {bad}")
