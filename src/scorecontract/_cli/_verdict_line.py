# SPDX-License-Identifier: MIT
"""The verdict line every human output starts from, written once.

``VERDICT code: message``, then ``(line L column C)`` when one place is to
blame, then ``(policy VERSION)``: a reader of a CI log, a GitHub
annotation or a step summary sees which policy decided without opening the
receipt.  ``check`` (text and github, judgments included) and ``report``
(text, github and markdown) all build it here.
"""

from __future__ import annotations

__all__ = ["policy_note", "verdict_line"]


def policy_note(version: str, /) -> str:
    """``(policy VERSION)``: the policy that decided."""
    return f"(policy {version})"


def verdict_line(
    state: str,
    code: str,
    message: str,
    /,
    *,
    version: str,
    line: int | None = None,
    column: int | None = None,
) -> str:
    """Return ``STATE code: message [(line L column C)] (policy VERSION)``."""
    text = f"{state} {code}: {message}"
    if line is not None and column is not None:
        text += f" (line {line} column {column})"
    return f"{text} {policy_note(version)}"
