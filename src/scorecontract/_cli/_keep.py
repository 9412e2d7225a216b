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

from .._digest import sha256_hex
from .._write import write_new_file

__all__ = ["keep_evidence"]


def keep_evidence(directory: str, data: bytes, /) -> str:
    """Store *data* as ``directory/<sha256>`` and return that path.

    *directory* is created if it is missing.  The file is written by the
    one writer, atomically, and never replaces anything.  If the name is
    taken by a regular file holding the same bytes, the evidence is already
    kept and nothing is written.  Anything else at that name raises
    ``FileExistsError`` and is left as it is: a file holding other bytes (a
    corrupted or tampered store), and a symbolic link, a FIFO, a directory
    or a device, which are never followed or opened -- a link's target
    could change after the receipt names it, and a FIFO would block.  Any
    other ``OSError`` propagates.
    """
    from .._errors import InvalidEvidence
    from .._read import read_file

    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, sha256_hex(data))
    try:
        write_new_file(path, data)
    except FileExistsError:
        try:
            # Not following a final symbolic link; one byte over len(data)
            # is enough to see that the kept file does not hold it.
            existing = read_file(path, len(data), what="kept evidence", follow_symlinks=False)
        except InvalidEvidence as exc:
            if exc.code != "too-large":
                raise FileExistsError(exc.message) from None
            existing = None  # longer than the evidence: other bytes
        if existing != data:
            raise FileExistsError(f"{ascii(path)} exists and does not hold the evidence bytes") from None
    return path
