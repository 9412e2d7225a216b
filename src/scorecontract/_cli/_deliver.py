# SPDX-License-Identifier: MIT
"""What every ``check`` run does with its evidence and its result.

Shared by the score contract (``_check``) and the judgment contract
(``_judgment``): reading the evidence once, within its byte limit, and
delivering the result -- keeping the evidence, writing the receipt,
printing the result line.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from .._evaluate import Decision
    from .._judgment import Judgment
    from ._provenance import Provenance

    class Delivery(Protocol):
        """What ``deliver`` reads of a run's options (``_check.CheckOptions`` has it all).

        A protocol, not ``CheckOptions`` itself: ``_check`` imports this
        module, and a type imported back would make a cycle.
        """

        path: str
        format: str
        junit_xml: str | None
        receipt: str | None
        keep_evidence: str | None


__all__ = ["deliver", "read_evidence"]


def read_evidence(path: str, max_bytes: int, /) -> bytes:
    """Return the evidence bytes at *path* (``-``: standard input).

    Raises ``InvalidEvidence`` when nothing complete can be read (missing,
    unreadable, not a regular file, over *max_bytes*); a ``too-large``
    message says how to raise the limit.
    """
    from .._errors import InvalidEvidence
    from .._read import read_bounded, read_evidence_file, standard_input

    try:
        if path == "-":
            return read_bounded(standard_input(), max_bytes)
        return read_evidence_file(path, max_bytes)
    except InvalidEvidence as exc:
        if exc.code != "too-large":
            raise
        raise InvalidEvidence(
            exc.code,
            f"{exc.message}; raise the limit with --max-bytes, which takes binary units (--max-bytes 64M is 64 MiB)",
        ) from None


def deliver(
    options: Delivery,
    decision: Decision | Judgment,
    evidence: bytes | None,
    provenance: Provenance,
    /,
) -> int:
    """Keep the evidence, write the receipt and JUnit XML, print the result; return the status.

    A receipt, JUnit XML or a kept copy that cannot be written exits 2, whatever the
    verdict: the run was asked to leave a record and did not, so it must
    not count as a release.  Nothing is then printed as a verdict (no
    result line, no ``::notice`` annotation): the error says what was
    decided and why it does not count.  A receipt whose name is taken is
    refused before the evidence is even read (``check_options``); this
    catches one that appears meanwhile, or a directory that cannot be
    written.  ``--keep-evidence`` when nothing was read (a missing file)
    keeps nothing and says so; the status stays the verdict's, which is
    INVALID then.
    """
    from .._errors import PolicyError
    from ._check_output import check_junit_xml, check_markdown, check_receipt, result_line
    from ._io import EXIT_USAGE, emit, warn

    asked = (options.receipt, options.keep_evidence, options.junit_xml)
    if options.format == "text" and asked == (None, None, None):
        # The common release-script call: one line, no record asked for, so
        # no hashing (hashlib alone costs more than the decision).
        emit(result_line(decision, format="text", path=options.path))
        return decision.verdict.exit_code
    receipt = check_receipt(
        decision,
        path=options.path,
        evidence=evidence,
        # Built only with the receipt: it reads the evidence once more.
        provenance=provenance.receipt_section(evidence),
    )
    problems: list[str] = []
    notes: list[str] = []
    if options.keep_evidence is not None:
        if evidence is None:
            notes.append(
                f"scorecontract: note: nothing kept in {ascii(options.keep_evidence)}: "
                f"no evidence bytes were read ({decision.code})"
            )
        else:
            from ._files import refusal
            from ._keep import keep_evidence

            try:
                keep_evidence(options.keep_evidence, evidence)
            except OSError as exc:
                message = f"cannot keep the evidence in {ascii(options.keep_evidence)}"
                problems.append(str(refusal(exc, message)))
    from ._files import write_output

    if options.receipt is not None:
        from ._receipt import receipt_bytes

        try:
            write_output("receipt", options.receipt, receipt_bytes(receipt))
        except PolicyError as exc:
            problems.append(str(exc))
    if options.junit_xml is not None:
        try:
            write_output("JUnit XML", options.junit_xml, check_junit_xml(decision, path=options.path, receipt=receipt))
        except PolicyError as exc:
            problems.append(str(exc))
    if problems:
        warn(
            *notes,
            *(f"scorecontract: error: {problem}" for problem in problems),
            f"scorecontract: note: the evidence was decided ({decision.verdict.value} {decision.code}), "
            "but without its record the decision is not delivered",
        )
        return EXIT_USAGE
    if options.format == "markdown":
        emit(*check_markdown(decision, path=options.path, receipt=receipt))
    else:
        emit(result_line(decision, format=options.format, path=options.path, receipt=receipt))
    warn(*notes)
    return decision.verdict.exit_code
