# SPDX-License-Identifier: MIT
"""Receipts: deterministic JSON, written atomically and never over another.

A receipt is what a reviewer keeps: the same evidence and policy must give
the same bytes, so it holds no clock, keys are sorted, and the JSON is
ASCII.  It is written to a temporary file in the target directory, flushed,
then linked into place, so a crash never leaves half a receipt and an
existing receipt is never replaced.
"""

from __future__ import annotations

import json
import os

__all__ = ["receipt_bytes", "sha256_hex", "write_new_file"]


def _json_default(value: object) -> object:
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
        default=_json_default,
    )
    return (text + "\n").encode("ascii")


def sha256_hex(data: bytes) -> str:
    """Return the SHA-256 of *data* as lowercase hex."""
    import hashlib

    return hashlib.sha256(data).hexdigest()


def write_new_file(path: str, data: bytes) -> None:
    """Write *data* to *path* atomically; raise ``FileExistsError`` if it exists.

    The bytes go to a temporary file beside *path* and are fsynced; then
    ``os.link`` puts them in place, which fails rather than replacing an
    existing file (``os.replace`` would silently overwrite).
    """
    import tempfile

    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=".scorecontract-", dir=directory)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            raise
        except OSError:
            # No hard links on this file system: exclusive create instead.
            # Not atomic against a crash mid-write, but never overwrites.
            with open(path, "xb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
    finally:
        os.unlink(temporary)
