# SPDX-License-Identifier: MIT
"""The confidence bounds: one module per bound, one table of them (docs/reports.md).

``REGISTRY`` is the one list of bounds.  Each entry names the module of
this package that computes it, what it applies to (``"mean"``,
``"pass-rate"``, ``"paired"``: the mean per-trial difference with a
baseline, ``"clustered"``: the mean with ``cluster_by``), its guarantee
(``"finite-sample"``: it keeps its confidence at every n, for scores
within the policy's bounds; ``"asymptotic"``: only as n grows) and what
it needs.  It is a table of names, not of modules: a bound's module is
imported when that bound is computed (by ``_confidence``), so
``--bound``'s choices, the help and the rules of ``_bound_rules`` cost
nothing.

Adding a bound is one module here and one line in ``REGISTRY``.
"""

from __future__ import annotations

__all__ = ["FINITE_SAMPLE", "REGISTRY", "default_bound", "finite"]

FINITE_SAMPLE = "finite-sample"
# name: (module, applies to, guarantee, needs, what it is).  "needs" is
# "bounded" when the bound needs finite score bounds (minimum and maximum).
# The names are a stable interface: they are --bound's choices, the
# "method" of every bound in a report and a receipt, and a policy's "bound".
REGISTRY = {
    "empirical-bernstein": (
        "_empirical_bernstein",
        ("mean", "paired", "clustered"),
        FINITE_SAMPLE,
        "bounded",
        "empirical Bernstein (Maurer and Pontil 2009); exact Clopper-Pearson when every score is the "
        "policy's minimum or maximum; over cluster means with clusters",
    ),
    "hoeffding": (
        "_hoeffding",
        ("mean",),
        FINITE_SAMPLE,
        "bounded",
        "Hoeffding (1963): needs nothing but the score bounds, wider when scores vary little",
    ),
    "asymptotic-t": (
        "_asymptotic_t",
        ("mean", "paired", "clustered"),
        "asymptotic",
        "",
        "Student t on the standard error (G/(G-1) CR0 and t(G-1) with clusters): keeps its confidence only as n grows",
    ),
    "clopper-pearson": (
        "_clopper_pearson",
        ("pass-rate",),
        FINITE_SAMPLE,
        "",
        "exact binomial (Clopper and Pearson 1934): the pass rate's bound, never chosen by --bound",
    ),
}


def default_bound(minimum: object, maximum: object) -> str:
    """The mean's bound when none is stated: finite-sample whenever the scores are bounded.

    With a finite minimum and maximum, ``"empirical-bernstein"`` (exact
    Clopper-Pearson for two-valued scores); with either side unbounded no
    finite-sample bound exists, and the asymptotic one decides, named so.
    """
    return "empirical-bernstein" if finite(minimum) and finite(maximum) else "asymptotic-t"


def finite(value: object) -> bool:
    """Whether a score bound *value* is a finite number (None, unbounded, is not).

    A Decimal beyond the doubles (1E+999) is finite: ``float()`` would
    call it an infinity.
    """
    from decimal import Decimal

    if type(value) is int:  # exactly int: a bool is no score bound
        return True
    if type(value) is Decimal:
        return value.is_finite()
    if type(value) is float:
        import math

        return math.isfinite(value)
    return False
