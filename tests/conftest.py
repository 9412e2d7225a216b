# SPDX-License-Identifier: MIT
"""Shared test set-up.

A run may claim the interpreter's optimize level in the environment variable
SCORECONTRACT_EXPECT_OPTIMIZE (0, 1 or 2): CI runs the suite under ``python``
and ``python -O`` and says so, and the suite refuses to pass if the claim is
false, so a CI job that silently dropped ``-O`` cannot report that it ran.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
FIXTURES = ROOT / "fixtures"

if str(SRC) not in sys.path:
    # The suite tests the source tree, installed or not.
    sys.path.insert(0, str(SRC))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--exhaustive",
        action="store_true",
        help="run the long property loops (marker exhaustive) in full, not a seeded sample",
    )


def pytest_configure(config: pytest.Config) -> None:
    import support

    support.EXHAUSTIVE = bool(config.getoption("--exhaustive"))


def pytest_report_header(config: pytest.Config) -> str:
    loops = "in full" if config.getoption("--exhaustive") else "sampled"
    return f"scorecontract: optimize={sys.flags.optimize} src={SRC} exhaustive loops: {loops}"


def pytest_sessionstart(session: object) -> None:
    claim = os.environ.get("SCORECONTRACT_EXPECT_OPTIMIZE")
    if claim is not None and claim != str(sys.flags.optimize):
        raise SystemExit(
            f"SCORECONTRACT_EXPECT_OPTIMIZE={claim} but sys.flags.optimize="
            f"{sys.flags.optimize}: this run is not what it claims to be"
        )
