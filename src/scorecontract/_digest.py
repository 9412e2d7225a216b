# SPDX-License-Identifier: MIT
"""The SHA-256 that names evidence in receipts, kept copies and reports."""

from __future__ import annotations

__all__ = ["sha256_hex"]


def sha256_hex(data: bytes) -> str:
    """Return the SHA-256 of *data* as lowercase hex."""
    # Imported here: a plain `check` with no receipt never hashes.
    import hashlib

    return hashlib.sha256(data).hexdigest()
