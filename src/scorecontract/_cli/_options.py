# SPDX-License-Identifier: MIT
"""Reading option values the one way: whole numbers and refusals.

Each command's run function turns argparse's ``Namespace`` into its typed
options once (``CheckOptions``, ``ReportOptions``, ``SignOptions``); the
values it cannot use are refused here, with a code of their own, and
everything below the run function takes typed values only.
"""

from __future__ import annotations

from .._errors import PolicyError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

__all__ = ["BYTE_SUFFIXES", "RENAMED", "add_renamed", "byte_count", "conflict", "needs", "whole_number"]

# The old spellings of check's and report's options, and each one's new
# name: the same concept has one name in both commands and in gate files
# (docs/cli.md).  Each is refused with a usage error naming the new one,
# never kept as an alias; a gate file's old key likewise (_gate.py).
RENAMED = {
    "--sample-metric": "--metric",
    "--select-score": "--select",
    "--max-line-bytes": "--max-bytes",
}


def add_renamed(parser: argparse.ArgumentParser, /) -> None:
    """Give *parser* each old spelling of ``RENAMED``, hidden, as a refusal."""
    for old, new in RENAMED.items():
        # dest: none that a real option has, so the namespace never holds it.
        parser.add_argument(
            old, dest="renamed_" + old[2:].replace("-", "_"), action="scorecontract-renamed", renamed=new
        )


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


# Binary units, as the default's "1 MiB" is: 64M is 64 * 2**20 bytes.  KB
# and MB are refused rather than guessed: they mean 1000 to some readers.
BYTE_SUFFIXES = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


def byte_count(option: str, text: str, /) -> int:
    """Return the byte limit *text* given to *option* (``--max-bytes``, ...).

    A whole number of bytes, or one followed by a binary unit: ``512K``,
    ``64M``, ``1G`` (``KiB``, ``MiB``, ``GiB`` too): 1K is 1024 bytes.
    Raises ``PolicyError`` (``bad-option``) for anything else, ``0``,
    ``64MB`` and ``1.5M`` included.  The one parser of a byte limit:
    ``check``, ``report`` and ``sign`` share it.
    """
    digits, multiplier = text, 1
    for suffix, size in BYTE_SUFFIXES.items():
        if text.endswith(suffix) and len(text) > len(suffix):
            candidate = text[: -len(suffix)]
            if candidate.isascii() and candidate.isdigit():
                digits, multiplier = candidate, size
                break
    if not (0 < len(digits) <= _MAX_DIGITS and digits.isascii() and digits.isdigit()) or int(digits) < 1:
        raise PolicyError(
            "bad-option",
            f"{option} {ascii(text)} is not a byte count: a whole number >= 1, optionally "
            "followed by K, M or G (binary units: 64M is 64 MiB)",
        )
    return int(digits) * multiplier


def conflict(given: str, other: str, why: str, /) -> PolicyError:
    """Return the refusal of *given* beside *other* (``option-conflict``)."""
    return PolicyError("option-conflict", f"{given} cannot be combined with {other}: {why}")


def needs(given: str, missing: str, why: str = "", /) -> PolicyError:
    """Return the refusal of *given* without *missing* (``missing-option``)."""
    return PolicyError("missing-option", f"{given} needs {missing}" + (f": {why}" if why else ""))
