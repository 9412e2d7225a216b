# SPDX-License-Identifier: MIT
"""``scorecontract check --contract judgment``: decide on one grader judgment.

Kept apart from ``_cmd_check`` so the score contract's command can grow
without touching this one.  Exit status: 0 PASS, 1 FAIL, 3 GRADER_ERROR
(INVALID at the gate).
"""

from __future__ import annotations

from .._errors import InvalidEvidence, PolicyError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from ._provenance import Provenance
    from .._judgment import Judgment

__all__ = ["add_arguments", "refuse_judgment_options", "run_judgment_check"]


def add_arguments(check: argparse.ArgumentParser) -> None:
    """Add ``--contract``, ``--negate`` and ``--extract`` to ``check``."""
    check.add_argument(
        "--contract",
        choices=("score", "judgment"),
        default="score",
        help='what the evidence is: a score record {"score": <number>} (the default), '
        'or a grader judgment {"pass": <bool>, "score": <number>, ...}; '
        "a judgment has no threshold unless --threshold is given",
    )
    check.add_argument(
        "--negate",
        action="store_true",
        help="judgment only: swap PASS and FAIL; a grader error stays a grader error",
    )
    check.add_argument(
        "--extract",
        action="store_true",
        help="judgment only: read the first ```json block, else the first JSON object, "
        "from a grader's prose answer",
    )


def refuse_judgment_options(args: argparse.Namespace) -> None:
    """Refuse ``--negate`` and ``--extract`` outside the judgment contract."""
    for option in ("negate", "extract"):
        if getattr(args, option):
            raise PolicyError("bad-policy", f"--{option} needs --contract judgment")


def run_judgment_check(args: argparse.Namespace) -> int:
    """Judge the evidence at ``args.path`` and print one result line."""
    from ._policy import policy_from_args
    from ._provenance import Provenance
    from ._check import _deliver, _read
    from .._judgment import Judgment, Outcome, judge
    from .._policy import default_policy

    # No --threshold means no threshold for a judgment, not 0.8: an explicit
    # "pass": true with score 0 passes.
    if args.threshold is None and args.policy is None:
        if args.exact:
            raise PolicyError(
                "bad-policy",
                "--exact with --contract judgment needs --threshold or --policy: "
                "without a threshold there is nothing to compare exactly",
            )
        policy = None
    else:
        policy = policy_from_args(args)
    if args.max_bytes < 1:
        raise PolicyError("bad-policy", "--max-bytes must be a positive number of bytes")
    # The same provenance rules as a score record: configuration first.
    provenance = Provenance(args, default_policy() if policy is None else policy)

    def grader_error(code: str, message: str, read: Judgment | None = None) -> Judgment:
        return Judgment(
            Outcome.GRADER_ERROR,
            code=code,
            message=message,
            grader_pass=None if read is None else read.grader_pass,
            score=None if read is None else read.score,
            members=None if read is None or read.members is None else dict(read.members),
            negated=args.negate,
            threshold=None if policy is None else policy.threshold,
            policy=default_policy() if policy is None else policy,
        )

    evidence: bytes | None
    try:
        evidence = _read(args.path, args.max_bytes)
    except InvalidEvidence as exc:
        evidence = None
        judgment = grader_error(exc.code, exc.message)
    else:
        forged = provenance.authenticate(evidence)
        if forged is not None:
            judgment = grader_error(forged.code, forged.message)
        else:
            judgment = judge(
                evidence,
                policy=policy,
                negate=args.negate,
                extract=args.extract,
                max_bytes=args.max_bytes,
            )
            binding = _binding_problem(judgment, provenance)
            if binding is not None:
                judgment = grader_error(binding[0], binding[1], judgment)
    # The same receipt, kept evidence and --format as the score contract.
    return _deliver(args, judgment, evidence, provenance)


def _binding_problem(judgment: Judgment, provenance: Provenance) -> tuple[str, str] | None:
    """Return why a judgment is not bound to the required candidate and run.

    A judgment is an object of free members, so the binding is two of them,
    ``"candidate"`` and ``"run_id"``, compared exactly as for a score
    envelope.  A judgment the loader already refused keeps its own reason.
    """
    if provenance.candidate is None or judgment.members is None:
        return None
    from .._provenance import member_problem

    # Names read from JSON are str; a mapping's other keys cannot match.
    members = {name: value for name, value in judgment.members.items() if type(name) is str}
    problem = member_problem(members, "candidate", provenance.candidate)
    if problem is None and provenance.run_id is not None:
        problem = member_problem(members, "run_id", provenance.run_id)
    return problem
