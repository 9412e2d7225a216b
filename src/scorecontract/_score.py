# SPDX-License-Identifier: MIT
"""Stage 4 of the pipeline: the numeric contract (SPEC section 2, rules 6-8).

This is where a decoded score is refused for being the wrong type, NaN or
infinite, or out of range.  (The JSON text ``NaN`` never gets this far: the
strict decoder refuses it.  A NaN float reaches here from Python code.)
"""

from __future__ import annotations

import math
import sys

from ._describe import describe_value, format_number

TYPE_CHECKING = False
if TYPE_CHECKING:
    import decimal
    from decimal import Decimal

    from ._policy import Number, Policy

__all__ = ["exact_context", "number_problem", "score_problem", "to_decimal"]

_contexts: list[decimal.Context] = []


def exact_context() -> decimal.Context:
    """Return the library's private decimal context, which never rounds.

    Every field is given, so neither the thread's context nor a changed
    ``decimal.DefaultContext`` reaches it: with the thread's context a
    caller's ``prec = 1`` would round ``high + 1`` back to ``high``, and a
    trapped ``Inexact`` would raise out of the library.  Here an inexact or
    invalid result raises, and mixing in a float is an error.
    """
    if not _contexts:
        import decimal

        _contexts.append(
            decimal.Context(
                prec=decimal.MAX_PREC,
                rounding=decimal.ROUND_HALF_EVEN,
                Emin=decimal.MIN_EMIN,
                Emax=decimal.MAX_EMAX,
                capitals=1,
                clamp=0,
                flags=[],
                traps=[
                    decimal.Inexact, decimal.Rounded, decimal.InvalidOperation, decimal.Overflow,
                    decimal.DivisionByZero, decimal.FloatOperation,
                ],
            )
        )
    return _contexts[0]


def to_decimal(value: Number) -> Decimal:
    """Return *value* as a Decimal, without rounding.

    A float becomes the Decimal of its ``repr``: the shortest decimal text
    that round-trips, which is what a producer wrote.  ``Decimal(0.8)``
    would instead be 0.8000000000000000444..., the binary value.
    The Decimal constructor never rounds to the context precision, so the
    thread's decimal context cannot change a result.
    """
    from decimal import Decimal

    if type(value) is float:
        return Decimal(repr(value))
    return Decimal(value)


def number_problem(value: object, exact: bool) -> tuple[str, str] | None:
    """Return ``(code, what it is)`` unless *value* is a usable number.

    Rules 6 and 7 of SPEC section 2, shared by scores and by a policy's own
    numbers (threshold, bounds):

    1. Type: exactly ``int`` or ``float`` -- ``type(x) in (int, float)``,
       not ``isinstance``, because ``True`` is an int and would count as 1.
       Subclasses (NumPy's ``float64`` among them), ``Fraction``, numeric
       strings and ``None`` are refused, never coerced.  ``Decimal`` is
       accepted only when *exact*.
    2. Finite: NaN compares false with everything, so ``score < 0.8`` is
       false and a naive gate passes it; infinity passes ``>= 0.8``.

    The second item completes a sentence such as "score is ...".
    """
    kind = type(value)
    if kind is float:
        if not math.isfinite(value):  # type: ignore[arg-type]
            return ("non-finite", f"{value!r}, not a finite number")
        return None
    if kind is int:
        return None
    decimal = sys.modules.get("decimal")
    if decimal is None or kind is not decimal.Decimal:
        return ("wrong-type", f"{describe_value(value)}, not a number")
    if not exact:
        return ("wrong-type", f"a Decimal ({format_number(value)}); Decimal needs an exact policy")
    # is_finite() is False for NaN, sNaN and infinities, and never raises;
    # comparing an sNaN would raise InvalidOperation.
    if not value.is_finite():  # type: ignore[attr-defined]
        return ("non-finite", f"Decimal {value!s}, not a finite number")
    return None


def score_problem(score: object, policy: Policy) -> tuple[str, str] | None:
    """Return ``(code, message)`` if *score* breaks the contract, else None.

    The type and finiteness of ``number_problem``, then the range: within
    the policy's closed bounds.  A huge ``int`` is compared as an int:
    ``math.isfinite(10**400)`` would raise ``OverflowError``.
    """
    problem = number_problem(score, policy._exact)
    if problem is not None:
        return (problem[0], f"score is {problem[1]}")
    low, high, _ = policy._bounds
    value = to_decimal(score) if policy._exact else score  # type: ignore[arg-type]
    if not low <= value <= high:  # type: ignore[operator]
        return (
            "out-of-range",
            f"score {format_number(score)} is outside "
            f"[{format_number(policy.minimum)}, {format_number(policy.maximum)}]",
        )
    return None
