# SPDX-License-Identifier: MIT
"""openai/evals: the ``oaieval`` record log, JSON Lines (evals/record.py).

The log's first line is the run's ``spec``; one line holds ``final_report``
(the headline's metrics, ``accuracy`` for a match eval); the others are
events, one per sampled or matched answer.  A run that did not finish
writes no ``final_report``.
"""

from __future__ import annotations

from .._errors import InvalidEvidence
from ._base import Headline, Option, Selected, at, decode, load, no_such, path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._policy import Policy
    from ._base import Options, Trace

__all__ = ["FOLLOWS", "HEADLINE", "NAME", "SAMPLES", "TITLE"]

NAME = "openai-evals"
TITLE = "openai/evals oaieval"
FOLLOWS = "openai/evals oaieval record logs (evals/record.py), as written at commit 4bfc1f5"


def _gate(raw: bytes | str, options: Options, policy: Policy, max_bytes: int, trace: Trace) -> Selected:
    query = path("final_report", options.text("metric"))
    trace.query = query
    text = decode(raw, max_bytes)
    found: list[tuple[int, object, list[tuple[str, str]]]] = []
    elsewhere = 0
    first_elsewhere: tuple[int, str, str] | None = None
    # str.splitlines() would also split at U+2028, U+0085 and form feeds,
    # which a JSON string may hold raw: JSON Lines separates at \n only.
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip(" \t\r"):
            continue
        try:
            document, records = load(line, policy)
        except InvalidEvidence as exc:
            raise InvalidEvidence(exc.code, f"line {number}: {exc.message}") from None
        if type(document) is dict and "final_report" in document:
            found.append((number, document, records))
        else:
            if records and first_elsewhere is None:
                first_elsewhere = (number, records[0][0], records[0][1])
            elsewhere += len(records)
    if not found:
        raise InvalidEvidence("no-match", "no line of the openai/evals log holds final_report: the run did not finish")
    if len(found) > 1:
        lines = ", ".join(str(number) for number, _, _ in found[:5])
        raise InvalidEvidence(
            "ambiguous-selection",
            f"{len(found)} lines of the openai/evals log hold final_report (lines {lines}): "
            "two runs' records in one file; gate each run's own log",
        )
    number, document, records = found[0]
    trace.origin.append(("line", number))
    report = at(document, "final_report")
    metric = options.text("metric")
    if type(report) is dict and metric not in report:
        raise no_such("metric", metric, "--metric", f"the final_report on line {number}", list(report))
    if first_elsewhere is not None and policy.nonfinite_elsewhere != "list":
        # A stated "refuse" covers the whole log, not only the line read.
        other, where, code = first_elsewhere
        raise InvalidEvidence(
            code,
            f"line {other} of the openai/evals log holds a non-finite number at {where} ({elsewhere} on lines "
            'other than the final_report line); the policy states nonfinite_elsewhere "refuse"',
        )
    if elsewhere:
        trace.origin.append(("nonfinite_on_other_lines", elsewhere))
    return Selected(document, records, query, policy)


HEADLINE = Headline(
    options=(Option("metric", "the member of final_report", default="accuracy"),),
    file="an `oaieval` record log (JSON Lines)",
    selects="final_report[M] of the one JSON Lines line holding final_report",
    requires="exactly one line holding final_report (two are INVALID ambiguous-selection); every line strict "
    "JSON; a finite value (no events writes NaN: INVALID)",
    lists="NaN and infinities elsewhere on the final_report line; those on other lines are counted "
    '(a policy stating nonfinite_elsewhere "refuse" refuses both)',
    gate=_gate,
    nonfinite="openai/evals writes accuracy NaN when no event was recorded",
)

SAMPLES = None
