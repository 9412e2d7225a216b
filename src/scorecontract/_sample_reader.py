# SPDX-License-Identifier: MIT
"""One input of ``report()`` as observations: the ``SampleReader`` and trial ids.

A *sample reader* turns one input into observations, each
``(trial_id, verdict, code, message, score, record)``.  This module is
the part every reader shares: the base class, which judges one score by
the numeric contract; the canonical trial id; and the member lookups the
readers use.  The readers themselves are the generic form (``_samples``)
and the harness adapters' (``_harnesses``).

A trial id is built canonically from its members, strings and integers
only: the JSON text of their list, ``[3,"none"]``, so that ``["1","a"]``
and ``[1,"a"]`` are two trials.  A member that is absent is
``missing-member``; a bool, a float, null, an array or an object is
``bad-trial-id``.  NaN, ``Infinity`` and overflowing numbers are read by
the strict loader as located records (``load_document``): one at the
score or an id member makes that observation invalid with the loader's
own code; one elsewhere in a record is not read.

Nothing here converts a missing, null, NaN, string, list or errored value
into a number: the one mapping from strings to numbers is an explicit,
closed ``labels`` map, and a string outside it is ``unknown-label``.
"""

from __future__ import annotations

from ._decide import decide_with_reason
from ._describe import describe_value, json_kind
from ._errors import InvalidEvidence
from ._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Optional, Union

    from ._policy import Policy
    from ._score import Number
    from ._strict_json import Nonfinite

    # (trial_id or None, verdict, code, message, score or None, record or None)
    Row = tuple[Optional[str], Verdict, str, str, Optional[Number], object]
    # (place, row): place names the record within its input ("$['samples'][3]").
    Placed = tuple[str, Row]
    Codes = dict[int, tuple[str, str]]
    Id = Union[str, int]

__all__ = [
    "ABSENT",
    "SampleReader",
    "at",
    "at_most",
    "canonical_trial_id",
    "clip",
    "codes_of",
    "declared_count",
    "invalid_row",
    "load_with_codes",
    "once",
    "path_under",
    "shown",
    "split_queries",
]


class _Absent:
    """The value of a member a document does not have; shown as ``absent``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "absent"


# The one sentinel for a member a document does not have.
ABSENT: object = _Absent()


def at(document: object, *keys: str | int) -> object:
    """``document[k1][k2]...``, or ``ABSENT`` where an object, array or member is absent."""
    for key in keys:
        if type(key) is int:
            if type(document) is not list or not 0 <= key < len(document):
                return ABSENT
            document = document[key]
        elif type(document) is dict and key in document:
            document = document[key]
        else:
            return ABSENT
    return document


def shown(value: object) -> str:
    """*value* as a message shows it: ``absent`` for ``ABSENT``, else its JSON kind and value."""
    return "absent" if value is ABSENT else describe_value(value)


def clip(text: str, limit: int = 120) -> str:
    """*text*, cut to *limit* characters with ``...``."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def path_under(base: str, *keys: str | int) -> str:
    """The normalized path (RFC 9535 section 2.7) of *keys* under *base*."""
    from ._normalized_path import normalized_path

    return base + normalized_path(keys)[1:]


def canonical_trial_id(
    parts: Sequence[tuple[str, object]], codes: Codes | None = None
) -> tuple[str | None, tuple[str, str] | None]:
    """Return ``(trial id, None)`` or ``(None, (code, message))`` for *parts*.

    *parts* are ``(path, value)`` of the id's members, in order; a value of
    ``ABSENT`` is an absent member.  The id is the JSON text of the list
    of values, compact, non-ASCII kept: ``[3,"none"]``.  Only strings and
    integers make an id (``type(x) is``: ``True`` is an int in Python, not in
    JSON).
    """
    values: list[Id] = []
    for where, value in parts:
        if value is ABSENT:
            return None, ("missing-member", f"the record has no trial id member {clip(where)}")
        kind = type(value)
        if type(value) is str or type(value) is int:
            values.append(value)
            continue
        if codes is not None and kind is float and id(value) in codes:
            code, text = codes[id(value)]
            return None, (code, f"the trial id member {clip(where)} is {text}, not a string or integer")
        described = describe_value(value) if kind is float else json_kind(value)
        return None, (
            "bad-trial-id",
            f"the trial id member {clip(where)} must be a string or an integer, not {described}",
        )
    import json

    return json.dumps(values, ensure_ascii=False, separators=(",", ":")), None


def split_queries(text: str) -> list[str]:
    """Split ``QUERY[,QUERY...]`` at the commas outside brackets, parentheses and quotes.

    A JSONPath query's own commas (``$['a','b']``, a filter's arguments)
    are inside brackets or quotes; a member name holding a comma is written
    as ``$['acc,none']``.
    """
    parts: list[str] = []
    depth = 0
    quote = ""
    start = 0
    index = 0
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
        index += 1
    parts.append(text[start:])
    return parts


def codes_of(records: Sequence[Nonfinite]) -> Codes:
    """The loader's records by the identity of the float standing in for each."""
    return {id(record.value): (record.code, record.literal) for record in records}


def invalid_row(trial_id: str | None, code: str, message: str) -> Row:
    """An invalid observation of *trial_id* (None: its id could not be read)."""
    return (trial_id, Verdict.INVALID, code, message, None, None)


def load_with_codes(data: bytes, max_bytes: int, exact: bool) -> tuple[object, Codes]:
    """The strict parse of a whole document, and its non-finite numbers by identity."""
    from ._encoding import decode_evidence
    from ._strict_json import load_document

    document, records = load_document(decode_evidence(data, max_bytes), exact=exact)
    return document, codes_of(records)


def declared_count(value: object, where: str, harness: str) -> int:
    """A count the harness's file declares: an int >= 0 (not a bool, not 4.0).

    *where* names the member (``results.total_samples``), *harness* the file
    (``Inspect log``), for the messages.
    """
    if value is ABSENT:
        raise InvalidEvidence("missing-member", f"the {harness} file has no {where}")
    if type(value) is not int or value < 0:
        raise InvalidEvidence(
            "wrong-type", f"{where} in the {harness} file must be an integer >= 0, not {describe_value(value)}"
        )
    number: int = value
    return number


def at_most(found: int, population: int, what: str) -> None:
    """Refuse a document holding more records than the population it declares.

    Its own writer never does (one record per sample, or per test): a
    doubled record could stand in for one that is missing.
    """
    if found > population:
        raise InvalidEvidence("population-mismatch", f"the log declares {population} samples but holds {found} {what}")


def once(seen: dict[str, str], key: str, place: str, what: str) -> None:
    """Note that the record *key* is at *place*; a key *seen* before is INVALID ``population-mismatch``.

    A harness writes each of its records once (an Inspect sample of one
    epoch, an lm-eval document under one filter, a HELM stat of one
    instance): a second record of one key could stand in for one that is
    missing, and which of the two is the evidence is not the file's to
    choose.  *what* names the records in the message (``the Inspect log's
    samples``).  ``check --from`` and ``report --from`` refuse a file by
    this one rule, so the two cannot disagree about it.
    """
    first = seen.get(key)
    if first is not None:
        raise InvalidEvidence(
            "population-mismatch",
            f"{what} hold {clip(key, 80)} twice, at {clip(first, 80)} and at {clip(place, 80)}: the harness writes "
            "each once, so one of them stands in for another (a copied or spliced file)",
        )
    seen[key] = place


class SampleReader:
    """How one kind of input becomes observations; see the module docstring.

    - ``framing``: ``"lines"`` (JSON Lines, streamed a line at a time) or
      ``"document"`` (one JSON text, or a ZIP, read whole);
    - ``declares_population``: whether the input (or a file named in the
      options) declares how many trials were scheduled;
    - ``description``: what the receipt records about the reading.
    """

    framing = "lines"
    declares_population = False
    # What a lines reader's records are, when the harness writes each trial
    # id once (``once``); None reads a repeated id as a rerun.
    unique: str | None = None

    def __init__(self, policy: Policy, labels: Mapping[str, Number] | None = None) -> None:
        self.policy = policy
        self.labels = labels
        self.lines_read = 0
        self.places: dict[str, str] = {}

    def description(self) -> dict[str, object]:  # pragma: no cover - each reader says
        raise NotImplementedError

    # -- one record -------------------------------------------------------------

    def judge(
        self, trial_id: str | None, where: str, value: object, codes: Codes, record: object, hint: str = ""
    ) -> Row:
        """The observation for a score *value* at *where* (``ABSENT`` if absent)."""
        from ._select import value_problem

        if value is ABSENT:
            return invalid_row(trial_id, "missing-member", f"the record has no score at {clip(where)}{hint}")
        kind = type(value)
        if kind is float and id(value) in codes:
            code, text = codes[id(value)]
            return invalid_row(trial_id, code, f"the score at {clip(where)} is {text}, not a finite number")
        if type(value) is str and self.labels is not None:
            mapped = self.labels.get(value)
            if mapped is None:
                known = ", ".join(repr(label) for label in self.labels)
                return invalid_row(
                    trial_id,
                    "unknown-label",
                    f"the score at {clip(where)} is {clip(repr(value), 40)}, not one of the labels {known}",
                )
            value = mapped
        problem = value_problem(where, value, self.policy)
        if problem is not None:
            return invalid_row(trial_id, problem[0], problem[1] + self.type_hint(value))
        from decimal import Decimal

        if not isinstance(value, (int, float, Decimal)):  # value_problem admits numbers only
            return invalid_row(
                trial_id, "internal-error", "a score the contract admitted is not a number; please report it"
            )
        verdict, code, message = decide_with_reason(value, self.policy)
        return (trial_id, verdict, code, message, value, record)

    def type_hint(self, value: object) -> str:
        """Said after a wrong-type message: what the harness meant by such a value."""
        return ""

    # -- lines ------------------------------------------------------------------

    def line(self, raw: bytes, max_bytes: int) -> Row | None:
        """The observation for one JSON Lines line (without its ``\\n``).

        None: the line is a record of another population the same file
        holds (lm-eval's lines under another filter than the one gated),
        no observation of this one; the reader counts it in its description.
        Raises ``InvalidEvidence`` (``population-mismatch``, by ``once``)
        only for a trial id the lines hold twice, when ``unique`` says the
        harness writes each once; any other fault is an invalid row.
        """
        self.lines_read += 1
        row = self._line(raw, max_bytes)
        if row is not None and self.unique is not None and row[0] is not None:
            once(self.places, row[0], f"observation {self.lines_read}", self.unique)
        return row

    def _line(self, raw: bytes, max_bytes: int) -> Row | None:
        if not raw.strip(b" \t\r"):
            return invalid_row(None, "empty", "blank line, not a record")
        try:
            from ._encoding import decode_evidence
            from ._strict_json import load_document

            record, records = load_document(decode_evidence(raw, max_bytes), exact=self.policy.exact)
            if type(record) is not dict:
                return invalid_row(None, "not-an-object", f"a record must be a JSON object, not {json_kind(record)}")
            return self.record(record, "$", codes_of(records))
        except InvalidEvidence as exc:
            message = exc.message
            if exc.colno is not None:
                message += f" (column {exc.colno})"
            return invalid_row(None, exc.code, message)
        except Exception as exc:  # fail closed: a defect here must not release
            return invalid_row(
                None, "internal-error", f"unexpected {type(exc).__name__} in scorecontract; please report it"
            )

    def record(self, record: dict[str, object], base: str, codes: Codes) -> Row | None:  # pragma: no cover
        raise NotImplementedError

    # -- documents --------------------------------------------------------------

    def population(self, max_bytes: int) -> int | None:
        """The population a lines reader's options declare (lm-eval's ``--results``)."""
        return None

    def document(self, data: bytes, name: str, max_bytes: int) -> tuple[list[Placed], int | None]:
        """The observations of a whole document, and the population it declares.

        Raises ``InvalidEvidence`` when the document as a whole is unusable.
        """
        raise InvalidEvidence("internal-error", "a lines reader was handed a document; please report it")

    def stated_direction(self, max_bytes: int) -> str | None:
        """The direction a file the options name states for the score, or None.

        ``report --from lm-eval --results FILE`` reads lm-eval's
        higher_is_better; any fault reading it gives None here, and the
        report, which reads the same file next, judges it INVALID.
        """
        return None
