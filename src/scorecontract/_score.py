# SPDX-License-Identifier: MIT
"""Stage 4 of the pipeline: the numeric contract (docs/contract.md, rules 6-7).

This is where a decoded number is refused for being the wrong type, NaN or
infinite.  (The JSON text ``NaN`` never gets this far: the strict decoder
refuses it.  A NaN float reaches here from Python code.)  The range, which
a policy sets, is checked by ``_decide.score_problem``; nothing here knows
what a policy is, so the policy can use these rules on its own numbers.
"""

from __future__ import annotations

import math
import sys

from ._describe import describe_value, format_number

TYPE_CHECKING = False
if TYPE_CHECKING:
    import decimal
    from decimal import Decimal
    from typing import Union

    # Every number the contract accepts: Decimal only under an exact policy.
    Number = Union[int, float, Decimal]

__all__ = ["checked_number", "exact_context", "number_problem", "to_decimal"]

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
                    decimal.Inexact,
                    decimal.Rounded,
                    decimal.InvalidOperation,
                    decimal.Overflow,
                    decimal.DivisionByZero,
                    decimal.FloatOperation,
                ],
            )
        )
    return _contexts[0]


def to_decimal(value: object) -> Decimal:
    """Return *value*, an ``int``, ``float`` or ``Decimal``, as a Decimal, without rounding.

    A float becomes the Decimal of its ``repr``: the shortest decimal text
    that round-trips, which is what a producer wrote.  ``Decimal(0.8)``
    would instead be 0.8000000000000000444..., the binary value.
    The Decimal constructor never rounds to the context precision, so the
    thread's decimal context cannot change a result.

    Anything else raises ``TypeError``: every caller holds a number the
    contract admitted, and ``Decimal(True)`` (1) or ``Decimal("0.8")``
    would be a conversion the contract refuses (rule 6), not a value.
    """
    from decimal import Decimal

    if type(value) is float:
        return Decimal(repr(value))
    if type(value) is int or type(value) is Decimal:
        return Decimal(value)
    raise TypeError(f"to_decimal takes an int, float or Decimal, not {describe_value(value)}")


def checked_number(value: object, exact: bool) -> Number | tuple[str, str]:
    """Return *value* if it is a usable number, else ``(code, what it is)``.

    Rules 6 and 7 of the contract (docs/contract.md), shared by scores and
    by a policy's own numbers (threshold, bounds):

    1. Type: exactly ``int`` or ``float`` -- ``type(x) in (int, float)``,
       not ``isinstance``, because ``True`` is an int and would count as 1.
       Subclasses (NumPy's ``float64`` among them), ``Fraction``, numeric
       strings and ``None`` are refused, never coerced.  ``Decimal`` is
       accepted only when *exact*.
    2. Finite: NaN compares false with everything, so ``score < 0.8`` is
       false and a naive gate passes it; infinity passes ``>= 0.8``.

    The number comes back typed as one (``isinstance(result, tuple)`` tells
    a refusal, since no number is a tuple), so a caller needs no second
    check.  The second item of a refusal completes a sentence such as
    "score is ...".
    """
    if type(value) is float:
        if not math.isfinite(value):
            return ("non-finite", f"{value!r}, not a finite number")
        return value
    if type(value) is int:
        return value
    # No Decimal exists before the decimal module is imported, and a score
    # pipeline that never meets one should not pay for importing it.
    if "decimal" not in sys.modules:
        return ("wrong-type", f"{describe_value(value)}, not a number")
    from decimal import Decimal

    if type(value) is not Decimal:
        return ("wrong-type", f"{describe_value(value)}, not a number")
    if not exact:
        return ("wrong-type", f"a Decimal ({format_number(value)}); Decimal needs an exact policy")
    # is_finite() is False for NaN, sNaN and infinities, and never raises;
    # comparing an sNaN would raise InvalidOperation.
    if not value.is_finite():
        return ("non-finite", f"Decimal {value!s}, not a finite number")
    return value


def number_problem(value: object, exact: bool) -> tuple[str, str] | None:
    """Return ``(code, what it is)`` unless *value* is a usable number (``checked_number``)."""
    checked = checked_number(value, exact)
    return checked if isinstance(checked, tuple) else None
