# SPDX-License-Identifier: MIT
"""``scorecontract check``: decide on one piece of evidence."""

from __future__ import annotations

from ._policy import add_policy_arguments
from .._constants import CHECK_FORMATS, DEFAULT_MAX_BYTES
from .._errors import InvalidEvidence

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from ._provenance import Provenance
    from .._policy import Policy

__all__ = ["CheckOptions", "check_options", "register"]


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
        default=str(DEFAULT_MAX_BYTES),
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


class CheckOptions:
    """What one ``check`` run was asked to do, as typed values.

    - ``path``: the evidence path as given, ``-`` for standard input;
    - ``policy``: the ``Policy`` to apply, or None for a judgment without
      ``--threshold`` or ``--policy`` (no threshold at all);
    - ``judgment``, ``negate``, ``extract``: the judgment contract;
    - ``max_bytes``: the byte limit on the evidence;
    - ``format``, ``receipt``, ``keep_evidence``: what to print and keep;
    - ``provenance``: the candidate, run and key the evidence must match.
    """

    __slots__ = (
        "path", "policy", "judgment", "negate", "extract", "max_bytes",
        "format", "receipt", "keep_evidence", "provenance",
    )

    path: str
    policy: Policy | None
    judgment: bool
    negate: bool
    extract: bool
    max_bytes: int
    format: str
    receipt: str | None
    keep_evidence: str | None
    provenance: Provenance

    def __init__(
        self,
        *,
        path: str,
        policy: Policy | None,
        judgment: bool,
        negate: bool,
        extract: bool,
        max_bytes: int,
        format: str,
        receipt: str | None,
        keep_evidence: str | None,
        provenance: Provenance,
    ) -> None:
        self.path = path
        self.policy = policy
        self.judgment = judgment
        self.negate = negate
        self.extract = extract
        self.max_bytes = max_bytes
        self.format = format
        self.receipt = receipt
        self.keep_evidence = keep_evidence
        self.provenance = provenance


def check_options(args: argparse.Namespace) -> CheckOptions:
    """Turn ``check``'s parsed arguments into ``CheckOptions``, once.

    Every refusal is configuration (``PolicyError``, exit 2) and comes
    before any evidence is read: the policy, the judgment options outside
    the judgment contract, the byte limit, the candidate and run, the key.
    """
    from ._judgment import judgment_policy
    from ._options import needs, whole_number
    from ._policy import policy_option
    from ._provenance import Provenance
    from .._policy import default_policy

    judgment = args.contract == "judgment"
    if not judgment:
        for option in ("negate", "extract"):
            if getattr(args, option):
                raise needs(f"--{option}", "--contract judgment", "it applies to grader judgments only")
        policy: Policy | None = policy_option(args.threshold, args.policy, args.exact)
    else:
        policy = judgment_policy(args.threshold, args.policy, args.exact)
    max_bytes = whole_number("--max-bytes", args.max_bytes, minimum=1)
    provenance = Provenance.from_options(
        path=args.path,
        # A judgment without a threshold still obeys the default policy's
        # rules on the candidate.
        policy=default_policy() if policy is None else policy,
        candidate=args.candidate,
        run_id=args.run_id,
        key_file=args.key_file,
        key_env=args.key_env,
        signature=args.signature,
    )
    return CheckOptions(
        path=args.path,
        policy=policy,
        judgment=judgment,
        negate=args.negate,
        extract=args.extract,
        max_bytes=max_bytes,
        format=args.format,
        receipt=args.receipt,
        keep_evidence=args.keep_evidence,
        provenance=provenance,
    )


def _run_check(args: argparse.Namespace) -> int:
    options = check_options(args)
    if options.judgment:
        from ._judgment import run_judgment_check

        return run_judgment_check(options)
    return _run_score_check(options)


def _run_score_check(options: CheckOptions) -> int:
    from ._deliver import deliver, read_evidence
    from .._evaluate import Decision, evaluate
    from .._policy import default_policy

    policy = default_policy() if options.policy is None else options.policy
    provenance = options.provenance
    evidence: bytes | None
    try:
        evidence = read_evidence(options.path, options.max_bytes)
    except InvalidEvidence as exc:
        # Nothing complete was read (missing, unreadable, over the limit).
        evidence = None
        decision = Decision.invalid(exc, policy)
    else:
        # Authenticate the exact bytes read, then judge those same bytes.
        forged = provenance.authenticate(evidence)
        if forged is not None:
            decision = Decision.invalid(forged, policy)
        else:
            decision = evaluate(
                evidence, policy=policy, max_bytes=options.max_bytes,
                candidate=provenance.candidate, run_id=provenance.run_id,
            )
    return deliver(options, decision, evidence, provenance)
