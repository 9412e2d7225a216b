# SPDX-License-Identifier: MIT
"""Write tests/data/student-t-quantiles.json: Student t quantiles to 25 digits.

Dev-only (never imported by the package or the default suite).  Run from
the repository root in a venv holding mpmath 1.4.1 and scipy 1.17.1:

    python tools/bounds/make_t_reference.py

Each quantile is the root, at 40 significant digits, of
I_x(df/2, 1/2) / 2 = alpha with x = df / (df + t**2) (mpmath's betainc),
started from scipy's ``t.isf`` and checked against it.
"""

from __future__ import annotations

import json
from pathlib import Path

import mpmath
import scipy
from scipy.stats import t as student_t

mpmath.mp.dps = 40

DFS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 19, 20, 25, 29, 30, 40, 49, 50, 60, 99, 100, 199, 200, 499, 500]
DFS += [999, 1000, 1999, 2000, 4999, 5000, 9999, 10**4, 10**5, 10**6, 10**7]
ALPHAS = ["0.4999", "0.25", "0.2", "0.1", "0.05", "0.025", "0.02", "0.01", "0.005", "0.001", "0.0001"]
ALPHAS += ["1e-6", "1e-9", "1e-12"]


def tail(t: mpmath.mpf, df: int) -> mpmath.mpf:
    x = mpmath.mpf(df) / (df + t * t)
    return mpmath.betainc(mpmath.mpf(df) / 2, mpmath.mpf(1) / 2, 0, x, regularized=True) / 2


def main() -> None:
    rows = []
    for df in DFS:
        for alpha in ALPHAS:
            start = float(student_t.isf(float(alpha), df))
            root = mpmath.findroot(lambda t, df=df, alpha=alpha: tail(t, df) - mpmath.mpf(alpha), start)
            if abs(float(root) - start) > 1e-6 * start:
                raise SystemExit(f"mpmath and scipy disagree at df={df}, alpha={alpha}: {root} vs {start}")
            rows.append({"df": df, "alpha": alpha, "t": mpmath.nstr(root, 25)})
    document = {
        "what": "upper-tail quantiles of Student's t: P(T > t) = alpha",
        "made_by": "tools/bounds/make_t_reference.py",
        "versions": {"mpmath": mpmath.__version__, "scipy": scipy.__version__},
        "quantiles": rows,
    }
    path = Path("tests/data/student-t-quantiles.json")
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
