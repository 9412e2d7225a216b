# SPDX-License-Identifier: MIT
"""The producer side (docs/api.md, "Producing evidence"): a record to strict JSON, or nothing.

``json.dumps`` writes ``NaN`` and ``Infinity`` by default, turns the keys
``1`` and ``"1"`` into the same member name, and cannot write a
``decimal.Decimal`` as a number at all.  ``dumps`` checks the record with
the consumer's own rules and reason codes first, so a producer finds out at
write time what the gate would say at read time.  That does not replace
the consumer's check: evidence may come from another producer or a cache.

Three shapes, each the one its consumer reads: the score record
(``evaluate``), a trial line (``report``, docs/reports.md) and the envelope
bound to a candidate (``evaluate(candidate=...)``, docs/provenance.md).
"""

from __future__ import annotations

import math

from ._describe import describe_value
from ._errors import InvalidEvidence, PolicyError
from ._policy import UNSET, policy_for
from ._provenance import ENVELOPE_MEMBERS
from ._record import score_of_record
from ._score import exact_context, number_problem
from ._strict_json import MAX_DEPTH, MAX_NUMBER_LENGTH

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._policy import Policy

__all__ = ["SHAPES", "dumps"]

SHAPES = ("score", "trial", "envelope")


def dumps(record: object, /, *, policy: Policy | None = None, shape: str = "score") -> str:
    """Serialise *record* to a strict JSON ``str``, in the given *shape*.

    *shape* names what the record is and which consumer reads it:

    - ``"score"`` (the default): ``{"score": <number>}``, exactly that one
      member, as ``evaluate()`` reads it;
    - ``"trial"``: one line of a trials file for ``report()``,
      ``{"trial_id": "<non-empty string>", "score": <number>}`` plus any
      other members, whose values must be JSON values (``dict`` with
      ``str`` keys, ``list``, ``str``, ``int``, finite ``float``, ``bool``,
      ``None``);
    - ``"envelope"``: ``{"candidate": ..., "run_id": ..., "score": ...}``
      as ``evaluate(candidate=...)`` reads it: *candidate* and, when
      present, *run_id* non-empty strings, and no other member.

    The score is an ``int`` or ``float`` (or, under an exact *policy*, a
    ``decimal.Decimal``) that is finite and within the *policy*'s bounds
    (default ``[0, 1]``).  Members are written in the record's order with
    ``json.dumps``'s separators and ``allow_nan=False``; a ``Decimal``
    score is written as its exact decimal text, a number, never a string.
    The text is one line: a trial line can be written to a file followed
    by ``"\\n"``.

    Raises ``InvalidEvidence`` for a record the consumer would refuse, with
    the consumer's reason code: ``wrong-type`` (``True``, ``"0.9"``, a
    NumPy scalar, a ``Decimal`` without an exact policy, or in a trial's
    other members), ``non-finite``, ``out-of-range``, ``not-an-object``,
    ``missing-member``, ``unexpected-member`` (including a member name that
    is not a ``str``), ``duplicate-member`` (two keys that would be written
    as the same name, such as ``1`` and ``"1"``), ``too-many-digits`` (a
    literal over 640 characters, or a ``Decimal`` with an exponent beyond
    +-1000), ``too-deep``, ``bad-trial-id``, ``missing-candidate``,
    ``candidate-mismatch`` and ``run-id-mismatch``.  The text written is
    read back with the consumer's own reader before it is returned, so
    whatever the consumer refuses, ``dumps`` refuses.  A bad *policy* or
    *shape* raises ``PolicyError``.

        >>> dumps({"score": 0.9})
        '{"score": 0.9}'
        >>> dumps({"trial_id": "t-1", "score": 1, "seed": 7}, shape="trial")
        '{"trial_id": "t-1", "score": 1, "seed": 7}'
        >>> dumps({"score": float("nan")})
        Traceback (most recent call last):
          ...
        scorecontract._errors.InvalidEvidence: non-finite: score is nan, not a finite number
    """
    # Writing a record judges nothing: a report's confidence is no concern here.
    policy = policy_for(UNSET, policy, bounded=True)
    if type(shape) is not str or shape not in SHAPES:
        raise PolicyError("bad-policy", f"shape must be 'score', 'trial' or 'envelope', not {describe_value(shape)}")
    if type(record) is not dict:
        # A dict subclass can serialise differently from what was checked.
        raise InvalidEvidence("not-an-object", f"the record must be a dict, not {describe_value(record)}")
    _check_names(record)
    members: dict[str, object] = record  # _check_names: every name is a str
    if shape == "score":
        score = score_of_record(members)
    elif shape == "trial":
        score = _trial_score(members)
    else:
        score = _envelope_score(members)
    # Type and finiteness first: NaN, True or a NumPy scalar have no text
    # to hand to the consumer.  The range is the consumer's to check, after
    # its decoder, so the code is the one it gives (too-many-digits before
    # out-of-range for 1E+1001).
    problem = number_problem(score, policy.exact)
    if problem is not None:
        raise InvalidEvidence(problem[0], f"score is {problem[1]}")
    text = _write(members, _number_literal(score))
    _consumer_check(text, policy, shape, members)
    return text


def _trial_score(record: dict[str, object]) -> object:
    """The score of a trial line, checked in the order ``read_trial`` checks."""
    _check_values(record)
    if "trial_id" not in record:
        raise InvalidEvidence("missing-member", 'the trial record has no "trial_id" member')
    trial_id = record["trial_id"]
    if type(trial_id) is not str or not trial_id:
        raise InvalidEvidence("bad-trial-id", f'"trial_id" must be a non-empty string, not {describe_value(trial_id)}')
    if "score" not in record:
        raise InvalidEvidence("missing-member", 'the trial record has no "score" member')
    return record["score"]


def _envelope_score(record: dict[str, object]) -> object:
    """The score of an envelope, checked in the order ``envelope_score`` checks."""
    for name, missing, mismatch in (
        ("candidate", "missing-candidate", "candidate-mismatch"),
        ("run_id", None, "run-id-mismatch"),
    ):
        if name not in record:
            if missing is None:
                continue  # run_id is optional
            raise InvalidEvidence(missing, f'the envelope has no "{name}" member')
        value = record[name]
        # A gate requires a non-empty string; no gate can match another.
        if type(value) is not str or not value:
            raise InvalidEvidence(mismatch, f'"{name}" must be a non-empty string, not {describe_value(value)}')
    if "score" not in record:
        raise InvalidEvidence("missing-member", 'the envelope has no "score" member')
    extra = [name for name in record if name not in ENVELOPE_MEMBERS]
    if extra:
        raise InvalidEvidence(
            "unexpected-member",
            "the envelope has members besides candidate, run_id and score: "
            + ", ".join(ascii(name) for name in extra[:5]),
        )
    return record["score"]


def _write(record: dict[str, object], literal: str) -> str:
    """The record's text: *literal* for the score, ``json.dumps`` for the rest.

    The stdlib encoder has no hook for writing a number's own text (a float
    subclass's ``__repr__`` is ignored, ``default=`` can only return JSON
    values), so the score's literal is put in place by the member writer.
    """
    import json

    parts = []
    for name, value in record.items():
        shown = literal if name == "score" else json.dumps(value, allow_nan=False)
        parts.append(f"{json.dumps(name)}: {shown}")
    return "{" + ", ".join(parts) + "}"


def _consumer_check(text: str, policy: Policy, shape: str, record: dict[str, object]) -> None:
    """Read *text* back as its consumer reads it; raise what it refuses.

    The checks above give the consumer's reason codes early; this is what
    makes them complete: whatever rule the decoder has (the exact exponent
    bound refuses ``1E-1001``, a lone surrogate in a trial id, a valid
    Decimal in range), ``dumps`` cannot write text the consumer refuses.
    """
    from ._decide import score_problem
    from ._strict_json import parse_json

    if shape == "trial":
        from ._trials import read_trial
        from ._verdict import Verdict

        line = text.encode("ascii")  # json.dumps writes ASCII
        _, verdict, code, message, _ = read_trial(line, policy, len(line))
        if verdict is Verdict.INVALID:
            raise InvalidEvidence(code, message)
        return
    value = parse_json(text, exact=policy.exact)
    if shape == "envelope":
        from ._provenance import envelope_score

        run_id = record.get("run_id")
        score = envelope_score(value, str(record["candidate"]), None if run_id is None else str(run_id))
    else:
        score = score_of_record(value)
    problem = score_problem(score, policy)
    if problem is not None:
        raise InvalidEvidence(problem[0], problem[1])


def _check_names(record: dict[object, object]) -> None:
    """Refuse member names that are not exactly ``str``.

    ``json.dumps`` writes the key ``1`` as ``"1"``, ``True`` as ``"true"``
    and ``None`` as ``"null"``, and a ``str`` subclass as its text, so two
    distinct keys can become one duplicated name (RFC 8259 section 4).
    """
    names: set[str] = set()
    for key in record:
        name = _json_name(key)
        if name is not None:
            if name in names:
                raise InvalidEvidence(
                    "duplicate-member",
                    f"two keys would both be written as the member name {name!a}",
                )
            names.add(name)
    for key in record:
        if type(key) is not str:
            raise InvalidEvidence(
                "unexpected-member",
                f"member names must be str, not {describe_value(key)}",
            )


def _json_name(key: object) -> str | None:
    """Return the member name ``json.dumps`` would write for *key*, if any."""
    # Exact-type checks first: a subclass may override __str__/__repr__,
    # which the encoder ignores, so call the base implementations.
    if isinstance(key, str):
        return str.__str__(key)
    if key is None:
        return "null"
    if key is True:
        return "true"
    if key is False:
        return "false"
    if isinstance(key, int):
        if int.bit_length(key) > 4 * MAX_NUMBER_LENGTH:
            return None  # str() may refuse it; refused below as a non-str key anyway
        return int.__repr__(key)
    if isinstance(key, float):
        return float.__repr__(key)
    return None


def _check_values(record: dict[str, object]) -> None:
    """Refuse a member, other than the score, that is not a strict JSON value.

    The walk is iterative and bounded by the consumer's depth limit, so a
    list that contains itself is ``too-deep``, not a ``RecursionError``.
    """
    pending = [(value, 2) for name, value in record.items() if name != "score"]
    while pending:
        value, depth = pending.pop()
        if value is None or type(value) is bool or type(value) is str:
            continue
        if type(value) is int:
            _int_literal(value)
        elif type(value) is float:
            if not math.isfinite(value):
                raise InvalidEvidence("non-finite", f"a member holds {value!r}, not a finite number")
        elif type(value) is list or type(value) is dict:
            if depth > MAX_DEPTH:
                raise InvalidEvidence("too-deep", f"nesting deeper than {MAX_DEPTH} levels")
            if type(value) is dict:
                _check_names(value)
                items = list(value.values())
            else:
                items = list(value)
            pending.extend((item, depth + 1) for item in items)
        else:
            raise InvalidEvidence(
                "wrong-type",
                f"a member holds {describe_value(value)}, which is not a JSON value (only the score may be a Decimal)",
            )


def _int_literal(value: int) -> str:
    """The text of *value*; refuse one the consumer's digit cap refuses."""
    # str() of an int over 4300 digits raises on Python 3.11+; past 2560
    # bits (771 digits) it is over the limit anyway.
    if value.bit_length() <= 4 * MAX_NUMBER_LENGTH:
        text = str(value)
        if len(text) <= MAX_NUMBER_LENGTH:
            return text
    raise InvalidEvidence(
        "too-many-digits",
        f"a number would be written as a literal over {MAX_NUMBER_LENGTH} characters, which the consumer refuses",
    )


def _number_literal(score: object) -> str:
    """Return the JSON text of a valid *score*; refuse one too long to read back."""
    if type(score) is float:
        return float.__repr__(score)  # at most 24 characters
    if type(score) is int:
        return _int_literal(score)
    from decimal import Decimal

    if type(score) is Decimal:
        # A Decimal's text in the private context: str() would follow the
        # thread's context, whose capitals = 0 writes 1e-5 for 1E-5.
        text = exact_context().to_sci_string(score)
        if len(text) <= MAX_NUMBER_LENGTH:
            return text
        raise InvalidEvidence(
            "too-many-digits",
            f"the score would be written as a number literal over {MAX_NUMBER_LENGTH} characters, "
            "which the consumer refuses",
        )
    # number_problem admitted nothing else.
    raise InvalidEvidence("wrong-type", f"score is {describe_value(score)}, not a number")
