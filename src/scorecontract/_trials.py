# SPDX-License-Identifier: MIT
"""One line of a JSON Lines trial file to one trial observation (docs/reports.md).

A trial record is ``{"trial_id": "<non-empty string>", "score": <number>}``
plus any other members a harness wants to keep (a seed, a model name):
unlike the single score record, extra members are allowed here, and the
score rules are unchanged.  Each line runs the same strict pipeline as
``evaluate()``: byte limit, UTF-8, strict JSON, shape, numeric contract,
threshold.  Under ``--cluster-by`` (``read_trial_cluster``) the record must
also name its cluster.
"""

from __future__ import annotations

import re

from ._decide import decide_with_reason
from ._describe import json_kind
from ._encoding import decode_evidence
from ._errors import InvalidEvidence
from ._provenance import member_problem
from ._strict_json import parse_json
from ._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    import json

    from ._policy import Policy
    from ._score import Number

    # (trial_id or None, verdict, code, message, score or None)
    Observation = tuple["str | None", Verdict, str, str, "Number | None"]
    from typing import Callable

    Matcher = Callable[[bytes], "re.Match[bytes] | None"]

__all__ = ["canonical_trial_matchers", "cluster_key", "read_trial", "read_trial_cluster", "readable_trial_id"]

# The canonical trial line, {"trial_id": "<id>", "score": <number>} in either
# member order, as an exact grammar over bytes: RFC 8259 whitespace and
# number syntax, member names without escapes, and an id of printable ASCII
# without '"' or '\\'.  A line that matches is ASCII, so valid UTF-8 with no
# BOM, no NUL, no surrogates and no control characters; has two distinct
# members, so no duplicates; and holds no escapes and no nesting.  Number
# literals are bounded (20 integer digits, 40 fraction digits, a 3-digit
# exponent) far below the digit cap, so a longer one takes the full path,
# which applies the cap.  Everything else -- an escape, a non-ASCII id, an
# extra member, NaN -- takes the full path; tests/test_report_fast_path.py
# keeps the two in agreement.
_WS = r"[ \t\n\r]*"
_ID = _WS + r'"trial_id"' + _WS + ":" + _WS + r'"([\x20\x21\x23-\x5b\x5d-\x7e]+)"' + _WS
_SCORE = (
    _WS + r'"score"' + _WS + ":" + _WS + r"(-?(?:0|[1-9][0-9]{0,19})((?:\.[0-9]{1,40})?(?:[eE][-+]?[0-9]{1,3})?))" + _WS
)
_CANONICAL_TRIAL = (
    _WS + r"\{" + _ID + "," + _SCORE + r"\}" + _WS,
    _WS + r"\{" + _SCORE + "," + _ID + r"\}" + _WS,
)
_matchers: list[tuple[Matcher, Matcher]] = []


def canonical_trial_matchers() -> tuple[Matcher, Matcher]:
    """Return the ``fullmatch`` of the canonical trial line, in each order.

    A match's groups are ``(trial_id, number, fraction_and_exponent)`` for
    the id-first order, ``(number, fraction_and_exponent, trial_id)`` for the
    score-first order; an empty *fraction_and_exponent* means an int.
    """
    if not _matchers:
        first, second = (re.compile(pattern.encode("ascii")) for pattern in _CANONICAL_TRIAL)
        _matchers.append((first.fullmatch, second.fullmatch))
    return _matchers[0]


def _trial_id_problem(value: dict[str, object]) -> tuple[str, str] | None:
    if "trial_id" not in value:
        return ("missing-member", 'the trial record has no "trial_id" member')
    trial_id = value["trial_id"]
    if type(trial_id) is not str or not trial_id:
        return (
            "bad-trial-id",
            f'"trial_id" must be a non-empty string, not {_describe_id(trial_id)}',
        )
    return None


def _describe_id(value: object) -> str:
    if type(value) is str:
        return "an empty string"
    return json_kind(value)


def read_trial(
    line: bytes, policy: Policy, max_bytes: int, candidate: str | None = None, keep: list[object] | None = None
) -> Observation:
    """Return ``(trial_id, verdict, code, message, score)`` for one line.

    With *candidate*, the record's ``"candidate"`` member must be exactly
    that string (``missing-candidate``, ``candidate-mismatch``), checked
    after the trial id so the report can say which trial it was.

    *line* is the line's bytes without its ``\\n``.  The verdict is PASS or
    FAIL for valid evidence (with its score), INVALID otherwise; for invalid
    evidence *trial_id* is whatever ``readable_trial_id`` can make out, so
    the report can say which trial the bad line was about.  Never raises
    for any bytes.
    """
    if not line.strip(b" \t\r"):
        # JSON Lines has no blank lines; only the file's final newline may
        # end in nothing, and the reader never hands that over as a line.
        return (None, Verdict.INVALID, "empty", "blank line, not a trial record", None)
    try:
        value = parse_json(decode_evidence(line, max_bytes), exact=policy.exact)
        if type(value) is not dict:
            raise InvalidEvidence(
                "not-an-object",
                f'a trial record must be a JSON object {{"trial_id": ..., "score": ...}}, not {json_kind(value)}',
            )
        problem = _trial_id_problem(value)
        if problem is not None:
            return (None, Verdict.INVALID, problem[0], problem[1], None)
        trial_id: str = value["trial_id"]
        if candidate is not None:
            problem = member_problem(value, "candidate", candidate)
            if problem is not None:
                return (trial_id, Verdict.INVALID, problem[0], problem[1], None)
        if "score" not in value:
            return (trial_id, Verdict.INVALID, "missing-member", 'the trial record has no "score" member', None)
        score = value["score"]
        verdict, code, message = decide_with_reason(score, policy)
        if verdict is Verdict.INVALID:
            return (trial_id, verdict, code, message, None)
        if keep is not None:
            keep.append(value)  # the record, for read_trial_cluster
        return (trial_id, verdict, code, message, score)
    except InvalidEvidence as exc:
        message = exc.message
        if exc.colno is not None:
            # Within one line the column is the useful part of the place.
            message += f" (column {exc.colno})"
        return (readable_trial_id(line), Verdict.INVALID, exc.code, message, None)
    except Exception as exc:  # fail closed: a defect here must not release
        return (
            None,
            Verdict.INVALID,
            "internal-error",
            f"unexpected {type(exc).__name__} in scorecontract; please report it",
            None,
        )


def read_trial_cluster(
    line: bytes, policy: Policy, max_bytes: int, candidate: str | None, cluster_by: str
) -> tuple[str | None, Verdict, str, str, Number | None, object]:
    """``read_trial`` plus the trial's cluster, selected by *cluster_by*.

    *cluster_by* is a JSONPath query or JSON Pointer on the record, or a
    bare member name.  It must select exactly one string or integer;
    otherwise the line is an invalid observation: ``missing-cluster`` when
    it selects nothing, ``bad-cluster`` for anything else.  The cluster is
    returned as ``(type name, value)``, so ``"1"`` and ``1`` differ.
    """
    kept: list[object] = []
    observation = read_trial(line, policy, max_bytes, candidate, kept)
    trial_id, verdict = observation[0], observation[1]
    if verdict is Verdict.INVALID:
        return observation + (None,)
    if len(kept) != 1:
        return (
            trial_id,
            Verdict.INVALID,
            "internal-error",
            "valid evidence without its record; please report it",
            None,
            None,
        )
    key, problem = cluster_key(kept[0], cluster_by)
    if problem is not None:
        return (trial_id, Verdict.INVALID, problem[0], problem[1], None, None)
    return observation + (key,)


def cluster_key(record: object, cluster_by: str) -> tuple[object, tuple[str, str] | None]:
    """Return ``((type name, value), None)``: *record*'s cluster, or ``(None, (code, message))``.

    *cluster_by* is a JSONPath query or JSON Pointer on the record, or a
    bare member name.  It must select exactly one string or integer:
    ``missing-cluster`` when it selects nothing, ``bad-cluster`` for
    anything else.  Never raises.
    """
    try:
        if cluster_by[:1] in ("$", "/"):
            from ._jsonpath import compile_query

            nodes = [value for _, value in compile_query(cluster_by).select(record)]
        elif type(record) is dict:
            nodes = [record[cluster_by]] if cluster_by in record else []
        else:  # a valid record is an object: a defect
            raise InvalidEvidence("internal-error", "a valid trial record is not an object; please report it")
    except InvalidEvidence as exc:  # a query that cannot read the record (NaN in a filter)
        return None, (exc.code, exc.message)
    except Exception as exc:  # fail closed: a defect here must not release
        return None, ("internal-error", f"unexpected {type(exc).__name__} in scorecontract; please report it")
    if not nodes:
        return None, ("missing-cluster", f"the trial record has no cluster {cluster_by!a}")
    if len(nodes) != 1 or type(nodes[0]) not in (str, int):
        shown = f"{len(nodes)} values" if len(nodes) != 1 else json_kind(nodes[0])
        return None, ("bad-cluster", f"the cluster {cluster_by!a} must be one string or integer, not {shown}")
    return (type(nodes[0]).__name__, nodes[0]), None


if TYPE_CHECKING:
    _Pairs = list[tuple[str, object]]
else:
    # The bare class at run time: a subscripted base would be computed at import.
    _Pairs = list


class _Members(_Pairs):
    """An object's members, told apart from an array by its type."""

    __slots__ = ()


class _Number(str):
    """A number's text, told apart from a JSON string by its type."""

    __slots__ = ()


_lenient: list[json.JSONDecoder] = []


def _lenient_decoder() -> json.JSONDecoder:
    if not _lenient:
        import json

        _lenient.append(
            json.JSONDecoder(
                # Numbers stay text: nothing is converted, so no overflow,
                # no digit limit and no quadratic int().
                parse_float=_Number,
                parse_int=_Number,
                parse_constant=_Number,
                object_pairs_hook=_Members,
            )
        )
    return _lenient[0]


def readable_trial_id(line: bytes) -> str | None:
    """Make out the trial id of a line that is not valid evidence, or None.

    Only for saying which trial a bad line was about: the line stays an
    invalid observation whatever this returns.  The line must be UTF-8 and
    decode, leniently (``NaN``, ``1e400``, duplicate members and trailing
    data tolerated), to an object with exactly one ``"trial_id"`` member
    holding a non-empty string.  Two ``"trial_id"`` members are ambiguous,
    so unreadable.  The id may hold a lone surrogate or control characters;
    every output format escapes them.
    """
    try:
        text = line.decode("utf-8")
        start = len(text) - len(text.lstrip(" \t\r\n"))
        pairs, _ = _lenient_decoder().raw_decode(text, start)
    except Exception:  # JSONDecodeError, RecursionError, UnicodeDecodeError
        return None
    if type(pairs) is not _Members:
        return None
    found = [value for name, value in pairs if name == "trial_id"]
    if len(found) != 1 or type(found[0]) is not str or not found[0]:
        return None
    trial_id: str = found[0]
    return trial_id
