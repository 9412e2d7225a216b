# SPDX-License-Identifier: MIT
"""The command line: ``scorecontract`` and ``python -m scorecontract``.

Exit status: 0 PASS, 1 FAIL, 2 usage or configuration error, 3 INVALID,
4 REVIEW, 70 an unexpected internal error.  Only 0 releases.  Results go to
stdout, messages to stderr, and bad evidence never prints a traceback.
"""

from __future__ import annotations

import sys

from ._encoding import DEFAULT_MAX_BYTES
from ._errors import InvalidEvidence, PolicyError
from ._policy import Policy
from ._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Sequence

__all__ = ["EXIT_INTERNAL_ERROR", "EXIT_USAGE", "main"]

EXIT_USAGE = 2
# EX_SOFTWARE from BSD sysexits.h: distinct from every verdict's code.
EXIT_INTERNAL_ERROR = 70

_EPILOG = """\
exit status:
  0   PASS: the only status that releases
  1   FAIL: valid evidence below the threshold
  2   usage or configuration error (bad option, bad threshold or policy)
  3   INVALID: the evidence cannot support a decision
  4   REVIEW: a report lacks evidence and names a review owner
  70  unexpected internal error in scorecontract
"""


def _build_parser() -> argparse.ArgumentParser:
    import argparse

    from . import __version__

    parser = argparse.ArgumentParser(
        prog="scorecontract",
        description="Fail-closed release gate for AI-evaluation scores.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"scorecontract {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    check = commands.add_parser(
        "check",
        help="decide on one score record",
        description='Decide on one score record, {"score": <number>}.',
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("path", metavar="PATH", help="evidence file, or - for standard input")
    check.add_argument(
        "--threshold",
        metavar="T",
        help="lowest passing score, a JSON number in the bounds (default 0.8)",
    )
    check.add_argument(
        "--max-bytes",
        metavar="N",
        type=int,
        default=DEFAULT_MAX_BYTES,
        help="largest evidence accepted, in bytes (default 1 MiB)",
    )
    check.set_defaults(run=_run_check)
    return parser


def _threshold_policy(text: str | None) -> Policy:
    """Build the policy for ``--threshold``, read as a strict JSON number."""
    from ._strict_json import parse_json

    if text is None:
        return Policy()
    try:
        value = parse_json(text)
    except InvalidEvidence as exc:
        raise PolicyError(
            "bad-threshold", f"--threshold {ascii(text)} is not a JSON number ({exc.code})"
        ) from None
    return Policy(value)  # type: ignore[arg-type]  # Policy validates the type


def _read(path: str, max_bytes: int) -> bytes:
    from ._read import read_bounded, read_evidence_file

    if path == "-":
        return read_bounded(sys.stdin.buffer, max_bytes)
    return read_evidence_file(path, max_bytes)


def _run_check(args: argparse.Namespace) -> int:
    from ._evaluate import Decision, evaluate

    policy = _threshold_policy(args.threshold)
    if args.max_bytes < 1:
        raise PolicyError("bad-policy", "--max-bytes must be a positive number of bytes")
    try:
        evidence = _read(args.path, args.max_bytes)
    except InvalidEvidence as exc:
        decision = Decision(Verdict.INVALID, exc.code, exc.message, None, policy)
    else:
        decision = evaluate(evidence, policy=policy, max_bytes=args.max_bytes)
    line = f"{decision.verdict.value} {decision.code}: {decision.message}"
    if decision.lineno is not None:
        line += f" (line {decision.lineno} column {decision.colno})"
    _emit(line)
    return decision.verdict.exit_code


def _emit(text: str) -> None:
    """Print a result line to stdout; a closed pipe does not change the verdict."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        # The reader went away (``| head``).  The exit status still carries
        # the verdict, so it is kept; only the printing is abandoned.
        _silence_stdout()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with *argv* and return the exit status."""
    for stream in (sys.stdout, sys.stderr):
        # Evidence can hold any character; printing it must never crash.
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        parser = _build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
            return exc.code if isinstance(exc.code, int) else EXIT_USAGE
        status: int = args.run(args)
        sys.stdout.flush()
        return status
    except PolicyError as exc:
        print(f"scorecontract: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except InvalidEvidence as exc:
        # Stages that run outside evaluate() still fail closed as INVALID.
        print(f"scorecontract: invalid evidence: {exc}", file=sys.stderr)
        return Verdict.INVALID.exit_code
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_INTERNAL_ERROR
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        print(
            f"scorecontract: internal error: {type(exc).__name__}: {exc}",
            file=sys.stderr,
        )
        return EXIT_INTERNAL_ERROR


def _silence_stdout() -> None:
    # Python flushes stdout at exit; with the pipe closed that flush fails
    # again and prints a traceback unless stdout points elsewhere.
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
