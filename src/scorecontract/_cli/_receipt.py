# SPDX-License-Identifier: MIT
"""Receipts: one schema family, one serialiser, deterministic bytes.

Every record the command line writes or prints as JSON (a ``check``
receipt, a ``report`` receipt) carries the family's three keys,
``receipt_version``, ``scorecontract_version`` and ``kind``, as a signature
file does (``_sign.sign``).  A receipt is what a reviewer keeps: the same
evidence and policy must give the same bytes, so it holds no clock, keys
are sorted, and the JSON is ASCII.  ``receipt_text`` is the one serialiser:
one line for ``--format json``, indented for a receipt file.
"""

from __future__ import annotations

import json

from .._constants import RECEIPT_KINDS, RECEIPT_VERSION

__all__ = ["json_default", "receipt_bytes", "receipt_text", "stamp"]


def stamp(receipt: dict[str, object], kind: str, /) -> dict[str, object]:
    """Add the family's keys to *receipt* (in place) and return it."""
    from .._version import __version__

    if kind not in RECEIPT_KINDS:
        raise ValueError(f"not a receipt kind: {kind!r}")
    receipt["kind"] = kind
    receipt["receipt_version"] = RECEIPT_VERSION
    receipt["scorecontract_version"] = __version__
    return receipt


def json_default(value: object) -> object:
    # Exact policies carry decimal.Decimal; its text is its exact value.
    if type(value).__name__ == "Decimal":
        return str(value)
    raise TypeError(f"cannot put {type(value).__name__} in a receipt")


def receipt_text(receipt: dict[str, object], /, *, indent: int | None = None) -> str:
    """Serialise *receipt*: sorted keys, ASCII, no NaN; one line unless *indent*."""
    return json.dumps(
        receipt,
        sort_keys=True,
        indent=indent,
        ensure_ascii=True,
        allow_nan=False,
        default=json_default,
    )


def receipt_bytes(receipt: dict[str, object], /) -> bytes:
    """The receipt file's bytes: ``receipt_text`` indented by two, and one newline."""
    return (receipt_text(receipt, indent=2) + "\n").encode("ascii")
