# SPDX-License-Identifier: MIT
"""The whole pipeline: raw evidence to a decision record.

bytes -> text (``_encoding``) -> strict JSON (``_strict_json``) -> record
shape (``_record``) -> numeric contract (``_score``) -> decision
(``_decide``).
"""

from __future__ import annotations

import re

from ._constants import DEFAULT_MAX_BYTES
from ._decide import checked_score, meets_threshold, outcome_message
from ._encoding import decode_evidence
from ._errors import InvalidEvidence, PolicyError
from ._policy import UNSET, check_limit, default_cache, policy_for
from ._provenance import check_binding, envelope_score
from ._record import score_of_record
from ._select import check_requirements, selection_message
from ._strict_json import parse_json, underflows
from ._value import NoTruthValue, Value
from ._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Union

    # A fullmatch of text or of bytes: the hot path picks one by the type.
    _Matcher = Callable[..., Union["re.Match[str]", "re.Match[bytes]", None]]
    from ._policy import Policy
    from ._score import Number
    from ._select import Selection
    from ._source import Source

__all__ = ["Decision", "evaluate", "loads"]

# The canonical record, {"score": <number>}, as an exact grammar: RFC 8259
# whitespace and number syntax, the member name without escapes.  Text that
# matches is ASCII, so valid UTF-8 with no BOM and no surrogates, has one
# member, so no duplicates, and no nesting.  Everything else takes the full
# path; a differential test keeps the two in agreement.
# The number is bounded (20 integer digits, 20 fraction digits, a 3-digit
# exponent) so a long literal takes the full path and its digit cap.
_CANONICAL = (
    r"[ \t\n\r]*\{[ \t\n\r]*\"score\"[ \t\n\r]*:[ \t\n\r]*"
    r"(-?(?:0|[1-9][0-9]{0,19})((?:\.[0-9]{1,20})?(?:[eE][-+]?[0-9]{1,3})?))"
    r"[ \t\n\r]*\}[ \t\n\r]*"
)
# [text fullmatch, bytes fullmatch], compiled on first use: nothing at import.
# Indexed with kind is bytes on the hot path.
_fast_matchers: list[_Matcher] = []
_PASS = Verdict.PASS
_FAIL = Verdict.FAIL
_new_object = object.__new__


class Decision(NoTruthValue, Value):
    """The outcome of ``evaluate()``: a verdict and why.

    Attributes:

    - ``verdict``: a ``Verdict``;
    - ``code``: the stable reason code (``"meets-threshold"``,
      ``"below-threshold"``, or why the evidence is INVALID);
    - ``message``: the explanation, for people;
    - ``score``: the score, an ``int``, ``float`` or (exact policy)
      ``decimal.Decimal``, when the evidence held a valid one; else None;
    - ``policy``: the ``Policy`` applied;
    - ``pos``, ``lineno``, ``colno``: where in the evidence the problem
      is, when one place is to blame; else None.

    Decisions are immutable and compare equal by value.  Like a
    ``Verdict``, a decision has no truth value: ``if decision:`` raises
    ``TypeError``.
    """

    # Unlike the other values, the fields are private slots behind
    # read-only properties, and plain attribute stores are allowed again:
    # evaluate() builds a Decision with six slot stores, where Value's
    # __setattr__ would cost a Python call per field on every harness's
    # hot path.  The public attributes are read-only all the same.
    __slots__ = ("_verdict", "_code", "_message", "_score", "_policy", "_location", "_selection")
    if TYPE_CHECKING:
        pass
    else:
        __setattr__ = object.__setattr__
        __delattr__ = object.__delattr__
    _shown = ("verdict", "code", "message", "score")

    if TYPE_CHECKING:
        _verdict: Verdict
        _code: str
        _message: str | None
        _score: Number | None
        _policy: Policy
        _location: tuple[int, int, int] | None
        _selection: Selection | None

    def __init__(
        self,
        verdict: Verdict,
        code: str,
        message: str | None,
        score: Number | None,
        policy: Policy,
        location: tuple[int, int, int] | None = None,
        selection: Selection | None = None,
    ) -> None:
        # message is None for PASS and FAIL: it is built when first read,
        # which keeps evaluate() on a valid record as cheap as json.loads.
        self._verdict = verdict
        self._code = code
        self._message = message
        self._score = score
        self._policy = policy
        self._location = location
        self._selection = selection

    @classmethod
    def invalid(cls, error: InvalidEvidence, policy: Policy, selection: Selection | None = None) -> Decision:
        """Return the INVALID decision for *error*, located where it is."""
        location = None
        if error.pos is not None and error.lineno is not None and error.colno is not None:
            location = (error.pos, error.lineno, error.colno)
        return cls(Verdict.INVALID, error.code, error.message, None, policy, location, selection)

    @property
    def verdict(self) -> Verdict:
        """PASS, FAIL or INVALID."""
        return self._verdict

    @property
    def code(self) -> str:
        """The stable reason code."""
        return self._code

    @property
    def message(self) -> str:
        """The explanation, for people."""
        if self._message is None:
            # Only PASS and FAIL are built without a message, and both hold
            # a valid score.
            score = self._score
            if score is None:
                raise TypeError("a Decision built without a message needs a valid score")
            message = outcome_message(score, self._policy)
            selection = self._selection
            if selection is not None:
                message = selection_message(message, selection)
            self._message = message
        return self._message

    @property
    def score(self) -> Number | None:
        """The valid score, or None."""
        return self._score

    @property
    def policy(self) -> Policy:
        """The policy the decision applied."""
        return self._policy

    @property
    def selection(self) -> Selection | None:
        """Where the value came from (``evaluate(select=...)``), or None."""
        return self._selection

    @property
    def pos(self) -> int | None:
        """Where the problem starts in the evidence, or None."""
        return None if self._location is None else self._location[0]

    @property
    def lineno(self) -> int | None:
        """The 1-based line of ``pos``, or None."""
        return None if self._location is None else self._location[1]

    @property
    def colno(self) -> int | None:
        """The 1-based column of ``pos``, or None."""
        return None if self._location is None else self._location[2]

    def as_dict(self) -> dict[str, object]:
        """Return the decision as a JSON-ready dict.

        The keys are always the same: ``verdict``, ``code``, ``message``,
        ``score`` (None unless valid), ``policy`` (the policy-file keys),
        ``location``, ``{"pos", "line", "column"}`` where one place is
        to blame, else None, and ``selection``: None for a whole record,
        else ``{"query", "path", "nonfinite_elsewhere": {"count", "paths"}}``
        (``Selection.as_dict()``).
        """
        location: dict[str, int] | None = None
        if self._location is not None:
            pos, line, column = self._location
            location = {"pos": pos, "line": line, "column": column}
        return {
            "verdict": self._verdict.value,
            "code": self._code,
            "message": self.message,
            "score": self._score,
            "policy": self._policy.as_dict(),
            "location": location,
            "selection": None if self._selection is None else self._selection.as_dict(),
        }

    def _key(self) -> tuple[object, ...]:
        # The message once built: a decision read and one not yet read are
        # the same decision.
        return (
            self._verdict,
            self._code,
            self.message,
            type(self._score),
            self._score,
            self._policy,
            self._location,
            self._selection,
        )


def _compile_fast_matchers() -> list[_Matcher]:
    """Compile the canonical-record grammar for text and for bytes, once."""
    if not _fast_matchers:
        _fast_matchers[:] = [
            re.compile(_CANONICAL).fullmatch,
            re.compile(_CANONICAL.encode("ascii")).fullmatch,
        ]
    return _fast_matchers


def loads(raw: str | bytes, /, *, exact: bool = False, max_bytes: int = DEFAULT_MAX_BYTES) -> object:
    """Decode the evidence *raw* (``bytes`` or ``str``) as strict JSON.

    Returns the JSON value, with objects as ``dict``, arrays as ``list`` and
    numbers as ``int`` and ``float`` (or ``decimal.Decimal`` if *exact*).
    The record's shape and score are not checked: ``evaluate()`` does that.

    Raises ``InvalidEvidence`` (a ``ValueError``) with a stable ``code``
    instead of returning anything ``json.loads`` would let through: input
    over *max_bytes* (default 1 MiB), anything but UTF-8, a byte-order
    mark, ``NaN``/``Infinity``, numbers that overflow to infinity such as
    ``1e400``, duplicate member names (compared after unescaping), lone
    surrogates, number literals over 640 characters, nesting deeper than
    128, and trailing data.

        >>> loads('{"score": 0.9}')
        {'score': 0.9}
        >>> loads('{"score": NaN}')
        Traceback (most recent call last):
          ...
        scorecontract._errors.InvalidEvidence: non-standard-constant: NaN is not JSON (RFC 8259 section 6 has no NaN or Infinity)
    """
    text = decode_evidence(raw, check_limit("max_bytes", max_bytes))
    return parse_json(text, exact=exact)


def evaluate(
    raw: str | bytes,
    /,
    *,
    threshold: Number = UNSET,
    policy: Policy | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    candidate: str | None = None,
    run_id: str | None = None,
    select: str | None = None,
    source: Source | str | None = None,
) -> Decision:
    """Run the whole contract on the evidence *raw* and return a ``Decision``.

    *raw* is one JSON text, ``bytes`` or ``str``, holding the record
    ``{"score": <number>}``.  The checks, in order (docs/contract.md):
    size, encoding, syntax, duplicate members, shape, type, finiteness,
    range, and last the threshold: ``score >= threshold`` passes.

    Never raises for any evidence: every problem becomes a ``Decision`` with
    ``verdict`` ``Verdict.INVALID``, a reason ``code`` and a ``message``.
    *threshold* (left out, 0.8), *policy* and *max_bytes* are
    configuration; bad values, ``threshold=None`` included, raise
    ``PolicyError``.

    *candidate*, a non-empty string, binds the evidence to the candidate it
    judges: the record must then be the envelope ``{"candidate": ...,
    "run_id": ..., "score": ...}`` (``run_id`` optional) whose candidate
    is exactly *candidate*, else INVALID ``missing-candidate`` or
    ``candidate-mismatch``.  *run_id* (only with *candidate*) pins the run
    the same way (``missing-run-id``, ``run-id-mismatch``), so an older
    file for the same candidate cannot be replayed.  Without *candidate*
    the record is ``{"score": <number>}`` and an envelope is INVALID
    ``unexpected-member``.  A policy with ``require_candidate`` raises
    ``PolicyError`` (``candidate-required``) when *candidate* is None.

    *select*, a JSONPath query (RFC 9535, starting with ``$``) or a JSON
    Pointer (RFC 6901, empty or starting with ``/``), gates one value of
    any JSON document instead of a record (docs/selection.md): it must
    select exactly one node (else INVALID ``no-match`` or
    ``ambiguous-selection``), whose value then meets the numeric contract
    of a score.  ``Decision.selection`` records the query and the
    normalized path it resolved to.  With *candidate*, the document's own
    top-level ``"candidate"`` (and ``"run_id"``) members are compared.  A
    malformed query raises ``PolicyError`` (``bad-selector``).  The
    policy's requirements (``Policy(require=...)``) must hold on the whole
    document, with or without *select* (INVALID ``requirement-failed``).

    *source*, a ``Source`` (or a bare harness name such as
    ``"simple-evals"``, for an adapter that needs no options), gates the
    headline of that harness's own output instead (docs/harnesses.md):
    ``Source("lm-eval", task="mmlu", metric="acc,none")``.  Its adapter
    chooses the query and checks what the harness says about the run (a
    ``--limit`` run, errors, an empty score list); ``Decision.selection``
    then names the source too.  The decision's policy is the one applied:
    *policy* with ``nonfinite_elsewhere = "list"``, unless *policy* states
    ``"refuse"`` itself, which is then honoured.  An option the adapter
    does not take, or lacks, raises ``PolicyError`` (``bad-option``,
    ``missing-option``), as does a policy whose direction contradicts the
    evidence's own (lm-eval's ``higher_is_better``: ``option-conflict``).
    *source* is not combined with *select* or *candidate*.

        >>> evaluate(b'{"score": 0.9}').verdict
        <Verdict.PASS: 'PASS'>
        >>> d = evaluate('{"score": 1e400}')
        >>> d.verdict, d.code
        (<Verdict.INVALID: 'INVALID'>, 'non-finite')
    """
    if policy is None and threshold is UNSET and default_cache:
        policy = default_cache[0]
    else:
        policy = policy_for(threshold, policy)
    if max_bytes != DEFAULT_MAX_BYTES:
        check_limit("max_bytes", max_bytes)
    bound = candidate is not None or run_id is not None or policy.require_candidate
    if bound:
        check_binding(candidate, run_id, policy)
    if source is not None:
        return _evaluate_source(raw, source, select, policy, max_bytes, bound)
    if select is not None:
        return _evaluate_selected(raw, select, policy, max_bytes, candidate, run_id)
    try:
        fast: int | float | None = None
        kind = type(raw)
        # The fast path knows only the plain record (an envelope, or exact
        # decimals, take the full path), and exact str and bytes: a subclass
        # may override what re reads.
        if (kind is str or kind is bytes) and not (policy.full_path or bound):
            if len(raw) <= max_bytes:
                match = (_fast_matchers or _compile_fast_matchers())[kind is bytes](raw)
                if match is not None:
                    # float() and int() take ASCII bytes as they take text.
                    token, fraction_or_exponent = match.groups()
                    fast = float(token) if fraction_or_exponent else int(token)
                    if not fast and underflows(token):
                        fast = None  # 1e-400: the full path refuses it
        score: object
        if fast is not None:
            # Not exact, so the limits are the numbers as given: int or float.
            low, high, limit = policy.limits
            # An int or float from the fast path inside the (finite) bounds
            # is finite too, so it has passed every rule of the contract.
            if low <= fast <= high:
                # Decision(...) spelled out without the __init__ call: this
                # is the hot path of every harness, and the call costs as
                # much as the comparisons.
                decision = _new_object(Decision)
                if fast >= limit:
                    decision._verdict, decision._code = _PASS, "meets-threshold"
                else:
                    decision._verdict, decision._code = _FAIL, "below-threshold"
                decision._message = None
                decision._score = fast
                decision._policy = policy
                decision._location = None
                decision._selection = None
                return decision
            score = fast  # out of range: the full path has the message
        else:
            record = parse_json(decode_evidence(raw, max_bytes), exact=policy.exact)
            if policy.require:
                check_requirements(record, policy)
            # A candidate, exactly when the gate is bound: check_binding
            # refused a run id or a required candidate without one.
            if candidate is not None:
                score = envelope_score(record, candidate, run_id)
            else:
                score = score_of_record(record)
        valid = checked_score(score, policy)
        if isinstance(valid, tuple):
            return Decision(Verdict.INVALID, valid[0], valid[1], None, policy)
        if meets_threshold(valid, policy):
            return Decision(Verdict.PASS, "meets-threshold", None, valid, policy)
        return Decision(Verdict.FAIL, "below-threshold", None, valid, policy)
    except InvalidEvidence as exc:
        return Decision.invalid(too_large_hint(exc), policy)
    except Exception as exc:  # fail closed: a defect here must not release
        return Decision(
            Verdict.INVALID,
            "internal-error",
            f"unexpected {type(exc).__name__} in scorecontract; please report it",
            None,
            policy,
        )


def too_large_hint(error: InvalidEvidence) -> InvalidEvidence:
    """*error*, with how to raise the limit when it is ``too-large``."""
    if error.code != "too-large" or "max_bytes=" in error.message:
        return error
    return InvalidEvidence(error.code, f"{error.message} bytes; pass max_bytes= to raise the limit")


def load_with_records(text: str, policy: Policy) -> tuple[object, list[tuple[str, str]]]:
    """The strict parse of a document a value is selected from.

    Returns the document and the non-finite numbers it holds (``NaN``,
    ``Infinity``, ``-Infinity``, overflow, underflow), as (normalized
    path, code) pairs in document order; ``load_document`` leaves a NaN or
    infinite placeholder at each, so a filter or requirement that reads one
    raises.  Every other fault refuses the whole document.
    """
    from ._strict_json import load_document

    document, found = load_document(text, exact=policy.exact)
    return document, [(record.path, record.code) for record in found]


def _evaluate_selected(
    raw: str | bytes,
    select: str,
    policy: Policy,
    max_bytes: int,
    candidate: str | None,
    run_id: str | None,
) -> Decision:
    """``evaluate()`` with a query: the selection stage (``_select``) between
    the strict parse and the numeric contract."""
    from ._jsonpath import compile_query
    from ._select import Selection

    query = compile_query(select)  # PolicyError (bad-selector): configuration
    selection = Selection(query.text)
    try:
        document, records = load_with_records(decode_evidence(raw, max_bytes), policy)
        if candidate is not None:
            _check_document_binding(document, candidate, run_id)
        return decide_selected(document, records, query.text, policy, selection)
    except InvalidEvidence as exc:
        return Decision.invalid(too_large_hint(exc), policy, selection)
    except Exception:  # fail closed: a defect here must not release
        return internal_error(policy, selection)


def _evaluate_source(
    raw: str | bytes, source: Source | str, select: str | None, policy: Policy, max_bytes: int, bound: bool
) -> Decision:
    """``evaluate()`` with a harness adapter (``_headline``).

    The adapter reads the file and says what its headline is: a node,
    decided here by the selection stage, or a value it computed exactly.
    Bad evidence is an INVALID decision whose selection names the source;
    a policy that contradicts the evidence (lm-eval's higher_is_better)
    raises ``PolicyError``.
    """
    from ._headline import fraction_outcome, listing, nonfinite_note, read_headline, resolve_source

    checked = resolve_source(source)  # PolicyError: configuration
    if select is not None:
        raise PolicyError("option-conflict", "give source= or select=, not both: the adapter chooses the query")
    if bound:
        raise PolicyError(
            "option-conflict",
            "source= cannot be combined with candidate= or run_id=: a harness's file names no candidate; "
            "bind it by signing the file instead",
        )
    from ._harnesses._base import Computed, Trace

    applied = listing(policy)
    trace = Trace(checked)
    try:
        found = read_headline(raw, checked, applied, max_bytes, trace)
        if isinstance(found, Computed):
            from ._headline import fraction_text
            from ._select import Selection

            verdict, code, message, score = fraction_outcome(found, found.policy)
            origin = [*trace.origin, ("value", fraction_text(found.value))]
            listed = found.listed
            selection = Selection(trace.query, found.path, listed, len(listed), checked, origin)
            return Decision(verdict, code, message, score, found.policy, None, selection)
        decision = decide_selected(found.document, found.records, found.query, found.policy, trace.selection())
    except InvalidEvidence as exc:
        return Decision.invalid(too_large_hint(exc), applied, trace.selection())
    except PolicyError:
        raise
    except Exception:  # fail closed: a defect here must not release
        return internal_error(applied, trace.selection())
    message = decision.message
    if decision.code not in ("non-standard-constant", "non-finite") or not message.startswith("the selected value"):
        return decision
    # Why the harness wrote a non-finite headline, in its own terms.
    return Decision(
        decision.verdict,
        decision.code,
        f"{message}; {nonfinite_note(checked)}",
        None,
        decision.policy,
        None,
        decision.selection,
    )


def internal_error(policy: Policy, selection: Selection | None = None) -> Decision:
    """The INVALID decision for a defect in scorecontract itself: never a PASS."""
    import sys

    kind = sys.exc_info()[0]
    name = "error" if kind is None else kind.__name__
    return Decision(
        Verdict.INVALID,
        "internal-error",
        f"unexpected {name} in scorecontract; please report it",
        None,
        policy,
        None,
        selection,
    )


def decide_selected(
    document: object,
    records: list[tuple[str, str]],
    select: str,
    policy: Policy,
    selection: Selection,
) -> Decision:
    """Decide on the one value *select* selects in a decoded *document*.

    The selection stage in order: the policy's requirements, exactly one
    node, the non-finite rule for *records* (``load_with_records``), then
    the numeric contract and the threshold.  *selection* carries what is
    known already (the source, the origin); the returned decision's
    selection adds the resolved path and what was listed.  Raises
    ``InvalidEvidence`` when the requirements or the selection fail, for
    the caller to turn into an INVALID decision with *selection*.
    """
    from ._jsonpath import compile_query
    from ._select import Selection, check_requirements, select_one, split_records, value_problem

    query = compile_query(select)
    check_requirements(document, policy)
    path, value = select_one(document, query)
    selection = Selection(query.text, path, (), 0, selection.source, selection.origin)
    try:
        listed = split_records(records, path, policy) if records else []
    except InvalidEvidence as exc:
        return Decision.invalid(exc, policy, selection)
    if listed:
        selection = Selection(query.text, path, listed, len(listed), selection.source, selection.origin)
    valid = checked_score(value, policy)
    if isinstance(valid, tuple):
        # value_problem words the same refusal with the node's path.
        code, message = value_problem(path, value, policy) or valid
        return Decision(Verdict.INVALID, code, message, None, policy, None, selection)
    if meets_threshold(valid, policy):
        return Decision(Verdict.PASS, "meets-threshold", None, valid, policy, None, selection)
    return Decision(Verdict.FAIL, "below-threshold", None, valid, policy, None, selection)


def _check_document_binding(document: object, candidate: str, run_id: str | None) -> None:
    """Compare the document's top-level ``candidate`` and ``run_id`` members."""
    from ._describe import json_kind
    from ._provenance import member_problem

    if type(document) is not dict:
        raise InvalidEvidence(
            "not-an-object", f"a document bound to a candidate must be a JSON object, not {json_kind(document)}"
        )
    problem = member_problem(document, "candidate", candidate)
    if problem is None and run_id is not None:
        problem = member_problem(document, "run_id", run_id)
    if problem is not None:
        raise InvalidEvidence(*problem)
