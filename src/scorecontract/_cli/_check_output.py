# SPDX-License-Identifier: MIT
"""What ``scorecontract check`` hands back: a receipt and a result line.

The receipt is the decision record plus what was decided on: the SHA-256
and length of the exact evidence bytes read, the path as given, and the
library version.  ``--format json`` prints the same object on one line, so
a harness can read either.  Nothing here reads a clock: the same evidence,
path and policy give the same receipt, byte for byte.
"""

from __future__ import annotations

import json

from ._escape import loadable
from ._github import workflow_command
from .._digest import sha256_hex
from ._receipt import json_default

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._evaluate import Decision
    from .._judgment import Judgment

__all__ = ["RECEIPT_VERSION", "check_receipt", "result_line"]

# Bumped when a key changes meaning or disappears; new keys do not bump it.
RECEIPT_VERSION = 1

# How a verdict is announced to GitHub Actions.  A verdict missing here
# (a new one) is announced as an error: announcing is not releasing, but an
# unknown state must never look like good news.
_GITHUB_COMMANDS = {"PASS": "notice", "FAIL": "error", "INVALID": "error", "REVIEW": "warning"}


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
    from .. import __version__

    receipt = decision.as_dict()
    receipt.setdefault("location", None)
    receipt["evidence"] = {
        "path": path,
        "sha256": None if evidence is None else sha256_hex(evidence),
        "length": None if evidence is None else len(evidence),
    }
    if provenance is not None:
        receipt["provenance"] = provenance
    receipt["scorecontract"] = __version__
    receipt["receipt_version"] = RECEIPT_VERSION
    return loadable(receipt)


def result_line(receipt: dict[str, object], /, *, format: str) -> str:
    """Return the one line ``check`` prints for *receipt* in *format*.

    ``text`` is ``VERDICT code: message`` plus ``(line L column C)`` when
    one place is to blame; ``json`` is the receipt on one line, ASCII with
    sorted keys; ``github`` is a workflow command (``::error``,
    ``::notice``) escaped as the Actions toolkit escapes it, so evidence
    cannot end the line and forge a second command.
    """
    if format == "json":
        return json.dumps(
            receipt, sort_keys=True, ensure_ascii=True, allow_nan=False, default=json_default
        )
    verdict = str(receipt["verdict"])
    # A judgment names its own state (GRADER_ERROR) in the line; its
    # verdict (INVALID) still chooses the exit status and the command.
    state = str(receipt.get("outcome", verdict))
    line = f"{state} {receipt['code']}: {receipt['message']}"
    location = receipt.get("location")
    line_number = column = ""
    if isinstance(location, dict):
        line_number, column = str(location["line"]), str(location["column"])
        line += f" (line {line_number} column {column})"
    if format != "github":
        return line
    evidence = receipt["evidence"]
    path = evidence.get("path") if isinstance(evidence, dict) else None
    return workflow_command(
        _GITHUB_COMMANDS.get(verdict, "error"),
        line,
        title=f"scorecontract {state}",
        # An annotation on the evidence file itself, where there is one.
        file=path if isinstance(path, str) and path != "-" else "",
        line=line_number,
        col=column,
    )
