# SPDX-License-Identifier: MIT
"""The rules a confidence and a bound must follow, wherever they are given.

``report()``'s keywords, the command line's options and a policy's own
``confidence`` and ``bound`` are checked here, once, against the table of
bounds (``_bounds.REGISTRY``): which names exist, what each applies to
(``scope_conflict``) and what it needs.  A module of its own
so that ``_policy`` (which checks its fields), ``_confidence`` and
the bounds' modules share the rules without importing one
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

__all__ = ["alpha_of", "bound_names", "check_bound", "scope_conflict"]

# A confidence may not be closer to 1: doubles must still resolve the bound.
MIN_ALPHA_DIGITS = 12
# The old name of the asymptotic bound, refused with its new name.
_RENAMED = {"clt": "asymptotic-t"}


def bound_names() -> tuple[str, ...]:
    """The bounds a mean may be decided on (``--bound``'s choices), from ``_bounds.REGISTRY``."""
    from ._bounds import REGISTRY

    return tuple(name for name, entry in REGISTRY.items() if "mean" in entry[1])


def alpha_of(confidence: object) -> Fraction:
    """Return 1 - *confidence*, exactly, from its decimal text."""
    from decimal import Decimal
    from fractions import Fraction

    problem = number_problem(confidence, True)
    if problem is not None or not isinstance(confidence, (int, float, Decimal)):
        raise PolicyError("bad-policy", f"confidence is {problem[1] if problem else describe_value(confidence)}")
    value = to_decimal(confidence)
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
    options and a policy's own ``confidence`` and ``bound``: *bound* is one
    of ``bound_names()`` (``_bounds.REGISTRY``'s bounds on a mean), a bound other
    than the default needs a confidence, and a finite-sample bound needs
    finite score bounds.
    """
    from ._bounds import REGISTRY, default_bound, finite

    names = bound_names()
    if type(bound) is not str or bound not in names:
        renamed = _RENAMED.get(bound) if type(bound) is str else None
        hint = f" ({bound!r} is now {renamed!r}, named for its guarantee)" if renamed else ""
        raise PolicyError(
            "bad-policy",
            f"bound must be one of {', '.join(repr(name) for name in names)}, not {describe_value(bound)}{hint}",
        )
    if confidence is None:
        if bound != default_bound(minimum, maximum):
            # No silently ignored option: a bound without a confidence
            # would decide nothing.
            raise PolicyError("bad-policy", f"bound {bound!r} needs a confidence (--confidence C)")
        return
    alpha_of(confidence)
    if REGISTRY[bound][3] == "bounded":
        for name, value in (("minimum", minimum), ("maximum", maximum)):
            # A null bound (unbounded on that side) has no finite range at all.
            if not finite(value):
                raise PolicyError(
                    "bad-bounds",
                    f"the {bound} bound needs finite score bounds; the policy's {name} is "
                    f"{'unbounded (null)' if value is None else format_number(value)}"
                    " (--bound asymptotic-t needs none, and holds only as n grows)",
                )


def scope_conflict(bound: str, clustered: bool, paired: bool, pass_rate: str | None) -> tuple[str, str, str] | None:
    """What a bound does not reach, or None: ``(option, other, why)``.

    The one statement of which bound combines with what, from
    ``_bounds.REGISTRY``'s "applies to"; ``report()`` and the command line
    word it in their own names.  *option* is ``"cluster_by"`` or
    ``"baseline"``; *other* is ``"bound"`` or, for a deciding pass rate,
    *pass_rate* (``"metric"`` or ``"min_pass_rate"``).
    """
    from ._bounds import REGISTRY

    def reaching(use: str) -> str:
        return " or ".join(repr(name) for name in bound_names() if use in REGISTRY[name][1])

    if clustered:
        if "clustered" not in REGISTRY[bound][1]:
            return (
                "cluster_by",
                "bound",
                f"clustered bounds are {reaching('clustered')}; {bound!r} assumes independent trials",
            )
        if pass_rate is not None:
            return (
                "cluster_by",
                pass_rate,
                "clustered bounds apply to the mean only; the pass rate's Clopper-Pearson bound would ignore the clusters",
            )
    if paired and "paired" not in REGISTRY[bound][1]:
        return ("baseline", "bound", f"the paired difference is bounded by {reaching('paired')} only")
    return None
