# SPDX-License-Identifier: MIT
"""Write tests/data/bounds/*.json: reference bounds from scipy, statsmodels and mpmath.

Dev-only (never imported by the package or the default suite).  Run from
the repository root in a venv holding scipy, statsmodels and mpmath (the
versions are recorded in each file):

    python tools/bounds/make_references.py

Each case states its inputs, the bound from the named library (a double),
and the same bound at 40 significant digits from mpmath, printed to 25
(``bound``): the tests compare the package with ``bound``.  The two must
agree to a relative 1e-9 of the bound's width, or this script stops.

- ``clopper-pearson.json``: the one-sided lower bound for k of n,
  ``scipy.stats.beta.ppf(alpha, k, n - k + 1)`` and statsmodels'
  ``proportion_confint(k, n, alpha=2 * alpha, method="beta")``; mpmath's
  root of I_p(k, n - k + 1) = alpha.
- ``student-t.json``: mean -/+ t(n - 1) * s / sqrt(n), from
  ``scipy.stats.ttest_1samp(..., alternative=...).confidence_interval()``.
- ``clustered.json``: the mean's bound with statsmodels'
  ``OLS(y, 1).fit(cov_type="cluster", cov_kwds={"groups": g}, use_t=True)``:
  G / (G - 1) * CR0 (its correction (n - 1) / (n - k) is 1 for a constant)
  and t with G - 1 degrees of freedom.
- ``paired.json``: the bound on mean(candidate - baseline) from
  ``scipy.stats.ttest_rel(...).confidence_interval()``, and the unpaired SE
  sqrt(sem(candidate)**2 + sem(baseline)**2).

Scores are decimal text (3 decimals, drawn with a fixed seed, plus the
issue's examples), read exactly: the mpmath values start from the exact
fractions.
"""

from __future__ import annotations

import json
import random
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy
import scipy
import statsmodels
import statsmodels.api as sm
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

mpmath.mp.dps = 40
OUT = Path("tests/data/bounds")
COMMAND = "python tools/bounds/make_references.py"
AGREE = 1e-9  # relative to the width: the doubles' error, far above mpmath's


def versions() -> dict[str, str]:
    return {
        "python": sys.version.split()[0],
        "scipy": scipy.__version__,
        "statsmodels": statsmodels.__version__,
        "numpy": numpy.__version__,
        "mpmath": mpmath.__version__,
    }


def write(name: str, what: str, cases: list[dict[str, object]]) -> None:
    document = {
        "what": what,
        "made_by": "tools/bounds/make_references.py",
        "command": COMMAND,
        "versions": versions(),
        "cases": cases,
    }
    # One case a line: the score lists stay readable and the diffs small.
    lines = [json.dumps({key: value for key, value in document.items() if key != "cases"}, indent=1)[:-2] + ","]
    lines.append(' "cases": [')
    lines.append(",\n".join("  " + json.dumps(case) for case in cases))
    lines.append(" ]\n}\n")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / name).write_text("\n".join(lines), encoding="utf-8")


def digits(value: mpmath.mpf) -> str:
    return mpmath.nstr(value, 25, min_fixed=-5, max_fixed=5)


def check(name: str, precise: mpmath.mpf, double: float, width: float) -> None:
    if abs(float(precise) - double) > AGREE * max(abs(width), 1e-300):
        raise SystemExit(f"{name}: mpmath {digits(precise)} and the library's {double!r} disagree")


# -- Student t, to 40 digits -------------------------------------------------------------


def t_tail(t: mpmath.mpf, df: int) -> mpmath.mpf:
    x = mpmath.mpf(df) / (df + t * t)
    return mpmath.betainc(mpmath.mpf(df) / 2, mpmath.mpf(1) / 2, 0, x, regularized=True) / 2


def t_quantile(alpha: str, df: int) -> mpmath.mpf:
    """t with P(T > t) = alpha, the root started from scipy's t.isf."""
    start = float(stats.t.isf(float(alpha), df))
    return mpmath.findroot(lambda t: t_tail(t, df) - mpmath.mpf(alpha), start)


def exact(scores: list[str]) -> list[Fraction]:
    return [Fraction(s) for s in scores]


def mp(value: Fraction) -> mpmath.mpf:
    return mpmath.mpf(value.numerator) / value.denominator


def mean_and_se2(values: list[Fraction]) -> tuple[Fraction, Fraction]:
    n = len(values)
    mean = sum(values) / n
    return mean, sum((v - mean) ** 2 for v in values) / (n - 1) / n


def floats(scores: list[str]) -> numpy.ndarray:
    return numpy.array([float(s) for s in scores])


# -- the cases ---------------------------------------------------------------------------


def draw(rng: random.Random, n: int, shape: str, mean: float = 0.8) -> list[str]:
    if shape == "bernoulli":
        return ["1" if rng.random() < mean else "0" for _ in range(n)]
    if shape == "beta-left":
        return [f"{mean / 0.8 * rng.betavariate(8, 2):.3f}" for _ in range(n)]
    return [f"{rng.uniform(0, 1):.3f}" for _ in range(n)]


def cp_lower(k: int, n: int, alpha: Fraction, start: float) -> mpmath.mpf:
    """The p with P(X >= k) = I_p(k, n - k + 1) = alpha, bracketed around scipy's *start*."""
    target = mp(alpha)
    lo = mpmath.mpf(start) * (1 - mpmath.mpf(10) ** -8)
    hi = min(mpmath.mpf(start) * (1 + mpmath.mpf(10) ** -8), mpmath.mpf(1))
    return mpmath.findroot(
        lambda p: mpmath.betainc(k, n - k + 1, 0, p, regularized=True) - target, (lo, hi), solver="anderson"
    )


def clopper_pearson_cases() -> list[dict[str, object]]:
    grid = [(0, 1), (1, 1), (1, 2), (2, 2), (0, 3), (2, 3), (3, 3), (4, 5), (8, 10), (16, 20), (20, 20)]
    grid += [(24, 30), (29, 30), (80, 100), (500, 1000), (999, 1000), (1600, 2000), (2000, 2000)]
    grid += [(1601, 2001), (4000, 5000), (9500, 10000), (9990, 10000)]
    cases = [(k, n, "0.95") for k, n in grid]
    cases += [
        (k, n, c) for c in ("0.9", "0.99", "0.999") for k, n in [(3, 3), (8, 10), (29, 30), (80, 100), (1601, 2001)]
    ]
    rows = []
    for k, n, confidence in cases:
        alpha = 1 - Fraction(confidence)
        if k == 0:
            scipy_value = statsmodels_value = 0.0
            precise = mpmath.mpf(0)
        else:
            scipy_value = float(stats.beta.ppf(float(alpha), k, n - k + 1))
            statsmodels_value = float(proportion_confint(k, n, alpha=float(2 * alpha), method="beta")[0])
            precise = cp_lower(k, n, alpha, scipy_value)
            for name, value in (("scipy", scipy_value), ("statsmodels", statsmodels_value)):
                check(f"clopper-pearson {k}/{n} at {confidence} ({name})", precise, value, value)
        rows.append(
            {
                "successes": k,
                "trials": n,
                "confidence": confidence,
                "side": "lower",
                "bound": digits(precise),
                "scipy": scipy_value,
                "statsmodels": statsmodels_value,
            }
        )
    return rows


def student_t_cases(rng: random.Random) -> list[dict[str, object]]:
    samples = {
        "two-trials": ["0.9", "0.95"],
        "29-ones-and-a-zero": ["1"] * 29 + ["0"],
        "wikipedia-sd-example": ["2", "4", "4", "4", "5", "5", "7", "9"],
    }
    for n in (2, 3, 5, 20, 100, 1000):
        samples[f"beta-left-{n}"] = draw(rng, n, "beta-left")
    for n in (3, 20, 100):
        samples[f"bernoulli-{n}"] = draw(rng, n, "bernoulli")
    samples["uniform-30"] = draw(rng, 30, "uniform")
    rows = []
    for name, scores in samples.items():
        bounds = []
        for confidence, side in (("0.95", "lower"), ("0.95", "upper"), ("0.99", "lower"), ("0.9", "upper")):
            values = exact(scores)
            if len(set(values)) < 2:
                raise SystemExit(f"{name}: zero variance")
            mean, se2 = mean_and_se2(values)
            alpha = str(1 - Decimal(confidence))
            t = t_quantile(alpha, len(values) - 1)
            width = t * mpmath.sqrt(mp(se2))
            precise = mp(mean) - width if side == "lower" else mp(mean) + width
            result = stats.ttest_1samp(floats(scores), 0.0, alternative="greater" if side == "lower" else "less")
            interval = result.confidence_interval(confidence_level=float(confidence))
            scipy_value = float(interval.low if side == "lower" else interval.high)
            check(f"student-t {name} {side} {confidence}", precise, scipy_value, float(width))
            bounds.append(
                {
                    "confidence": confidence,
                    "side": side,
                    "bound": digits(precise),
                    "width": digits(width),
                    "scipy": scipy_value,
                }
            )
        rows.append({"name": name, "scores": scores, "bounds": bounds})
    return rows


def clustered_cases(rng: random.Random) -> list[dict[str, object]]:
    samples: dict[str, tuple[list[str], list[int]]] = {
        "two-clusters": (["0.1", "0.2", "0.9", "0.8"], [0, 0, 1, 1]),
        "identical-within": (["1"] * 3 + ["0"] * 3 + ["1"] * 3 + ["0.5"] * 3, [c for c in range(4) for _ in range(3)]),
    }
    for groups, size in ((3, 4), (5, 4), (8, 3), (20, 4), (100, 4)):
        scores, labels = [], []
        for cluster in range(groups):
            rate = rng.betavariate(3.2, 0.8)  # intra-cluster correlation 0.2 around 0.8
            scores += ["1" if rng.random() < rate else "0" for _ in range(size)]
            labels += [cluster] * size
        samples[f"bernoulli-G{groups}x{size}"] = (scores, labels)
    # Unequal cluster sizes, continuous scores.
    scores, labels = [], []
    for cluster in range(6):
        for _ in range(1 + cluster):
            scores.append(f"{rng.betavariate(8, 2):.3f}")
            labels.append(cluster)
    samples["beta-unequal-G6"] = (scores, labels)
    rows = []
    for name, (scores, labels) in samples.items():
        bounds = []
        for confidence, side in (("0.95", "lower"), ("0.95", "upper"), ("0.99", "lower")):
            values = exact(scores)
            n = len(values)
            mean = sum(values) / n
            residuals: dict[int, Fraction] = {}
            for value, label in zip(values, labels):
                residuals[label] = residuals.get(label, Fraction(0)) + value - mean
            groups = len(residuals)
            se2 = Fraction(groups, groups - 1) * sum(r * r for r in residuals.values()) / (n * n)
            alpha = str(1 - Decimal(confidence))
            width = t_quantile(alpha, groups - 1) * mpmath.sqrt(mp(se2))
            precise = mp(mean) - width if side == "lower" else mp(mean) + width
            fit = sm.OLS(floats(scores), numpy.ones(n)).fit(
                cov_type="cluster", cov_kwds={"groups": numpy.array(labels)}, use_t=True
            )
            low, high = fit.conf_int(alpha=2 * float(alpha))[0]
            statsmodels_value = float(low if side == "lower" else high)
            check(f"clustered {name} {side} {confidence}", precise, statsmodels_value, float(width))
            check(f"clustered {name} se", mpmath.sqrt(mp(se2)), float(fit.bse[0]), float(fit.bse[0]))
            bounds.append(
                {
                    "confidence": confidence,
                    "side": side,
                    "bound": digits(precise),
                    "width": digits(width),
                    "se": digits(mpmath.sqrt(mp(se2))),
                    "statsmodels": statsmodels_value,
                    "statsmodels_se": float(fit.bse[0]),
                }
            )
        rows.append({"name": name, "scores": scores, "clusters": labels, "bounds": bounds})
    return rows


def paired_cases(rng: random.Random) -> list[dict[str, object]]:
    samples: dict[str, tuple[list[str], list[str]]] = {
        "two-pairs": (["0.9", "0.7"], ["0.8", "0.75"]),
    }
    for n in (3, 5, 20, 100):
        baseline = draw(rng, n, "beta-left")
        candidate = [b if rng.random() < 0.5 else f"{rng.betavariate(8, 2) * 0.95:.3f}" for b in baseline]
        samples[f"beta-left-{n}"] = (candidate, baseline)
    baseline = draw(rng, 30, "bernoulli")
    samples["bernoulli-30"] = ([b if rng.random() < 0.7 else "0" for b in baseline], baseline)
    rows = []
    for name, (candidate, baseline) in samples.items():
        bounds = []
        for confidence, side in (("0.95", "lower"), ("0.95", "upper"), ("0.99", "lower")):
            differences = [c - b for c, b in zip(exact(candidate), exact(baseline))]
            if len(set(differences)) < 2:
                raise SystemExit(f"{name}: all differences are equal")
            mean, se2 = mean_and_se2(differences)
            alpha = str(1 - Decimal(confidence))
            width = t_quantile(alpha, len(differences) - 1) * mpmath.sqrt(mp(se2))
            precise = mp(mean) - width if side == "lower" else mp(mean) + width
            result = stats.ttest_rel(
                floats(candidate), floats(baseline), alternative="greater" if side == "lower" else "less"
            )
            interval = result.confidence_interval(confidence_level=float(confidence))
            scipy_value = float(interval.low if side == "lower" else interval.high)
            check(f"paired {name} {side} {confidence}", precise, scipy_value, float(width))
            unpaired = mpmath.sqrt(mp(mean_and_se2(exact(candidate))[1] + mean_and_se2(exact(baseline))[1]))
            scipy_unpaired = float(numpy.hypot(stats.sem(floats(candidate)), stats.sem(floats(baseline))))
            check(f"paired {name} unpaired se", unpaired, scipy_unpaired, scipy_unpaired)
            bounds.append(
                {
                    "confidence": confidence,
                    "side": side,
                    "bound": digits(precise),
                    "width": digits(width),
                    "unpaired_se": digits(unpaired),
                    "scipy": scipy_value,
                    "scipy_unpaired_se": scipy_unpaired,
                }
            )
        rows.append({"name": name, "candidate": candidate, "baseline": baseline, "bounds": bounds})
    return rows


def main() -> None:
    rng = random.Random(21)
    write(
        "clopper-pearson.json",
        "one-sided Clopper-Pearson lower bounds for k successes of n: P(X >= k) = alpha, X ~ Binomial(n, bound)",
        clopper_pearson_cases(),
    )
    write(
        "student-t.json",
        "one-sided Student t bounds on a mean: mean -/+ t(1 - alpha, n - 1) * s / sqrt(n)",
        student_t_cases(rng),
    )
    write(
        "clustered.json",
        "one-sided clustered bounds on a mean: mean -/+ t(1 - alpha, G - 1) * sqrt(G / (G - 1) * CR0), "
        "statsmodels' cov_type='cluster' of the regression on a constant",
        clustered_cases(rng),
    )
    write(
        "paired.json",
        "one-sided paired bounds on mean(candidate - baseline): t(1 - alpha, n - 1) * SE of the differences",
        paired_cases(rng),
    )


if __name__ == "__main__":
    main()
