# SPDX-License-Identifier: MIT
"""Confidence bounds for a report's metrics, from exact sums.

A point estimate over 20 trials passes or fails by luck; a one-sided
confidence bound says what the trials can support.  Everything here is a
pure function of numbers a streaming report already keeps: the number of
trials, the exact sum of their scores and the exact sum of their squares
(``Sums``), per-cluster counts and sums, or the number of successes.

Methods:

- ``clopper_pearson``: the exact binomial bound for a pass rate (Clopper
  and Pearson, Biometrika 26(4), 1934).  The lower bound for k successes
  of n is the p at which P(X >= k) = 1 - confidence.
- ``clt_bound``: mean - t * SE (or mean + t * SE for an upper bound), with
  t the Student t quantile with n - 1 degrees of freedom (``_student_t``)
  and SE from the sample variance, the n - 1 denominator (E. Miller,
  "Adding Error Bars to Evals", arXiv 2411.00640, 2024).  With *clusters*,
  SE is the cluster-robust G/(G-1) * CR0 and t has G - 1 degrees of
  freedom: the default of statsmodels and of Inspect.  Asymptotic: it
  keeps its confidence only as n (or G) grows, and skewed scores make it
  PASS more often than it says even at n = 20.
- ``hoeffding_bound``: mean - (max - min) * sqrt(ln(1/alpha) / (2n)),
  valid at every n for scores in [min, max] (W. Hoeffding, JASA 58, 1963,
  theorem 2).
- ``paired_bound``: the CLT bound on the mean per-trial difference
  candidate - baseline, with the unpaired SE beside it (Miller's paired
  differences).

Precision, and the direction of rounding: against PASS, always.  A lower
bound is never above the exact value, an upper bound never below it.

- Clopper-Pearson bounds are searched on a grid of 40 significant bits
  (spacing 2**-40 of the bound's binary magnitude).  For n <= 2000 the
  binomial tail is an exact integer sum (``math.comb`` and exact division)
  at each candidate p, and the bound is the largest grid point whose exact
  tail is at most alpha: below the exact bound by less than 2**-39 of it.
  Above 2000 trials exact sums cost too much (their work grows as n
  squared), and the tail is summed in floating point from a
  Stirling-series log-binomial, with the sum's remainder bounded
  geometrically and added.  Each evaluation carries an error bound
  computed from the magnitudes involved, 32 units of 2**-52 per operation
  (several times what the analysis needs, so a libm ``log`` a few ulps off
  is covered), and the tail is inflated by that bound plus a relative
  2**-20 before it is compared with alpha: the bound comes out lower than
  the exact one by less than 1e-6 of it (that much only for one success;
  about 1e-8 at n/2 successes).
- CLT and Hoeffding bounds are computed in decimal arithmetic at 40 digits
  from the exact sums, each step rounded against PASS, then rounded to a
  double in the same direction.  The only input that is not exact is the
  t quantile, computed from the regularized incomplete beta function and
  raised by a relative 2**-30 above its measured error (``_student_t``).

The CLT bound is refused as ``insufficient-trials`` (``InvalidEvidence``)
for n = 1, zero variance and fewer than two clusters: it would be a bound
of width 0.  A bad option raises ``PolicyError``: a confidence outside
(0.5, 1), or above 1 - 1e-12, where doubles no longer resolve the bound.
"""

from __future__ import annotations

import math

from ._bound_rules import alpha_of
from ._describe import describe_value, format_number
from ._errors import InvalidEvidence, PolicyError
from ._score import number_problem, to_decimal

TYPE_CHECKING = False
if TYPE_CHECKING:
    import decimal
    from collections.abc import Iterable, Mapping
    from decimal import Decimal
    from fractions import Fraction
    from typing import Protocol, TypeVar, Union

    class Shown(Protocol):
        """What a bound shows: a ``Bound``, or ``_confidence.Interval`` beside its threshold.

        A protocol, not the two classes: ``_confidence`` imports this module,
        and naming its class here would be an import cycle.
        """

        method: str
        side: str
        confidence: Number
        n: int
        estimate: float
        bound: float
        se: float | None
        clusters: int | None
        unpaired_se: float | None

    from ._score import Number

    Exact = Union[int, Decimal]
    Clusters = Iterable[tuple[int, Exact]]
    _Score = TypeVar("_Score")

__all__ = [
    "Bound",
    "Sums",
    "clopper_pearson",
    "clt_bound",
    "hoeffding_bound",
    "no_regression",
    "paired_bound",
]

SIDES = ("lower", "upper")
# What a bound is, in as_dict() order: a Bound's fields, and the first of
# an Interval's (_confidence), which adds what its threshold made of it.
BOUND_FIELDS = ("method", "side", "confidence", "n", "estimate", "bound", "se", "clusters", "unpaired_se")
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
_PREC = 40


class _Value:
    """Immutability, equality and hashing for the value classes here."""

    __slots__ = ()

    def _key(self) -> tuple[object, ...]:
        raise NotImplementedError

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a {type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a {type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


class Sums(_Value):
    """The exact sums of n numbers: ``count``, ``total`` and ``squares``.

    ``total`` is the sum of the numbers and ``squares`` the sum of their
    squares, each an ``int`` or a finite ``decimal.Decimal``, exactly: a
    float sum would drift.  ``Sums.of(values)`` and
    ``Sums.of_counts({score: count})`` build them from scores, each taken
    as the decimal text of its ``repr``, as the score contract reads it.

        >>> Sums.of([1, 0.5, 0])
        Sums(count=3, total=Decimal('1.5'), squares=Decimal('1.25'))
    """

    __slots__ = ("count", "total", "squares")

    count: int
    total: Exact
    squares: Exact

    def __init__(self, count: int, total: Exact, squares: Exact) -> None:
        if type(count) is not int or count < 0:
            raise PolicyError("bad-policy", f"count must be an int >= 0, not {describe_value(count)}")
        for name, value in (("total", total), ("squares", squares)):
            if type(value) is float or number_problem(value, True) is not None:
                raise PolicyError(
                    "bad-policy", f"{name} must be an exact int or finite Decimal, not {describe_value(value)}"
                )
        # Cauchy-Schwarz: total**2 <= count * squares for real numbers.
        # Compared as fractions: Decimal operators would round to the
        # thread's context.
        from fractions import Fraction

        if squares < 0 or Fraction(total) ** 2 > count * Fraction(squares):
            raise PolicyError(
                "bad-policy",
                f"no {count} numbers have sum {format_number(total)} and sum of squares {format_number(squares)}",
            )
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "squares", squares)

    @classmethod
    def of(cls, values: Iterable[Number]) -> Sums:
        """Return the exact sums of *values* (ints, floats or Decimals)."""
        counts: dict[Decimal, int] = {}
        for value in values:
            exact = _exact_number(value)
            counts[exact] = counts.get(exact, 0) + 1
        return cls.of_counts(counts)

    @classmethod
    def of_counts(cls, counts: Mapping[_Score, int]) -> Sums:
        """Return the exact sums of the scores counted in *counts*.

        *counts* maps each distinct score to how many trials scored it, as
        a report keeps them: the sums cost one step per distinct score.
        """
        from ._score import exact_context

        context = exact_context()
        count = 0
        total: Exact = 0
        squares: Exact = 0
        for score, times in counts.items():
            if type(times) is not int or times < 1:
                raise PolicyError("bad-policy", f"a count must be a positive int, not {describe_value(times)}")
            exact = _exact_number(score)
            count += times
            total = context.add(total, context.multiply(exact, times))
            squares = context.add(squares, context.multiply(context.multiply(exact, exact), times))
        return cls(count, total, squares)

    def _key(self) -> tuple[object, ...]:
        return (self.count, self.total, self.squares)

    def __repr__(self) -> str:
        return f"Sums(count={self.count!r}, total={self.total!r}, squares={self.squares!r})"


class Bound(_Value):
    """A one-sided confidence bound on a mean or a rate.

    Attributes:

    - ``method``: ``"clopper-pearson"``, ``"clt"``, ``"clustered-clt"`` or
      ``"hoeffding"``;
    - ``side``: ``"lower"`` (higher scores are better: PASS needs
      ``bound >= threshold``) or ``"upper"`` (PASS needs
      ``bound <= threshold``);
    - ``confidence``: as given (a float or ``decimal.Decimal``);
    - ``n``: the number of trials (for a paired bound, of pairs);
    - ``estimate``: the point estimate, the mean or rate, as a float;
    - ``bound``: the bound, a float rounded against PASS;
    - ``se``: the standard error the bound used, or None
      (Clopper-Pearson, Hoeffding);
    - ``clusters``: the number of clusters, or None;
    - ``unpaired_se``: for a paired bound, the standard error the same
      difference would have without pairing; else None.

    ``meets(threshold)`` decides; ``trials_needed(threshold)`` is the
    power analysis.  Bounds are immutable and have no truth value.
    """

    __slots__ = (
        "method",
        "side",
        "confidence",
        "n",
        "estimate",
        "bound",
        "se",
        "clusters",
        "unpaired_se",
        "_alpha",
        "_mean",
        "_variance",
        "_z",
        "_successes",
        "_range",
    )

    method: str
    side: str
    confidence: Number
    n: int
    estimate: float
    bound: float
    se: float | None
    clusters: int | None
    unpaired_se: float | None
    _alpha: Fraction
    _mean: Fraction
    _variance: Fraction | None
    _z: float | None
    _successes: int | None
    _range: Fraction | None

    def __init__(self, **fields: object) -> None:
        for name in self.__slots__:
            object.__setattr__(self, name, fields.pop(name, None))
        if fields:  # a defect in this module: say so rather than drop a field
            raise TypeError(f"unknown Bound fields: {sorted(fields)}")

    def __bool__(self) -> bool:
        raise TypeError("a Bound has no truth value; use bound.meets(threshold)")

    def meets(self, threshold: Number) -> bool:
        """Return whether the bound is on the PASS side of *threshold*.

        ``bound >= threshold`` for a lower bound, ``bound <= threshold``
        for an upper one, compared exactly: the float bound (already
        rounded against PASS) against the decimal text of *threshold*.
        """
        from decimal import Decimal

        limit = _threshold(threshold)
        value = Decimal(self.bound)
        return value >= limit if self.side == "lower" else value <= limit

    def trials_needed(self, threshold: Number) -> int | None:
        """Return about how many trials would put the bound at *threshold*.

        The power analysis of Miller's section 5, with the same estimate
        and the same variance (for CLT bounds, n * SE**2: a clustered or
        paired design is assumed to stay as it is).  At that n a rerun
        with the same true mean passes about half the time.  For
        Clopper-Pearson, the n at which the same observed rate would give
        a bound at the threshold, found by search.  None when no n can
        help: the estimate is not on the PASS side of the threshold.
        """
        from fractions import Fraction

        limit = Fraction(_threshold(threshold))
        sign = 1 if self.side == "lower" else -1
        gap = sign * (self._mean - limit)
        if gap <= 0:
            return None
        if self.method == "clopper-pearson":
            successes = self._successes if self.side == "lower" else self.n - self._successes  # type: ignore[operator]
            rate_limit = limit if self.side == "lower" else 1 - limit
            return _cp_trials_needed(successes, self.n, self._alpha, rate_limit)  # type: ignore[arg-type]
        if self.method == "hoeffding":
            width2 = self._range * self._range * Fraction(-math.log(self._alpha)) / 2  # type: ignore[operator]
            return max(1, math.ceil(width2 / (gap * gap)))
        # n * SE**2 is the per-trial variance; the quantile is Student's t
        # at the n sought, found by iterating from the normal's (t falls
        # towards z as n grows, so this settles in a few steps).
        from ._student_t import quantile

        spread = self.n * self._variance  # type: ignore[operator]
        if self.clusters is not None:
            # A clustered design is assumed to keep its trials per cluster.
            per_cluster = Fraction(self.n, self.clusters)
        needed = 2
        z = _z(self._alpha)
        for _ in range(8):
            needed = max(2, math.ceil(Fraction(z) ** 2 * spread / (gap * gap)))
            df = needed - 1 if self.clusters is None else max(1, math.ceil(needed / per_cluster) - 1)
            following = quantile(float(self._alpha), df)
            if following == z:
                break
            z = following
        return needed

    def summary(self) -> str:
        """``95% lower bound 0.658476 (n=20, SE 0.0876)``, for messages."""
        return bound_summary(self)

    def as_dict(self) -> dict[str, object]:
        """Return the bound as a JSON-ready dict (None for a number beyond the doubles)."""
        return json_bound_fields(self)

    def _key(self) -> tuple[object, ...]:
        return tuple(self.as_dict().values())

    def __repr__(self) -> str:
        return (
            f"Bound(method={self.method!r}, side={self.side!r}, n={self.n}, "
            f"estimate={self.estimate!r}, bound={self.bound!r}, se={self.se!r})"
        )


def bound_fields(value: Shown) -> dict[str, object]:
    """The ``BOUND_FIELDS`` of *value* (a ``Bound``, or an ``Interval``) as a dict."""
    return {name: getattr(value, name) for name in BOUND_FIELDS}


def json_bound_fields(value: Shown) -> dict[str, object]:
    """``bound_fields``, JSON-ready: a number beyond the doubles is None.

    A lower bound rounded down past -1.8e308, or the SE of scores of
    1e200, is an infinity; JSON has none, and a receipt that cannot be
    written would end in an internal error.  The verdict was decided on
    the bound itself, never on this dict.
    """
    fields = bound_fields(value)
    for name in ("estimate", "bound", "se", "unpaired_se"):
        number = fields[name]
        if type(number) is float and not math.isfinite(number):
            fields[name] = None
    return fields


def bound_summary(value: Shown) -> str:
    """``95% lower bound 0.658476 (n=20, SE 0.0876)`` for a ``Bound`` or ``Interval``.

    The bound has six significant digits, rounded against PASS (down for a
    lower bound, up for an upper one), so no message reads "0.8 < threshold
    0.8"; the standard errors three, to nearest (they are shown, never
    compared).
    """
    details = [f"n={value.n}"]
    if value.se is not None:
        details.append(f"SE {value.se:.3g}")
    if value.unpaired_se is not None:
        details.append(f"unpaired SE {value.unpaired_se:.3g}")
    if value.clusters is not None:
        details.append(f"{value.clusters} clusters")
    name = "" if value.method in ("clt", "clustered-clt") else f" ({value.method})"
    shown = shown_bound(value.bound, value.side)
    return f"{_percent(value.confidence)} {value.side} bound{name} {shown} ({', '.join(details)})"


def shown_bound(bound: float, side: str) -> str:
    """*bound* to six significant digits, rounded against PASS, never to nearest."""
    import decimal

    context = decimal.Context(
        prec=6,
        rounding=decimal.ROUND_CEILING if side == "upper" else decimal.ROUND_FLOOR,
        Emin=decimal.MIN_EMIN,
        Emax=decimal.MAX_EMAX,
        traps=[],
    )
    # Decimal(float) is exact; plus() rounds it once, in the stated direction.
    rounded = context.plus(decimal.Decimal(bound))
    return f"{rounded:g}" if rounded.adjusted() >= -5 else f"{rounded:e}"


# -- the public functions -------------------------------------------------------


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
    _check_side(side)
    for name, value in (("successes", successes), ("trials", trials)):
        if type(value) is not int or value < 0:
            raise PolicyError("bad-policy", f"{name} must be an int >= 0, not {describe_value(value)}")
    if trials == 0:
        raise _insufficient("a pass rate over 0 trials has no bound")
    if successes > trials:
        raise PolicyError("bad-policy", f"{successes} successes of {trials} trials")
    if side == "lower":
        bound = _cp_lower(successes, trials, alpha)
    else:
        # By symmetry (p to 1 - p), the upper bound is 1 - the lower bound
        # for the failures; 1 - x rounds to nearest, so step up if needed.
        lower = _cp_lower(trials - successes, trials, alpha)
        bound = 1.0 - lower
        if _fraction(bound) < 1 - _fraction(lower):
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
        _successes=successes,
    )


def clt_bound(sums: Sums, /, *, confidence: Number, side: str = "lower", clusters: Clusters | None = None) -> Bound:
    """Return the asymptotic (Student t) bound on the mean of the numbers in *sums*.

    mean - t * SE for a lower bound, mean + t * SE for an upper one, with
    t the *confidence* quantile of Student's t with n - 1 degrees of
    freedom and SE**2 = s**2 / n, s**2 the sample variance (the n - 1
    denominator).  Two trials of 0.9 and 0.95 give t(1) = 6.31 and a 95%
    lower bound of 0.767; the normal quantile, 1.645, gave 0.884.

    *clusters*, when given, is an iterable of ``(count, total)`` pairs, one
    per cluster (for example per question, when several trials share one):
    the counts must add up to n and the totals to the sum.  SE is then the
    cluster-robust variance with the small-sample factor G / (G - 1), and t
    has G - 1 degrees of freedom (statsmodels' default, and Inspect's)::

        SE**2 = G / (G - 1) * sum_c E_c**2 / n**2

    with E_c the cluster's total residual, sum of s_i - mean over its
    trials.  With one trial per cluster it is exactly the unclustered SE
    and t(n - 1).

    Refused as ``insufficient-trials`` (``InvalidEvidence``) for n = 1,
    zero variance, or fewer than two clusters: the bound would have width
    0 or rest on nothing.  ``hoeffding_bound`` and ``clopper_pearson``
    hold at any n.
    """
    alpha = alpha_of(confidence)
    _check_side(side)
    mean, variance, count = _variance_of_mean(_check_sums(sums), clusters)
    return _normal_bound(
        "clt" if count is None else "clustered-clt", side, confidence, alpha, sums.count, mean, variance, count
    )


def hoeffding_bound(
    sums: Sums, /, *, confidence: Number, minimum: Number, maximum: Number, side: str = "lower"
) -> Bound:
    """Return Hoeffding's bound on the mean of *sums*, scores in [minimum, maximum].

    mean - (maximum - minimum) * sqrt(ln(1 / alpha) / (2 n)), alpha =
    1 - confidence (mean + ... for an upper bound).  It assumes nothing but
    independent scores within the bounds, so it holds at any n >= 1, even
    n = 1 or zero variance; the price is width: it is wider than the CLT
    bound whenever the scores vary less than a coin flip would.
    """
    from decimal import ROUND_CEILING
    from fractions import Fraction

    alpha = alpha_of(confidence)
    _check_side(side)
    _check_sums(sums)
    low, high = _bound_value("minimum", minimum), _bound_value("maximum", maximum)
    if not low < high:
        raise PolicyError(
            "bad-bounds", f"minimum {format_number(minimum)} is not below maximum {format_number(maximum)}"
        )
    n = sums.count
    if n == 0:
        raise _insufficient("a mean over 0 trials has no bound")
    mean = Fraction(sums.total) / n
    if not low * n <= Fraction(sums.total) <= high * n:
        raise PolicyError(
            "bad-bounds", f"the mean {float(mean)!r} is outside [{format_number(minimum)}, {format_number(maximum)}]"
        )
    up = _context(ROUND_CEILING)
    # ln(1/alpha), rounded up: ln is correctly rounded (to nearest), and
    # one step up from the nearest is at or above the exact value.
    log = _decimal(1 / alpha, up).ln(_context()).next_plus(up)
    width = up.multiply(_decimal(high - low, up), _sqrt_up(up.divide(log, 2 * n)))
    bound = _offset(mean, width, side)
    return Bound(
        method="hoeffding",
        side=side,
        confidence=confidence,
        n=n,
        estimate=float(mean),
        bound=bound,
        _alpha=alpha,
        _mean=mean,
        _range=high - low,
    )


def paired_bound(
    differences: Sums,
    /,
    *,
    confidence: Number,
    candidate: Sums,
    baseline: Sums,
    side: str = "lower",
    clusters: Clusters | None = None,
) -> Bound:
    """Return the CLT bound on the mean per-trial difference, candidate - baseline.

    *differences* holds the exact sums of the n per-pair differences;
    *candidate* and *baseline* the sums of each side's scores over the same
    n pairs, for the unpaired SE, sqrt(SE_candidate**2 + SE_baseline**2),
    shown beside the paired one (Miller's comparison of two models): the paired SE is
    smaller by as much as the two sides' scores are correlated.  Their
    totals must differ by the differences' total.

    *clusters*, as for ``clt_bound``, are ``(count, total of differences)``
    per cluster.  ``no_regression(bound, max_regression=D)`` is the gate:
    "no regression larger than D, with this confidence".  All differences
    equal (the same scores on both sides, say) is ``insufficient-trials``.
    """
    alpha = alpha_of(confidence)
    _check_side(side)
    mean, variance, count = _variance_of_mean(_check_sums(differences), clusters)
    n = differences.count
    if _check_sums(candidate).count != n or _check_sums(baseline).count != n:
        raise PolicyError(
            "bad-policy",
            f"{n} differences but {candidate.count} candidate and {baseline.count} baseline scores",
        )
    from fractions import Fraction

    if Fraction(candidate.total) - Fraction(baseline.total) != Fraction(differences.total):
        raise PolicyError("bad-policy", "the candidate and baseline totals do not differ by the differences' total")
    unpaired = _sample_variance(candidate) / n + _sample_variance(baseline) / n
    return _normal_bound(
        "clt" if count is None else "clustered-clt",
        side,
        confidence,
        alpha,
        n,
        mean,
        variance,
        count,
        _float_sqrt(unpaired),
    )


def no_regression(bound: Bound, /, *, max_regression: Number) -> bool:
    """Return whether *bound* shows no regression larger than *max_regression*.

    For a lower bound on candidate - baseline (higher is better), PASS
    needs ``bound >= -max_regression``; for an upper bound (lower is
    better), ``bound <= max_regression``.  *max_regression* is a finite
    number >= 0.
    """
    if type(bound) is not Bound:
        raise PolicyError("bad-policy", f"bound must be a Bound, not {describe_value(bound)}")
    problem = number_problem(max_regression, True)
    if problem is not None:
        raise PolicyError("bad-threshold", f"max_regression is {problem[1]}")
    if max_regression < 0:
        raise PolicyError("bad-threshold", f"max_regression {format_number(max_regression)} is negative")
    return bound.meets(-max_regression if bound.side == "lower" else max_regression)


# -- validation -------------------------------------------------------------------


def _check_side(side: object) -> None:
    if type(side) is not str or side not in SIDES:
        raise PolicyError("bad-policy", f"side must be 'lower' or 'upper', not {describe_value(side)}")


def _check_sums(sums: object) -> Sums:
    if type(sums) is not Sums:
        raise PolicyError("bad-policy", f"expected Sums, not {describe_value(sums)}")
    return sums


def _threshold(threshold: object) -> Decimal:
    problem = number_problem(threshold, True)
    if problem is not None:
        raise PolicyError("bad-threshold", f"threshold is {problem[1]}")
    return to_decimal(threshold)  # type: ignore[arg-type]


def _bound_value(name: str, value: object) -> Fraction:
    from fractions import Fraction

    problem = number_problem(value, True)
    if problem is not None:
        raise PolicyError("bad-bounds", f"{name} is {problem[1]}")
    return Fraction(to_decimal(value))  # type: ignore[arg-type]


def _exact_number(value: object) -> Decimal:
    problem = number_problem(value, True)
    if problem is not None:
        raise PolicyError("bad-policy", f"a score is {problem[1]}")
    return to_decimal(value)  # type: ignore[arg-type]


def _insufficient(message: str) -> InvalidEvidence:
    return InvalidEvidence("insufficient-trials", message)


# -- variance -------------------------------------------------------------------


def _squared_residuals(sums: Sums) -> Fraction:
    """SS = sum (s_i - mean)**2 = squares - total**2 / n, exactly."""
    from fractions import Fraction

    total = Fraction(sums.total)
    return Fraction(sums.squares) - total * total / sums.count


def _sample_variance(sums: Sums) -> Fraction:
    """The sample variance, SS / (n - 1); 0 for n = 1."""
    return _squared_residuals(sums) / (sums.count - 1) if sums.count > 1 else _squared_residuals(sums)


def _variance_of_mean(sums: Sums, clusters: Clusters | None) -> tuple[Fraction, Fraction, int | None]:
    """Return (mean, SE**2, number of clusters or None), refusing what cannot bound."""
    from fractions import Fraction

    n = sums.count
    # Hoeffding and Clopper-Pearson ignore clusters (a report refuses them
    # beside a cluster query), so they are suggested only without one.
    other = "; use the Hoeffding bound or, for a pass rate, Clopper-Pearson" if clusters is None else ""
    if n < 2:
        raise _insufficient(
            f"a central-limit bound needs at least 2 trials, not {n}: its standard error would be undefined{other}"
        )
    mean = Fraction(sums.total) / n
    ss = _squared_residuals(sums)
    if ss == 0:
        raise _insufficient(
            f"all {n} values are equal (zero variance): a central-limit bound would have width 0{other}"
        )
    if clusters is None:
        return mean, ss / (n * (n - 1)), None
    count, between = _cluster_residuals(clusters, n, sums.total, mean)
    if count < 2:
        raise _insufficient(
            f"{count} cluster: a clustered standard error needs at least 2 clusters "
            "(with one, the variance between clusters is not estimated at all)"
        )
    if between == 0:
        raise _insufficient(
            f"every one of the {count} clusters has the same mean: a clustered bound would have width 0{other}"
        )
    # CR0 with the small-sample factor G / (G - 1) (statsmodels' default).
    return mean, between * count / ((count - 1) * n * n), count


def _cluster_residuals(clusters: Clusters, n: int, total: Exact, mean: Fraction) -> tuple[int, Fraction]:
    """Return (number of clusters, sum_c E_c**2), E_c = total_c - count_c * mean.

    sum_c E_c**2 = A - 2 * mean * B + mean**2 * C with A = sum total_c**2,
    B = sum count_c * total_c and C = sum count_c**2, accumulated exactly
    in decimal (one cheap step per cluster) and combined once as fractions.
    """
    from decimal import localcontext
    from fractions import Fraction

    from ._score import exact_context

    clusters_seen = counted = 0
    a: Exact = 0
    b: Exact = 0
    c = 0
    summed: Exact = 0
    try:
        items = iter(clusters)
    except TypeError:
        raise PolicyError("bad-policy", f"clusters must be an iterable, not {describe_value(clusters)}") from None
    with localcontext(exact_context()):
        # Decimal operators use this context: exact, or they raise.
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
            clusters_seen += 1
            counted += size
            summed += cluster_total
            a += cluster_total * cluster_total
            b += size * cluster_total
            c += size * size
    if counted != n or summed != total:
        raise PolicyError(
            "bad-policy",
            f"the clusters hold {counted} trials summing to {format_number(summed)}, not {n} summing to "
            f"{format_number(total)}",
        )
    return clusters_seen, Fraction(a) - 2 * mean * Fraction(b) + mean * mean * c


# -- normal bounds, in decimal with directed rounding -----------------------------------


def _context(rounding: str | None = None) -> decimal.Context:
    import decimal

    return decimal.Context(
        prec=_PREC,
        rounding=decimal.ROUND_HALF_EVEN if rounding is None else rounding,
        Emax=decimal.MAX_EMAX,
        Emin=decimal.MIN_EMIN,
    )


def _decimal(value: Fraction, context: decimal.Context) -> Decimal:
    """*value* to a Decimal, rounded in *context*'s direction (Decimal(int) is exact)."""
    from decimal import Decimal

    return context.divide(Decimal(value.numerator), Decimal(value.denominator))


def _sqrt_up(value: Decimal) -> Decimal:
    # Decimal.sqrt is correctly rounded to nearest whatever the context's
    # rounding (the General Decimal Arithmetic specification): within half
    # a unit, so the next value up is at or above the exact root.
    from decimal import ROUND_CEILING

    return value.sqrt(_context()).next_plus(_context(ROUND_CEILING))


def _z(alpha: Fraction) -> float:
    """The (1 - alpha) quantile of the standard normal distribution."""
    from statistics import NormalDist

    # inv_cdf(alpha), not inv_cdf(1 - alpha): 1 - alpha as a float loses
    # alpha's low digits when alpha is small; alpha itself keeps them.
    return -NormalDist().inv_cdf(float(alpha))


def _normal_bound(
    method: str,
    side: str,
    confidence: Number,
    alpha: Fraction,
    n: int,
    mean: Fraction,
    variance: Fraction,
    clusters: int | None,
    unpaired_se: float | None = None,
) -> Bound:
    from decimal import ROUND_CEILING, Decimal

    from ._student_t import quantile

    up = _context(ROUND_CEILING)
    # Student t with n - 1 degrees of freedom, or G - 1 for G clusters; the
    # quantile is already rounded up (above its error).  alpha >= 1e-12
    # (``_alpha``), so float(alpha) keeps its digits.
    z = quantile(float(alpha), (n if clusters is None else clusters) - 1)
    width = up.multiply(Decimal(z), _sqrt_up(_decimal(variance, up)))
    return Bound(
        method=method,
        side=side,
        confidence=confidence,
        n=n,
        estimate=_to_float(mean),
        bound=_offset(mean, width, side),
        se=_float_sqrt(variance),
        clusters=clusters,
        unpaired_se=unpaired_se,
        _alpha=alpha,
        _mean=mean,
        _variance=variance,
        _z=z,
    )


def _offset(mean: Fraction, width: Decimal, side: str) -> float:
    """mean - width (lower) or mean + width (upper), rounded against PASS."""
    from decimal import ROUND_CEILING, ROUND_FLOOR

    if side == "lower":
        down = _context(ROUND_FLOOR)
        return _round_down_to_float(down.subtract(_decimal(mean, down), width))
    up = _context(ROUND_CEILING)
    return _round_up_to_float(up.add(_decimal(mean, up), width))


def _to_float(value: Fraction) -> float:
    """*value* as the nearest double, or an infinity beyond the doubles.

    ``float(Fraction)`` raises ``OverflowError`` past 1.8e308: scores of
    1e200 under an unbounded policy have a variance of 1e400.
    """
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _float_sqrt(value: Fraction) -> float:
    """The square root of a variance as a double: an infinity when it is beyond them."""
    square = _to_float(value)
    if square == math.inf:
        # math.sqrt converts to a double first; past the doubles, take the
        # root in decimal (a Decimal beyond the doubles converts to inf).
        return float(_decimal(value, _context()).sqrt(_context()))
    return math.sqrt(square)


def _fraction(value: float) -> Fraction:
    from fractions import Fraction

    return Fraction(value)


def _round_down_to_float(value: Decimal) -> float:
    """The largest double <= *value*: -inf below the double range, never +inf."""
    from decimal import Decimal

    result = float(value)  # the nearest double, or an infinity beyond them
    if result == math.inf:
        return math.nextafter(math.inf, 0.0)
    if result != -math.inf and Decimal(result) > value:
        result = math.nextafter(result, -math.inf)
    return result


def _round_up_to_float(value: Decimal) -> float:
    """The smallest double >= *value*: +inf above the double range, never -inf."""
    return -_round_down_to_float(-value)


def _percent(confidence: Number) -> str:
    from decimal import Decimal

    # Times 100 by moving the exponent: exact, whatever the thread's context.
    sign, digits, exponent = to_decimal(confidence).as_tuple()
    text = format(Decimal((sign, digits, exponent + 2)), "f")  # type: ignore[operator]
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{text}%"


# -- Clopper-Pearson ------------------------------------------------------------------


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
    z = _z(alpha)
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
