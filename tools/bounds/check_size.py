# SPDX-License-Identifier: MIT
"""A quick seeded check of the bounds' size: how often each PASSes at a true mean equal to the threshold.

Dev-only (the committed benchmark is benchmarks/bounds.py).  Run from the
repository root:

    PYTHONPATH=src python tools/bounds/check_size.py [REPLICATIONS]

For every family and n it draws REPLICATIONS samples (default 1000) whose
true mean is the threshold, and prints the share each bound PASSes (at
most 1 - C = 0.05, up to Monte Carlo error, for a finite-sample bound)
and, at n = 1000, each bound's distance below the mean over Student t's.
Scores are drawn to six decimals, so every sum is exact.
"""

from __future__ import annotations

import random
import sys
from decimal import Decimal

from scorecontract._bounds._asymptotic_t import student_t_bound
from scorecontract._bounds._empirical_bernstein import empirical_bernstein_bound
from scorecontract._stats import Sums

SCALE = 10**6
CONFIDENCE = 0.95


def sums(units: list[int]) -> Sums:
    total = sum(units)
    return Sums(len(units), Decimal(total).scaleb(-6), Decimal(sum(u * u for u in units)).scaleb(-12))


def family(name: str, rng: random.Random, n: int) -> tuple[list[int], float]:
    """(scores in millionths, threshold = the true mean)."""
    if name == "bernoulli 0.8":
        return [SCALE if rng.random() < 0.8 else 0 for _ in range(n)], 0.8
    if name == "beta(4,1)":  # mean 0.8, skewed left
        return [round(rng.betavariate(4, 1) * SCALE) for _ in range(n)], 0.8
    if name == "beta(1,4)":  # mean 0.2, skewed right: the upper tail is long
        return [round(rng.betavariate(1, 4) * SCALE) for _ in range(n)], 0.2
    if name == "beta(0.4,0.1)":  # mean 0.8, mass at both ends
        return [round(rng.betavariate(0.4, 0.1) * SCALE) for _ in range(n)], 0.8
    raise ValueError(name)


def size(name: str, n: int, reps: int, rng: random.Random) -> tuple[float, float, float]:
    passes = {"empirical-bernstein": 0, "asymptotic-t": 0}
    widths = {"empirical-bernstein": 0.0, "asymptotic-t": 0.0}
    for _ in range(reps):
        scores, threshold = family(name, rng, n)
        s = sums(scores)
        bound = empirical_bernstein_bound(s, confidence=CONFIDENCE, minimum=0, maximum=1)
        lower = threshold > 0.5
        if not lower:
            bound = empirical_bernstein_bound(s, confidence=CONFIDENCE, minimum=0, maximum=1, side="upper")
        passes["empirical-bernstein"] += bound.meets(threshold)
        widths["empirical-bernstein"] += abs(bound.estimate - bound.bound)
        try:
            t = student_t_bound(s, confidence=CONFIDENCE, side="lower" if lower else "upper")
        except Exception:
            continue
        passes["asymptotic-t"] += t.meets(threshold)
        widths["asymptotic-t"] += abs(t.estimate - t.bound)
    ratio = widths["empirical-bernstein"] / widths["asymptotic-t"] if widths["asymptotic-t"] else float("nan")
    return passes["empirical-bernstein"] / reps, passes["asymptotic-t"] / reps, ratio


def clustered(groups: int, reps: int, rng: random.Random, size_each: int = 4) -> tuple[float, float]:
    """Bernoulli trials with cluster rates ~ Beta(3.2, 0.8): mean 0.8, ICC 0.2."""
    eb = t = 0
    for _ in range(reps):
        scores: list[int] = []
        clusters = []
        for _ in range(groups):
            rate = rng.betavariate(3.2, 0.8)
            members = [SCALE if rng.random() < rate else 0 for _ in range(size_each)]
            scores += members
            clusters.append((size_each, Decimal(sum(members)).scaleb(-6)))
        s = sums(scores)
        eb += empirical_bernstein_bound(s, confidence=CONFIDENCE, minimum=0, maximum=1, clusters=clusters).meets(0.8)
        try:
            t += student_t_bound(s, confidence=CONFIDENCE, clusters=clusters).meets(0.8)
        except Exception:
            pass
    return eb / reps, t / reps


def main() -> None:
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rng = random.Random(21)
    print(f"P(PASS) at a true mean equal to the threshold, {reps} replications, alpha 0.05")
    print(f"{'family':16} {'n':>5} {'emp-bernstein':>14} {'asymptotic-t':>13} {'width / t':>10}")
    for name in ("bernoulli 0.8", "beta(4,1)", "beta(1,4)", "beta(0.4,0.1)"):
        for n in (2, 3, 5, 20, 100, 1000):
            eb, t, ratio = size(name, n, reps if n < 1000 else max(200, reps // 4), rng)
            print(f"{name:16} {n:>5} {eb:>14.3f} {t:>13.3f} {ratio:>10.2f}")
    for groups in (5, 8, 20, 100):
        eb, t = clustered(groups, reps, rng)
        print(f"{'clustered ICC .2':16} G={groups:<3} {eb:>14.3f} {t:>13.3f}")


if __name__ == "__main__":
    main()
