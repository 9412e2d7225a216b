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
    invalid_row,
    load_with_codes,
    path_under,
)
from ._base import (
    ABSENT,
    Count,
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
    reconcile,
    shown,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from .._digest import Digest
    from .._policy import Policy
    from .._sample_reader import Codes, Row
    from ._base import Options, Trace

__all__ = ["FOLLOWS", "HEADLINE", "NAME", "SAMPLES", "TITLE"]

NAME = "lm-eval"
TITLE = "EleutherAI lm-evaluation-harness"
FOLLOWS = "lm-eval 0.4.13 (lm-evaluation-harness) results_<date>.json and samples_<task>_<date>.jsonl, as its writer stands at commit 4e7e0d4"

# lm-eval's sample file name: samples_<task>_<date id>.jsonl, the date id
# as EvaluationTracker writes it (datetime.now().isoformat() with ':' as '-').
_SAMPLES_NAME = re.compile(r"samples_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T[0-9.\-]+)\.jsonl")
# Its results file: results_<date id>.json, or <stem>_<date id>.json for
# an --output_path ending in .json (save_results_aggregated), with the one
# date id the sample files of its run carry (save_results_samples).
_RESULTS_NAME = re.compile(r".*_(?P<date>\d{4}-\d{2}-\d{2}T[0-9.\-]+)\.json")


# The direction of the metrics lm-eval registers (lm_eval/api/metrics.py,
# register_metric higher_is_better), and of the error measures task files
# define.  ter is left out: lm-eval registers it higher_is_better although
# a translation edit rate is better low, so neither direction is known.
KNOWN_DIRECTIONS = {
    "acc": "higher",
    "acc_norm": "higher",
    "acc_mutual_info": "higher",
    "acc_bytes": "higher",
    "acc_all": "higher",
    "exact_match": "higher",
    "f1": "higher",
    "mcc": "higher",
    "bleu": "higher",
    "chrf": "higher",
    "perplexity": "lower",
    "word_perplexity": "lower",
    "byte_perplexity": "lower",
    "bits_per_byte": "lower",
    "brier_score": "lower",
    "mae": "lower",
    "mse": "lower",
    "rmse": "lower",
}


def direction(options: Options) -> str | None:
    """The direction to apply when the caller states none: the metric's known one, or None.

    A file may not choose the direction of its own comparison, so an
    unstated direction is never the file's: it is the metric's known
    direction (``KNOWN_DIRECTIONS``: perplexity is better low whatever the
    file says), else the policy's default.  ``check_direction`` then meets
    the file's higher_is_better with it.
    """
    return known_direction(options.text("metric"))


def known_direction(metric: str) -> str | None:
    """The direction lm-eval's registry gives *metric* (``acc,none`` or ``acc``), or None."""
    return KNOWN_DIRECTIONS.get(metric.split(",", 1)[0])


def check_direction(stated: str | None, applied: str, metric: str, task: str) -> None:
    """Refuse a file whose direction for *metric* disagrees with the *applied* one.

    Where the metric's direction is known and the file contradicts it
    (``higher_is_better: false`` on acc, which would pass an accuracy of
    0.1), the evidence is INVALID ``direction-conflict``, naming both: the
    file may not choose.  Where it is not known, the caller must state the
    direction the file gives (``PolicyError``, ``option-conflict``).  A
    caller who states the file's direction is followed.
    """
    if stated is None or stated == applied:
        return
    name = metric.split(",", 1)[0]
    flag = "true" if stated == "higher" else "false"
    known = KNOWN_DIRECTIONS.get(name)
    if known is not None and known != stated:
        raise InvalidEvidence(
            "direction-conflict",
            f"lm-eval marks {ascii(name)} of {ascii(task)} {stated} is better (higher_is_better {flag}), but "
            f"{ascii(name)} is {known} is better: a file may not choose the direction of its own comparison "
            f"(--direction {stated} states it, if that is meant)",
        )
    raise PolicyError(
        "option-conflict",
        f"lm-eval marks {ascii(name)} of {ascii(task)} {stated} is better (higher_is_better {flag}), and the policy "
        f"says direction {applied!r}; state direction {stated!r} (--direction {stated})",
    )


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


def _limit(document: object, original: int) -> Count | None:
    """The documents config.limit selected of a task of *original*, as lm-eval counts them.

    evaluator_utils.get_sample_size: a limit under 1.0 is a fraction,
    ceil(len(docs) * limit); any other is a count; a task shorter than the
    limit runs whole.  None when no limit is recorded (``--samples``, the
    other selection, records none: only n-samples shows it).
    """
    import math

    limit = at(document, "config", "limit")
    if limit is ABSENT or limit is None:
        return None
    where = path("config", "limit")
    if type(limit) is int and limit >= 0:
        selected = limit
    elif type(limit) is float and math.isfinite(limit) and limit > 0:
        selected = math.ceil(original * limit) if limit < 1.0 else int(limit)
    else:
        raise InvalidEvidence("wrong-type", f"lm-eval's config.limit is {shown(limit)}, not a number of documents")
    return Count(min(selected, original), "config.limit selects", where, "selected")


def task_counts(document: object, task: str) -> list[Count] | None:
    """Every count lm-eval's results file states of the documents of *task*, or None without n-samples.

    n-samples original (the task's documents) and effective (those it ran,
    which is also the sample_len beside the task's metrics), and the
    documents config.limit selected.  ``check --from lm-eval`` and
    ``report --from lm-eval --results`` reconcile the same counts.
    """
    table = at(document, "n-samples")
    if table is not ABSENT and type(table) is not dict:
        raise InvalidEvidence("wrong-type", f"lm-eval's n-samples is {shown(table)}, not an object")
    counts = at(document, "n-samples", task)
    if counts is ABSENT:
        return None
    if type(counts) is not dict:
        raise InvalidEvidence("wrong-type", f"lm-eval's n-samples of {ascii(task)} is {shown(counts)}, not an object")
    base = path("n-samples", task)
    original = count(at(counts, "original"), f"n-samples of {ascii(task)}: original")
    effective = count(at(counts, "effective"), f"n-samples of {ascii(task)}: effective")
    found = [
        Count(original, "n-samples original", f"{base}['original']", "declared"),
        Count(effective, "n-samples effective", f"{base}['effective']", "covered"),
    ]
    sample_len = at(document, "results", task, "sample_len")
    if sample_len is not ABSENT:
        where = path("results", task, "sample_len")
        found.append(Count(count(sample_len, f"lm-eval's sample_len of {ascii(task)}"), "sample_len", where, "covered"))
    limit = _limit(document, original)
    if limit is not None:
        found.append(limit)
    return found


def _nanmean(document: object, task: str, metric: str) -> str | None:
    """Why *metric* of *task* may stand on fewer documents than it ran: a nanmean, or None.

    lm-eval's nanmean skips the documents without a value while n-samples
    still counts them; the results file does not say how many it skipped.
    """
    name = metric.split(",", 1)[0]
    listed = at(document, "configs", task, "metric_list")
    if type(listed) is not list:
        return None
    for entry in listed:
        if at(entry, "metric") == name and at(entry, "aggregation") == "nanmean":
            return (
                f"lm-eval aggregates {ascii(name)} of {ascii(task)} with nanmean, which skips documents without a "
                "value, and its results file does not say how many it skipped (report --from lm-eval counts them)"
            )
    return None


def _leaves(document: object, task: str, within: tuple[str, ...], leaves: list[str]) -> None:
    """Add to *leaves* the tasks *task* stands on: itself, or what group_subtasks lists under it.

    lm-eval writes n-samples for tasks only, never for a group: a name
    group_subtasks lists tasks under is a group whatever n-samples says,
    and stands on its subtasks.  A task in
    two groups counts once; a group listed under itself (a cycle) stands
    for no documents at all, and is INVALID.
    """
    subtasks = at(document, "group_subtasks", task)
    if type(subtasks) is not list or not subtasks:
        # A task (n-samples of its own), or one without n-samples: refused
        # unless --allow-partial.  group_subtasks decides first: an
        # n-samples entry under a group's name (which lm-eval never writes,
        # evaluator_utils.py n_samples holds tasks only) must not make it a
        # leaf that hides its subtasks' counts.
        if task not in leaves:
            leaves.append(task)
        return
    for subtask in subtasks:
        if type(subtask) is not str:
            raise InvalidEvidence(
                "wrong-type", f"lm-eval's group_subtasks of {ascii(task)} holds {shown(subtask)}, not a task name"
            )
        if subtask in within or subtask == task:
            raise InvalidEvidence(
                "requirement-failed",
                f"lm-eval's group_subtasks of {ascii(task)} lists {ascii(subtask)}, which holds {ascii(task)}: a "
                "cycle of groups, which counts no document",
            )
        _leaves(document, subtask, (*within, task), leaves)


def _coverage(document: object, gated: str, metric: str, allow: bool) -> list[str]:
    """Reconcile every count of the documents *gated* (a task or a group) stands on; return the notes.

    Each task's counts by the one rule (``_base.reconcile``); for a group,
    also the sums over its tasks against the group's own sample_count and
    sample_len.  Without n-samples a task's coverage is unknown: INVALID
    ``missing-member`` unless *allow* (--allow-partial).
    """
    leaves: list[str] = []
    _leaves(document, gated, (), leaves)
    notes: list[str] = []
    effective = original = 0
    for task in leaves:
        of = "" if task == gated else f", a subtask of {gated}"
        counts = task_counts(document, task)
        if counts is None:
            if not allow:
                raise InvalidEvidence(
                    "missing-member",
                    f"lm-eval wrote no n-samples for {ascii(task)}{of}: a --limit run cannot be told from a full "
                    "one; pass --allow-partial to gate it anyway",
                )
            notes.append("n-samples absent" if task == gated else f"n-samples absent for {task}")
            continue
        why = _nanmean(document, task, metric)
        number, said = reconcile(
            counts,
            harness="lm-eval",
            unit=f"documents of {task}{of}",
            allow_partial=allow,
            reasons=[why] if why else [],
        )
        notes += said
        effective += number
        original += counts[0].value
    if gated in leaves:
        return notes
    group = [
        Count(effective, f"n-samples effective of its {len(leaves)} tasks", path("n-samples"), "covered"),
        Count(original, f"n-samples original of its {len(leaves)} tasks", path("n-samples"), "declared"),
    ]
    stated = at(document, "results", gated, "sample_count", metric)
    if stated is not ABSENT:
        where = path("results", gated, "sample_count", metric)
        group.append(
            Count(count(stated, f"lm-eval's sample_count of {ascii(gated)}"), "sample_count", where, "covered")
        )
    # The group's sample_len is the sum of its tasks' (api/group.py,
    # Group.aggregate); an n-samples entry under its name, which lm-eval
    # never writes, must say the same sums, or it says another run.
    stated = at(document, "results", gated, "sample_len")
    if stated is not ABSENT:
        where = path("results", gated, "sample_len")
        group.append(Count(count(stated, f"lm-eval's sample_len of {ascii(gated)}"), "sample_len", where, "covered"))
    own = task_counts(document, gated)
    if own is not None:
        group += [item for item in own if item.what.startswith("n-samples")]
    if notes:
        # A part of a subtask was allowed: the group's sums say it again.
        return notes
    return reconcile(group, harness="lm-eval", unit=f"documents of the group {gated}", allow_partial=allow)[1]


def _same(first: object, second: object) -> bool:
    """Whether two parsed JSON values are one value (NaN is NaN; True is not 1)."""
    if type(first) is not type(second):
        return False
    if type(first) is float and type(second) is float and first != first and second != second:
        return True
    return first == second


def _leaf_values(document: object, group: str, metric: str) -> list[tuple[float, int]] | None:
    """The (value, sample_len) of *metric* of each task under *group*, or None where one is no number."""
    leaves: list[str] = []
    _leaves(document, group, (), leaves)
    found: list[tuple[float, int]] = []
    for leaf in leaves:
        value = at(document, "results", leaf, metric)
        if value is ABSENT:
            continue  # api/group.py aggregates the tasks that have the metric
        size = at(document, "results", leaf, "sample_len")
        number = _number(value)
        if number is None or type(size) is not int or size < 0:
            return None
        found.append((number, size))
    return found


def _number(value: object) -> float | None:
    """*value* as a finite float (a Decimal under --exact too), or None."""
    import math
    from decimal import Decimal

    if type(value) is int or type(value) is float or type(value) is Decimal:
        number = float(value)
        return number if math.isfinite(number) else None
    return None


def _agrees(document: object, group: str, metric: str) -> None:
    """Refuse a group's *metric* stated twice unlike, or unlike any mean lm-eval takes of its tasks.

    lm-eval writes a group that aggregates under results and again under
    groups, one dict copied (evaluator_utils.py, EvalAccumulator.collect):
    the two must be the same.  Group.aggregate (api/group.py) takes the
    group's value with aggregate_subtask_metrics (api/metrics.py) over
    its leaf tasks: their mean weighted by sample_len (weight_by_size, the
    default) or unweighted.  The results file does not record which, so
    the value must be one of the two.
    """
    stated = at(document, "results", group, metric)
    again = at(document, "groups", group, metric)
    if again is not ABSENT and not _same(stated, again):
        raise InvalidEvidence(
            "value-mismatch",
            f"lm-eval states {ascii(metric)} of the group {ascii(group)} twice, and the two differ: {shown(stated)} "
            f"at {path('results', group, metric)}, {shown(again)} at {path('groups', group, metric)} (lm-eval "
            "writes one value in both places)",
        )
    number = _number(stated)
    if number is None:
        return  # the contract judges a headline that is no finite number
    values = _leaf_values(document, group, metric)
    if not values:
        return
    weighted_sizes = sum(size for _, size in values)
    means = [sum(value for value, _ in values) / len(values)]
    if weighted_sizes > 0:
        means.append(sum(value * size for value, size in values) / weighted_sizes)
    # A float sum of products is within a few ulps of the exact mean.
    tolerance = 1e-9 * max(1.0, *(abs(value) for value, _ in values))
    if any(abs(number - mean) <= tolerance for mean in means):
        return
    shown_means = " or ".join(repr(mean) for mean in means)
    raise InvalidEvidence(
        "value-mismatch",
        f"lm-eval's {ascii(metric)} of the group {ascii(group)} is {shown(stated)}, but its {len(values)} tasks' values "
        f"average to {shown_means} (weighted by sample_len, or not: api/metrics.py aggregate_subtask_metrics): "
        "the group's value is not the mean of its tasks",
    )


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
        counts = task_counts(document, task)
        if counts is not None and counts[1].value == 0:
            # --predict_only computes no metric and writes effective 0.
            raise InvalidEvidence(
                "empty-run",
                f"lm-eval ran none of the {counts[0].value} documents of {task} ({counts[1]!r}; --predict_only "
                "computes no metric): there is nothing to gate",
            )
        keys = [key for key in metrics if "," in key and "_stderr," not in key]
        raise no_such("metric", metric, "--metric", f"lm-eval's results of {ascii(task)}", keys, "metrics")
    one(document, query)  # no-match or ambiguous before anything else is said
    stated = _stated(document, task, metric)
    check_direction(stated, policy.direction, metric, task)
    notes = _coverage(document, task, metric, options.switch("allow_partial"))
    if type(at(document, "group_subtasks", task)) is list and at(document, "group_subtasks", task):
        _agrees(document, task, metric)
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
    requires="T in results and M beside it; every count of T's documents agrees (n-samples original and "
    "effective, sample_len, config.limit; for a group, those of its tasks and its sample_count), else INVALID "
    "population-mismatch; fewer documents than the task has, a limit or a nanmean is INVALID partial-run unless "
    "--allow-partial; higher_is_better is followed only where --direction or the metric's known direction agrees "
    "(else exit 2)",
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
                "bad-option", "report --from lm-eval needs the metric: acc,none (metric and filter), or acc"
            )
        # The results file's key, metric and filter (acc,none), as check
        # --from lm-eval takes it: lm-eval writes one line per (document,
        # filter), and the filter picks the lines gated.  A bare name (acc)
        # gates the lines of every filter the file holds.
        name, comma, picked = metric.partition(",")
        if not name or (comma and not picked) or "," in picked:
            raise PolicyError(
                "bad-option",
                f"report --from lm-eval takes the metric as metric,filter (acc,none) or a bare name (acc), "
                f"not {metric!r}",
            )
        self.metric = name
        self.filter: str | None = picked if comma else None
        # Lines under another filter than the one picked: a population of
        # their own, not observations of this one; the receipt counts them.
        self.other_filter_lines = 0
        # The filters the results file reports the metric under, and its
        # digest, once read.
        self.filters: frozenset[str] | None = None
        # The documents each filter holds, and how many it may hold.
        self.documents = 0
        self.seen: dict[str, set[object]] = {}
        self.results_sha256: str | None = None
        # The doc_ids the run can have written: [0, bound), once the
        # results file is read (see population).
        self.bound: int | None = None
        # The results file's task_hashes of the task, the lines that hash
        # to it (every filter's), and the running hash of those read.
        self.task_hash: str | None = None
        self.hashed_lines = 0
        self.hash_lines = 0
        self.digest: Digest | None = None
        self.unhashed: str | None = None
        self.names = list(names)
        results = options.get("results")
        allow_partial = options.get("allow_partial")
        if allow_partial is None:
            allow_partial = False
        if type(allow_partial) is not bool:
            raise PolicyError("bad-option", f"allow_partial must be True or False, not {shown(allow_partial)}")
        self.allow_partial = allow_partial
        task = options.get("task")
        if task is not None and (type(task) is not str or not task):
            raise PolicyError("bad-option", f"task must be a non-empty string, not {shown(task)}")
        import os

        self.results: str | os.PathLike[str] | None = None
        if results is not None:
            if not isinstance(results, (str, os.PathLike)):
                raise PolicyError("bad-option", f"results must be the path of the results file, not {shown(results)}")
            self.results = results
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
        if self.filter is not None:
            described["filter"] = self.filter
            described["other_filter_lines"] = self.other_filter_lines
        if self.results is not None:
            # The file that declares the population, by its bytes (a receipt
            # holds no path); null unless it was read in full.
            described["results_sha256"] = self.results_sha256
        return described

    def _results(self, max_bytes: int) -> object:
        import os

        from .._digest import sha256_hex
        from .._read import read_file

        if self.results is None:  # population() asks only with a results file
            raise InvalidEvidence("internal-error", "lm-eval's results file was read without one; please report it")
        where = os.fspath(self.results)
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
        """The metric's known direction, applied when the caller states none (see ``direction``)."""
        return known_direction(self.metric)

    def population(self, max_bytes: int) -> int | None:
        """``n-samples[task].effective`` times the filters the results file reports the metric under."""
        if self.results is None or self.task is None:
            return None
        results = self._results(max_bytes)
        task = self.task
        table = at(results, "results")
        if type(table) is dict and task not in table:
            raise no_such("task", task, "--task", "the lm-eval results file", list(table), "tasks and groups")
        subtasks = at(results, "group_subtasks", task)
        if type(subtasks) is list and subtasks:
            # evaluator.py logs samples per task; a group has no lines of
            # its own, whatever n-samples holds under its name.
            raise PolicyError(
                "bad-option",
                f"{task!r} is a group of the lm-eval results file (group_subtasks lists "
                f"{', '.join(str(item) for item in subtasks[:5])}): lm-eval writes sample lines per task, so "
                "report one of its tasks (--task)",
            )
        counts = task_counts(results, task)
        if counts is None:
            table = at(results, "n-samples")
            raise no_such(
                "n-samples of task",
                task,
                "--task",
                "the lm-eval results file",
                list(table) if type(table) is dict else [],
                "n-samples (lm-eval writes them for tasks, never for a group)",
            )
        # The one rule check --from lm-eval applies to the same counts: the
        # per-sample NaN behind a nanmean needs no reason here, as each such
        # line is an invalid observation of its own.
        effective, _ = reconcile(
            counts, harness="lm-eval", unit=f"documents of {task}", allow_partial=self.allow_partial
        )
        metrics = at(results, "results", task)
        if type(metrics) is not dict:
            raise InvalidEvidence("missing-member", f"the lm-eval results file has no results for task {task!r}")
        prefix = self.metric + ","
        filters = [key[len(prefix) :] for key in metrics if key.startswith(prefix)]
        if self.filter is not None:
            if self.filter not in filters:
                listed = ", ".join(prefix + item for item in filters) or "none"
                raise InvalidEvidence(
                    "missing-member",
                    f"the lm-eval results file reports no {prefix + self.filter!r} for task {task!r} "
                    f"(its keys of {self.metric!r}: {listed})",
                )
            filters = [self.filter]
        if not filters:
            # The bare names, as the per-sample lines write them.
            names = [key.split(",", 1)[0] for key in metrics if "," in key and "_stderr," not in key]
            raise no_such(
                "metric",
                self.metric,
                "--metric",
                f"lm-eval's results of {ascii(task)}",
                names,
            )
        # The direction the headline follows (check --from lm-eval): a
        # lower-is-better metric gated as higher-is-better would PASS a
        # bad model.  The command line adopts the file's direction when
        # the user stated none (stated_direction); a stated one that
        # disagrees is refused, not overridden.
        stated = _stated(results, task, self.metric)
        check_direction(stated, self.policy.direction, self.metric, task)
        # One sample line per (doc_id, filter): evaluator.py loops over the
        # filters, then the documents.  A line under another filter is no
        # trial of this population, and neither is a document beyond the
        # effective count of its filter (record() refuses both): 6 lines of
        # one filter cannot fill 3 documents under 2 filters.
        self.filters = frozenset(filters)
        self.documents = effective
        self.seen = {}
        # evaluator.py writes doc_id as the document's index in the task:
        # a --limit run (config.limit) the first `effective` of them; a
        # --samples run (which records no limit) those it names, below
        # `original` (Task.doc_iterator).
        original = counts[0].value
        self.bound = effective if effective == original or _limit(results, original) is not None else original
        self._same_run(task)
        self._hashes(results, task, metrics, effective)
        # The lines of one run, whose results file declares them: lm-eval
        # writes each (doc_id, filter) once, so a second line of one is a
        # copy, not a rerun (without --results, the report's own rule for
        # shards reads it as a rerun).
        self.unique = f"lm-eval's sample lines of {task}"
        return effective * len(filters)

    def _same_run(self, task: str) -> None:
        """Refuse sample files whose date id is not the results file's: lines of another run."""
        import os

        if self.results is None:
            return
        given = _RESULTS_NAME.fullmatch(os.path.basename(os.fspath(self.results)))
        if given is None:
            return
        for name in self.names:
            match = _SAMPLES_NAME.fullmatch(os.path.basename(name)) if name is not None else None
            if match is not None and match.group("date") != given.group("date"):
                raise InvalidEvidence(
                    "population-mismatch",
                    f"the sample file {ascii(os.path.basename(name or ''))} is of the run of "
                    f"{match.group('date')}, the results file {ascii(os.path.basename(os.fspath(self.results)))} "
                    f"of the run of {given.group('date')}: lm-eval names both files of one run with its one date "
                    f"id (EvaluationTracker.date_id), so these lines are not the {task} documents that results file "
                    "declares; give the results file of the samples' run",
                )

    def _hashes(self, results: object, task: str, metrics: dict[str, object], effective: int) -> None:
        """Prepare the check of the lines against the results file's task_hashes of *task*.

        EvaluationTracker.save_results_aggregated hashes, in order, the
        doc_hash, prompt_hash and target_hash of every line it writes of
        the task (every filter's: one line per document and filter), with
        sha256 (utils.hash_string): lines copied, edited, reordered or of
        another task's documents do not hash to it.  A file without
        task_hashes (written without --log_samples, or before lm-eval
        0.4.3) is not checked.
        """
        import hashlib

        stated = at(results, "task_hashes", task)
        if type(stated) is not str:
            return
        filters = {key.split(",", 1)[1] for key in metrics if "," in key}
        self.task_hash = stated
        self.hash_lines = effective * len(filters)
        self.hashed_lines = 0
        self.digest = hashlib.sha256()

    def _hashed(self, record: dict[str, object]) -> None:
        """Add *record* to the lines' hash; after the last line, note a hash unlike task_hashes'."""
        if self.digest is None or self.hashed_lines >= self.hash_lines:
            return
        self.hashed_lines += 1
        parts = [record.get(key) for key in ("doc_hash", "prompt_hash", "target_hash")]
        if all(type(part) is str for part in parts):
            self.digest.update("".join(str(part) for part in parts).encode("utf-8"))
        else:
            self.digest = None  # a line lm-eval did not write: its hash cannot match
        if self.digest is not None and self.hashed_lines < self.hash_lines:
            return
        if self.digest is not None and self.digest.hexdigest() == self.task_hash:
            self.digest = None
            return
        self.digest = None
        self.unhashed = (
            f"the {self.hash_lines} sample lines of {self.task} do not hash to the results file's task_hashes "
            f"({clip(str(self.task_hash), 20)}; lm-eval hashes each line's doc_hash, prompt_hash and target_hash "
            "in the order it writes them, every filter's): they are not the lines that results file was written "
            "with (another run's, or lines copied, edited or reordered)"
        )

    def line(self, raw: bytes, max_bytes: int) -> Row | None:
        """The base's observation of one line; the whole file INVALID once its lines miss task_hashes.

        Raised, not an invalid row: the hash is of every line together,
        and which of them is not lm-eval's the hash cannot say.
        """
        row = super().line(raw, max_bytes)
        if self.unhashed is not None:
            raise InvalidEvidence("population-mismatch", self.unhashed)
        return row

    def type_hint(self, value: object) -> str:
        if type(value) is list:
            return (
                f"; lm-eval writes a list for a metric defined only at corpus level (the [gold, pred] "
                f"pairs of f1-type metrics, the [loglikelihood, count] pairs of perplexity-type ones): "
                f"{self.metric!r} has no per-sample score to gate"
            )
        if type(value) is str:
            return "; lm-eval writes a value it cannot serialize (a numpy float32) as its str()"
        return ""

    def record(self, record: dict[str, object], base: str, codes: Codes) -> Row | None:
        trial_id, problem = canonical_trial_id(
            [("$['doc_id']", record.get("doc_id", ABSENT)), ("$['filter']", record.get("filter", ABSENT))], codes
        )
        self._hashed(record)
        if problem is not None:
            return invalid_row(None, *problem)
        doc_id = record["doc_id"]
        if type(doc_id) is not int or doc_id < 0:
            # evaluator.py writes doc_id as the document's index: "0" or -1
            # is no document lm-eval ran, and would be a second id for one.
            return invalid_row(
                trial_id,
                "bad-trial-id",
                f"the line's doc_id is {clip(shown(doc_id), 40)}: lm-eval writes a document's index, an integer from 0",
            )
        if self.bound is not None and doc_id >= self.bound:
            return invalid_row(
                trial_id,
                "not-scheduled",
                f"the line's doc_id is {doc_id}, but lm-eval ran documents 0 to {self.bound - 1} of {self.task} "
                "(n-samples in the results file)",
            )
        if self.filter is not None and record["filter"] != self.filter:
            # The id was read, so the line is a (document, filter) of
            # lm-eval's own: one of another filter's population.
            self.other_filter_lines += 1
            return None
        if self.filters is not None:
            line_filter = record["filter"]
            if line_filter not in self.filters:
                listed = ", ".join(sorted(self.filters))
                return invalid_row(
                    trial_id,
                    "not-scheduled",
                    f"the line's filter {clip(repr(line_filter), 40)} is not one the results file reports "
                    f"{self.metric!r} under ({listed})",
                )
            documents = self.seen.setdefault(line_filter, set())
            if record["doc_id"] not in documents:
                if len(documents) >= self.documents:
                    return invalid_row(
                        trial_id,
                        "not-scheduled",
                        f"lm-eval ran {self.documents} documents of {self.task} (n-samples effective), and this "
                        f"line names one more under the filter {clip(repr(line_filter), 40)}",
                    )
                documents.add(record["doc_id"])
        value = record.get(self.metric, ABSENT)
        hint = ""
        if value is ABSENT:
            # lm-eval lists a line's metrics in its own "metrics" member.
            named = record.get("metrics")
            listed = names_of(named) if type(named) is list else "not listed on the line"
            hint = f" (--metric); the line's metrics: {listed}"
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
        Option("metric", "metric and filter, as the results file's key: acc,none gates that filter's lines; acc all"),
        Option("task", "the task (default: from samples_<task>_<date>.jsonl)"),
        Option("results", "the results file; its n-samples declares the population"),
        Option("allow_partial", "gate a --limit run (effective < original in n-samples)"),
    ),
    reader=_reader,
)
