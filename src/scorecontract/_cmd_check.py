# SPDX-License-Identifier: MIT
"""``scorecontract check``: decide on one piece of evidence."""

from __future__ import annotations

import sys

from ._encoding import DEFAULT_MAX_BYTES
from ._errors import InvalidEvidence, PolicyError
from ._policy import Policy
from ._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

__all__ = ["register"]


def register(commands: Any, epilog: str) -> None:
    """Add the ``check`` sub-command to the parser's *commands*."""
    import argparse

    check = commands.add_parser(
        "check",
        help="decide on one score record",
        description='Decide on one score record, {"score": <number>}.',
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("path", metavar="PATH", help="evidence file, or - for standard input")
    check.add_argument(
        "--threshold",
        metavar="T",
        help="lowest passing score, a JSON number in the bounds (default 0.8; none for a judgment)",
    )
    check.add_argument(
        "--max-bytes",
        metavar="N",
        type=int,
        default=DEFAULT_MAX_BYTES,
        help="largest evidence accepted, in bytes (default 1 MiB)",
    )
    from ._cmd_judgment import add_arguments

    add_arguments(check)  # --contract, --negate, --extract
    check.set_defaults(run=_run_check)


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
    from ._cli import emit
    from ._evaluate import Decision, evaluate
    from ._cmd_judgment import refuse_judgment_options, run_judgment_check

    if args.contract == "judgment":
        return run_judgment_check(args)
    refuse_judgment_options(args)
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
    emit(line)
    return decision.verdict.exit_code
