# SPDX-License-Identifier: MIT
"""The producer side (SPEC section 8): a record to strict JSON, or nothing.

``json.dumps`` writes ``NaN`` and ``Infinity`` by default, turns the keys
``1`` and ``"1"`` into the same member name, and cannot write a
``decimal.Decimal`` as a number at all.  ``dumps`` checks the record with
the consumer's own rules and reason codes first, so a producer finds out at
write time what the gate would say at read time.  That does not replace
the consumer's check: evidence may come from another producer or a cache.
"""

from __future__ import annotations

from ._describe import describe_value
from ._errors import InvalidEvidence
from ._policy import policy_for
from ._record import score_of_record
from ._score import exact_context, number_problem, score_problem
from ._strict_json import MAX_NUMBER_LENGTH

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._policy import Policy

__all__ = ["dumps"]


def dumps(record: object, /, *, policy: Policy | None = None) -> str:
    """Serialise the score *record* to a strict JSON ``str``.

    *record* is a ``dict`` of exactly one member, ``"score"``, holding an
    ``int`` or ``float`` (or, under an exact *policy*, a
    ``decimal.Decimal``) that is finite and within the *policy*'s bounds
    (default ``[0, 1]``).  The record is checked first, with the reason
    codes the consumer would give the resulting text; then it is written
    with ``json.dumps(..., allow_nan=False)``.  A ``Decimal`` is written as
    its exact decimal text, a number, never a string.

    Raises ``InvalidEvidence`` for a record the consumer would refuse:
    ``wrong-type`` (``True``, ``"0.9"``, a NumPy scalar, a ``Decimal``
    without an exact policy, ...), ``non-finite``, ``out-of-range``,
    ``not-an-object``, ``missing-member``, ``unexpected-member`` (including
    a member name that is not a ``str``), ``duplicate-member`` (two keys
    that would be written as the same name, such as ``1`` and ``"1"``), and
    ``too-many-digits`` (a literal over 640 characters, or a ``Decimal``
    with an exponent beyond +-1000).  The text written is read back with the
    consumer's own decoder before it is returned, so whatever the consumer
    refuses, ``dumps`` refuses.  A bad *policy* raises ``PolicyError``.

        >>> dumps({"score": 0.9})
        '{"score": 0.9}'
        >>> dumps({"score": float("nan")})
        Traceback (most recent call last):
          ...
        scorecontract._errors.InvalidEvidence: non-finite: score is nan, not a finite number
    """
    import json

    policy = policy_for(None, policy)
    if type(record) is not dict:
        # A dict subclass can serialise differently from what was checked.
        raise InvalidEvidence(
            "not-an-object", f"the record must be a dict {{\"score\": <number>}}, not {describe_value(record)}"
        )
    _check_names(record)
    score = score_of_record(record)
    # Type and finiteness first: NaN, True or a NumPy scalar have no text
    # to hand to the consumer.  The range is the consumer's to check, after
    # its decoder, so the code is the one it gives (too-many-digits before
    # out-of-range for 1E+1001).
    problem = number_problem(score, policy._exact)
    if problem is not None:
        raise InvalidEvidence(problem[0], f"score is {problem[1]}")
    literal = _number_literal(score)
    if type(score) is int or type(score) is float:
        text = json.dumps({"score": score}, allow_nan=False)
    else:
        # The stdlib encoder has no hook for writing a number's own text (a
        # float subclass's __repr__ is ignored, ``default=`` can only return
        # JSON values), so write null and put the Decimal's text in its
        # place: the record's only other token is the name "score".
        text = json.dumps({"score": None}, allow_nan=False).replace("null", literal)
    _consumer_check(text, policy)
    return text


def _consumer_check(text: str, policy: Policy) -> None:
    """Read *text* back as ``evaluate`` reads evidence; raise what it refuses.

    The checks above give the consumer's reason codes early; this is what
    makes them complete: whatever rule the decoder has (the exact exponent
    bound refuses ``1E-1001``, a valid Decimal in range), ``dumps`` cannot
    write text the consumer refuses.
    """
    from ._strict_json import parse_json

    problem = score_problem(score_of_record(parse_json(text, exact=policy._exact)), policy)
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


def _number_literal(score: object) -> str:
    """Return the JSON text of a valid *score*; refuse one too long to read back."""
    kind = type(score)
    if kind is float:
        return float.__repr__(score)  # at most 24 characters
    # str() of an int over 4300 digits raises on Python 3.11+; past 2560
    # bits (771 digits) it is over the limit anyway.
    if kind is not int:
        # A Decimal's text in the private context: str() would follow the
        # thread's context, whose capitals = 0 writes 1e-5 for 1E-5.
        text = exact_context().to_sci_string(score)  # type: ignore[arg-type]
        if len(text) <= MAX_NUMBER_LENGTH:
            return text
    elif int.bit_length(score) <= 4 * MAX_NUMBER_LENGTH:  # type: ignore[arg-type]
        text = str(score)
        if len(text) <= MAX_NUMBER_LENGTH:
            return text
    raise InvalidEvidence(
        "too-many-digits",
        f"the score would be written as a number literal over {MAX_NUMBER_LENGTH} characters, "
        "which the consumer refuses",
    )
