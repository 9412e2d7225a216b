# SPDX-License-Identifier: MIT
"""Stage 3 of the pipeline: the record's shape.

The default record is ``{"score": <number>}``: a JSON object with exactly
one member.  An extra member is refused rather than ignored, because a
producer that writes ``{"score": 0.9, "valid": false}`` is saying something
the gate would otherwise not hear.
"""

from __future__ import annotations

from ._describe import json_kind
from ._errors import InvalidEvidence

__all__ = ["score_of_record"]


def score_of_record(value: object) -> object:
    """Return the ``"score"`` member of a score record.

    Raises ``InvalidEvidence`` unless *value* is a dict with exactly the one
    member ``"score"``.  The score itself is not checked here.
    """
    if type(value) is not dict:
        raise InvalidEvidence(
            "not-an-object",
            f'the record must be a JSON object {{"score": <number>}}, not {json_kind(value)}',
        )
    if "score" not in value:
        raise InvalidEvidence("missing-member", 'the record has no "score" member')
    if len(value) != 1:
        extra = sorted(name for name in value if name != "score")
        raise InvalidEvidence(
            "unexpected-member",
            'the record has members besides "score": ' + ", ".join(ascii(n) for n in extra),
        )
    return value["score"]
