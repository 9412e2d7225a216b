# SPDX-License-Identifier: MIT
"""Per-sample records of evaluation harnesses as report observations (docs/harnesses.md).

A *sample reader* turns one input of ``report()`` into observations, each
``(trial_id, verdict, code, message, score, record)``:

- the generic form, ``select_score=QUERY, trial_id=(QUERY, ...)``, reads
  any JSON Lines file: each line's score is the one node the score query
  selects, its trial id the nodes the id queries select;
- ``Source("lm-eval", metric=...)`` reads ``samples_<task>_<date>.jsonl``;
- ``Source("inspect", scorer=...)`` reads an Inspect ``.json`` log (its
  ``samples`` array) or ``.eval`` log (its ``samples/*.json`` members);
- ``Source("helm", metric=...)`` reads ``per_instance_stats.json``;
- ``Source("promptfoo")`` reads ``promptfoo eval -o results.json``.

A trial id is built canonically from its members, strings and integers
only: the JSON text of their list, ``[3,"none"]``, so that ``["1","a"]``
and ``[1,"a"]`` are two trials.  A member that is absent is
``missing-member``; a bool, a float, null, an array or an object is
``bad-trial-id``.  The score runs the numeric contract with the selected
node's path in the message.  NaN, ``Infinity`` and overflowing numbers are
read by the strict loader as located records (``load_document``): one at
the score or an id member makes that observation invalid with the loader's
own code; one elsewhere in a record (another scorer's unscored sample, say)
is not read, since the report reads only what it selects.  A document's
non-finite numbers outside its records are not read either.

Nothing here converts a missing, null, NaN, string, list or errored value
into a number: the one mapping from strings to numbers is an explicit,
closed ``labels`` map, and a string outside it is ``unknown-label``.
"""

from __future__ import annotations

import re

from ._decide import decide_with_reason
from ._describe import describe_value, json_kind
from ._errors import InvalidEvidence, PolicyError
from ._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Optional, Union

    from ._jsonpath import Query
    from ._policy import Policy
    from ._score import Number
    from ._source import Source

    # (trial_id or None, verdict, code, message, score or None, record or None)
    Row = tuple[Optional[str], Verdict, str, str, Optional[Number], object]
    # (place, row): place names the record within its input ("$['samples'][3]").
    Placed = tuple[str, Row]
    Codes = dict[int, tuple[str, str]]
    Id = Union[str, int]

__all__ = ["READ_HARNESSES", "SampleReader", "canonical_trial_id", "reader_for", "results_direction", "split_queries"]

# The harnesses report() reads one trial per sample from.
READ_HARNESSES = ("lm-eval", "inspect", "helm", "promptfoo")

# The options each takes (Source(...) keywords); report() refuses any other.
_OPTIONS = {
    "lm-eval": ("metric", "results", "task", "allow_partial"),
    "inspect": ("scorer", "labels"),
    "helm": ("metric", "split"),
    "promptfoo": ("metric",),
}

_MISSING = object()

# lm-eval's sample file name: samples_<task>_<date id>.jsonl, the date id
# as EvaluationTracker writes it (datetime.now().isoformat() with ':' as '-').
_LM_EVAL_SAMPLES = re.compile(r"samples_(?P<task>.+)_\d{4}-\d{2}-\d{2}T[0-9.\-]+\.jsonl")

# The local file header signature of a ZIP (APPNOTE.TXT section 4.3.7): an
# Inspect .eval log.  A .json log starts with "{" (after whitespace).
_ZIP_MAGIC = b"PK\x03\x04"


def _clip(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _path(base: str, *keys: str | int) -> str:
    """The normalized path (RFC 9535 section 2.7) of *keys* under *base*."""
    from ._jsonpath import normalized_path

    return base + normalized_path(keys)[1:]


def canonical_trial_id(
    parts: Sequence[tuple[str, object]], codes: Codes | None = None
) -> tuple[str | None, tuple[str, str] | None]:
    """Return ``(trial id, None)`` or ``(None, (code, message))`` for *parts*.

    *parts* are ``(path, value)`` of the id's members, in order; a value of
    ``_MISSING`` is an absent member.  The id is the JSON text of the list
    of values, compact, non-ASCII kept: ``[3,"none"]``.  Only strings and
    integers make an id (``type(x) is``: ``True`` is an int in Python, not in
    JSON).
    """
    values: list[Id] = []
    for path, value in parts:
        if value is _MISSING:
            return None, ("missing-member", f"the record has no trial id member {_clip(path)}")
        kind = type(value)
        if kind is str or kind is int:
            values.append(value)  # type: ignore[arg-type]
            continue
        if codes is not None and kind is float and id(value) in codes:
            code, literal = codes[id(value)]
            return None, (code, f"the trial id member {_clip(path)} is {literal}, not a string or integer")
        shown = describe_value(value) if kind is float else json_kind(value)
        return None, ("bad-trial-id", f"the trial id member {_clip(path)} must be a string or an integer, not {shown}")
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


def _codes(records: Sequence[object]) -> Codes:
    """The loader's records by the identity of the float standing in for each."""
    return {id(record.value): (record.code, record.literal) for record in records}  # type: ignore[attr-defined]


def _invalid(trial_id: str | None, code: str, message: str) -> Row:
    return (trial_id, Verdict.INVALID, code, message, None, None)


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

    def __init__(self, policy: Policy, labels: Mapping[str, Number] | None = None) -> None:
        self.policy = policy
        self.labels = labels

    def description(self) -> dict[str, object]:  # pragma: no cover - each reader says
        raise NotImplementedError

    # -- one record -------------------------------------------------------------

    def judge(
        self, trial_id: str | None, path: str, value: object, codes: Codes, record: object, hint: str = ""
    ) -> Row:
        """The observation for a score *value* at *path* (``_MISSING`` if absent)."""
        from ._select import value_problem

        if value is _MISSING:
            return _invalid(trial_id, "missing-member", f"the record has no score at {_clip(path)}{hint}")
        kind = type(value)
        if kind is float and id(value) in codes:
            code, literal = codes[id(value)]
            return _invalid(trial_id, code, f"the score at {_clip(path)} is {literal}, not a finite number")
        if kind is str and self.labels is not None:
            mapped = self.labels.get(value)  # type: ignore[call-overload]
            if mapped is None:
                known = ", ".join(repr(label) for label in self.labels)
                return _invalid(
                    trial_id,
                    "unknown-label",
                    f"the score at {_clip(path)} is {_clip(repr(value), 40)}, not one of the labels {known}",
                )
            value = mapped
        problem = value_problem(path, value, self.policy)
        if problem is not None:
            return _invalid(trial_id, problem[0], problem[1] + self.type_hint(value))
        verdict, code, message = decide_with_reason(value, self.policy)
        return (trial_id, verdict, code, message, value, record)  # type: ignore[return-value]

    def type_hint(self, value: object) -> str:
        """Said after a wrong-type message: what the harness meant by such a value."""
        return ""

    # -- lines ------------------------------------------------------------------

    def line(self, raw: bytes, max_bytes: int) -> Row:
        """The observation for one JSON Lines line (without its ``\\n``); never raises."""
        if not raw.strip(b" \t\r"):
            return _invalid(None, "empty", "blank line, not a record")
        try:
            from ._encoding import decode_evidence
            from ._strict_json import load_document

            record, records = load_document(decode_evidence(raw, max_bytes), exact=self.policy.exact)
            if type(record) is not dict:
                return _invalid(None, "not-an-object", f"a record must be a JSON object, not {json_kind(record)}")
            return self.record(record, "$", _codes(records))
        except InvalidEvidence as exc:
            message = exc.message
            if exc.colno is not None:
                message += f" (column {exc.colno})"
            return _invalid(None, exc.code, message)
        except Exception as exc:  # fail closed: a defect here must not release
            return _invalid(
                None, "internal-error", f"unexpected {type(exc).__name__} in scorecontract; please report it"
            )

    def record(self, record: dict[str, object], base: str, codes: Codes) -> Row:  # pragma: no cover
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


def _load(data: bytes, max_bytes: int, exact: bool) -> tuple[object, Codes]:
    from ._encoding import decode_evidence
    from ._strict_json import load_document

    document, records = load_document(decode_evidence(data, max_bytes), exact=exact)
    return document, _codes(records)


def _count(value: object, where: str, harness: str) -> int:
    """A count the harness declares: an int >= 0 (not a bool, not 4.0)."""
    if value is _MISSING:
        raise InvalidEvidence("missing-member", f"the {harness} file has no {where}")
    if type(value) is not int or value < 0:
        raise InvalidEvidence(
            "wrong-type", f"{where} in the {harness} file must be an integer >= 0, not {describe_value(value)}"
        )
    count: int = value
    return count


def _at_most(count: int, population: int, what: str) -> None:
    """Refuse a document holding more records than the population it declares.

    Its own writer never does (one record per sample, or per test): a
    doubled record could stand in for one that is missing.
    """
    if count > population:
        raise InvalidEvidence("population-mismatch", f"the log declares {population} samples but holds {count} {what}")


def _member(value: object, *keys: str) -> object:
    """``value[k1][k2]...``, or ``_MISSING`` where an object or member is absent."""
    for key in keys:
        if type(value) is not dict:
            return _MISSING
        value = value.get(key, _MISSING)
    return value


# -- the generic form -------------------------------------------------------------


def _compile(text: object, what: str) -> Query | str:
    if type(text) is not str or not text:
        raise PolicyError(
            "bad-selector", f"{what} must be a non-empty query or member name, not {describe_value(text)}"
        )
    if text[:1] in ("$", "/"):
        from ._jsonpath import compile_query

        return compile_query(text)
    return text


def _nodes(record: dict[str, object], query: Query | str) -> list[tuple[str, object]]:
    if isinstance(query, str):
        return [(_path("$", query), record[query])] if query in record else []
    return query.select(record)


def _query_text(query: Query | str) -> str:
    return query if isinstance(query, str) else query.text


class _Selected(SampleReader):
    """The generic form: a score query and the trial id's queries, per JSON Lines line."""

    def __init__(self, policy: Policy, select_score: object, trial_id: object) -> None:
        super().__init__(policy)
        self.score = _compile(select_score, "select_score")
        texts: list[object] = []
        if isinstance(trial_id, str):
            texts.extend(split_queries(trial_id))
        elif isinstance(trial_id, (list, tuple)):
            for text in trial_id:
                if isinstance(text, str):
                    texts.extend(split_queries(text))
                else:
                    texts.append(text)
        else:
            raise PolicyError(
                "bad-selector", f"trial_id must be a query or a list of queries, not {describe_value(trial_id)}"
            )
        if not texts:
            raise PolicyError("bad-selector", "trial_id names no query")
        self.ids = [_compile(text, "each trial_id query") for text in texts]

    def description(self) -> dict[str, object]:
        return {"select_score": _query_text(self.score), "trial_id": [_query_text(query) for query in self.ids]}

    def record(self, record: dict[str, object], base: str, codes: Codes) -> Row:
        parts: list[tuple[str, object]] = []
        try:
            for query in self.ids:
                nodes = _nodes(record, query)
                if len(nodes) > 1:
                    return _invalid(
                        None,
                        "bad-trial-id",
                        f"the trial id query {_clip(ascii(_query_text(query)))} selects {len(nodes)} nodes, not one",
                    )
                parts.append(nodes[0] if nodes else (_query_text(query), _MISSING))
            trial_id, problem = canonical_trial_id(parts, codes)
            if problem is not None:
                return _invalid(None, *problem)
            nodes = _nodes(record, self.score)
        except PolicyError as exc:  # the engine's limits, met on this record
            return _invalid(None, "unanswerable-query", f"the query cannot be answered on this record: {exc.message}")
        except InvalidEvidence as exc:  # a filter that read NaN
            return _invalid(None, exc.code, exc.message)
        if len(nodes) != 1:
            shown = _clip(ascii(_query_text(self.score)))
            if not nodes:
                return _invalid(trial_id, "no-match", f"the score query {shown} selects nothing")
            return _invalid(
                trial_id, "ambiguous-selection", f"the score query {shown} selects {len(nodes)} nodes, not one"
            )
        path, value = nodes[0]
        return self.judge(trial_id, path, value, codes, record)


# -- lm-evaluation-harness ---------------------------------------------------------


class _LmEval(SampleReader):
    """lm-eval ``samples_<task>_<date>.jsonl``: one line per (doc_id, filter)."""

    declares_population = False

    def __init__(self, policy: Policy, source: Source, names: Sequence[str | None]) -> None:
        super().__init__(policy)
        metric = source.get("metric")
        if type(metric) is not str or not metric:
            raise PolicyError(
                "bad-option", "report --from lm-eval needs the metric: the bare per-sample name, e.g. acc"
            )
        if "," in metric:
            raise PolicyError(
                "bad-option",
                f"report --from lm-eval takes the bare per-sample metric name ({metric.split(',')[0]!r}), "
                f"not the results file's key {metric!r}",
            )
        self.metric = metric
        # The filters the results file reports the metric under, and its
        # digest, once read.
        self.filters: frozenset[str] | None = None
        self.results_sha256: str | None = None
        self.results = source.get("results")
        allow_partial = source.get("allow_partial", False)
        if type(allow_partial) is not bool:
            raise PolicyError("bad-option", f"allow_partial must be True or False, not {describe_value(allow_partial)}")
        self.allow_partial = allow_partial
        task = source.get("task")
        if task is not None and (type(task) is not str or not task):
            raise PolicyError("bad-option", f"task must be a non-empty string, not {describe_value(task)}")
        if self.results is not None:
            import os

            if not isinstance(self.results, (str, os.PathLike)):
                raise PolicyError(
                    "bad-option", f"results must be the path of the results file, not {describe_value(self.results)}"
                )
            self.declares_population = True
            if task is None:
                task = self._task_from(names)
        elif allow_partial:
            raise PolicyError("bad-option", "allow_partial applies to the results file's n-samples: give results too")
        self.task = task

    @staticmethod
    def _task_from(names: Sequence[str | None]) -> str:
        import os

        tasks = set()
        for name in names:
            match = _LM_EVAL_SAMPLES.fullmatch(os.path.basename(name)) if name is not None else None
            if match is None:
                shown = ascii(name) if name is not None else "this input"
                raise PolicyError(
                    "bad-option",
                    f"cannot tell the lm-eval task from {shown} "
                    "(not samples_<task>_<date>.jsonl): give the task (--task)",
                )
            tasks.add(match.group("task"))
        if len(tasks) != 1:
            raise PolicyError(
                "bad-option", f"the sample files are of {len(tasks)} tasks ({', '.join(sorted(tasks))}): gate one task"
            )
        return tasks.pop()

    def description(self) -> dict[str, object]:
        shown: dict[str, object] = {
            "harness": "lm-eval",
            "metric": self.metric,
            "task": self.task,
            "allow_partial": self.allow_partial,
        }
        if self.results is not None:
            # The file that declares the population, by its bytes (a receipt
            # holds no path); null unless it was read in full.
            shown["results_sha256"] = self.results_sha256
        return shown

    def population(self, max_bytes: int) -> int | None:
        """``n-samples[task].effective`` times the filters the results file reports the metric under."""
        if self.results is None:
            return None
        import os

        from ._read import read_file

        path = os.fspath(self.results)  # type: ignore[call-overload]
        data = read_file(path, max_bytes, what="lm-eval results file")
        from ._digest import sha256_hex

        self.results_sha256 = sha256_hex(data)
        try:
            results, _ = _load(data, max_bytes, self.policy.exact)
        except InvalidEvidence as exc:  # say which file: the samples are read later
            raise InvalidEvidence(
                exc.code, f"the lm-eval results file: {exc.message}", exc.pos, exc.lineno, exc.colno
            ) from None
        task = self.task
        samples = _member(results, "n-samples", task)  # type: ignore[arg-type]
        shown = f"n-samples.{task}"
        effective = _count(_member(samples, "effective"), f"{shown}.effective", "lm-eval results")
        original = _count(_member(samples, "original"), f"{shown}.original", "lm-eval results")
        if effective < original and not self.allow_partial:
            raise InvalidEvidence(
                "partial-run",
                f"lm-eval ran {effective} of {original} documents of {task} (--limit); "
                "pass --allow-partial to gate a partial run",
            )
        metrics = _member(results, "results", task)  # type: ignore[arg-type]
        if type(metrics) is not dict:
            raise InvalidEvidence("missing-member", f"the lm-eval results file has no results for task {task!r}")
        prefix = self.metric + ","
        filters = [key[len(prefix) :] for key in metrics if key.startswith(prefix)]
        if not filters:
            raise InvalidEvidence(
                "missing-member",
                f"the lm-eval results file reports no {self.metric!r} for task {task!r} "
                f"(no key {self.metric},<filter>)",
            )
        # The direction the headline follows (check --from lm-eval): a
        # lower-is-better metric gated as higher-is-better would PASS a
        # bad model.  The command line adopts the file's direction when
        # the user stated none (results_direction); a stated one that
        # disagrees is refused, not overridden.
        from ._headline import _lm_eval_direction

        stated = _lm_eval_direction(results, task, self.metric)  # type: ignore[arg-type]
        if stated is not None and stated != self.policy.direction:
            raise PolicyError(
                "option-conflict",
                f"lm-eval marks {ascii(self.metric)} of {ascii(task)} {stated} is better (higher_is_better "
                f"{'true' if stated == 'higher' else 'false'}), and the policy says direction "
                f"{self.policy.direction!r}; state direction {stated!r}",
            )
        # One sample line per (doc_id, filter): evaluator.py loops over the
        # filters, then the documents.  A line under another filter is no
        # trial of this population (record() refuses it).
        self.filters = frozenset(filters)
        return effective * len(filters)

    def type_hint(self, value: object) -> str:
        if type(value) is list:
            return (
                f"; lm-eval writes a list for a metric defined only at corpus level (the [gold, pred] "
                f"pairs of f1-type metrics): {self.metric!r} has no per-sample score to gate"
            )
        if type(value) is str:
            return "; lm-eval writes a value it cannot serialize (a numpy float32) as its str()"
        return ""

    def record(self, record: dict[str, object], base: str, codes: Codes) -> Row:
        trial_id, problem = canonical_trial_id(
            [("$['doc_id']", record.get("doc_id", _MISSING)), ("$['filter']", record.get("filter", _MISSING))], codes
        )
        if problem is not None:
            return _invalid(None, *problem)
        if self.filters is not None and record["filter"] not in self.filters:
            shown = ", ".join(sorted(self.filters))
            return _invalid(
                trial_id,
                "not-scheduled",
                f"the line's filter {_clip(repr(record['filter']), 40)} is not one the results file reports "
                f"{self.metric!r} under ({shown})",
            )
        return self.judge(trial_id, _path("$", self.metric), record.get(self.metric, _MISSING), codes, record)


# -- Inspect ----------------------------------------------------------------------------


class _Inspect(SampleReader):
    """Inspect ``.json`` logs (``samples`` array) and ``.eval`` logs (``samples/*.json``)."""

    framing = "document"
    declares_population = True

    def __init__(self, policy: Policy, source: Source) -> None:
        scorer = source.get("scorer")
        if type(scorer) is not str or not scorer:
            raise PolicyError("bad-option", "report --from inspect needs the scorer (--scorer), e.g. match")
        self.scorer = scorer
        labels = source.get("labels")
        super().__init__(policy, None if labels is None else _labels(labels, policy))

    def description(self) -> dict[str, object]:
        labels = None if self.labels is None else dict(self.labels)
        return {"harness": "inspect", "scorer": self.scorer, "labels": labels}

    def type_hint(self, value: object) -> str:
        if type(value) is str and self.labels is None:
            return "; Inspect letter grades (C, P, I, N) need an explicit map: --labels C=1,P=0.5,I=0,N=0"
        return ""

    def sample(self, sample: object, base: str, codes: Codes) -> Row:
        if type(sample) is not dict:
            return _invalid(None, "not-an-object", f"an Inspect sample must be a JSON object, not {json_kind(sample)}")
        trial_id, problem = canonical_trial_id(
            [(_path(base, "id"), sample.get("id", _MISSING)), (_path(base, "epoch"), sample.get("epoch", _MISSING))],
            codes,
        )
        if problem is not None:
            return _invalid(None, *problem)
        error = _member(sample, "error")
        if error is not _MISSING and error is not None:
            # Inspect records an EvalError on a sample that raised; whatever
            # score it kept is not evidence (fail_on_error=False logs it).
            why = _member(error, "message")
            shown = f": {_clip(why, 80)}" if type(why) is str else ""
            return _invalid(trial_id, "grader-errors", f"Inspect recorded an error for this sample{shown}")
        path = _path(base, "scores", self.scorer, "value")
        value = _member(sample, "scores", self.scorer, "value")
        if value is _MISSING and type(_member(sample, "scores", self.scorer)) is not dict:
            return _invalid(trial_id, "missing-member", f"the sample has no score by {self.scorer!r}")
        return self.judge(trial_id, path, value, codes, sample)

    def document(self, data: bytes, name: str, max_bytes: int) -> tuple[list[Placed], int | None]:
        if data[:4] == _ZIP_MAGIC:
            return self._eval(data, name, max_bytes)
        log, codes = _load(data, max_bytes, self.policy.exact)
        population = self._population(log)
        samples = _member(log, "samples")
        if type(samples) is not list:
            raise InvalidEvidence(
                "missing-member",
                "the Inspect log has no samples array (a log written without samples, --no-log-samples, "
                "has nothing to gate per sample)",
            )
        _at_most(len(samples), population, "samples in its samples array")
        rows: list[Placed] = []
        for index, sample in enumerate(samples):
            base = f"$['samples'][{index}]"
            rows.append((base, self.sample(sample, base, codes)))
        return rows, population

    def _eval(self, data: bytes, name: str, max_bytes: int) -> tuple[list[Placed], int | None]:
        from ._archive import MAX_RATIO, Archive

        rows: list[Placed] = []
        # Each member within the byte limit, and all of them together within
        # the ratio of the whole archive: overlapping entries cannot make a
        # small file inflate without end.
        with Archive(data, what=f"the Inspect log {name}", total_limit=MAX_RATIO * max(len(data), 1)) as archive:
            header, _ = _load(archive.read("header.json", max_bytes), max_bytes, self.policy.exact)
            population = self._population(header)
            members = [member for member in archive.names if member.startswith("samples/") and member.endswith(".json")]
            _at_most(len(members), population, "samples/*.json members")
            for member in members:
                try:
                    sample, codes = _load(archive.read(member, max_bytes), max_bytes, self.policy.exact)
                except InvalidEvidence as exc:
                    if exc.code in ("bad-archive", "archive-too-large"):
                        raise
                    rows.append((member, _invalid(None, exc.code, exc.message)))
                    continue
                rows.append((member, self.sample(sample, "$", codes)))
        return rows, population

    @staticmethod
    def _population(log: object) -> int:
        if type(log) is not dict:
            raise InvalidEvidence("not-an-object", f"an Inspect log must be a JSON object, not {json_kind(log)}")
        status = log.get("status", _MISSING)
        if status != "success" or type(status) is not str:
            # A run that errored, was cancelled or is still going ("started")
            # logged only some samples, under results it may never have finished.
            shown = "absent" if status is _MISSING else describe_value(status)
            raise InvalidEvidence("requirement-failed", f"the Inspect log's status is {shown}, not 'success'")
        invalidated = log.get("invalidated", False)
        if invalidated is not False:
            shown = "true" if invalidated is True else describe_value(invalidated)
            raise InvalidEvidence(
                "requirement-failed",
                f"the Inspect log's invalidated is {shown}, not false: its samples are not evidence",
            )
        # total_samples already counts every epoch: Inspect's resolve_dataset
        # repeats the dataset once per epoch, and the run records
        # EvalResults(total_samples=len(samples)) of that list
        # (inspect_ai/_eval/task/run.py, results.py).
        count = _count(_member(log, "results", "total_samples"), "results.total_samples", "Inspect log")
        if not count:
            raise InvalidEvidence("missing-evidence", "the Inspect log declares no samples: there is nothing to gate")
        return count


def _labels(labels: object, policy: Policy) -> dict[str, Number]:
    """The closed map from letter grades to scores; configuration errors raise ``PolicyError``."""
    from ._decide import score_problem

    # A Source keeps a mapping as sorted (letter, score) pairs.
    pairs: list[object]
    if isinstance(labels, dict):
        pairs = list(labels.items())
    elif isinstance(labels, tuple):
        pairs = list(labels)
    else:
        raise PolicyError("bad-option", f"labels must map letters to scores, not {describe_value(labels)}")
    result: dict[str, Number] = {}
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise PolicyError("bad-option", f"labels must map letters to scores, not {describe_value(labels)}")
        label, score = pair
        if type(label) is not str or not label:
            raise PolicyError("bad-option", f"a label must be a non-empty string, not {describe_value(label)}")
        problem = score_problem(score, policy)
        if problem is not None:
            raise PolicyError("bad-option", f"the label {label!r} maps to a score that is unusable: {problem[1]}")
        result[label] = score  # score_problem admitted it
    if not result:
        raise PolicyError("bad-option", "labels maps no letter")
    return result


# -- HELM ---------------------------------------------------------------------------------


class _Helm(SampleReader):
    """HELM ``per_instance_stats.json``: an array of instances, each with its stats."""

    framing = "document"

    def __init__(self, policy: Policy, source: Source) -> None:
        super().__init__(policy)
        metric = source.get("metric")
        if type(metric) is not str or not metric:
            raise PolicyError(
                "bad-option", "report --from helm needs the stat's name (--sample-metric), e.g. exact_match"
            )
        split = source.get("split")
        if split is not None and (type(split) is not str or not split):
            raise PolicyError("bad-option", f"split must be a non-empty string, not {describe_value(split)}")
        self.metric, self.split = metric, split

    def description(self) -> dict[str, object]:
        return {"harness": "helm", "metric": self.metric, "split": self.split}

    def document(self, data: bytes, name: str, max_bytes: int) -> tuple[list[Placed], int | None]:
        instances, codes = _load(data, max_bytes, self.policy.exact)
        if type(instances) is not list:
            raise InvalidEvidence(
                "not-an-object", f"HELM's per_instance_stats.json is an array of instances, not {json_kind(instances)}"
            )
        rows: list[Placed] = []
        for index, instance in enumerate(instances):
            base = f"$[{index}]"
            rows.append((base, self.instance(instance, base, codes)))
        return rows, None

    def instance(self, instance: object, base: str, codes: Codes) -> Row:
        if type(instance) is not dict:
            return _invalid(None, "not-an-object", f"a HELM instance must be a JSON object, not {json_kind(instance)}")
        parts = [
            (_path(base, "instance_id"), instance.get("instance_id", _MISSING)),
            (_path(base, "train_trial_index"), instance.get("train_trial_index", _MISSING)),
        ]
        if "perturbation" in instance:
            # A perturbed copy of the instance is a trial of its own.
            parts.append((_path(base, "perturbation", "name"), _member(instance, "perturbation", "name")))
        trial_id, problem = canonical_trial_id(parts, codes)
        if problem is not None:
            return _invalid(None, *problem)
        stats = instance.get("stats")
        if type(stats) is not list:
            return _invalid(trial_id, "missing-member", "the HELM instance has no stats array")
        wanted = f"{self.metric!r}" + (f" (split {self.split!r})" if self.split is not None else "")
        found = [
            index
            for index, stat in enumerate(stats)
            if _member(stat, "name", "name") == self.metric
            and type(_member(stat, "name", "name")) is str
            and (self.split is None or _member(stat, "name", "split") == self.split)
            and _member(stat, "name", "perturbation") is _MISSING
        ]
        if not found:
            return _invalid(trial_id, "missing-member", f"the HELM instance has no unperturbed stat {wanted}")
        if len(found) > 1:
            return _invalid(
                trial_id,
                "ambiguous-selection",
                f"the HELM instance has {len(found)} unperturbed stats {wanted}"
                + ("; give the split" if self.split is None else ""),
            )
        stat = stats[found[0]]
        at = _path(base, "stats", found[0])
        count = _member(stat, "count")
        if count is _MISSING:
            return _invalid(trial_id, "missing-member", f"the HELM stat at {_clip(at)} has no count")
        if type(count) is not int or count < 0:
            return _invalid(
                trial_id,
                "wrong-type",
                f"the count of the HELM stat at {_clip(at)} must be an integer >= 0, not {describe_value(count)}",
            )
        if count == 0:
            return _invalid(trial_id, "empty-run", f"the HELM stat at {_clip(at)} has count 0: nothing was measured")
        mean = _member(stat, "mean")
        if mean is _MISSING:
            return _invalid(trial_id, "missing-member", f"the HELM stat at {_clip(at)} has no mean")
        return self.judge(trial_id, _path(at, "mean"), mean, codes, instance)


# -- promptfoo ----------------------------------------------------------------------------


class _Promptfoo(SampleReader):
    """promptfoo ``eval -o results.json``: the rows of ``results.results``."""

    framing = "document"
    declares_population = True

    def __init__(self, policy: Policy, source: Source) -> None:
        super().__init__(policy)
        metric = source.get("metric", "score")
        if metric not in ("score", "pass"):
            raise PolicyError(
                "bad-option", f"report --from promptfoo scores a row by 'score' or 'pass', not {describe_value(metric)}"
            )
        self.metric = metric

    def description(self) -> dict[str, object]:
        return {"harness": "promptfoo", "metric": self.metric}

    def document(self, data: bytes, name: str, max_bytes: int) -> tuple[list[Placed], int | None]:
        output, codes = _load(data, max_bytes, self.policy.exact)
        rows = _member(output, "results", "results")
        if type(rows) is not list:
            raise InvalidEvidence("missing-member", "the promptfoo output has no results.results array of rows")
        stats = _member(output, "results", "stats")
        successes = _count(_member(stats, "successes"), "results.stats.successes", "promptfoo output")
        failures = _count(_member(stats, "failures"), "results.stats.failures", "promptfoo output")
        errors = _count(_member(stats, "errors"), "results.stats.errors", "promptfoo output")
        population = successes + failures + errors
        if not population:
            raise InvalidEvidence("missing-evidence", "the promptfoo output counts no tests: there is nothing to gate")
        from ._headline_counts import promptfoo_tally

        passed, _, errored = promptfoo_tally(rows)
        if (len(rows), passed, errored) != (population, successes, errors):
            raise InvalidEvidence(
                "population-mismatch",
                f"the promptfoo rows disagree with results.stats: {len(rows)} rows ({passed} passing, "
                f"{errored} errors) against {population} tests ({successes} successes, {failures} failures, "
                f"{errors} errors)",
            )
        placed: list[Placed] = []
        for index, row in enumerate(rows):
            base = f"$['results']['results'][{index}]"
            placed.append((base, self.row(row, base, codes)))
        return placed, population

    def row(self, row: object, base: str, codes: Codes) -> Row:
        if type(row) is not dict:
            return _invalid(None, "not-an-object", f"a promptfoo row must be a JSON object, not {json_kind(row)}")
        parts = [
            (_path(base, "testIdx"), row.get("testIdx", _MISSING)),
            (_path(base, "promptIdx"), row.get("promptIdx", _MISSING)),
        ]
        if "repeatIndex" in row:
            parts.append((_path(base, "repeatIndex"), row["repeatIndex"]))
        trial_id, problem = canonical_trial_id(parts, codes)
        if problem is not None:
            return _invalid(None, *problem)
        reason = row.get("failureReason", 0)
        if type(reason) is not int or reason not in (0, 1, 2):
            # ResultFailureReason is NONE 0, ASSERT 1 or ERROR 2: anything
            # else cannot say whether the row errored.
            return _invalid(
                trial_id,
                "wrong-type",
                f"the failure reason at {_clip(_path(base, 'failureReason'))} is {describe_value(reason)}, not 0, 1 or 2",
            )
        if _errored(row):
            error = row.get("error")
            why = f": {_clip(error, 80)}" if type(error) is str else ""
            return _invalid(
                trial_id, "grader-errors", f"promptfoo recorded an error for this row (failureReason 2){why}"
            )
        if self.metric == "pass":
            success = row.get("success", _MISSING)
            path = _path(base, "success")
            if success is _MISSING:
                return _invalid(trial_id, "missing-member", f"the row has no {path}")
            if type(success) is not bool:
                return _invalid(
                    trial_id,
                    "wrong-type",
                    f"the pass flag at {_clip(path)} is {describe_value(success)}, not true or false",
                )
            # The one place a bool becomes a number: the pass flag, by name.
            return self.judge(trial_id, path, 1 if success else 0, codes, row)
        return self.judge(trial_id, _path(base, "score"), row.get("score", _MISSING), codes, row)


def _errored(row: object) -> bool:
    """promptfoo's ResultFailureReason.ERROR (2): the row is an error, not a score."""
    reason = _member(row, "failureReason")
    return type(reason) is int and reason == 2


def results_direction(reader: SampleReader | None, max_bytes: int) -> str | None:
    """The direction lm-eval's results file states for *reader*'s metric, or None.

    None for another reader, no results file, one silent on the metric, or
    one that cannot be read: the report reads it next and judges that
    INVALID.  The command line adopts the direction when the user stated
    none, as ``check --from lm-eval`` does.
    """
    if not isinstance(reader, _LmEval) or reader.results is None or reader.task is None:
        return None
    try:
        import os

        from ._headline import _lm_eval_direction
        from ._read import read_file

        path = os.fspath(reader.results)  # type: ignore[call-overload]
        data = read_file(path, max_bytes, what="lm-eval results file")
        document, _ = _load(data, max_bytes, reader.policy.exact)
        return _lm_eval_direction(document, reader.task, reader.metric)
    except Exception:
        # report() reads the same bytes next and turns any fault into an
        # INVALID report; a guess of the direction must not crash first.
        return None


def reader_for(
    source: object, select_score: object, trial_id: object, policy: Policy, names: Sequence[str | None]
) -> SampleReader | None:
    """The reader for ``report()``'s *source* or generic queries, or None for trial lines.

    Raises ``PolicyError`` for a harness without a per-sample reader, an
    option that reader does not take, and a query that does not compile.
    *names* are the inputs' names, for lm-eval's task.
    """
    from ._source import Source

    if source is None:
        if select_score is None and trial_id is None:
            return None
        if select_score is None or trial_id is None:
            raise PolicyError(
                "bad-policy", "select_score and trial_id go together: the score query and the trial id's queries"
            )
        return _Selected(policy, select_score, trial_id)
    if not isinstance(source, Source):
        raise PolicyError("bad-option", f"source must be a Source, not {describe_value(source)}")
    if select_score is not None or trial_id is not None:
        raise PolicyError(
            "bad-policy", "a harness source selects the score and trial id itself: drop select_score and trial_id"
        )
    harness = source.harness
    if harness not in READ_HARNESSES:
        raise PolicyError(
            "bad-option",
            f"report --from {harness} is not supported: per-sample reports read {', '.join(READ_HARNESSES)} "
            "(check --from gates the headline)",
        )
    source.refuse_options_beyond(_OPTIONS[harness], f"report --from {harness}")
    if harness == "lm-eval":
        return _LmEval(policy, source, names)
    if harness == "inspect":
        return _Inspect(policy, source)
    if harness == "helm":
        return _Helm(policy, source)
    return _Promptfoo(policy, source)
