# SPDX-License-Identifier: MIT
"""Write tests/data/bounds/formulas.json: each finite-sample bound to 30 digits.

Dev-only (never imported by the package or the default suite).  Run from
the repository root in a venv holding mpmath 1.4.1:

    python tools/bounds/make_formula_references.py

Each bound is computed from its formula (docs/reports.md, "Which bound")
in mpmath at 50 significant digits, from the scores as exact decimal
text, independently of the package:

- empirical Bernstein: mean - sqrt(2 S**2 L / n) - R L / (3 n), L =
  ln(2 / alpha), S = min(R / 2, c + sqrt(s**2 + c**2)), c = R sqrt(L / (2
  (n - 1))), s**2 the sample variance; over one size-weighted unit per
  cluster with clusters (``_clustered.trial_weighted_units``); over the
  differences in [-R, R] with a baseline;
- Clopper-Pearson for two-valued scores: low + R p, p the root of
  I_p(k, n - k + 1) = alpha (mpmath's betainc, by bisection to 2**-160);
- Hoeffding: mean - R sqrt(ln(1 / alpha) / (2 n)).
"""

from __future__ import annotations

import json
import platform
from pathlib import Path

import mpmath

mpmath.mp.dps = 50

# name: (kind, scores (or clusters: lists of scores), confidence, side, minimum, maximum)
CASES = {
    "eb flapping": ("eb", [1] * 16 + ["0.2"] + [0] * 3, "0.95", "lower", 0, 1),
    "eb 50 of 0.9 and 50 of 0.7": ("eb", ["0.9"] * 50 + ["0.7"] * 50, "0.95", "lower", 0, 1),
    "eb 1000 spread": ("eb", [f"0.{i % 97 + 2:02d}" for i in range(1000)], "0.95", "lower", 0, 1),
    "eb 1000 spread, 99%": ("eb", [f"0.{i % 97 + 2:02d}" for i in range(1000)], "0.99", "lower", 0, 1),
    "eb upper, lower is better": ("eb", ["0.1", "0.15", "0.3", "0.05"] * 25, "0.95", "upper", 0, 1),
    "eb range 0 to 10": ("eb", ["7.5", "8", "9", "6.25", "10", "8.5"] * 40, "0.9", "lower", 0, 10),
    "eb one trial": ("eb", ["0.9"], "0.95", "lower", 0, 1),
    "eb clustered": (
        "eb-clusters",
        [["1", "0.5", "1"], ["0", "0.5"], ["1", "1", "1", "1"], ["0.25"]] * 6,
        "0.95",
        "lower",
        0,
        1,
    ),
    "eb paired": ("eb-paired", ["0.1", "-0.05", "0", "0.2", "0.05", "0"] * 20, "0.95", "lower", 0, 1),
    "cp 29 of 30": ("cp", [1] * 29 + [0], "0.95", "lower", 0, 1),
    "cp 3275 of 5000": ("cp", [1] * 3275 + [0] * 1725, "0.95", "lower", 0, 1),
    "cp two-valued 2 and 5": ("cp", ["5"] * 14 + ["2"] * 6, "0.9", "lower", 2, 5),
    "cp upper, 3 of 40": ("cp", [1] * 3 + [0] * 37, "0.95", "upper", 0, 1),
    "hoeffding flapping": ("hoeffding", [1] * 16 + ["0.2"] + [0] * 3, "0.95", "lower", 0, 1),
}


def runs(scores):
    """[[score, count], ...]: consecutive equal scores, as decimal text."""
    out = []
    for score in scores:
        if out and out[-1][0] == str(score):
            out[-1][1] += 1
        else:
            out.append([str(score), 1])
    return out


def mean_var(values):
    n = len(values)
    mean = mpmath.fsum(values) / n
    ss = mpmath.fsum((v - mean) ** 2 for v in values)
    return mean, (ss / (n - 1) if n > 1 else None)


def eb(values, alpha, side, low, high):
    n = len(values)
    r = high - low
    mean, var = mean_var(values)
    log = mpmath.log(2 / alpha)
    sigma = r / 2
    if var is not None:
        c = r * mpmath.sqrt(log / (2 * (n - 1)))
        sigma = min(sigma, c + mpmath.sqrt(var + c * c))
    width = mpmath.sqrt(2 * sigma**2 * log / n) + r * log / (3 * n)
    return max(low, mean - width) if side == "lower" else min(high, mean + width)


def cp_lower(k, n, alpha):
    if k == 0:
        return mpmath.mpf(0)
    lo, hi = mpmath.mpf(0), mpmath.mpf(1)
    for _ in range(160):
        mid = (lo + hi) / 2
        # P(X >= k) for Binomial(n, mid) = I_mid(k, n - k + 1)
        if mpmath.betainc(k, n - k + 1, 0, mid, regularized=True) <= alpha:
            lo = mid
        else:
            hi = mid
    return lo


def main() -> None:
    out = {}
    for name, (kind, scores, confidence, side, low, high) in CASES.items():
        alpha = 1 - mpmath.mpf(confidence)
        low, high = mpmath.mpf(low), mpmath.mpf(high)
        if kind == "eb-clusters":
            # One unit per cluster weighted by its size, G (T_c - n_c low) / N,
            # in [0, R G n_max / N]: the bound on the trial mean.
            g, trials = len(scores), sum(len(c) for c in scores)
            scale = mpmath.mpf(g * max(len(c) for c in scores)) / trials
            units = [g * (mpmath.fsum(mpmath.mpf(s) for s in c) - len(c) * low) / trials for c in scores]
            bound = min(high, max(low, low + eb(units, alpha, side, 0, (high - low) * scale)))
        elif kind == "eb-paired":
            values = [mpmath.mpf(s) for s in scores]
            bound = eb(values, alpha, side, low - high, high - low)
        else:
            values = [mpmath.mpf(str(s)) for s in scores]
            n = len(values)
            mean = mpmath.fsum(values) / n
            if kind == "eb":
                bound = eb(values, alpha, side, low, high)
            elif kind == "hoeffding":
                bound = mean - (high - low) * mpmath.sqrt(mpmath.log(1 / alpha) / (2 * n))
            else:
                k = int(mpmath.nint((mean - low) / (high - low) * n))
                if side == "lower":
                    bound = low + (high - low) * cp_lower(k, n, alpha)
                else:
                    bound = low + (high - low) * (1 - cp_lower(n - k, n, alpha))
        out[name] = {
            "kind": kind,
            "scores": [[str(x) for x in s] for s in scores] if kind == "eb-clusters" else runs(scores),
            "confidence": confidence,
            "side": side,
            "minimum": str(int(low)),
            "maximum": str(int(high)),
            "bound": mpmath.nstr(bound, 30),
        }
    path = Path("tests/data/bounds/formulas.json")
    lines = [f"  {json.dumps(name)}: {json.dumps(case)}" for name, case in out.items()]
    head = {
        "command": "python tools/bounds/make_formula_references.py",
        "versions": {"python": platform.python_version(), "mpmath": mpmath.__version__},
    }
    text = '{\n%s,\n "cases": {\n%s\n }\n}\n' % (
        ",\n".join(f" {json.dumps(key)}: {json.dumps(value)}" for key, value in head.items()),
        ",\n".join(lines),
    )
    json.loads(text)
    path.write_text(text)
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()
