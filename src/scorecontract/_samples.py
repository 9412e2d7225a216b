# SPDX-License-Identifier: MIT
"""Per-sample records as report observations: which reader reads ``report()``'s input.

A *sample reader* turns one input of ``report()`` into observations, each
``(trial_id, verdict, code, message, score, record)`` (``_sample_reader``):

- the generic form, ``select_score=QUERY, trial_id=(QUERY, ...)``, reads
  any JSON Lines file: each line's score is the one node the score query
  selects, its trial id the nodes the id queries select;
- ``Source(HARNESS, ...)`` reads a harness's own per-sample output, with
  the reader of that harness's module (docs/harnesses.md):
  ``samples_<task>_<date>.jsonl`` of lm-eval, an Inspect ``.json`` or
  ``.eval`` log, HELM's ``per_instance_stats.json``, promptfoo's
  ``results.json``.

This module is what ``report()`` calls (``reader_for``); the machinery
every reader shares, and the names the report and the tally use
(``SampleReader``, ``canonical_trial_id``, ``split_queries``), are
``_sample_reader``'s, exposed here.
"""

from __future__ import annotations

from ._describe import describe_value
from ._errors import InvalidEvidence, PolicyError
from ._sample_reader import ABSENT, SampleReader, canonical_trial_id, clip, invalid_row, path_under, split_queries

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ._jsonpath import Query
    from ._policy import Policy

    # Re-exported (``as``) for the report and the tally's annotations.
    from ._sample_reader import Codes
    from ._sample_reader import Placed as Placed
    from ._sample_reader import Row as Row

__all__ = [
    "SampleReader",
    "canonical_trial_id",
    "reader_for",
    "results_direction",
    "split_queries",
]


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
        return [(path_under("$", query), record[query])] if query in record else []
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
                    return invalid_row(
                        None,
                        "bad-trial-id",
                        f"the trial id query {clip(ascii(_query_text(query)))} selects {len(nodes)} nodes, not one",
                    )
                parts.append(nodes[0] if nodes else (_query_text(query), ABSENT))
            trial_id, problem = canonical_trial_id(parts, codes)
            if problem is not None:
                return invalid_row(None, *problem)
            nodes = _nodes(record, self.score)
        except PolicyError as exc:  # the engine's limits, met on this record
            return invalid_row(
                None, "unanswerable-query", f"the query cannot be answered on this record: {exc.message}"
            )
        except InvalidEvidence as exc:  # a filter that read NaN
            return invalid_row(None, exc.code, exc.message)
        if len(nodes) != 1:
            shown = clip(ascii(_query_text(self.score)))
            if not nodes:
                return invalid_row(trial_id, "no-match", f"the score query {shown} selects nothing")
            return invalid_row(
                trial_id, "ambiguous-selection", f"the score query {shown} selects {len(nodes)} nodes, not one"
            )
        path, value = nodes[0]
        return self.judge(trial_id, path, value, codes, record)


def results_direction(reader: SampleReader | None, max_bytes: int) -> str | None:
    """The direction a file *reader*'s options name states for the score, or None.

    None for a reader that reads no such file (only lm-eval's results file
    states one), one silent on the metric, or one that cannot be read: the
    report reads it next and judges that INVALID.  The command line adopts
    the direction when the user stated none, as ``check --from lm-eval`` does.
    """
    if reader is None:
        return None
    return reader.stated_direction(max_bytes)


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
    from ._headline import harness

    name = source.harness
    adapter = harness(name).SAMPLES  # first: it says when harness support is not in this copy
    if adapter is None:
        from ._harnesses import load_all

        readers = ", ".join(module.NAME for module in load_all() if module.SAMPLES is not None)
        raise PolicyError(
            "bad-option",
            f"report --from {name} is not supported: per-sample reports read {readers} "
            "(check --from gates the headline)",
        )
    source.refuse_options_beyond(tuple(option.name for option in adapter.options), f"report --from {name}")
    from ._harnesses._base import resolve_options

    options = resolve_options(source, adapter.options, f"report --from {name}")
    return adapter.reader(options, policy, names)
