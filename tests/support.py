# SPDX-License-Identifier: MIT
"""Helpers shared by the tests.

This module is not a test module, so pytest does not rewrite its asserts and
``python -O`` would delete them: every check here raises explicitly.
"""

from __future__ import annotations

import ast
import functools
import io
import json
import os
import subprocess
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

_T = TypeVar("_T")

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
FIXTURES = ROOT / "fixtures"


class CorpusMissing(Exception):
    """Raised when a data-driven test finds no data."""


# Set by conftest.py from ``--exhaustive``: the long property loops (marked
# ``exhaustive``) then try every case instead of a seeded sample.
EXHAUSTIVE = False


def sample(items: Sequence[_T], keep: int, seed: str) -> list[_T]:
    """*keep* of *items*, chosen by *seed*, in their order; all under ``--exhaustive``.

    The choice is the same on every run and every interpreter (a string
    seed does not depend on PYTHONHASHSEED), so a failure seen once is seen
    again.  ``.ci/run`` runs the ``exhaustive`` tests once in full.
    """
    if EXHAUSTIVE or keep >= len(items):
        return list(items)
    import random

    chosen = set(random.Random(seed).sample(range(len(items)), keep))
    return [item for index, item in enumerate(items) if index in chosen]


@functools.cache
def parse_source(source: str) -> ast.Module:
    """``ast.parse(source)``, once per run for each text.

    Five test modules walk every module of the package, some more than
    once; no walk changes a tree, so they share one.  The text is the key,
    so a changed file is parsed again.
    """
    return ast.parse(source)


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


_FRESH_DRIVER = r"""
import base64, json, sys
sys.path.insert(0, sys.argv[1])
from support import run_main
if sys.flags.optimize != int(sys.argv[2]):
    raise SystemExit(f"optimize {sys.flags.optimize}, not {sys.argv[2]}")
results = []
for args, stdin in json.loads(sys.stdin.read()):
    done = run_main(*args, stdin=base64.b64decode(stdin))
    results.append([done.returncode, base64.b64encode(done.stdout).decode(), base64.b64encode(done.stderr).decode()])
sys.stdout.write(json.dumps(results))
"""


def run_fresh(
    calls: list[tuple[list[str], bytes]],
    *,
    optimize: int = 0,
    cwd: Path | str | None = None,
    env: dict[str, str] | None = None,
) -> list[subprocess.CompletedProcess[bytes]]:
    """Run each ``(args, stdin)`` through ``run_main`` in one fresh interpreter.

    For what a fresh interpreter at an optimize level proves (``-O``
    removes asserts, ``-OO`` docstrings, nothing was imported before),
    without the start-up of one interpreter per call.  Returns what
    ``run_main`` returned for each call, in order.
    """
    import base64

    payload = json.dumps([[list(args), base64.b64encode(stdin).decode()] for args, stdin in calls])
    command = [sys.executable]
    if optimize:
        command.append("-" + "O" * optimize)
    command += ["-c", _FRESH_DRIVER, str(ROOT / "tests"), str(optimize)]
    environment = dict(os.environ if env is None else env)
    environment["PYTHONPATH"] = str(SRC)
    done = subprocess.run(command, input=payload.encode(), capture_output=True, cwd=cwd, env=environment, timeout=300)
    if done.returncode != 0 or done.stderr:
        raise RuntimeError(f"the fresh interpreter failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    results = json.loads(done.stdout)
    if len(results) != len(calls):
        raise RuntimeError(f"{len(results)} results for {len(calls)} calls")
    return [
        subprocess.CompletedProcess(["scorecontract", *args], status, base64.b64decode(out), base64.b64decode(err))
        for (args, _), (status, out, err) in zip(calls, results)
    ]


_STREAMS_DRIVER = r"""
import base64, json, os, sys
from scorecontract._cli import main
for args in json.loads(sys.stdin.read()):
    status = main([os.fsdecode(base64.b64decode(arg)) for arg in args])
    for stream in (sys.stdout, sys.stderr):
        stream.write("\0%d\n" % status)
        stream.flush()
"""


def run_streams(
    calls: list[list[str | bytes]], *, env: dict[str, str] | None = None
) -> list[subprocess.CompletedProcess[bytes]]:
    """Run ``main(args)`` for each of *calls* in one fresh interpreter, on its real streams.

    For what the interpreter's own ``sys.stdout`` and ``sys.stderr`` prove
    (their encoding from ``PYTHONIOENCODING`` or the locale, a pipe as
    descriptor 1): ``main`` writes to them as it does under ``python -m
    scorecontract``, arguments arrive as ``sys.argv`` does (``os.fsdecode``
    of bytes), and after each call a NUL byte and the status end its part
    of both streams (the one escaper never lets a NUL through).
    """
    import base64

    encoded = [[base64.b64encode(os.fsencode(arg)).decode() for arg in args] for args in calls]
    environment = dict(os.environ if env is None else env)
    environment["PYTHONPATH"] = str(SRC)
    command = [sys.executable] + (["-" + "O" * sys.flags.optimize] if sys.flags.optimize else [])
    done = subprocess.run(
        [*command, "-c", _STREAMS_DRIVER],
        input=json.dumps(encoded).encode(),
        capture_output=True,
        env=environment,
        timeout=300,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the fresh interpreter failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    outs, errs = done.stdout.split(b"\0"), done.stderr.split(b"\0")
    if (
        len(outs) != len(calls) + 1
        or len(errs) != len(calls) + 1
        or outs[-1].split(b"\n", 1)[1]
        or errs[-1].split(b"\n", 1)[1]
    ):
        raise RuntimeError(f"{len(outs) - 1} parts of stdout, {len(errs) - 1} of stderr, for {len(calls)} calls")
    results = []
    for number, args in enumerate(calls):
        # Each part after the first begins with the previous call's status line.
        out = outs[number].split(b"\n", 1)[1] if number else outs[number]
        err = errs[number].split(b"\n", 1)[1] if number else errs[number]
        status = int(outs[number + 1].split(b"\n", 1)[0])
        results.append(subprocess.CompletedProcess(["scorecontract", *map(os.fsdecode, args)], status, out, err))
    return results


def run_main(
    *args: str,
    stdin: bytes = b"",
    cwd: Path | str | None = None,
    env: dict[str, str] | None = None,
    merge_stderr: bool = False,
) -> subprocess.CompletedProcess[bytes]:
    """Run ``scorecontract`` in this interpreter; the result of ``run_cli``.

    ``scorecontract._cli.main(list(args))`` runs with ``sys.stdin``,
    ``sys.stdout`` and ``sys.stderr`` replaced by UTF-8 text streams over
    bytes, as a pipe gives a fresh interpreter on this machine; *cwd* and
    *env* (the whole environment, as for ``run_cli``) are applied for the
    call.  With *merge_stderr*, stderr goes into ``.stdout`` in the order
    written, as ``2>&1`` does (every writer flushes), and ``.stderr`` is
    empty.  Everything the call may change is put back in ``finally``: the
    three streams, the working directory, the environment, the warnings
    filters and the class state of ``_cli._io.Output``, so calls are
    isolated from one another and from the test that makes them.

    What needs a fresh interpreter (start-up, imported modules, ``-O``
    or ``-OO`` other than the suite's own, real descriptors, signals, the
    console script) uses ``run_cli`` instead.
    """
    from scorecontract._cli import main
    from scorecontract._cli._io import Output

    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", errors="strict", newline="\n")
    stderr = io.TextIOWrapper(out if merge_stderr else err, encoding="utf-8", errors="strict", newline="\n")
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    saved_output = Output.stdout_lost, Output.closed
    saved_cwd = os.getcwd()
    saved_env = dict(os.environ)
    saved_showwarning = warnings.showwarning
    added_columns = False
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        # A pipe has no terminal size: argparse's help is then $COLUMNS wide,
        # else 80.  The suite's own stdout may be a terminal (pytest -s).
        added_columns = "COLUMNS" not in os.environ
        if added_columns:
            os.environ["COLUMNS"] = "80"
        if cwd is not None:
            os.chdir(cwd)
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
        sys.stdout, sys.stderr = stdout, stderr
        with warnings.catch_warnings():
            # A fresh interpreter's filters, its warnings printed to its
            # stderr: a test that wants stderr empty sees them too.
            warnings.resetwarnings()
            warnings.filterwarnings("default", category=DeprecationWarning, module="__main__")
            for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
                warnings.filterwarnings("ignore", category=category)
            warnings.showwarning = _show_warning
            status = main(list(args))
        if type(status) is not int:
            raise TypeError(f"main() returned {status!r}, not an int")
        stdout.flush()
        stderr.flush()
        return subprocess.CompletedProcess(["scorecontract", *args], status, out.getvalue(), err.getvalue())
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        Output.stdout_lost, Output.closed = saved_output
        warnings.showwarning = saved_showwarning
        os.chdir(saved_cwd)
        if added_columns:
            # Taken back first, so that a call which changed nothing else
            # does not rebuild the whole environment (a putenv per variable).
            os.environ.pop("COLUMNS", None)
        if dict(os.environ) != saved_env:
            os.environ.clear()
            os.environ.update(saved_env)


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))
