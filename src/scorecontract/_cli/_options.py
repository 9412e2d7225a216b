# SPDX-License-Identifier: MIT
"""Reading option values the one way: whole numbers and refusals.

Each command's run function turns argparse's ``Namespace`` into its typed
options once (``CheckOptions``, ``ReportOptions``, ``SignOptions``); the
values it cannot use are refused here, with a code of their own, and
everything below the run function takes typed values only.
"""

from __future__ import annotations

from .._errors import PolicyError

__all__ = ["conflict", "needs", "whole_number"]

# The most digits a count may have: any larger limit would be absurd, and
# a bounded text keeps int() cheap (CPython refuses 4300 digits anyway).
_MAX_DIGITS = 18


def whole_number(option: str, text: str, /, *, minimum: int, code: str = "bad-option") -> int:
    """Return the count *text* given to *option*, at least *minimum*.

    Digits only: ``int()`` would also take ``" 5"``, ``"+5"``, ``"٥"`` and
    ``"1_000"``, and a count has one spelling.  Raises ``PolicyError``
    (*code*, ``bad-option`` unless told) otherwise.
    """
    if not (0 < len(text) <= _MAX_DIGITS and text.isascii() and text.isdigit()) or int(text) < minimum:
        raise PolicyError(code, f"{option} {ascii(text)} is not a whole number >= {minimum}")
    return int(text)


def conflict(given: str, other: str, why: str, /) -> PolicyError:
    """Return the refusal of *given* beside *other* (``option-conflict``)."""
    return PolicyError("option-conflict", f"{given} cannot be combined with {other}: {why}")


def needs(given: str, missing: str, why: str = "", /) -> PolicyError:
    """Return the refusal of *given* without *missing* (``missing-option``)."""
    return PolicyError("missing-option", f"{given} needs {missing}" + (f": {why}" if why else ""))
