# SPDX-License-Identifier: MIT
"""Grader judgments: LLM-as-judge output (docs/judgments.md).

A judge can return valid JSON without a usable judgment:
``{"reason": "The answer was considered."}`` has neither a verdict nor a
score.  Evaluation frameworks have turned that into a pass, a fail or a
silent zero.  Here it is a third state, ``Outcome.GRADER_ERROR``, kept until
a decision is possible and mapped to ``Verdict.INVALID`` at the release
gate.  Negation flips PASS and FAIL only: a failure to obtain a judgment is
never evidence for the opposite claim.
"""

from __future__ import annotations

import enum
import re
import types

from ._constants import DEFAULT_MAX_BYTES
from ._decide import checked_score, decide_with_reason
from ._describe import describe_value, format_number, json_kind
from ._encoding import decode_evidence
from ._errors import InvalidEvidence, PolicyError, invalid_at
from ._extract import find_json_text
from ._policy import UNSET, check_limit, policy_for
from ._score import to_decimal
from ._strict_json import MAX_NUMBER_LENGTH, parse_json
from ._value import NoTruthValue, Value
from ._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Optional

    from ._jsonpath import Query
    from ._policy import Policy
    from ._score import Number
    from ._select import Selection

    Judged = tuple["Outcome", str, str, Optional[bool], Optional[Number]]

__all__ = ["Judgment", "Outcome", "judge"]

# RFC 8259 section 6 number syntax, exactly.  "[0-9]" is ASCII in Python's
# re whatever the flags, unlike "\d" and unlike float(), which accepts
# " 0.9 ", "1_0", "NaN", "Infinity" and Arabic-Indic digits.
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


class Outcome(NoTruthValue, enum.Enum):
    """The outcome of a judgment: PASS, FAIL or GRADER_ERROR.

    ``GRADER_ERROR`` means no usable judgment was obtained.  It is a
    distinct member, not ``Verdict.INVALID``, so it stays recognisable
    until the release gate maps it with ``.verdict``.  Like a ``Verdict``,
    an outcome has no truth value.
    """

    PASS = "PASS"
    FAIL = "FAIL"
    GRADER_ERROR = "GRADER_ERROR"

    @property
    def verdict(self) -> Verdict:
        """The release verdict: PASS, FAIL, or INVALID for GRADER_ERROR."""
        return _VERDICTS[self]

    @property
    def exit_code(self) -> int:
        """The command line's exit status: PASS 0, FAIL 1, GRADER_ERROR 3."""
        return _VERDICTS[self].exit_code


_VERDICTS = {
    Outcome.PASS: Verdict.PASS,
    Outcome.FAIL: Verdict.FAIL,
    Outcome.GRADER_ERROR: Verdict.INVALID,
}
_OUTCOMES = {Verdict.PASS: Outcome.PASS, Verdict.FAIL: Outcome.FAIL}


class Judgment(NoTruthValue, Value):
    """The outcome of ``judge()``: a judgment and why.

    Attributes:

    - ``outcome``: ``Outcome.PASS``, ``FAIL`` or ``GRADER_ERROR``, after
      negation;
    - ``verdict``: the release ``Verdict``; ``GRADER_ERROR`` is ``INVALID``;
    - ``code``: the stable reason code, for example ``"no-judgment"``.
      Under negation it still says what the grader's answer was
      (``"explicit-pass"`` on a negated, hence failing, judgment);
    - ``message``: the explanation, for people;
    - ``grader_pass``: the grader's verdict, ``True`` or ``False``, or
      ``None`` when the ``"pass"`` member is absent or not a verdict;
    - ``score``: the usable score (a numeric string converted), else None;
    - ``members``: every member of the grader's object as read, ``"pass"``
      and ``"score"`` included, as a read-only mapping; extra members such
      as ``"reason"`` are kept, not refused.  None when no object was read;
    - ``negated``: whether negation was requested, whatever the outcome;
    - ``threshold``: the threshold applied, or None when none was set;
    - ``policy``: the ``Policy`` whose bounds (and threshold) applied;
    - ``pos``, ``lineno``, ``colno``: where in the text the problem is,
      when one place is to blame; else None;
    - ``selection``: with ``judge(select=...)``, the ``Selection`` (query,
      normalized path, listed non-finite paths); else None.

    Judgments are immutable, compare equal by value (members included) and
    have no truth value.
    """

    __slots__ = (
        "outcome",
        "code",
        "message",
        "grader_pass",
        "score",
        "_members",
        "negated",
        "threshold",
        "policy",
        "pos",
        "lineno",
        "colno",
        "selection",
    )
    _shown = ("outcome", "code", "message", "negated")

    outcome: Outcome
    code: str
    message: str
    grader_pass: bool | None
    score: Number | None
    _members: dict[object, object] | None
    negated: bool
    threshold: Number | None
    policy: Policy
    pos: int | None
    lineno: int | None
    colno: int | None
    selection: Selection | None

    def __init__(
        self,
        outcome: Outcome,
        /,
        *,
        code: str,
        message: str,
        grader_pass: bool | None,
        score: Number | None,
        members: dict[object, object] | None,
        negated: bool,
        threshold: Number | None,
        policy: Policy,
        pos: int | None = None,
        lineno: int | None = None,
        colno: int | None = None,
        selection: Selection | None = None,
    ) -> None:
        self._fill(
            outcome=outcome,
            code=code,
            message=message,
            grader_pass=grader_pass,
            score=score,
            _members=members,
            negated=negated,
            threshold=threshold,
            policy=policy,
            pos=pos,
            lineno=lineno,
            colno=colno,
            selection=selection,
        )

    @property
    def verdict(self) -> Verdict:
        """The release verdict: GRADER_ERROR becomes INVALID."""
        return self.outcome.verdict

    @property
    def members(self) -> Mapping[object, object] | None:
        """The grader's object as read, read-only; None if none was read."""
        return None if self._members is None else types.MappingProxyType(self._members)

    def _hash_key(self) -> tuple[object, ...]:
        # A grader's members may hold lists, which cannot be hashed; equal
        # judgments still hash equal without them.
        return (self.outcome, self.code, self.message, self.negated, self.pos)

    def as_dict(self) -> dict[str, object]:
        """Return the judgment as a dict (JSON-ready for judgments read from text).

        ``location`` is ``{"pos", "line", "column"}`` where one place is to
        blame, else None, as in ``Decision.as_dict()``.
        """
        location: dict[str, object] | None = None
        if self.pos is not None:
            location = {"pos": self.pos, "line": self.lineno, "column": self.colno}
        return {
            "outcome": self.outcome.value,
            "verdict": self.verdict.value,
            "code": self.code,
            "message": self.message,
            "pass": self.grader_pass,
            "score": self.score,
            "negated": self.negated,
            "threshold": self.threshold,
            "members": None if self._members is None else dict(self._members),
            "policy": self.policy.as_dict(),
            "location": location,
            "selection": None if self.selection is None else self.selection.as_dict(),
        }


def _check_flag(name: str, value: object) -> bool:
    # A truthy string such as "false" must not switch negation on.
    if type(value) is not bool:
        raise PolicyError("bad-policy", f"{name} must be True or False, not {describe_value(value)}")
    return value


def _check_spellings(spellings: object) -> dict[str, bool] | None:
    """Validate ``verdict_spellings``: a mapping of strings to bools."""
    if spellings is None:
        return None
    from collections.abc import Mapping

    if not isinstance(spellings, Mapping):
        raise PolicyError(
            "bad-policy",
            f"verdict_spellings must map strings to True or False, not {describe_value(spellings)}",
        )
    checked: dict[str, bool] = {}
    for spelling, meaning in spellings.items():
        if type(spelling) is not str or not spelling or type(meaning) is not bool:
            raise PolicyError(
                "bad-policy",
                "verdict_spellings must map non-empty strings to True or False, "
                f"not {describe_value(spelling)} to {describe_value(meaning)}",
            )
        checked[spelling] = meaning
    return checked


def _select_members(
    document: object, records: list[tuple[str, str]], query: Query, policy: Policy, found: list[Selection]
) -> dict[object, object]:
    """The selection stage for a judgment: the one node must be an object."""
    from ._select import Selection, check_requirements, select_one, split_records

    check_requirements(document, policy)
    path, value = select_one(document, query)
    found[0] = Selection(query.text, path)
    listed = split_records(records, path, policy) if records else []
    if listed:
        found[0] = Selection(query.text, path, listed, len(listed))
    if type(value) is not dict:
        raise InvalidEvidence(
            "not-an-object", f"a judgment must be a JSON object; the value at {path} is {json_kind(value)}"
        )
    return value


def _read_members(
    raw: object,
    policy: Policy,
    extract: bool,
    max_bytes: int,
    query: Query | None = None,
    found: list[Selection] | None = None,
) -> dict[object, object]:
    """Return the grader's object; raise InvalidEvidence if there is none.

    With *query*, the object is the one node it selects in the document,
    and ``found[0]`` becomes its ``Selection``.
    """
    if query is not None and found is not None:
        if isinstance(raw, (str, bytes, bytearray, memoryview)):
            from ._evaluate import load_with_records

            document, records = load_with_records(decode_evidence(raw, max_bytes), policy)
            return _select_members(document, records, query, policy, found)
        from collections.abc import Mapping

        if not isinstance(raw, Mapping):
            raise InvalidEvidence(
                "input-type", f"a judgment must be str, bytes or a mapping, not {describe_value(raw)}"
            )
        return _select_members(_read_members(raw, policy, False, max_bytes), [], query, policy, found)
    if isinstance(raw, (str, bytes, bytearray, memoryview)):
        text = decode_evidence(raw, max_bytes)
        if not extract:
            value = parse_json(text, exact=policy.exact)
        else:
            start, end = find_json_text(text)
            try:
                value = parse_json(text[start:end], exact=policy.exact)
            except InvalidEvidence as exc:
                if exc.pos is None:
                    raise
                # Point into the whole answer, not into the extracted span.
                raise invalid_at(exc.code, exc.message, text, start + exc.pos) from None
        if type(value) is not dict:
            raise InvalidEvidence(
                "not-an-object",
                f"a judgment must be a JSON object, not {json_kind(value)}",
            )
        return value
    from collections.abc import Mapping

    if not isinstance(raw, Mapping):
        raise InvalidEvidence(
            "input-type",
            f"a judgment must be str, bytes or a mapping, not {describe_value(raw)}",
        )
    try:
        pairs = list(raw.items())
        members = dict(pairs)
    except Exception as exc:  # a caller's mapping that cannot be read
        raise InvalidEvidence("input-type", f"the judgment mapping could not be read ({type(exc).__name__})") from None
    if len(members) != len(pairs):
        # A broken mapping can yield a name twice; the last would win.
        raise InvalidEvidence("duplicate-member", "the judgment mapping yields a member name twice")
    return members


def _read_verdict(value: object, spellings: dict[str, bool] | None) -> bool | None:
    """Return the verdict in *value*, or None if it is not one.

    Only a JSON boolean is a verdict: ``"true"``, ``"yes"``, ``1`` and
    ``null`` are not, unless *spellings* lists the string.
    """
    if type(value) is bool:
        return value
    if spellings is not None and type(value) is str:
        return spellings.get(value)
    return None


def _read_score(value: object, policy: Policy, numeric_strings: bool) -> tuple[Number | None, str]:
    """Return ``(score, "")`` for a usable score, else ``(None, why)``."""
    if type(value) is str:
        text: str = value
        if not numeric_strings:
            return (None, f"score is {describe_value(text)}, and numeric strings are not allowed")
        if len(text) > MAX_NUMBER_LENGTH or _JSON_NUMBER.fullmatch(text) is None:
            return (None, f"score is {describe_value(text)}, not a number in JSON syntax")
        try:
            # The same strict decoder as evidence: digit cap, and "1e400"
            # refused as non-finite rather than read as infinity.
            value = parse_json(text, exact=policy.exact)
        except InvalidEvidence as exc:
            return (None, f"score is {describe_value(text)}: {exc.message}")
    score = checked_score(value, policy)
    if isinstance(score, tuple):
        return (None, score[1])
    return (score, "")


def _judge_members(
    members: dict[object, object],
    policy: Policy,
    has_threshold: bool,
    numeric_strings: bool,
    spellings: dict[str, bool] | None,
) -> Judged:
    """Apply the table of docs/judgments.md to the grader's object."""
    grader_pass: bool | None = None
    if "pass" in members:
        grader_pass = _read_verdict(members["pass"], spellings)
        if grader_pass is None:
            allowed = "true or false" if spellings is None else "true, false or an accepted spelling"
            return (
                Outcome.GRADER_ERROR,
                "verdict-not-boolean",
                f'"pass" is {describe_value(members["pass"])}, not a verdict ({allowed})',
                None,
                None,
            )
    score: Number | None = None
    if "score" in members:
        score, why = _read_score(members["score"], policy, numeric_strings)
        if score is None:
            # Whatever the verdict: a grader that wrote "high" did not
            # produce the evidence the contract reads.
            return (Outcome.GRADER_ERROR, "unusable-score", why, grader_pass, None)
    shown = "" if score is None else f" (score {format_number(score)})"
    if grader_pass is False:
        # An explicit fail stands even with a high score.
        return (
            Outcome.FAIL,
            "explicit-fail",
            f'the grader said "pass": false{shown}',
            False,
            score,
        )
    if grader_pass is True and not has_threshold:
        # An explicit pass stands even with score 0 when no threshold is set.
        return (
            Outcome.PASS,
            "explicit-pass",
            f'the grader said "pass": true{shown} and no threshold is set',
            True,
            score,
        )
    said = 'the grader said "pass": true' if grader_pass else "no verdict"
    if score is None:
        if grader_pass:
            return (
                Outcome.GRADER_ERROR,
                "no-score-for-threshold",
                f"{said} but no score, and threshold {format_number(policy.threshold)} has nothing to judge",
                True,
                None,
            )
        names = [ascii(name) for name in members if type(name) is str][:5]
        found = f" (members: {', '.join(names)})" if names else ""
        return (
            Outcome.GRADER_ERROR,
            "no-judgment",
            f"no verdict and no score{found}",
            None,
            None,
        )
    if has_threshold:
        verdict, code, message = decide_with_reason(score, policy)
        # The score was checked above, so the verdict is PASS or FAIL; were
        # it anything else, it must not become a FAIL that negation flips.
        outcome = _OUTCOMES.get(verdict, Outcome.GRADER_ERROR)
        return (outcome, code, f"{said}; {message}", grader_pass, score)
    # No verdict and no threshold: a positive score passes, zero fails.
    value = to_decimal(score) if policy.exact else score
    if value > 0:
        return (
            Outcome.PASS,
            "positive-score",
            f"no verdict; score {format_number(score)} > 0 and no threshold is set",
            None,
            score,
        )
    return (
        Outcome.FAIL,
        "zero-score",
        f"no verdict; score {format_number(score)} is not above 0 and no threshold is set",
        None,
        score,
    )


def judge(
    raw_or_mapping: str | bytes | Mapping[object, object],
    /,
    *,
    threshold: Number | None = None,
    negate: bool = False,
    policy: Policy | None = None,
    extract: bool = False,
    numeric_strings: bool = True,
    verdict_spellings: Mapping[str, bool] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    select: str | None = None,
) -> Judgment:
    """Judge a grader's answer and return a ``Judgment``.

    *raw_or_mapping* is the grader's JSON text (``bytes`` or ``str``) or an
    already decoded mapping.  Text is read with the strict loader of
    ``loads()``: UTF-8 only, no ``NaN``, no duplicate members, one JSON
    object.  With *extract* true, the JSON text is first found inside prose
    or a fenced ```` ```json ```` block by the rule of ``extract_json()``.

    The object's ``"pass"`` member is the verdict and must be a JSON boolean;
    its ``"score"`` member must be usable: a finite number within the
    policy's bounds, or, when *numeric_strings* is true (the default), a
    string in exact JSON number syntax with such a value (``"0.9"``, not
    ``" 0.9 "``, ``"1_0"`` or ``"NaN"``).  Other members, such as
    ``"reason"``, are kept in ``Judgment.members``.  Then (docs/judgments.md):

    - ``"pass": false`` is FAIL, whatever the score and threshold;
    - ``"pass": true`` is PASS with no threshold, even with score 0; with a
      threshold, PASS needs a score at or above it, and no score at all is
      a grader error;
    - no verdict: with no threshold a score above 0 passes; with one,
      ``score >= threshold`` passes;
    - no verdict and no score, a ``"pass"`` that is not a verdict, or a
      present but unusable score is ``Outcome.GRADER_ERROR``.

    *threshold* None (the default) means no threshold is set; a number sets
    one.  (Only here: ``evaluate``, ``decide`` and ``report`` refuse None.)  *policy* sets bounds, exact mode and always a threshold; give one
    or the other.  *negate* swaps PASS and FAIL; a GRADER_ERROR stays one,
    and ``Judgment.negated`` records the request.  *verdict_spellings*
    maps extra strings to verdicts (``{"yes": True, "no": False}``); none
    are accepted by default.

    *select*, a JSONPath query or JSON Pointer (docs/selection.md), finds
    the judgment inside a larger document: it must select exactly one node,
    a JSON object, which is then judged as above (``no-match``,
    ``ambiguous-selection``, ``not-an-object`` otherwise); it cannot be
    combined with *extract*.  ``Judgment.selection`` records where.  The
    policy's requirements must hold on the whole document.

    Never raises for any *raw_or_mapping*: every problem is a GRADER_ERROR
    with a reason code.  Bad options raise ``PolicyError``.

        >>> judge('{"reason": "The answer was considered."}').code
        'no-judgment'
        >>> judge('{"pass": true, "score": 0}').outcome
        <Outcome.PASS: 'PASS'>
        >>> judge('{"score": "high"}', negate=True).outcome
        <Outcome.GRADER_ERROR: 'GRADER_ERROR'>
    """
    # Here, and only here, None is a value: no threshold is set.
    resolved = policy_for(UNSET if threshold is None else threshold, policy)
    has_threshold = threshold is not None or policy is not None
    negate = _check_flag("negate", negate)
    extract = _check_flag("extract", extract)
    numeric_strings = _check_flag("numeric_strings", numeric_strings)
    spellings = _check_spellings(verdict_spellings)
    if max_bytes != DEFAULT_MAX_BYTES:
        check_limit("max_bytes", max_bytes)
    limit = resolved.threshold if has_threshold else None
    query: Query | None = None
    found: list[Selection] = []
    if select is not None:
        if extract:
            raise PolicyError(
                "option-conflict", "select= cannot be combined with extract=: give one way to find the judgment"
            )
        from ._jsonpath import compile_query
        from ._select import Selection

        query = compile_query(select)
        found = [Selection(query.text)]
    members: dict[object, object] | None = None
    try:
        if query is None and resolved.require:
            from ._select import check_requirements

            members = _read_members(raw_or_mapping, resolved, extract, max_bytes)
            check_requirements(members, resolved)
        else:
            members = _read_members(raw_or_mapping, resolved, extract, max_bytes, query, found)
        outcome, code, message, grader_pass, score = _judge_members(
            members, resolved, has_threshold, numeric_strings, spellings
        )
    except InvalidEvidence as exc:
        from ._evaluate import too_large_hint

        exc = too_large_hint(exc)
        return Judgment(
            Outcome.GRADER_ERROR,
            code=exc.code,
            message=exc.message + (_NOT_NEGATED if negate else ""),
            grader_pass=None,
            score=None,
            members=members,
            negated=negate,
            threshold=limit,
            policy=resolved,
            pos=exc.pos,
            lineno=exc.lineno,
            colno=exc.colno,
            selection=found[0] if found else None,
        )
    except Exception as exc:  # fail closed: a defect here must not release
        return Judgment(
            Outcome.GRADER_ERROR,
            code="internal-error",
            message=f"unexpected {type(exc).__name__} in scorecontract; please report it",
            grader_pass=None,
            score=None,
            members=members,
            negated=negate,
            threshold=limit,
            policy=resolved,
            selection=found[0] if found else None,
        )
    if negate:
        # Negation applies to a judgment, and only once one exists.
        if outcome is Outcome.PASS:
            outcome, message = Outcome.FAIL, message + "; negated: FAIL"
        elif outcome is Outcome.FAIL:
            outcome, message = Outcome.PASS, message + "; negated: PASS"
        else:
            message += _NOT_NEGATED
    return Judgment(
        outcome,
        code=code,
        message=message,
        grader_pass=grader_pass,
        score=score,
        members=members,
        negated=negate,
        threshold=limit,
        policy=resolved,
        selection=found[0] if found else None,
    )


_NOT_NEGATED = "; negation does not apply to a grader error"
