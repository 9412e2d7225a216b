# SPDX-License-Identifier: MIT
"""Keeping evidence: the exact bytes, stored under their SHA-256.

A reviewer who reads an INVALID receipt needs the bytes that caused it, not
a producer's later rewrite of them.  Evidence is stored content-addressed,
``DIR/<sha256>`` with no suffix (invalid evidence is often not JSON at all),
so ``sha256sum`` of the kept file reproduces its name and the receipt's
``evidence.sha256``.
"""

from __future__ import annotations

import os

from ._receipt import sha256_hex, write_new_file

__all__ = ["keep_evidence"]


def keep_evidence(directory: str, data: bytes, /) -> str:
    """Store *data* as ``directory/<sha256>`` and return that path.

    *directory* is created if it is missing.  The file is written atomically
    and never replaces another: if a file of that name exists and holds the
    same bytes, it is already kept and nothing is written; if it holds
    different bytes (a corrupted or tampered store), ``FileExistsError`` is
    raised and the existing file is left as it is.  Any other ``OSError``
    propagates.
    """
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, sha256_hex(data))
    try:
        write_new_file(path, data)
    except FileExistsError:
        # Bounded read: the kept file should hold len(data) bytes; one more
        # byte is enough to see that it does not.
        with open(path, "rb") as stream:
            existing = stream.read(len(data) + 1)
        if existing != data:
            raise FileExistsError(
                f"{ascii(path)} exists and does not hold the evidence bytes"
            ) from None
    return path
