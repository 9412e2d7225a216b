# SPDX-License-Identifier: MIT
"""Binding evidence to what it judges: the candidate and the run.

A well-formed passing score proves nothing about *which* model it scored.
The envelope ``{"candidate": "<id>", "run_id": "<id>", "score": <number>}``
names both, and a gate that is told the candidate (and, to refuse a replayed
older file, the run) compares them before it looks at the score.

Ids are compared exactly, as JSON string values (after unescaping, as
member names are for duplicates), code point by code point: no case folding,
no whitespace trimming, no Unicode normalisation.  ``"Model-A"``,
``"model-a "`` and a decomposed ``"e\\u0301"`` are other candidates than
``"model-a"`` and ``"\\u00e9"``; a gate that "helpfully" matched them would
let one candidate's evidence release another.
"""

from __future__ import annotations

from ._describe import clip_text, describe_value, json_kind
from ._errors import InvalidEvidence, PolicyError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._policy import Policy

__all__ = ["ENVELOPE_MEMBERS", "check_binding", "envelope_score", "member_problem"]

# The members an envelope declares; any other is unexpected, as in the plain
# record.  run_id may be present without being pinned.
ENVELOPE_MEMBERS = ("candidate", "run_id", "score")

# member -> (its code when absent, its code when not the required string)
_CODES = {
    "candidate": ("missing-candidate", "candidate-mismatch"),
    "run_id": ("missing-run-id", "run-id-mismatch"),
}


def check_binding(candidate: object, run_id: object, policy: Policy) -> None:
    """Refuse a ``candidate=``/``run_id=`` pair no gate can apply.

    Raises ``PolicyError``: ``candidate-required`` when *policy* requires
    a candidate and none is given; ``bad-policy`` for an id that is not a
    non-empty ``str``, or a run id without a candidate (a run id pins one
    run of one candidate's evaluation; alone it binds nothing to the
    candidate being released).
    """
    if candidate is None:
        if policy.require_candidate:
            raise PolicyError(
                "candidate-required",
                f"policy {policy.version!r} requires the candidate the evidence is for "
                "(candidate=, or --candidate ID on the command line)",
            )
        if run_id is not None:
            raise PolicyError("bad-policy", "a run id (--run-id) needs the candidate (--candidate) too")
        return
    for name, value in (("candidate", candidate), ("run id", run_id)):
        if value is None:
            continue
        # Exactly str: a subclass could override __eq__ and match anything.
        if type(value) is not str or not value:
            raise PolicyError("bad-policy", f"the {name} must be a non-empty string, not {describe_value(value)}")


def member_problem(record: dict[str, object], name: str, expected: str) -> tuple[str, str] | None:
    """Return ``(code, message)`` unless *record*[*name*] is exactly *expected*."""
    missing, mismatch = _CODES[name]
    if name not in record:
        return (missing, f'the evidence has no "{name}" member; the gate requires {ascii(expected)}')
    found = record[name]
    if type(found) is not str:
        return (mismatch, f'"{name}" must be a string, not {json_kind(found)}')
    if found != expected:
        return (mismatch, f"the evidence is for {name} {clip_text(ascii(found))}, not {ascii(expected)}")
    return None


def envelope_score(value: object, candidate: str, run_id: str | None) -> object:
    """Return the ``"score"`` member of an envelope bound to *candidate*.

    The checks, in order: an object; ``"candidate"`` exactly *candidate*;
    ``"run_id"`` exactly *run_id* when one is pinned; a ``"score"``
    member; no member besides ``candidate``, ``run_id`` and ``score``.
    The binding comes before the shape because a record for another
    candidate calls for other follow-up (the wrong file reached the gate)
    than a malformed one.  Raises ``InvalidEvidence``; the score itself is
    not checked here.
    """
    if type(value) is not dict:
        raise InvalidEvidence(
            "not-an-object",
            f'the evidence must be a JSON object {{"candidate": ..., "score": <number>}}, not {json_kind(value)}',
        )
    problem = member_problem(value, "candidate", candidate)
    if problem is None and run_id is not None:
        problem = member_problem(value, "run_id", run_id)
    if problem is not None:
        raise InvalidEvidence(*problem)
    if "score" not in value:
        raise InvalidEvidence("missing-member", 'the evidence has no "score" member')
    extra = sorted(name for name in value if name not in ENVELOPE_MEMBERS)
    if extra:
        raise InvalidEvidence(
            "unexpected-member",
            "the evidence has members besides candidate, run_id and score: "
            + ", ".join(clip_text(ascii(name)) for name in extra[:5]),
        )
    return value["score"]
