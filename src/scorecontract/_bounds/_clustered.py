# SPDX-License-Identifier: MIT
"""Clusters: what a clustered bound reads from per-cluster counts and totals.

Trials that share a cluster (several samples of one question, say) are not
independent; the clusters are.  Each bound that applies to clusters
(``_bounds.REGISTRY``) reads them through here:

- the asymptotic bound, the cluster-robust variance G/(G-1) * CR0 with
  t(G-1) (``cluster_residuals``);
- the finite-sample bound, over one independent unit per cluster
  (``trial_weighted_units``): u_c = G (T_c - n_c a) / N for the cluster's
  n_c trials totalling T_c, G clusters, N trials, scores in [a, b].  The
  units average to the trial mean - a, the quantity the gate compares
  with the threshold, and lie in [0, R G n_max / N], R = b - a: the
  bound widens by n_max / (N / G), the largest cluster over the average
  one, and is the bound over the cluster means when the sizes are equal.
  Weighting each cluster one instead (the mean of the cluster means)
  would bound another quantity: one large failing cluster beside many
  small passing ones would PASS a trial mean far below the threshold.
  The units need not share a distribution: Bernstein's inequality and
  Maurer and Pontil's theorem 10 hold for independent variables, and the
  sample variance of units with different means only overestimates
  their average variance.

The fewest clusters accepted is 2 (``MIN_CLUSTERS``): with one, nothing
varies between clusters, the asymptotic standard error is undefined and
the finite-sample bound is wider than the score range, so it could never
pass.  Two clusters decide honestly: the finite-sample bound is valid at
every G, and its width says how little two clusters show.
"""

from __future__ import annotations

from .._describe import describe_value, format_number
from .._errors import PolicyError
from .._score import number_problem
from .._stats import insufficient

TYPE_CHECKING = False
if TYPE_CHECKING:
    from fractions import Fraction

    from .._stats import Clusters, Exact

__all__ = ["MIN_CLUSTERS", "cluster_residuals", "few_clusters", "trial_weighted_units"]

MIN_CLUSTERS = 2


def trial_weighted_units(clusters: Clusters, n: int, total: Exact, low: Fraction) -> tuple[list[Fraction], Fraction]:
    """Return the units G (T_c - n_c * *low*) / N, one per cluster, and their scale G n_max / N.

    For scores at least *low* each unit lies in [0, scale * R]; the units
    average to the trial mean - *low* (the module's notes).
    """
    from fractions import Fraction

    checked = _checked(clusters, n, total)
    count = len(checked)
    if count < MIN_CLUSTERS:
        raise few_clusters(count)
    units = [Fraction(count) * (Fraction(cluster_total) - size * low) / n for size, cluster_total in checked]
    return units, Fraction(count * max(size for size, _ in checked), n)


def few_clusters(count: int) -> Exception:
    """``insufficient-trials`` for fewer than ``MIN_CLUSTERS`` clusters."""
    return insufficient(
        f"{count} cluster{'s' if count != 1 else ''}: a clustered bound needs at least {MIN_CLUSTERS} "
        "(with one, nothing varies between clusters and no bound can pass)"
    )


def cluster_residuals(clusters: Clusters, n: int, total: Exact, mean: Fraction) -> tuple[int, Fraction]:
    """Return (number of clusters, sum_c E_c**2), E_c = total_c - count_c * mean.

    sum_c E_c**2 = A - 2 * mean * B + mean**2 * C with A = sum total_c**2,
    B = sum count_c * total_c and C = sum count_c**2, accumulated exactly
    in decimal (one cheap step per cluster) and combined once as fractions.
    """
    from decimal import localcontext
    from fractions import Fraction

    from .._score import exact_context

    checked = _checked(clusters, n, total)
    a: Exact = 0
    b: Exact = 0
    c = 0
    with localcontext(exact_context()):
        # Decimal operators use this context: exact, or they raise.
        for size, cluster_total in checked:
            a += cluster_total * cluster_total
            b += size * cluster_total
            c += size * size
    return len(checked), Fraction(a) - 2 * mean * Fraction(b) + mean * mean * c


def _checked(clusters: Clusters, n: int, total: Exact) -> list[tuple[int, Exact]]:
    """The ``(count, total)`` pairs of *clusters*, refused unless they hold the n trials exactly."""
    from decimal import localcontext

    from .._score import exact_context

    try:
        items = iter(clusters)
    except TypeError:
        raise PolicyError("bad-policy", f"clusters must be an iterable, not {describe_value(clusters)}") from None
    checked: list[tuple[int, Exact]] = []
    counted = 0
    summed: Exact = 0
    with localcontext(exact_context()):
        for item in items:
            if type(item) is not tuple or len(item) != 2:
                raise PolicyError("bad-policy", f"a cluster must be a (count, total) tuple, not {describe_value(item)}")
            size, cluster_total = item
            if (
                type(size) is not int
                or size < 1
                or (type(cluster_total) is float or number_problem(cluster_total, True) is not None)
            ):
                raise PolicyError(
                    "bad-policy",
                    f"a cluster must be (count >= 1, exact total), not "
                    f"({describe_value(size)}, {describe_value(cluster_total)})",
                )
            counted += size
            summed += cluster_total
            checked.append((size, cluster_total))
    if counted != n or summed != total:
        raise PolicyError(
            "bad-policy",
            f"the clusters hold {counted} trials summing to {format_number(summed)}, not {n} summing to "
            f"{format_number(total)}",
        )
    return checked
