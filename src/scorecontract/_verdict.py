# SPDX-License-Identifier: MIT
"""The verdict: the only thing a release gate may act on."""

from __future__ import annotations

import enum

from ._value import NoTruthValue

__all__ = ["Verdict"]


class Verdict(NoTruthValue, enum.Enum):
    """The outcome of a decision.

    Only ``Verdict.PASS`` releases.  ``FAIL`` is a valid score below the
    threshold; ``INVALID`` is evidence that cannot support any decision;
    ``REVIEW`` is a report that lacks evidence but names a human owner, and
    never releases automatically.

    A verdict has no truth value: ``if verdict:`` raises ``TypeError``,
    because every member (``INVALID`` included) would otherwise be truthy and
    slip through.  Compare explicitly: ``verdict is Verdict.PASS``.
    """

    PASS = "PASS"
    FAIL = "FAIL"
    INVALID = "INVALID"
    REVIEW = "REVIEW"

    @property
    def releases(self) -> bool:
        """True for PASS and nothing else."""
        return self is Verdict.PASS

    @property
    def exit_code(self) -> int:
        """The command line's exit status: PASS 0, FAIL 1, INVALID 3, REVIEW 4."""
        return _EXIT_CODES[self]


_EXIT_CODES = {
    Verdict.PASS: 0,
    Verdict.FAIL: 1,
    Verdict.INVALID: 3,
    Verdict.REVIEW: 4,
}
