# SPDX-License-Identifier: MIT
"""``scorecontract check --contract judgment``: decide on one grader judgment.

Kept apart from ``_check`` so the score contract's command can grow
without touching this one; both deliver through ``_deliver``.  Exit status: 0 PASS, 1 FAIL, 3 GRADER_ERROR
(INVALID at the gate).
"""

from __future__ import annotations

from .._errors import InvalidEvidence

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import Protocol

    from .._judgment import Judgment
    from .._policy import Policy
    from ._provenance import Provenance

    class CheckOptions(Protocol):
        """What a judgment check reads of ``_check.CheckOptions``.

        A protocol: ``_check`` imports this module, so importing its class
        back would make a cycle.
        """

        path: str
        policy: Policy | None
        negate: bool
        extract: bool
        select: str | None
        max_bytes: int
        format: str
        junit_xml: str | None
        receipt: str | None
        keep_evidence: str | None
        provenance: Provenance


__all__ = ["add_arguments", "judgment_decision", "judgment_policy", "run_judgment_check"]


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
        help="judgment only: read the first ```json block, else the first JSON object, from a grader's prose answer",
    )


def judgment_policy(
    threshold: str | None, path: str | None, exact: bool, changes: Sequence[tuple[str, str, object]] = ()
) -> Policy | None:
    """Return the policy of a judgment check, or None for no threshold at all.

    No ``--threshold`` and no ``--policy`` means no threshold for a
    judgment, not 0.8: an explicit ``"pass": true`` with score 0 passes.
    ``--exact`` then has nothing to compare and is refused
    (``missing-option``), as are the other policy options (*changes*:
    ``--direction``, ``--min``, ``--max``, ``--require``,
    ``--nonfinite-elsewhere``), which belong to a policy that is not there.
    """
    from ._options import needs
    from ._policy import policy_option

    if threshold is None and path is None:
        if exact:
            raise needs(
                "--exact with --contract judgment",
                "--threshold or --policy",
                "without a threshold there is nothing to compare exactly",
            )
        if changes:
            raise needs(
                f"{changes[0][0]} with --contract judgment",
                "--threshold or --policy",
                "a judgment without a threshold applies no policy",
            )
        return None
    return policy_option(threshold, path, exact, changes)


def run_judgment_check(options: CheckOptions) -> int:
    """Judge the evidence at ``options.path`` and deliver the result."""
    from ._deliver import deliver, read_evidence

    evidence: bytes | InvalidEvidence
    try:
        evidence = read_evidence(options.path, options.max_bytes)
    except InvalidEvidence as exc:
        evidence = exc
    judgment = judgment_decision(options, evidence)
    # The same receipt, kept evidence and --format as the score contract.
    read = None if isinstance(evidence, InvalidEvidence) else evidence
    return deliver(options, judgment, read, options.provenance)


def judgment_decision(options: CheckOptions, evidence: bytes | InvalidEvidence, /) -> Judgment:
    """Judge *evidence* read for *options*: its bytes, or why none were read.

    The one judgment pipeline of ``check --contract judgment`` and of a
    ``gate``'s judgment gates.
    """
    from .._judgment import Judgment, Outcome, judge
    from .._policy import default_policy

    policy = options.policy
    provenance = options.provenance

    def grader_error(code: str, message: str, read: Judgment | None = None) -> Judgment:
        return Judgment(
            Outcome.GRADER_ERROR,
            code=code,
            message=message,
            grader_pass=None if read is None else read.grader_pass,
            score=None if read is None else read.score,
            members=None if read is None or read.members is None else dict(read.members),
            negated=options.negate,
            threshold=None if policy is None else policy.threshold,
            policy=default_policy() if policy is None else policy,
        )

    if isinstance(evidence, InvalidEvidence):
        return grader_error(evidence.code, evidence.message)
    forged = provenance.authenticate(evidence)
    if forged is not None:
        return grader_error(forged.code, forged.message)
    judgment = judge(
        evidence,
        policy=policy,
        negate=options.negate,
        extract=options.extract,
        max_bytes=options.max_bytes,
        select=options.select,
    )
    binding = _binding_problem(judgment, provenance)
    if binding is not None:
        return grader_error(binding[0], binding[1], judgment)
    return judgment


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
