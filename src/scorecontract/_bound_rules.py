# SPDX-License-Identifier: MIT
"""The rules a confidence and a bound must follow, wherever they are given.

``report()``'s keywords, the command line's options and a policy's own
``confidence`` and ``bound`` are checked here, once.  A module of its own
so that ``_policy`` (which checks its fields), ``_confidence`` and
``_stats`` (which compute bounds) share the rules without importing one
another in a cycle.
"""

from __future__ import annotations

from ._describe import describe_value, format_number
from ._errors import PolicyError
from ._score import number_problem, to_decimal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from fractions import Fraction

    from ._score import Number

__all__ = ["BOUNDS", "alpha_of", "check_bound"]

BOUNDS = ("clt", "hoeffding")
# A confidence may not be closer to 1: doubles must still resolve the bound.
MIN_ALPHA_DIGITS = 12


def alpha_of(confidence: object) -> Fraction:
    """Return 1 - *confidence*, exactly, from its decimal text."""
    from decimal import Decimal
    from fractions import Fraction

    problem = number_problem(confidence, True)
    if problem is not None:
        raise PolicyError("bad-policy", f"confidence is {problem[1]}")
    value = to_decimal(confidence)  # type: ignore[arg-type]
    if not Decimal("0.5") < value < 1:
        raise PolicyError(
            "bad-policy", f"confidence {format_number(confidence)} is not strictly between 0.5 and 1 (e.g. 0.95)"
        )
    alpha = 1 - Fraction(value)
    if alpha < Fraction(1, 10**MIN_ALPHA_DIGITS):
        raise PolicyError("bad-policy", f"confidence {format_number(confidence)} is above 1 - 1e-{MIN_ALPHA_DIGITS}")
    return alpha


def check_bound(confidence: object, bound: object, minimum: Number | None, maximum: Number | None) -> None:
    """Refuse a bad *confidence* or *bound* for scores in [*minimum*, *maximum*].

    The one set of rules for ``report()``'s keywords, the command line's
    options and a policy's own ``confidence`` and ``bound``.
    """
    if type(bound) is not str or bound not in BOUNDS:
        raise PolicyError("bad-policy", f"bound must be 'clt' or 'hoeffding', not {describe_value(bound)}")
    if confidence is None:
        if bound != "clt":
            # No silently ignored option: a bound without a confidence
            # would decide nothing.
            raise PolicyError("bad-policy", f"bound {bound!r} needs a confidence (--confidence C)")
        return
    alpha_of(confidence)
    if bound == "hoeffding":
        import math

        for name, value in (("minimum", minimum), ("maximum", maximum)):
            # A null bound (unbounded on that side) has no finite range at all.
            if value is None or not math.isfinite(value):
                raise PolicyError(
                    "bad-bounds",
                    f"the Hoeffding bound needs finite score bounds; the policy's {name} is "
                    f"{'unbounded (null)' if value is None else format_number(value)}",
                )
