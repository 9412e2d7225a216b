# SPDX-License-Identifier: MIT
"""Builders of crafted evidence for tests that gate it through the public API.

The corpus's Inspect ``.eval`` logs hold Zstandard members (ZIP method 93),
which ``zipfile`` reads only from Python 3.14.  A test that forges such a log
unpacks it here with the package's own archive reader, the one place a test
helper reaches a private module; the forged log is then gated through the
command line, so the behaviour under test is the public one.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

# A member of a corpus log is far below this; the reader wants a limit.
MEMBER_LIMIT = 1 << 24


def eval_members(path: Path) -> dict[str, bytes]:
    """Return the members of the ``.eval`` log at *path*, in their order, decompressed."""
    from scorecontract._archive import Archive

    with Archive(path.read_bytes(), what="the log") as archive:
        return {name: archive.read(name, MEMBER_LIMIT) for name in archive.names}


def write_eval(path: Path, members: dict[str, bytes]) -> Path:
    """Write *members* as a DEFLATE ``.eval`` log at *path*, which every Python reads."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in members.items():
            out.writestr(name, data)
    return path
