# SPDX-License-Identifier: MIT
"""Shared test set-up.

A run may claim the interpreter's optimize level in the environment variable
SCORECONTRACT_EXPECT_OPTIMIZE (0, 1 or 2): CI runs the suite under ``python``
and ``python -O`` and says so, and the suite refuses to pass if the claim is
false, so a CI job that silently dropped ``-O`` cannot report that it ran.
"""

from __future__ import annotations

import itertools
import os
import re
import sys
from collections.abc import Iterator
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


@pytest.fixture(scope="session")
def _tmp_path_root(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Iterator[int]]:
    return tmp_path_factory.mktemp("each", numbered=False), itertools.count()


@pytest.fixture
def tmp_path(request: pytest.FixtureRequest, _tmp_path_root: tuple[Path, Iterator[int]]) -> Path:
    """A fresh, empty directory for each test, as pytest's own ``tmp_path``.

    pytest numbers each one by listing every directory made before it in
    the run, then moves a symlink to it: over the 1,600 tests that take one
    that is quadratic, seconds a run.  Here a counter numbers them, under one
    directory of the run's base temporary directory (kept, and removed with
    it, as pytest's are).
    """
    root, numbers = _tmp_path_root
    path = root / f"{next(numbers)}-{re.sub(r'[^A-Za-z0-9_]', '_', request.node.name)[:30]}"
    path.mkdir()
    return path
