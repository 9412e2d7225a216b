# SPDX-License-Identifier: MIT
"""What ``scorecontract check`` hands back: a receipt and a result line.

The receipt is the decision record plus what was decided on: the SHA-256
and length of the exact evidence bytes read, the path as given, and the
receipt family's keys (``kind`` ``"check"``).  ``--format json`` prints the
same object on one line, so a harness can read either.  Nothing here reads
a clock: the same evidence, path and policy give the same receipt, byte for
byte.
"""

from __future__ import annotations

from ._verdict_line import verdict_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._evaluate import Decision
    from .._judgment import Judgment

__all__ = ["check_receipt", "github_command", "result_line"]

# How a verdict is announced to GitHub Actions.  A verdict missing here
# (a new one) is announced as an error: announcing is not releasing, but an
# unknown state must never look like good news.
_GITHUB_COMMANDS = {"PASS": "notice", "FAIL": "error", "INVALID": "error", "REVIEW": "warning"}


def github_command(verdict: str, /) -> str:
    """The workflow command announcing *verdict*: ``notice`` for PASS, ``error`` or ``warning`` otherwise."""
    return _GITHUB_COMMANDS.get(verdict, "error")


def check_receipt(
    decision: Decision | Judgment,
    /,
    *,
    path: str,
    evidence: bytes | None,
    provenance: dict[str, object] | None = None,
) -> dict[str, object]:
    """Return the receipt of *decision* as a JSON-ready dict.

    *path* is the evidence path as given (``"-"`` for standard input).
    *evidence* is the exact bytes read, or None when no complete evidence
    was read (a missing or unreadable file, a directory, input over the
    byte limit): then ``sha256`` and ``length`` are null rather than the
    hash of zero bytes, which would claim an empty file was judged.
    *provenance*, when given, is the receipt's ``provenance`` section.

    Every string is kept exactly, except one holding a lone surrogate: a
    file name that is not UTF-8 reaches Python as ``os.fsdecode`` gives it
    (byte 0xFF as U+DCFF), which strict JSON cannot hold, so that string is
    shown as ``escape()`` shows it (``\\udcff``).  The receipt then always
    loads with ``scorecontract.loads``.
    """
    from .._digest import sha256_hex
    from ._escape import loadable
    from ._receipt import stamp

    receipt = decision.as_dict()
    receipt.setdefault("location", None)
    receipt["evidence"] = {
        "path": path,
        "sha256": None if evidence is None else sha256_hex(evidence),
        "length": None if evidence is None else len(evidence),
    }
    if provenance is not None:
        receipt["provenance"] = provenance
    return loadable(stamp(receipt, "check"))


def result_line(
    decision: Decision | Judgment,
    /,
    *,
    format: str,
    path: str,
    receipt: dict[str, object] | None = None,
) -> str:
    """Return the one line ``check`` prints for *decision* in *format*.

    ``text`` is the verdict line (``_verdict_line``): ``VERDICT code:
    message``, ``(line L column C)`` when one place is to blame, and the
    policy's version; ``json`` is *receipt* on one line, ASCII with sorted
    keys; ``github`` is a workflow command (``::error``, ``::notice``)
    holding the text line, escaped as the Actions toolkit escapes it, so
    evidence cannot end the line and forge a second command.
    """
    if format == "json":
        if receipt is None:
            raise ValueError("--format json prints the receipt")
        from ._receipt import receipt_text

        return receipt_text(receipt)
    verdict = decision.verdict.value
    # A judgment names its own state (GRADER_ERROR) in the line; its
    # verdict (INVALID) still chooses the exit status and the command.
    outcome = getattr(decision, "outcome", None)
    state = verdict if outcome is None else str(outcome.value)
    message = decision.message
    if decision.policy.direction == "lower" and "lower is better" not in message:
        # A PASS or FAIL says so already; an INVALID line must too, so no
        # reader of any line takes a "lower" gate for a "higher" one.
        message += " (direction lower)"
    line = verdict_line(
        state,
        decision.code,
        message,
        version=decision.policy.version,
        line=decision.lineno,
        column=decision.colno,
    )
    if format != "github":
        return line
    from ._github import workflow_command

    return workflow_command(
        github_command(verdict),
        line,
        title=f"scorecontract {state}",
        # An annotation on the evidence file itself, where there is one.
        file=path if path != "-" else "",
        line="" if decision.lineno is None else str(decision.lineno),
        col="" if decision.colno is None else str(decision.colno),
    )
