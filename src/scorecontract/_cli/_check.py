# SPDX-License-Identifier: MIT
"""``scorecontract check``: decide on one piece of evidence."""

from __future__ import annotations

from ._policy import add_policy_arguments, policy_from_args
from .._constants import CHECK_FORMATS, DEFAULT_MAX_BYTES
from .._errors import InvalidEvidence, PolicyError
from .._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from ._provenance import Provenance
    from .._evaluate import Decision
    from .._judgment import Judgment

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
    add_policy_arguments(check)
    check.add_argument(
        "--max-bytes",
        metavar="N",
        type=int,
        default=DEFAULT_MAX_BYTES,
        help="largest evidence accepted, in bytes (default 1 MiB)",
    )
    _add_output_options(check)

    from ._judgment import add_arguments

    add_arguments(check)  # --contract, --negate, --extract

    from ._provenance import add_provenance_arguments

    add_provenance_arguments(check)
    check.set_defaults(run=_run_check)


def _add_output_options(check: argparse.ArgumentParser) -> None:
    check.add_argument(
        "--format",
        choices=CHECK_FORMATS,
        default="text",
        help="result line: text (default), json (the receipt on one line) "
        "or github (an Actions ::error/::notice command)",
    )
    check.add_argument(
        "--receipt",
        metavar="FILE",
        help="write the decision's JSON receipt to FILE, for every verdict; "
        "never overwrites: if FILE exists, exit 2",
    )
    check.add_argument(
        "--keep-evidence",
        metavar="DIR",
        help="copy the exact evidence bytes to DIR/<sha256> (DIR is created); "
        "never overwrites different bytes",
    )


def _read(path: str, max_bytes: int) -> bytes:
    from .._read import read_bounded, read_evidence_file, standard_input

    if path == "-":
        return read_bounded(standard_input(), max_bytes)
    return read_evidence_file(path, max_bytes)


def _run_check(args: argparse.Namespace) -> int:
    from ._provenance import Provenance
    from .._evaluate import Decision, evaluate
    from ._judgment import refuse_judgment_options, run_judgment_check

    if args.contract == "judgment":
        return run_judgment_check(args)
    refuse_judgment_options(args)
    policy = policy_from_args(args)
    if args.max_bytes < 1:
        raise PolicyError("bad-policy", "--max-bytes must be a positive number of bytes")
    # Configuration first (exit 2): the candidate, the run id, the key.
    provenance = Provenance(args, policy)
    evidence: bytes | None
    try:
        evidence = _read(args.path, args.max_bytes)
    except InvalidEvidence as exc:
        # Nothing complete was read (missing, unreadable, over the limit).
        evidence = None
        decision = Decision(Verdict.INVALID, exc.code, exc.message, None, policy)
    else:
        # Authenticate the exact bytes read, then judge those same bytes.
        forged = provenance.authenticate(evidence)
        if forged is not None:
            decision = Decision.invalid(forged, policy)
        else:
            decision = evaluate(
                evidence, policy=policy, max_bytes=args.max_bytes,
                candidate=provenance.candidate, run_id=provenance.run_id,
            )
    return _deliver(args, decision, evidence, provenance)


def _deliver(
    args: argparse.Namespace,
    decision: Decision | Judgment,
    evidence: bytes | None,
    provenance: Provenance | None = None,
) -> int:
    """Keep the evidence, write the receipt, print the result line.

    A receipt or a kept copy that cannot be written exits 2, whatever the
    verdict: the run was asked to leave a record and did not, so it must
    not count as a release (the result line is still printed, so the
    verdict is not lost).
    """
    from ._check_output import check_receipt, result_line
    from ._io import EXIT_USAGE, emit, warn

    if args.format == "text" and args.receipt is None and args.keep_evidence is None:
        # The common release-script call: one line, no record asked for, so
        # no hashing (hashlib alone costs more than the decision).
        emit(result_line(decision.as_dict(), format="text"))
        return decision.verdict.exit_code
    receipt = check_receipt(
        decision,
        path=args.path,
        evidence=evidence,
        # Built only with the receipt: it reads the evidence once more.
        provenance=None if provenance is None else provenance.receipt_section(evidence),
    )
    problems = []
    if args.keep_evidence is not None and evidence is not None:
        from ._keep import keep_evidence

        try:
            keep_evidence(args.keep_evidence, evidence)
        except OSError as exc:
            problems.append(f"cannot keep the evidence in {ascii(args.keep_evidence)}: {_why(exc)}")
    if args.receipt is not None:
        from .._write import write_new_file
        from ._receipt import receipt_bytes

        try:
            write_new_file(args.receipt, receipt_bytes(receipt))
        except FileExistsError:
            problems.append(f"receipt {ascii(args.receipt)} already exists; not overwritten")
        except OSError as exc:
            problems.append(f"cannot write the receipt {ascii(args.receipt)}: {_why(exc)}")
    emit(result_line(receipt, format=args.format))
    warn(*(f"scorecontract: error: {problem}" for problem in problems))
    return EXIT_USAGE if problems else decision.verdict.exit_code


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)
