# SPDX-License-Identifier: MIT
"""EleutherAI lm-evaluation-harness: ``results_<date>.json`` and ``samples_<task>_<date>.jsonl``.

The headline is ``results[T][M]``, ``M`` the key as the results file
writes it (``acc,none``: metric and filter).  What the file says about the
run: ``n-samples[T]`` counts the documents the task has (``original``) and
those it ran (``effective``); a group has no n-samples of its own, and
stands on the tasks ``group_subtasks`` lists under it; ``higher_is_better``
gives each metric's direction.  The per-sample file has one line per
(document, filter): evaluator.py loops over the filters, then the documents.
"""

from __future__ import annotations

import re

from .._errors import InvalidEvidence, PolicyError
from .._sample_reader import (
    SampleReader,
    canonical_trial_id,
    clip,
    declared_count,
    invalid_row,
    load_with_codes,
    path_under,
)
from ._base import (
    ABSENT,
    Headline,
    Option,
    Samples,
    Selected,
    at,
    count,
    decode,
    load,
    names_of,
    no_such,
    one,
    path,
    shown,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from .._policy import Policy
    from .._sample_reader import Codes, Row
    from ._base import Options, Trace

__all__ = ["FOLLOWS", "HEADLINE", "NAME", "SAMPLES", "TITLE"]

NAME = "lm-eval"
TITLE = "EleutherAI lm-evaluation-harness"
FOLLOWS = "lm-evaluation-harness 0.4 results_<date>.json, as its writer stands at commit 4e7e0d4"

# lm-eval's sample file name: samples_<task>_<date id>.jsonl, the date id
# as EvaluationTracker writes it (datetime.now().isoformat() with ':' as '-').
_SAMPLES_NAME = re.compile(r"samples_(?P<task>.+)_\d{4}-\d{2}-\d{2}T[0-9.\-]+\.jsonl")


def direction(document: object, options: Options) -> str | None:
    """``"higher"`` or ``"lower"`` as higher_is_better says, or None if it is silent."""
    return _stated(document, options.text("task"), options.text("metric"))


def _stated(document: object, task: str, metric: str) -> str | None:
    name = metric.split(",", 1)[0]
    flag = at(document, "higher_is_better", task, name)
    if flag is ABSENT:
        return None
    if type(flag) is not bool:
        raise InvalidEvidence(
            "wrong-type",
            f"lm-eval's higher_is_better for {ascii(name)} of {ascii(task)} is {shown(flag)}, not true or false",
        )
    return "higher" if flag else "lower"


def _coverage(document: object, task: str, gated: str, allow: bool, notes: list[str], seen: set[str]) -> None:
    """Raise unless lm-eval's n-samples says *task* ran every document.

    lm-eval writes n-samples for tasks only, never for a group: a group's
    coverage is that of its subtasks, as group_subtasks lists them.  A
    partial or unaccounted task is INVALID unless *allow* (--allow-partial),
    which adds what was partial to *notes*.  *gated* is the task or group
    the headline is read from, for the messages.
    """
    seen.add(task)
    table = at(document, "n-samples")
    if table is not ABSENT and type(table) is not dict:
        raise InvalidEvidence("wrong-type", f"lm-eval's n-samples is {shown(table)}, not an object")
    of = "" if task == gated else f", a subtask of {gated}"
    counts = at(document, "n-samples", task)
    if counts is ABSENT:
        subtasks = at(document, "group_subtasks", task)
        if type(subtasks) is list and subtasks:
            for subtask in subtasks:
                if type(subtask) is not str:
                    raise InvalidEvidence(
                        "wrong-type",
                        f"lm-eval's group_subtasks of {ascii(task)} holds {shown(subtask)}, not a task name",
                    )
                if subtask not in seen:  # a task in two groups counts once; a cycle ends
                    _coverage(document, subtask, gated, allow, notes, seen)
            return
        if not allow:
            raise InvalidEvidence(
                "missing-member",
                f"lm-eval wrote no n-samples for {ascii(task)}{of}: a --limit run cannot be told from a full one; "
                "pass --allow-partial to gate it anyway",
            )
        notes.append("n-samples absent" if task == gated else f"n-samples absent for {task}")
        return
    if type(counts) is not dict:
        raise InvalidEvidence("wrong-type", f"lm-eval's n-samples of {ascii(task)} is {shown(counts)}, not an object")
    original = count(at(counts, "original"), f"n-samples of {ascii(task)}: original")
    effective = count(at(counts, "effective"), f"n-samples of {ascii(task)}: effective")
    if effective > original:
        raise InvalidEvidence(
            "requirement-failed",
            f"lm-eval's n-samples of {ascii(task)} says it ran {effective} of {original} documents, more than exist",
        )
    if effective == 0:
        # No document was scored: whatever headline stands beside these
        # counts is a mean of nothing, with or without --allow-partial.
        raise InvalidEvidence(
            "empty-run",
            f"lm-eval ran {effective} of {original} documents of {task}{of}: there is nothing to gate",
        )
    if effective < original:
        if not allow:
            raise InvalidEvidence(
                "partial-run",
                f"lm-eval ran {effective} of {original} documents of {task}{of} (--limit); "
                "pass --allow-partial to gate a partial run",
            )
        notes.append(f"{effective} of {original} documents" + ("" if task == gated else f" of {task}"))


def _gate(raw: bytes | str, options: Options, policy: Policy, max_bytes: int, trace: Trace) -> Selected:
    task, metric = options.text("task"), options.text("metric")
    query = path("results", task, metric)
    trace.query = query
    document, records = load(decode(raw, max_bytes), policy)
    results = at(document, "results")
    if type(results) is not dict:
        raise InvalidEvidence(
            "not-an-object" if type(document) is not dict else "missing-member",
            "this is not an lm-eval results file: it has no results object (lm-eval writes results_<date>.json "
            "under --output_path)",
        )
    for key, value in results.items():
        if type(value) is not dict:
            raise InvalidEvidence(
                "wrong-type",
                f"this is not an lm-eval results file: its results hold {ascii(key)}, {shown(value)}, where each "
                "member is a task's or group's metrics",
            )
    if task not in results:
        raise no_such("task", task, "--task", "the lm-eval results file", list(results), "tasks and groups")
    metrics = results[task]
    if type(metrics) is dict and metric not in metrics:
        keys = [key for key in metrics if "," in key and "_stderr," not in key]
        raise no_such("metric", metric, "--metric", f"lm-eval's results of {ascii(task)}", keys, "metrics")
    one(document, query)  # no-match or ambiguous before anything else is said
    stated = _stated(document, task, metric)
    if stated is not None and stated != policy.direction:
        name = metric.split(",", 1)[0]
        raise PolicyError(
            "option-conflict",
            f"lm-eval marks {ascii(name)} of {ascii(task)} {stated} is better (higher_is_better "
            f"{'true' if stated == 'higher' else 'false'}), and the policy says direction {policy.direction!r}; "
            f"state direction {stated!r} (--direction {stated})",
        )
    notes: list[str] = []
    _coverage(document, task, task, options.switch("allow_partial"), notes, set())
    if notes:
        trace.origin.append(("partial", notes[0] if len(notes) == 1 else notes))
    metrics = at(document, "results", task)
    if type(metrics) is dict:
        odd = [path("results", task, key) for key, value in metrics.items() if "_stderr," in key and type(value) is str]
        if odd:
            trace.origin.append(("not_numbers", odd))
    return Selected(document, records, query, policy)


HEADLINE = Headline(
    options=(
        Option("task", "the task or group whose headline is gated, e.g. mmlu", needed=True),
        Option("metric", "the key as the results file writes it, metric and filter: acc,none", needed=True),
        Option("allow_partial", "gate a run that scored fewer documents than the task has (--limit)"),
    ),
    file="`results_<date>.json`",
    selects="results[T][M], M the key as written in the results file (acc,none; exact_match,strict-match)",
    requires="n-samples[T].effective == original (else INVALID partial-run, a --limit run; --allow-partial "
    "gates it anyway), for a group T that of every task group_subtasks lists under it; the direction of "
    "higher_is_better[T][metric name] where present (a --direction or policy that disagrees exits 2; with "
    "neither, the file's direction is taken)",
    lists='NaN and infinities outside the headline (NaN stderrs); the "N/A" stderrs of T, in source.not_numbers',
    gate=_gate,
    nonfinite="lm-eval writes NaN or Infinity when per-document values were (unparsable answers)",
    direction=direction,
)


# -- the per-sample file ------------------------------------------------------------------------


class _Reader(SampleReader):
    """lm-eval ``samples_<task>_<date>.jsonl``: one line per (doc_id, filter)."""

    declares_population = False

    def __init__(self, policy: Policy, options: Options, names: Sequence[str | None]) -> None:
        super().__init__(policy)
        metric = options.get("metric")
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
        self.results = options.get("results")
        allow_partial = options.get("allow_partial")
        if allow_partial is None:
            allow_partial = False
        if type(allow_partial) is not bool:
            raise PolicyError("bad-option", f"allow_partial must be True or False, not {shown(allow_partial)}")
        self.allow_partial = allow_partial
        task = options.get("task")
        if task is not None and (type(task) is not str or not task):
            raise PolicyError("bad-option", f"task must be a non-empty string, not {shown(task)}")
        if self.results is not None:
            import os

            if not isinstance(self.results, (str, os.PathLike)):
                raise PolicyError(
                    "bad-option", f"results must be the path of the results file, not {shown(self.results)}"
                )
            self.declares_population = True
            if task is None:
                task = _task_from(names)
        elif allow_partial:
            raise PolicyError("bad-option", "allow_partial applies to the results file's n-samples: give results too")
        self.task: str | None = task

    def description(self) -> dict[str, object]:
        described: dict[str, object] = {
            "harness": "lm-eval",
            "metric": self.metric,
            "task": self.task,
            "allow_partial": self.allow_partial,
        }
        if self.results is not None:
            # The file that declares the population, by its bytes (a receipt
            # holds no path); null unless it was read in full.
            described["results_sha256"] = self.results_sha256
        return described

    def _results(self, max_bytes: int) -> object:
        import os

        from .._digest import sha256_hex
        from .._read import read_file

        where = os.fspath(self.results)  # type: ignore[call-overload]
        data = read_file(where, max_bytes, what="lm-eval results file")
        self.results_sha256 = sha256_hex(data)
        try:
            results, _ = load_with_codes(data, max_bytes, self.policy.exact)
        except InvalidEvidence as exc:  # say which file: the samples are read later
            raise InvalidEvidence(
                exc.code, f"the lm-eval results file: {exc.message}", exc.pos, exc.lineno, exc.colno
            ) from None
        return results

    def stated_direction(self, max_bytes: int) -> str | None:
        if self.results is None or self.task is None:
            return None
        try:
            import os

            from .._read import read_file

            data = read_file(os.fspath(self.results), max_bytes, what="lm-eval results file")  # type: ignore[call-overload]
            document, _ = load_with_codes(data, max_bytes, self.policy.exact)
            return _stated(document, self.task, self.metric)
        except Exception:
            # report() reads the same bytes next and turns any fault into an
            # INVALID report; a guess of the direction must not crash first.
            return None

    def population(self, max_bytes: int) -> int | None:
        """``n-samples[task].effective`` times the filters the results file reports the metric under."""
        if self.results is None or self.task is None:
            return None
        results = self._results(max_bytes)
        task = self.task
        samples = at(results, "n-samples", task)
        named = f"n-samples.{task}"
        effective = declared_count(at(samples, "effective"), f"{named}.effective", "lm-eval results")
        original = declared_count(at(samples, "original"), f"{named}.original", "lm-eval results")
        if effective < original and not self.allow_partial:
            raise InvalidEvidence(
                "partial-run",
                f"lm-eval ran {effective} of {original} documents of {task} (--limit); "
                "pass --allow-partial to gate a partial run",
            )
        metrics = at(results, "results", task)
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
        # the user stated none (stated_direction); a stated one that
        # disagrees is refused, not overridden.
        stated = _stated(results, task, self.metric)
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
            [("$['doc_id']", record.get("doc_id", ABSENT)), ("$['filter']", record.get("filter", ABSENT))], codes
        )
        if problem is not None:
            return invalid_row(None, *problem)
        if self.filters is not None and record["filter"] not in self.filters:
            listed = ", ".join(sorted(self.filters))
            return invalid_row(
                trial_id,
                "not-scheduled",
                f"the line's filter {clip(repr(record['filter']), 40)} is not one the results file reports "
                f"{self.metric!r} under ({listed})",
            )
        value = record.get(self.metric, ABSENT)
        hint = ""
        if value is ABSENT:
            # lm-eval lists a line's metrics in its own "metrics" member.
            named = record.get("metrics")
            listed = names_of(named) if type(named) is list else "not listed on the line"
            hint = f" (--sample-metric); the line's metrics: {listed}"
        return self.judge(trial_id, path_under("$", self.metric), value, codes, record, hint)


def _task_from(names: Sequence[str | None]) -> str:
    import os

    tasks = set()
    for name in names:
        match = _SAMPLES_NAME.fullmatch(os.path.basename(name)) if name is not None else None
        if match is None:
            given = ascii(name) if name is not None else "this input"
            raise PolicyError(
                "bad-option",
                f"cannot tell the lm-eval task from {given} (not samples_<task>_<date>.jsonl): give the task (--task)",
            )
        tasks.add(match.group("task"))
    if len(tasks) != 1:
        raise PolicyError(
            "bad-option", f"the sample files are of {len(tasks)} tasks ({', '.join(sorted(tasks))}): gate one task"
        )
    return tasks.pop()


def _reader(options: Options, policy: Policy, names: Sequence[str | None]) -> SampleReader:
    return _Reader(policy, options, names)


SAMPLES = Samples(
    options=(
        Option("metric", "the bare per-sample metric name (acc, not acc,none)"),
        Option("task", "the task (default: from samples_<task>_<date>.jsonl)"),
        Option("results", "the results file; its n-samples declares the population"),
        Option("allow_partial", "gate a --limit run (effective < original in n-samples)"),
    ),
    reader=_reader,
)
