# SPDX-License-Identifier: MIT
"""What every harness adapter shares: lookups, counts, tracing, options (docs/harnesses.md).

A harness module is a ``Harness``: its name, the releases it follows, and
one ``Headline`` adapter (``check --from``) and one ``Samples`` adapter
(``report --from``), either of which may be None.  The adapters are
records of shared parts, as jsonschema builds its validators: the options
they take (``Option``), the sentences their help prints, and the one
function each supplies, which reads the harness's own file with the
helpers here and returns what it found (``Selected``, ``Computed``) or a
``SampleReader``.  Deciding on what was found is not theirs: the
selection stage and the numeric contract do it, once, for every harness.

Nothing here turns a missing, null, NaN, string or errored value into a
number: each helper that reads one raises ``InvalidEvidence``.
"""

from __future__ import annotations

from .._describe import describe_value
from .._errors import InvalidEvidence, PolicyError

# The member lookups are the per-sample readers' own: one sentinel for "absent".
from .._sample_reader import ABSENT, at, shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from fractions import Fraction
    from typing import Protocol, Union

    from .._policy import Policy
    from .._sample_reader import SampleReader
    from .._select import Selection
    from .._source import Source

    Reading = Union["Selected", "Computed"]
    Gate = Callable[[Union[bytes, str], "Options", Policy, int, "Trace"], Reading]
    Direction = Callable[["Options"], Union[str, None]]
    ReaderFactory = Callable[["Options", Policy, Sequence[Union[str, None]]], SampleReader]
else:
    Protocol = object

__all__ = [
    "ABSENT",
    "Computed",
    "Count",
    "Harness",
    "Headline",
    "Option",
    "Options",
    "Samples",
    "Selected",
    "Trace",
    "at",
    "count",
    "decode",
    "exact",
    "finite",
    "literal",
    "load",
    "names_of",
    "no_such",
    "one",
    "reconcile",
    "path",
    "require",
    "resolve_options",
    "shown",
]


# -- the records a harness module is made of ----------------------------------------------------


class Option:
    """One option an adapter takes: a keyword of ``_source.OPTIONS``.

    - ``name``: the ``Source`` keyword (``"task"``); its flag, metavar and
      kind are the vocabulary's, the same for every harness;
    - ``help``: what it means for this harness, for ``--help`` and the docs;
    - ``needed``: whether the adapter cannot do without it;
    - ``default``: its value when left out, or None.
    """

    __slots__ = ("default", "help", "name", "needed")

    def __init__(self, name: str, help: str, *, needed: bool = False, default: object = None) -> None:
        self.name = name
        self.help = help
        self.needed = needed
        self.default = default

    @property
    def flag(self) -> str:
        """The command-line flag: ``--allow-partial`` for ``allow_partial``."""
        return "--" + self.name.replace("_", "-")

    @property
    def kind(self) -> str:
        """``"text"``, ``"switch"``, ``"path"`` or ``"labels"``: what the option holds."""
        from .._source import OPTIONS

        return OPTIONS[self.name][1]

    @property
    def usage(self) -> str:
        """``--task T``, ``[--split SPLIT]``, ``[--allow-partial]``: its form in a usage line."""
        from .._source import OPTIONS

        metavar = OPTIONS[self.name][0]
        text = self.flag if metavar is None else f"{self.flag} {metavar}"
        return text if self.needed else f"[{text}]"


class Headline:
    """A harness's headline adapter: what ``check --from HARNESS`` does.

    - ``options``: the ``Option`` records it takes, in help order;
    - ``file``: the file it reads, for the docs' table;
    - ``selects``, ``requires``, ``lists``: sentences for ``--help`` and docs;
    - ``gate``: ``gate(raw, options, policy, max_bytes, trace)`` reads the
      file and returns a ``Selected`` or ``Computed``, raising
      ``InvalidEvidence`` for evidence that says the headline is not one;
    - ``nonfinite``: why the harness writes a non-finite headline, said
      after the INVALID message;
    - ``direction``: ``direction(options)``, the direction to apply when
      the caller states none (the metric's known one: lm-eval's perplexity
      is better low), or None for the policy's default;
    - ``together``: groups of options given all or none (Inspect's scorer
      and metric: without both, the log's own headline).
    """

    __slots__ = (
        "direction",
        "file",
        "gate",
        "lists",
        "nonfinite",
        "options",
        "requires",
        "selects",
        "together",
    )

    def __init__(
        self,
        *,
        options: tuple[Option, ...],
        file: str,
        selects: str,
        requires: str,
        lists: str,
        gate: Gate,
        nonfinite: str,
        direction: Direction | None = None,
        together: tuple[tuple[str, ...], ...] = (),
    ) -> None:
        self.options = options
        self.together = together
        self.file = file
        self.selects = selects
        self.requires = requires
        self.lists = lists
        self.gate = gate
        self.nonfinite = nonfinite
        self.direction = direction


class Samples:
    """A harness's per-sample adapter: what ``report --from HARNESS`` does.

    - ``options``: the ``Option`` records it takes;
    - ``reader``: ``reader(options, policy, names)`` returns the
      ``SampleReader`` for the inputs named *names*, raising
      ``PolicyError`` for options it cannot use.
    """

    __slots__ = ("options", "reader")

    def __init__(self, *, options: tuple[Option, ...], reader: ReaderFactory) -> None:
        self.options = options
        self.reader = reader


class Harness(Protocol):
    """What a harness module holds (the modules of this package are each one).

    - ``NAME``: its name in ``_source.REGISTRY`` (``"lm-eval"``);
    - ``TITLE``: the harness as its authors call it, for help and docs;
    - ``FOLLOWS``: the releases whose files it reads;
    - ``HEADLINE``: its ``Headline`` adapter, or None;
    - ``SAMPLES``: its ``Samples`` adapter, or None.
    """

    NAME: str
    TITLE: str
    FOLLOWS: str
    HEADLINE: Headline | None
    SAMPLES: Samples | None


class Options:
    """The options an adapter was given, each checked, the defaults filled in.

    ``text``, ``switch`` and ``get`` read one by its ``Source`` keyword.
    """

    __slots__ = ("_values", "harness")

    def __init__(self, harness: str, values: dict[str, object]) -> None:
        self.harness = harness
        self._values = values

    def get(self, name: str) -> object:
        """The option *name*, its default when it was not given, or None."""
        return self._values.get(name)

    def text(self, name: str) -> str:
        """The text option *name*; raises ``PolicyError`` (``missing-option``) without one."""
        value = self._values.get(name)
        if type(value) is not str:
            raise PolicyError("missing-option", f"the {self.harness} adapter needs {name}")
        return value

    def switch(self, name: str) -> bool:
        """The switch *name*: True only when given as True."""
        return self._values.get(name) is True


def resolve_options(
    source: Source, options: tuple[Option, ...], what: str, together: tuple[tuple[str, ...], ...] = ()
) -> Options:
    """Check *source*'s options against *options*; return them with the defaults.

    *what* names the adapter in messages (``"check --from lm-eval"``).
    Raises ``PolicyError``: ``bad-option`` for an option the adapter does
    not take or of the wrong kind, ``missing-option`` for one it needs, or
    one of a group of *together* without the others.
    """
    for group in together:
        given = [name for name in group if source.get(name) is not None]
        if given and len(given) != len(group):
            flags = " and ".join("--" + name.replace("_", "-") for name in group)
            raise PolicyError(
                "missing-option",
                f"{what} takes {' and '.join(group)} ({flags}) together, or neither; {given[0]} alone names no value",
            )
    taken = {option.name: option for option in options}
    for name, _ in source.options:
        if name not in taken:
            takes = ", ".join(f"{option.name} ({option.flag})" for option in options) or "no options"
            raise PolicyError("bad-option", f"{what} does not take {name}; it takes {takes}")
    values: dict[str, object] = {}
    for option in options:
        value = source.get(option.name)
        if value is None:
            if option.needed:
                raise PolicyError("missing-option", f"{what} needs {option.name} ({option.flag} on the command line)")
            values[option.name] = option.default
            continue
        kind = option.kind
        if kind == "switch":
            if type(value) is not bool:
                raise PolicyError("bad-option", f"{option.name} must be true or false, not {describe_value(value)}")
        elif kind == "text" and (type(value) is not str or not value):
            raise PolicyError("bad-option", f"{option.name} must be a non-empty string, not {describe_value(value)}")
        values[option.name] = value
    return Options(source.harness, values)


# -- what an adapter found ----------------------------------------------------------------------


class Selected:
    """A headline the selection stage decides: the one node *query* selects.

    ``document`` and ``records`` are what ``load`` returned; ``policy`` is
    the one to decide with (openai-evals reads one line of its log).
    """

    __slots__ = ("document", "policy", "query", "records")

    def __init__(self, document: object, records: list[tuple[str, str]], query: str, policy: Policy) -> None:
        self.document = document
        self.records = records
        self.query = query
        self.policy = policy


class Computed:
    """A headline the harness does not write, computed as an exact fraction.

    ``what`` says what it is in the decision's message, ``path`` the node
    it was computed from, ``listed`` the non-finite numbers listed beside it.
    """

    __slots__ = ("listed", "path", "policy", "value", "what")

    def __init__(self, value: Fraction, what: str, path: str, policy: Policy, listed: list[str]) -> None:
        self.value = value
        self.what = what
        self.path = path
        self.policy = policy
        self.listed = listed


class Trace:
    """What an adapter has found so far, for the decision's selection.

    ``query`` is the query it gates (or the node it computes from),
    ``path`` the node that query resolved to once it has, and ``origin``
    grows as the adapter learns where the value came from; an INVALID
    decision at any step names them.
    """

    __slots__ = ("origin", "path", "query", "source")

    def __init__(self, source: Source, query: str = "$") -> None:
        self.source = source
        self.query = query
        self.path: str | None = None
        self.origin: list[tuple[str, object]] = []

    def selection(self) -> Selection:
        from .._select import Selection

        return Selection(self.query, self.path, source=self.source, origin=self.origin)


# -- the coverage rule: every count of the population must agree --------------------------------


class Count:
    """One place a harness's file states how many it ran, with where it was read.

    ``role`` says what the number is:

    - ``"declared"``: the whole population (a dataset's size times its
      epochs; lm-eval's n-samples ``original``);
    - ``"selected"``: a recorded limit or selection of it (Inspect's
      ``--limit`` and ``--sample-id``, lm-eval's ``--limit``, openai/evals'
      ``--max_samples``): a part, unless it selects the whole declared one;
    - ``"scheduled"``: what the run set out to do (Inspect's total_samples);
    - ``"covered"``: what the headline stands on (completed, scored and
      effective counts, the count behind an aggregate, events);
    - ``"rows"``: the per-sample records the file holds.
    """

    __slots__ = ("role", "value", "what", "where")

    def __init__(self, value: int, what: str, where: str, role: str) -> None:
        self.value = value
        self.what = what
        self.where = where
        self.role = role

    def __repr__(self) -> str:
        return f"{self.what} {self.value} at {self.where}"


def reconcile(
    counts: Sequence[Count], *, harness: str, unit: str, allow_partial: bool, reasons: Sequence[str] = ()
) -> tuple[int, list[str]]:
    """The one coverage rule: return the count of *unit* the headline stands on, and notes.

    Every ``"covered"`` count must be the same number; no declared,
    selected or scheduled count may be below it, and no count of records
    above it: else INVALID ``population-mismatch``, naming each number and
    where it was read; no count of records (``"rows"``) may exceed the
    scheduled population.  A covered count of 0 is INVALID ``empty-run``.  A
    declared or scheduled count above it, a selection of part of the
    declared population, or one of *reasons* (a cancelled run) is a
    partial run: INVALID ``partial-run`` unless *allow_partial*
    (``--allow-partial``), and then said in the notes.
    """
    covered = [count for count in counts if count.role == "covered"]
    if not covered:
        raise InvalidEvidence("missing-member", f"{harness}'s file says nowhere how many {unit} its headline stands on")
    basis = "; ".join(map(repr, covered))
    if len({count.value for count in covered}) > 1:
        raise InvalidEvidence("population-mismatch", f"{harness}'s counts of its {unit} disagree: {basis}")
    number = covered[0].value
    for count in counts:
        if count.role in ("declared", "selected", "scheduled") and count.value < number:
            raise InvalidEvidence(
                "population-mismatch", f"{harness} counts more {unit} than its run had: {basis}, but {count!r}"
            )
    # Records of the samples the run scheduled: a sample that errored is
    # logged too, so the records may exceed what completed, never what ran.
    planned = [count for count in counts if count.role in ("declared", "scheduled")] or covered
    ceiling = min(count.value for count in planned)
    for count in counts:
        if count.role == "rows" and count.value > ceiling:
            said = "; ".join(map(repr, planned))
            raise InvalidEvidence(
                "population-mismatch", f"{harness}'s file holds more {unit} than its run had: {count!r}, but {said}"
            )
    if number == 0:
        raise InvalidEvidence("empty-run", f"{harness} ran none of its {unit} ({basis}): there is nothing to gate")
    declared = [count.value for count in counts if count.role == "declared"]
    partial = [count for count in counts if count.role in ("declared", "scheduled") and count.value > number]
    # A selection is part of the population unless the declared population
    # is no larger; with none declared, unless the run itself scheduled or
    # covered fewer than it selected (a --limit 20 of 10 samples bit nothing).
    shorter = [count.value for count in counts if count.role in ("scheduled", "covered")]
    partial += [
        count
        for count in counts
        if count.role == "selected"
        and (min(declared) > count.value if declared else not any(value < count.value for value in shorter))
    ]
    if not partial and not reasons:
        return number, []
    larger = [count.value for count in partial if count.role != "selected"]
    of = f"{number} of {max(larger)} {unit}" if larger else f"{number} {unit}, a selection,"
    details = "; ".join([*reasons, *map(repr, partial)])
    if not allow_partial:
        raise InvalidEvidence(
            "partial-run",
            f"{harness} covered {of} ({basis}; {details}); pass --allow-partial to gate a partial run",
        )
    return number, [of.rstrip(",")]


# -- reading a harness's file -------------------------------------------------------------------


def path(*keys: str | int) -> str:
    """The normalized path of *keys*, which is also a JSONPath query for them."""
    from .._normalized_path import normalized_path

    return normalized_path(keys)


def literal(text: str) -> str:
    """*text* as an RFC 9535 string literal: ``'choice'``."""
    return path(text)[2:-1]


def count(value: object, what: str) -> int:
    """*value*, which the harness writes as a whole number >= 0, or INVALID."""
    if value is ABSENT:
        raise InvalidEvidence("missing-member", f"{what} is absent")
    if type(value) is not int or value < 0:
        raise InvalidEvidence("wrong-type", f"{what} is {describe_value(value)}, not a whole number")
    number: int = value
    return number


def require(document: object, expression: str, code: str, message: str) -> None:
    """Raise ``InvalidEvidence`` (*code*, *message*) unless *expression* holds.

    The requirement engine of ``--require``, with the harness's own words in
    the message; a requirement that reads NaN raises ``non-finite``.
    """
    from .._jsonpath import compile_requirement

    try:
        holds = compile_requirement(expression).holds(document)
    except PolicyError as exc:
        raise InvalidEvidence(
            "unanswerable-query", f"the query cannot be answered on this document: {exc.message}"
        ) from None
    if not holds:
        raise InvalidEvidence(code, f"{message} (requirement {ascii(expression)})")


def one(document: object, query: str) -> tuple[str, object]:
    """The normalized path and value of the one node *query* selects, or INVALID."""
    from .._jsonpath import compile_query
    from .._select import select_one

    return select_one(document, compile_query(query))


def load(text: str, policy: Policy) -> tuple[object, list[tuple[str, str]]]:
    """The strict parse of a harness's document, and its non-finite numbers.

    Returns the document and (normalized path, code) of each NaN, infinity,
    overflow or underflow it holds, in document order; the strict loader
    leaves a NaN or infinite placeholder at each, so a filter or
    requirement that reads one raises.  Every other fault refuses the text.
    """
    from .._strict_json import load_document

    document, found = load_document(text, exact=policy.exact)
    return document, [(record.path, record.code) for record in found]


def decode(raw: bytes | str, max_bytes: int) -> str:
    """*raw* as text, within *max_bytes* (the evidence reader's rules)."""
    from .._encoding import decode_evidence

    return decode_evidence(raw, max_bytes)


def finite(value: object) -> bool:
    """Whether *value* is a finite number the strict loader made: an int, float or (exact) Decimal, not a bool.

    The loader leaves a NaN or infinite float at each non-finite literal.
    """
    import decimal
    import math

    if type(value) is int:
        return True
    if type(value) is float:
        return math.isfinite(value)
    return type(value) is decimal.Decimal and value.is_finite()


def names_of(names: Sequence[object], limit: int = 12) -> str:
    """*names* for a message, each once: ``'a', 'b' and 3 more``, or ``none``.

    Each is shown as its text (a hostile file's names may be lists or
    numbers, which are described, and lists, which do not hash).
    """
    texts = list(dict.fromkeys(ascii(name) if type(name) is str else shown(name) for name in names))
    if not texts:
        return "none"
    text = ", ".join(texts[:limit])
    return text if len(texts) <= limit else f"{text} and {len(texts) - limit} more"


def no_such(
    kind: str, name: str, option: str, where: str, known: Sequence[object], plural: str = ""
) -> InvalidEvidence:
    """INVALID ``no-match``: *where* has no *kind* *name*; name the option and what there is.

    ``no_such("task", "hellaswag", "--task", "the lm-eval results file", ["mmlu"])``
    says: the lm-eval results file has no task 'hellaswag' (--task); its
    tasks: 'mmlu'.
    """
    # Up to 40 names: a HELM run has some 30 stats, and the one sought
    # should not hide behind "and 16 more".
    listed = names_of(known, 40)
    return InvalidEvidence(
        "no-match", f"{where} has no {kind} {ascii(name)} ({option}); its {plural or kind + 's'}: {listed}"
    )


def exact(value: object) -> Fraction:
    """The exact value of a number the strict loader made, as a Fraction.

    A float counts as the decimal text of its ``repr`` (what the producer
    wrote), as everywhere in the numeric contract.
    """
    from decimal import Decimal
    from fractions import Fraction

    from .._score import to_decimal

    # The loader makes an int, a float or (exact) a Decimal, never a bool.
    if type(value) is bool or not isinstance(value, (int, float, Decimal)):
        raise InvalidEvidence("wrong-type", f"{describe_value(value)} is not a number")
    return Fraction(to_decimal(value))
