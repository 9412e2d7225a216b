# SPDX-License-Identifier: MIT
"""Helpers shared by the tests.

This module is not a test module, so pytest does not rewrite its asserts and
``python -O`` would delete them: every check here raises explicitly.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
FIXTURES = ROOT / "fixtures"


class CorpusMissing(Exception):
    """Raised when a data-driven test finds no data."""


def manifest_cases() -> list[dict[str, Any]]:
    """Return the fixture manifest's cases; raise if there are none."""
    manifest = json.loads((FIXTURES / "manifest.json").read_text(encoding="utf-8"))
    cases: list[dict[str, Any]] = manifest["cases"]
    if not cases:
        raise CorpusMissing("fixtures/manifest.json lists no cases")
    return cases


def fixture_bytes(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def run_cli(
    *args: str,
    stdin: bytes | None = None,
    optimize: int = 0,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m scorecontract`` in a fresh interpreter."""
    command = [sys.executable]
    if optimize:
        command.append("-" + "O" * optimize)
    command += ["-m", "scorecontract", *args]
    environment = dict(os.environ if env is None else env)
    environment["PYTHONPATH"] = str(SRC)
    return subprocess.run(
        command,
        input=stdin if stdin is not None else b"",
        capture_output=True,
        cwd=cwd,
        env=environment,
        timeout=120,
    )
