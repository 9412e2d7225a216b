# SPDX-License-Identifier: MIT
"""What ``scorecontract check`` hands back: a receipt, a result line, a summary, JUnit XML.

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

__all__ = ["check_junit_xml", "check_markdown", "check_receipt", "github_command", "result_line"]

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


def _state(decision: Decision | Judgment) -> str:
    """The state a line names: the verdict, or a judgment's own (GRADER_ERROR)."""
    outcome = getattr(decision, "outcome", None)
    return decision.verdict.value if outcome is None else str(outcome.value)


def _evidence_shown(receipt: dict[str, object]) -> str:
    evidence = receipt.get("evidence")
    sha256 = evidence.get("sha256") if isinstance(evidence, dict) else None
    length = evidence.get("length") if isinstance(evidence, dict) else None
    return "not read in full" if sha256 is None else f"{length} bytes, sha256 `{sha256}`"


def check_markdown(decision: Decision | Judgment, /, *, path: str, receipt: dict[str, object]) -> list[str]:
    """The lines of a summary for ``$GITHUB_STEP_SUMMARY``, as ``report`` and ``gate`` write one.

    Each value passes through ``markdown_text`` (``_report_output``, the
    one Markdown escaper), which leaves no line break inside a value: the
    lines are returned apart, never split afterwards.
    """
    from ._report_output import markdown_text

    state = _state(decision)
    line = result_line(decision, format="text", path=path)
    message = line.split(": ", 1)[1] if ": " in line else decision.message
    return [
        f"### scorecontract check: {state}",
        "",
        f"**{state}** `{decision.code}`: {markdown_text(message)}",
        "",
        f"Evidence: {markdown_text(path)} ({_evidence_shown(receipt)})",
    ]


def check_junit_xml(decision: Decision | Judgment, /, *, path: str, receipt: dict[str, object]) -> bytes:
    """JUnit XML: one testcase, named by the evidence path; FAIL a ``<failure>``, else not PASS an ``<error>``.

    Written by ``_report_output.junit_suite``, as ``gate``'s one testcase per gate.
    """
    from ._report_output import junit_suite, xml_text

    line = result_line(decision, format="text", path=path)
    evidence = receipt.get("evidence")
    sha256 = evidence.get("sha256") if isinstance(evidence, dict) else None
    properties = (
        ("verdict", decision.verdict.value),
        ("code", decision.code),
        ("message", decision.message),
        ("policy", decision.policy.version),
        ("path", path),
        ("sha256", "not read in full" if sha256 is None else str(sha256)),
    )
    case = ("scorecontract.check", path, decision.verdict.value, decision.code, line)
    text = junit_suite("scorecontract check", properties, [case], xml_text(line))
    # Printable text already; a lone surrogate could only be shown escaped.
    return text.encode("utf-8", "backslashreplace")
