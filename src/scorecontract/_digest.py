# SPDX-License-Identifier: MIT
"""The SHA-256 that names evidence in receipts, kept copies and reports."""

from __future__ import annotations

__all__ = ["sha256_hex"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    class Sink(Protocol):
        """What evidence is fed into as it is read: a digest, or two at once (a tee)."""

        def update(self, data: bytes, /) -> None: ...

    class Digest(Sink, Protocol):
        """A running hash that evidence is fed into as it is read (hashlib's)."""

        def hexdigest(self) -> str: ...


def sha256_hex(data: bytes) -> str:
    """Return the SHA-256 of *data* as lowercase hex."""
    # Imported here: a plain `check` with no receipt never hashes.
    import hashlib

    return hashlib.sha256(data).hexdigest()
