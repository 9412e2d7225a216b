# SPDX-License-Identifier: MIT
"""Receipts: deterministic JSON, written atomically and never over another.

A receipt is what a reviewer keeps: the same evidence and policy must give
the same bytes, so it holds no clock, keys are sorted, and the JSON is
ASCII.  It is written by the one writer, ``_write.write_new_file``:
atomically, and never over an existing path.
"""

from __future__ import annotations

import json

__all__ = ["json_default", "receipt_bytes"]


def json_default(value: object) -> object:
    # Exact policies carry decimal.Decimal; its text is its exact value.
    if type(value).__name__ == "Decimal":
        return str(value)
    raise TypeError(f"cannot put {type(value).__name__} in a receipt")


def receipt_bytes(receipt: dict[str, object]) -> bytes:
    """Serialise *receipt* deterministically: sorted keys, ASCII, one newline."""
    text = json.dumps(
        receipt,
        sort_keys=True,
        indent=2,
        ensure_ascii=True,
        allow_nan=False,
        default=json_default,
    )
    return (text + "\n").encode("ascii")

