# SPDX-License-Identifier: MIT
"""``scorecontract report``: gate a JSON Lines file of trials (SPEC section 6)."""

from __future__ import annotations

import os
import re
import sys

from .._constants import DEFAULT_MAX_BYTES, DEFAULT_MAX_LISTED, METRICS, REPORT_FORMATS
from .._errors import PolicyError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any, Iterator

    from .._policy import Policy

__all__ = ["register"]

# The report's choices, spelled out so that registering the sub-command
# (on every run of every sub-command) does not import the report itself;
# tests/test_lazy_exports.py keeps them equal to _report and _report_output.

_DESCRIPTION = """\
Gate a JSON Lines file of trial records, {"trial_id": "t-001", "score": 0.9}
(extra members allowed), against a declared population.  Every line is an
observation; invalid ones are counted and listed, never dropped.  A
scheduled trial without valid evidence makes the report INVALID (or REVIEW
with --review-owner); otherwise the metric decides."""


def register(commands: Any, epilog: str) -> None:
    """Add the ``report`` sub-command to the parser's *commands*."""
    import argparse

    command = commands.add_parser(
        "report",
        help="gate a JSON Lines file of trials",
        description=_DESCRIPTION,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    command.add_argument("path", metavar="TRIALS", help="JSON Lines file, or - for standard input")
    population = command.add_argument_group("population (at least one is required)")
    population.add_argument("--scheduled", metavar="N", help="number of scheduled trials")
    population.add_argument(
        "--manifest", metavar="FILE", help="JSON array of the scheduled trial ids, no duplicates"
    )
    from ._policy import add_policy_arguments

    # --threshold is the lowest passing score, and the lowest passing mean.
    add_policy_arguments(command)
    gate = command.add_argument_group("gate")
    gate.add_argument(
        "--metric", choices=METRICS, default="mean", help="the metric that decides (default mean)"
    )
    gate.add_argument(
        "--min-pass-rate",
        metavar="R",
        help="the lowest passing share of trials (default 1 with --metric pass-rate); "
        "beside the mean, both must pass",
    )
    gate.add_argument(
        "--candidate",
        metavar="ID",
        help='require "candidate": ID, exactly, on every line; another is an invalid observation',
    )
    gate.add_argument(
        "--review-owner",
        metavar="NAME",
        help="who reviews missing evidence: the report is REVIEW (exit 4) instead of INVALID",
    )
    output = command.add_argument_group("output")
    output.add_argument("--format", choices=REPORT_FORMATS, default="text", help="stdout format (default text)")
    output.add_argument("--junit-xml", metavar="FILE", help="also write JUnit XML, one testcase per trial named; never overwrites")
    output.add_argument("--receipt", metavar="FILE", help="also write a receipt; never overwrites")
    output.add_argument(
        "--max-listed",
        metavar="N",
        default=str(DEFAULT_MAX_LISTED),
        help=f"list at most N invalid, ignored and missing items each (default {DEFAULT_MAX_LISTED})",
    )
    command.add_argument(
        "--max-line-bytes",
        metavar="N",
        default=str(DEFAULT_MAX_BYTES),
        help="longest line accepted, in bytes (default 1 MiB)",
    )
    command.set_defaults(run=_run_report)


def _count(option: str, text: str, *, minimum: int, code: str = "bad-policy") -> int:
    # int() would also take " 5", "+5" and "1_000"; a count is digits only.
    if not re.fullmatch(r"[0-9]{1,18}", text) or int(text) < minimum:
        raise PolicyError(code, f"{option} {ascii(text)} is not a whole number >= {minimum}")
    return int(text)


def _policy(args: argparse.Namespace) -> Policy:
    from ._policy import policy_from_args
    from .._policy import Policy

    policy = policy_from_args(args)
    if args.review_owner is None:
        return policy
    if args.policy is not None:
        # Same rule as --threshold beside --policy: the file's version must
        # name the policy that was applied.
        raise PolicyError(
            "bad-policy",
            "--policy cannot be combined with --review-owner; put review_owner in the file",
        )
    return Policy(
        policy.threshold,
        minimum=policy.minimum,
        maximum=policy.maximum,
        version=policy.version,
        exact=policy.exact,
        review_owner=args.review_owner,
        require_candidate=policy.require_candidate,
    )


def _min_pass_rate(text: str | None, exact: bool) -> object:
    from .._errors import InvalidEvidence
    from .._strict_json import parse_json

    if text is None:
        return None  # not stated: the mean alone decides, or every trial must pass
    try:
        # As --threshold: decimal text under --exact (or an exact policy).
        return parse_json(text, exact=exact)
    except InvalidEvidence as exc:
        raise PolicyError(
            "bad-threshold", f"--min-pass-rate {ascii(text)} is not a JSON number ({exc.code})"
        ) from None


def _run_report(args: argparse.Namespace) -> int:
    from ._io import emit
    from .._report import report
    from ._report_output import junit_xml_chunks, receipt_dict, render

    policy = _policy(args)
    scheduled = None
    if args.scheduled is not None:
        scheduled = _count("--scheduled", args.scheduled, minimum=1, code="bad-population")
    max_listed = _count("--max-listed", args.max_listed, minimum=0)
    max_line_bytes = _count("--max-line-bytes", args.max_line_bytes, minimum=1)
    _refuse_taken_outputs(args)
    from .._read import standard_input

    source: Any = standard_input() if args.path == "-" else args.path
    result = report(
        source,
        scheduled=scheduled,
        manifest=args.manifest,
        policy=policy,
        metric=args.metric,
        min_pass_rate=_min_pass_rate(args.min_pass_rate, policy.exact),  # type: ignore[arg-type]  # validated inside
        max_line_bytes=max_line_bytes,
        max_listed=max_listed,
        candidate=args.candidate,
    )
    shown = None if args.path == "-" else args.path
    # The renderers end each line of their own; emit escapes within them.
    emit(*render(result, args.format, shown).split("\n"))
    if args.junit_xml is not None:
        # Streamed: the XML of a million trials is never held whole.
        _write("--junit-xml", args.junit_xml, junit_xml_chunks(result))
    if args.receipt is not None:
        from ._receipt import receipt_bytes

        _write("--receipt", args.receipt, receipt_bytes(receipt_dict(result)))
    return result.verdict.exit_code


def _refuse_taken_outputs(args: argparse.Namespace) -> None:
    """Exit 2 before reading if an output path is taken, or named twice.

    Checked first so a long report is not wasted, and so ``--junit-xml``
    naming the trials file fails before anything is read; the writer still
    refuses a path that appears meanwhile.  ``lexists``: a dangling
    symbolic link takes the name too.
    """
    named = (("--junit-xml", args.junit_xml), ("--receipt", args.receipt))
    outputs = [(option, path) for option, path in named if path is not None]
    for option, path in outputs:
        if os.path.lexists(path):
            raise PolicyError("bad-policy", f"{option} {ascii(path)} already exists; output files are never overwritten")
    if len(outputs) == 2 and os.path.abspath(outputs[0][1]) == os.path.abspath(outputs[1][1]):
        raise PolicyError("bad-policy", f"--junit-xml and --receipt both name {ascii(outputs[0][1])}")


def _write(option: str, path: str, data: bytes | Iterator[bytes]) -> None:
    from .._write import write_new_file

    try:
        write_new_file(path, data)
    except FileExistsError:
        raise PolicyError("bad-policy", f"{option} {ascii(path)} already exists; output files are never overwritten") from None
    except OSError as exc:
        raise PolicyError("bad-policy", f"cannot write {option} {ascii(path)}: {exc.strerror or exc}") from None
