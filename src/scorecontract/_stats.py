# SPDX-License-Identifier: MIT
"""What every confidence bound shares: exact sums, the bound value, directed rounding.

A point estimate over 20 trials passes or fails by luck; a one-sided
confidence bound says what the trials can support.  Every bound is a pure
function of numbers a streaming report already keeps: the number of
trials, the exact sum of their scores and the exact sum of their squares
(``Sums``), per-cluster counts and sums, or the number of successes.  The
bounds themselves are one module each in ``_bounds`` (their table is
``_bounds.REGISTRY``); this module holds what they share:

- ``Sums`` and ``Bound``, the values in and out;
- the wording of a bound (``bound_summary``, ``shown_bound``,
  ``json_bound_fields``), once;
- arithmetic rounded against PASS, always: decimal at 40 digits from the
  exact sums, each step rounded in the direction that makes PASS harder,
  then to a double in the same direction.  A lower bound is never above
  the exact value, an upper bound never below it.

A bad option raises ``PolicyError``: a confidence outside (0.5, 1), or
above 1 - 1e-12, where doubles no longer resolve the bound.
"""

from __future__ import annotations

import math

from ._describe import describe_value, format_number
from ._errors import InvalidEvidence, PolicyError
from ._score import number_problem, to_decimal

TYPE_CHECKING = False
if TYPE_CHECKING:
    import decimal
    from collections.abc import Callable, Iterable, Mapping
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
    Needed = Callable[["Bound", Fraction, Fraction], Union[int, None]]
    _Score = TypeVar("_Score")

__all__ = [
    "Bound",
    "Sums",
    "bound_fields",
    "bound_summary",
    "check_side",
    "check_sums",
    "context",
    "exact_fraction",
    "exact_number",
    "fraction_of",
    "float_sqrt",
    "insufficient",
    "json_bound_fields",
    "ln_up",
    "no_regression",
    "offset",
    "percent",
    "round_down_to_float",
    "round_up_to_float",
    "rounded",
    "sample_variance",
    "score_range",
    "shown_bound",
    "sqrt_up",
    "squared_residuals",
    "threshold_of",
    "to_float",
    "usable",
    "z_of",
]

SIDES = ("lower", "upper")
# What a bound is, in as_dict() order: a Bound's fields, and the first of
# an Interval's (_confidence), which adds what its threshold made of it.
BOUND_FIELDS = ("method", "side", "confidence", "n", "estimate", "bound", "se", "clusters", "unpaired_se")
PREC = 40


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
            exact = exact_number(value)
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
            exact = exact_number(score)
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

    - ``method``: the bound's name in ``_bounds.REGISTRY``
      (``"empirical-bernstein"``, ``"clopper-pearson"``, ``"hoeffding"`` or
      ``"asymptotic-t"``);
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
        "_needed",
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
    # The bound's own power analysis (its module's), given the limit and
    # the gap between the estimate and it: a function, not a branch on
    # the method here, so adding a bound touches only its module.
    _needed: Needed

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

        limit = threshold_of(threshold)
        value = Decimal(self.bound)
        return value >= limit if self.side == "lower" else value <= limit

    def trials_needed(self, threshold: Number) -> int | None:
        """Return about how many trials would put the bound at *threshold*.

        The power analysis of Miller's section 5, with the same estimate
        and the same variance (a clustered or paired design is assumed to
        stay as it is): the n at which the same data would put the bound
        at the threshold, by the bound's own formula.  At that n a rerun
        with the same true mean passes about half the time.  None when no
        n can help: the estimate is not on the PASS side of the threshold.
        """
        from fractions import Fraction

        limit = Fraction(threshold_of(threshold))
        sign = 1 if self.side == "lower" else -1
        gap = sign * (self._mean - limit)
        if gap <= 0:
            return None
        return self._needed(self, limit, gap)

    def summary(self) -> str:
        """``95% lower bound (asymptotic-t) 0.658476 (n=20, SE 0.0876)``, for messages."""
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
    """``95% lower bound (asymptotic-t) 0.658476 (n=20, SE 0.0876)`` for a ``Bound`` or ``Interval``.

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
    # The bound's name, always: an asymptotic bound says so wherever it is shown.
    shown = shown_bound(value.bound, value.side)
    return f"{percent(value.confidence)} {value.side} bound ({value.method}) {shown} ({', '.join(details)})"


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


def check_side(side: object) -> None:
    """Refuse a *side* other than ``"lower"`` or ``"upper"`` (``bad-policy``)."""
    if type(side) is not str or side not in SIDES:
        raise PolicyError("bad-policy", f"side must be 'lower' or 'upper', not {describe_value(side)}")


def check_sums(sums: object) -> Sums:
    """*sums* if it is a ``Sums``, else ``PolicyError`` (``bad-policy``)."""
    if type(sums) is not Sums:
        raise PolicyError("bad-policy", f"expected Sums, not {describe_value(sums)}")
    return sums


def usable(value: object, code: str, name: str) -> Number:
    """*value* if it is a usable number (the score contract's rules 6 and 7), else ``PolicyError`` *code*."""
    from decimal import Decimal

    problem = number_problem(value, True)
    if problem is not None:
        raise PolicyError(code, f"{name} is {problem[1]}")
    if not isinstance(value, (int, float, Decimal)):  # number_problem refused it already
        raise PolicyError(code, f"{name} is {describe_value(value)}")
    return value


def threshold_of(threshold: object) -> Decimal:
    """*threshold* as an exact Decimal (``bad-threshold`` unless usable)."""
    return to_decimal(usable(threshold, "bad-threshold", "threshold"))


def exact_fraction(name: str, value: object) -> Fraction:
    """The score bound *value* (*name*: minimum or maximum) as an exact Fraction."""
    from fractions import Fraction

    return Fraction(to_decimal(usable(value, "bad-bounds", name)))


def exact_number(value: object) -> Decimal:
    """A score as an exact Decimal (``bad-policy`` unless usable)."""
    return to_decimal(usable(value, "bad-policy", "a score"))


def insufficient(message: str) -> InvalidEvidence:
    """``InvalidEvidence("insufficient-trials", message)``: the data cannot support a bound."""
    return InvalidEvidence("insufficient-trials", message)


# -- variance -------------------------------------------------------------------


def squared_residuals(sums: Sums) -> Fraction:
    """SS = sum (s_i - mean)**2 = squares - total**2 / n, exactly."""
    from fractions import Fraction

    total = Fraction(sums.total)
    return Fraction(sums.squares) - total * total / sums.count


def sample_variance(sums: Sums) -> Fraction:
    """The sample variance, SS / (n - 1); 0 for n = 1."""
    return squared_residuals(sums) / (sums.count - 1) if sums.count > 1 else squared_residuals(sums)


# -- arithmetic rounded against PASS --------------------------------------------------


def context(rounding: str | None = None) -> decimal.Context:
    import decimal

    return decimal.Context(
        prec=PREC,
        rounding=decimal.ROUND_HALF_EVEN if rounding is None else rounding,
        Emax=decimal.MAX_EMAX,
        Emin=decimal.MIN_EMIN,
    )


def rounded(value: Fraction, context: decimal.Context) -> Decimal:
    """*value* to a Decimal, rounded in *context*'s direction (Decimal(int) is exact)."""
    from decimal import Decimal

    return context.divide(Decimal(value.numerator), Decimal(value.denominator))


def sqrt_up(value: Decimal) -> Decimal:
    # Decimal.sqrt is correctly rounded to nearest whatever the context's
    # rounding (the General Decimal Arithmetic specification): within half
    # a unit, so the next value up is at or above the exact root.
    from decimal import ROUND_CEILING

    return value.sqrt(context()).next_plus(context(ROUND_CEILING))


def ln_up(value: Fraction) -> Decimal:
    """ln(*value*) for *value* > 1, rounded up: at or above the exact logarithm.

    Decimal.ln is correctly rounded to nearest (the General Decimal
    Arithmetic specification), so one step up is at or above it.
    """
    from decimal import ROUND_CEILING

    up = context(ROUND_CEILING)
    return rounded(value, up).ln(context()).next_plus(up)


def z_of(alpha: Fraction) -> float:
    """The (1 - alpha) quantile of the standard normal distribution."""
    from statistics import NormalDist

    # inv_cdf(alpha), not inv_cdf(1 - alpha): 1 - alpha as a float loses
    # alpha's low digits when alpha is small; alpha itself keeps them.
    return -NormalDist().inv_cdf(float(alpha))


def offset(mean: Fraction, width: Decimal, side: str) -> float:
    """mean - width (lower) or mean + width (upper), rounded against PASS."""
    from decimal import ROUND_CEILING, ROUND_FLOOR

    if side == "lower":
        down = context(ROUND_FLOOR)
        return round_down_to_float(down.subtract(rounded(mean, down), width))
    up = context(ROUND_CEILING)
    return round_up_to_float(up.add(rounded(mean, up), width))


def to_float(value: Fraction) -> float:
    """*value* as the nearest double, or an infinity beyond the doubles.

    ``float(Fraction)`` raises ``OverflowError`` past 1.8e308: scores of
    1e200 under an unbounded policy have a variance of 1e400.
    """
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def float_sqrt(value: Fraction) -> float:
    """The square root of a variance as a double: an infinity when it is beyond them."""
    square = to_float(value)
    if square == math.inf:
        # math.sqrt converts to a double first; past the doubles, take the
        # root in decimal (a Decimal beyond the doubles converts to inf).
        return float(rounded(value, context()).sqrt(context()))
    return math.sqrt(square)


def fraction_of(value: float) -> Fraction:
    from fractions import Fraction

    return Fraction(value)


def round_down_to_float(value: Decimal) -> float:
    """The largest double <= *value*: -inf below the double range, never +inf."""
    from decimal import Decimal

    result = float(value)  # the nearest double, or an infinity beyond them
    if result == math.inf:
        return math.nextafter(math.inf, 0.0)
    if result != -math.inf and Decimal(result) > value:
        result = math.nextafter(result, -math.inf)
    return result


def round_up_to_float(value: Decimal) -> float:
    """The smallest double >= *value*: +inf above the double range, never -inf."""
    return -round_down_to_float(-value)


def percent(confidence: Number) -> str:
    from decimal import Decimal

    # Times 100 by moving the exponent: exact, whatever the thread's context.
    sign, digits, exponent = to_decimal(confidence).as_tuple()
    if not isinstance(exponent, int):  # a NaN or an infinity: never a confidence (alpha_of)
        return f"{confidence}%"
    text = format(Decimal((sign, digits, exponent + 2)), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{text}%"


def score_range(sums: Sums, minimum: Number, maximum: Number) -> tuple[Fraction, Fraction]:
    """The exact (minimum, maximum) of a finite-sample bound, checked against *sums*.

    ``bad-bounds`` unless minimum < maximum and the mean lies between them;
    ``insufficient-trials`` for no trials at all.
    """
    from fractions import Fraction

    low, high = exact_fraction("minimum", minimum), exact_fraction("maximum", maximum)
    if not low < high:
        raise PolicyError(
            "bad-bounds", f"minimum {format_number(minimum)} is not below maximum {format_number(maximum)}"
        )
    n = sums.count
    if n == 0:
        raise insufficient("a mean over 0 trials has no bound")
    if not low * n <= Fraction(sums.total) <= high * n:
        raise PolicyError(
            "bad-bounds",
            f"the mean {to_float(Fraction(sums.total) / n)!r} is outside "
            f"[{format_number(minimum)}, {format_number(maximum)}]",
        )
    return low, high
