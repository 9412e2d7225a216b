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
from ._policy import _to_decimal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._policy import Policy

__all__ = ["score_problem"]


def score_problem(score: object, policy: Policy) -> tuple[str, str] | None:
    """Return ``(code, message)`` if *score* breaks the contract, else None.

    The rules, in order:

    1. Type: exactly ``int`` or ``float`` -- ``type(x) in (int, float)``,
       not ``isinstance``, because ``True`` is an int and would count as 1.
       Subclasses (NumPy's ``float64`` among them), ``Fraction``, numeric
       strings and ``None`` are refused, never coerced.  ``Decimal`` is
       accepted only under an exact policy.
    2. Finite: NaN compares false with everything, so ``score < 0.8`` is
       false and a naive gate passes it; infinity passes ``>= 0.8``.
    3. Range: within the policy's closed bounds.  A huge ``int`` is compared
       as an int: ``math.isfinite(10**400)`` would raise ``OverflowError``.
    """
    kind = type(score)
    if kind is float:
        if not math.isfinite(score):  # type: ignore[arg-type]
            return ("non-finite", f"score is {score!r}, not a finite number")
    elif kind is not int:
        decimal = sys.modules.get("decimal")
        if decimal is None or kind is not decimal.Decimal:
            return ("wrong-type", f"score must be a number, not {describe_value(score)}")
        if not policy._exact:
            return (
                "wrong-type",
                f"score is a Decimal ({format_number(score)}); Decimal needs an exact policy",
            )
        # is_finite() is False for NaN, sNaN and infinities, and never
        # raises; comparing an sNaN would raise InvalidOperation.
        if not score.is_finite():  # type: ignore[attr-defined]
            return ("non-finite", f"score is Decimal {score!s}, not a finite number")
    low, high, _ = policy._bounds
    value = _to_decimal(score) if policy._exact else score  # type: ignore[arg-type]
    if not low <= value <= high:  # type: ignore[operator]
        return (
            "out-of-range",
            f"score {format_number(score)} is outside "
            f"[{format_number(policy.minimum)}, {format_number(policy.maximum)}]",
        )
    return None
