# SPDX-License-Identifier: MIT
"""Call scorecontract from Python and map every Verdict explicitly.

    python3 python_caller.py EVIDENCE

Exits 0 only when the evidence PASSes.  Each Verdict has its own branch,
and anything else - a Verdict added in a later version, or a value that
is not a Verdict at all - blocks with an error instead of falling through
to the release.  Never write ``if decision.verdict:``; a Verdict has no
truth value and raises ``TypeError`` there, because ``INVALID`` would
otherwise be truthy.
"""

from __future__ import annotations

import sys

from scorecontract import Verdict, evaluate

# Read one byte past the library's default limit, never the whole file:
# evaluate() then reports the oversize as INVALID ``too-large``.
MAX_BYTES = 1024 * 1024


def action_for(verdict: object) -> str:
    """Return what the release job does for *verdict*."""
    if verdict is Verdict.PASS:
        return "release"
    if verdict is Verdict.FAIL:
        return "reject"  # a real result, below the bar: the model needs work
    if verdict is Verdict.INVALID:
        return "quarantine"  # no usable evidence: the evaluation needs work
    if verdict is Verdict.REVIEW:
        return "hold"  # a named person decides; never released automatically
    raise ValueError(f"unrecognised verdict {verdict!r}: blocking the release")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(f"usage: {argv[0]} EVIDENCE", file=sys.stderr)
        return 2
    try:
        with open(argv[1], "rb") as stream:
            raw = stream.read(MAX_BYTES + 1)
    except OSError as exc:
        print(f"quarantine: cannot read the evidence: {exc}", file=sys.stderr)
        return 3
    decision = evaluate(raw)
    try:
        action = action_for(decision.verdict)
    except ValueError as exc:
        print(f"blocked: {exc}", file=sys.stderr)
        return 70
    print(f"{action}: {decision.verdict.value} {decision.code}: {decision.message}")
    if action == "release":
        return 0
    return decision.verdict.exit_code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
