# SPDX-License-Identifier: MIT
"""Commands on PATH for the shell examples: this source tree, this Python.

The examples call ``scorecontract`` and ``python`` as a release job would.
The tests put small wrappers of those names first on PATH, running this
interpreter (with its -O level) on this source tree, so the real scripts
run unchanged.

This module is not a test module, so pytest does not rewrite its asserts
and ``python -O`` would delete them: every check here raises explicitly.
"""

from __future__ import annotations

import os
import shlex
import stat
import sys
from pathlib import Path

from support import SRC


def _wrapper(path: Path, *command: str) -> None:
    quoted = " ".join(shlex.quote(part) for part in command)
    path.write_text(
        f'#!/bin/sh\nPYTHONPATH={shlex.quote(str(SRC))}\nexport PYTHONPATH\nexec {quoted} "$@"\n',
        encoding="utf-8",
    )
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def shim_environment(directory: Path) -> dict[str, str]:
    """Create ``scorecontract`` and ``python`` in *directory*; return an env.

    The environment is this process's, with *directory* first on PATH.
    """
    directory.mkdir(parents=True, exist_ok=True)
    python = [sys.executable] + (["-" + "O" * sys.flags.optimize] if sys.flags.optimize else [])
    _wrapper(directory / "scorecontract", *python, "-m", "scorecontract")
    _wrapper(directory / "python", *python)
    env = dict(os.environ)
    env["PATH"] = f"{directory}{os.pathsep}{env.get('PATH', '')}"
    env.pop("PYTHONPATH", None)
    if not os.access(directory / "scorecontract", os.X_OK):
        raise RuntimeError(f"could not make {directory / 'scorecontract'} executable")
    return env
