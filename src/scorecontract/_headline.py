# SPDX-License-Identifier: MIT
"""Headline adapters: a harness's results file gated by name (docs/harnesses.md).

``evaluate(raw, source=Source("lm-eval", task="mmlu", metric="acc,none"))``
gates the headline of an evaluation harness's own output without the user
writing a query.  Each adapter is a named preset of the selection stage
(``_select``): the query it selects, the facts it requires, and
``nonfinite_elsewhere = "list"``, so the same tested machinery decides;
code is added only where a harness needs framing (an Inspect ``.eval``
ZIP member, an openai/evals JSON Lines line) or a computation (promptfoo's
pass rate, DeepEval's mean: ``_headline_counts``), and such values are
computed as exact fractions before they are compared.

No adapter turns a missing, null, NaN, string or errored value into a
number: each is INVALID, in the harness's own words.
"""

from __future__ import annotations

from ._describe import describe_value
from ._errors import InvalidEvidence, PolicyError
from ._source import Source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypedDict

    from ._evaluate import Decision
    from ._policy import Policy
    from ._select import Selection

    class Adapter(TypedDict):
        harness: str
        takes: tuple[str, ...]
        needs: tuple[str, ...]
        defaults: tuple[tuple[str, object], ...]
        selects: str
        requires: str
        lists: str
        versions: str

    Gate = Callable[[bytes | str, Source, Policy, int, "_Trace"], Decision]

__all__ = ["ADAPTERS", "adapter_help", "evaluate_source", "lm_eval_direction", "resolve_source"]


# What each headline adapter takes and does, for help and docs: the
# Source options it accepts (takes), those it cannot do without (needs),
# the values of the others when left out (defaults), and sentences for
# check --from HARNESS --help and docs/harnesses.md.
ADAPTERS: dict[str, Adapter] = {
    "lm-eval": {
        "harness": "lm-eval",
        "takes": ("task", "metric", "allow_partial"),
        "needs": ("task", "metric"),
        "defaults": (("allow_partial", False),),
        "selects": "results[T][M], M the key as written in the results file (acc,none; exact_match,strict-match)",
        "requires": "n-samples[T].effective == original (else INVALID partial-run, a --limit run; --allow-partial "
        "gates it anyway), for a group T that of every task group_subtasks lists under it; the direction of higher_is_better[T][metric name] where present (a --direction or "
        "policy that disagrees exits 2; with neither, the file's direction is taken)",
        "lists": 'NaN and infinities outside the headline (NaN stderrs); the "N/A" stderrs of T, in source.not_numbers',
        "versions": "lm-evaluation-harness 0.4 results_<date>.json, as its writer stands at commit 4e7e0d4",
    },
    "inspect": {
        "harness": "inspect",
        "takes": ("scorer", "metric"),
        "needs": ("scorer", "metric"),
        "defaults": (),
        "selects": "log version 2: results.scores[name == S].metrics[M].value; version 1: results.metrics[M].value; "
        "in a .json log, or in the member header.json of a .eval ZIP log",
        "requires": 'status == "success" and no error member; invalidated absent or false; results.scores non-empty (else INVALID empty-run); '
        "completed_samples == total_samples; the scorer's unscored_samples == 0 where present; "
        "version 1: results.scorer.name == S",
        "lists": "NaN and infinities outside the headline (NaN marks an unscored sample)",
        "versions": "Inspect AI logs version 1 (2024) and 2, .json and .eval, as the writer stands at commit 499e615",
    },
    "promptfoo": {
        "harness": "promptfoo",
        "takes": ("provider", "allow_errors"),
        "needs": (),
        "defaults": (("allow_errors", False),),
        "selects": "the pass rate successes / (successes + failures + errors) of results.stats, or with --provider "
        "testPassCount / (testPassCount + testFailCount + testErrorCount) of the prompt whose provider is LABEL, "
        "computed as an exact fraction; never metrics.score, which is a sum",
        "requires": "every count a whole number; errors == 0 (else INVALID grader-errors; --allow-errors counts "
        "them as not passed); at least one test (else INVALID empty-run); as many rows in results.results (of "
        "that prompt's promptIdx, with --provider) as the counts add up to, where the file has them",
        "lists": "NaN and infinities outside the counts (promptfoo writes none: its NaN becomes null)",
        "versions": "promptfoo eval -o results.json (results.version 3)",
    },
    "helm": {
        "harness": "helm",
        "takes": ("metric", "split"),
        "needs": ("metric",),
        "defaults": (("split", "test"),),
        "selects": "the mean of the one stat of stats.json (a top-level array) whose name.name is M and "
        "name.split is SPLIT, without a perturbation",
        "requires": "exactly one such stat (else no-match or ambiguous-selection); count >= 1 (else INVALID "
        "empty-run); a mean (HELM drops a NaN stat, and a count-0 stat has none)",
        "lists": "infinities outside the selected stat",
        "versions": "HELM benchmark_output/runs/<suite>/<run>/stats.json, as its runner stands at commit 63754d0",
    },
    "deepeval": {
        "harness": "deepeval",
        "takes": ("metric",),
        "needs": ("metric",),
        "defaults": (),
        "selects": 'the exact mean of metricsScores[metric == M].scores, in {"testRunData": ...} '
        "(.deepeval/.latest_test_run.json) or in a plain test run",
        "requires": "exactly one such entry (else no-match or ambiguous-selection); errors == 0 (else INVALID "
        "grader-errors: an errored metric has no score); scores non-empty (else INVALID empty-run), as many as "
        "passes + fails, both whole numbers; every score a finite number within the policy's bounds",
        "lists": "NaN and infinities outside the selected entry",
        "versions": "DeepEval test runs (.deepeval/.latest_test_run.json, test_run_<ts>.json), as written at commit "
        "a2e0d4c",
    },
    "openai-evals": {
        "harness": "openai-evals",
        "takes": ("metric",),
        "needs": (),
        "defaults": (("metric", "accuracy"),),
        "selects": "final_report[M] of the one JSON Lines line holding final_report",
        "requires": "exactly one line holding final_report (two are INVALID ambiguous-selection); every line strict "
        "JSON; a finite value (no events writes NaN: INVALID)",
        "lists": "NaN and infinities elsewhere on the final_report line; those on other lines are counted "
        '(a policy stating nonfinite_elsewhere "refuse" refuses both)',
        "versions": "openai/evals oaieval record logs (evals/record.py), as written at commit 4bfc1f5",
    },
    "simple-evals": {
        "harness": "simple-evals",
        "takes": ("metric",),
        "needs": (),
        "defaults": (("metric", "score"),),
        "selects": "the member M of the results object",
        "requires": "a number (simple-evals writes score null when no sample had one: INVALID wrong-type)",
        "lists": 'NaN and infinities elsewhere (the ":std" of an empty metric)',
        "versions": "openai/simple-evals /tmp/<eval>_<model>.json, as written at commit ee3b031",
    },
}

_FLAGS = {
    "task": "--task",
    "metric": "--metric",
    "scorer": "--scorer",
    "provider": "--provider",
    "split": "--split",
    "allow_partial": "--allow-partial",
    "allow_errors": "--allow-errors",
}
_METAVARS = {"task": "T", "metric": "M", "scorer": "S", "provider": "LABEL", "split": "SPLIT"}
_BOOLEAN = ("allow_partial", "allow_errors")


def adapter_help(harness: str, width: int = 78) -> str:
    """The text ``check --from HARNESS --help`` prints, wrapped to *width*."""
    import textwrap

    adapter = ADAPTERS[harness]
    takes = " ".join(
        f"[{_FLAGS[name]}]"
        if name in _BOOLEAN
        else (
            f"{_FLAGS[name]} {_METAVARS[name]}" if name in adapter["needs"] else f"[{_FLAGS[name]} {_METAVARS[name]}]"
        )
        for name in adapter["takes"]
    )
    defaults = ", ".join(f"{_FLAGS[name]} {value}" for name, value in adapter["defaults"] if name not in _BOOLEAN)
    rows = [
        ("selects:", adapter["selects"]),
        ("requires:", adapter["requires"]),
        ("lists:", adapter["lists"]),
        ("follows:", adapter["versions"]),
    ]
    if defaults:
        rows.append(("defaults:", defaults))
    width = max(width, 40)
    lines = [
        f"usage: scorecontract check --from {harness} {takes} [policy options] PATH".replace("  ", " "),
        "",
        f"Gate the headline of the results file {harness} writes (docs/harnesses.md).",
        "",
    ]
    for label, text in rows:
        lines += textwrap.wrap(
            text, width, initial_indent=f"{label:<10}", subsequent_indent=" " * 10, break_on_hyphens=False
        )
    lines.append("")
    lines += textwrap.wrap(
        "The policy options (--threshold, --policy, --exact, --direction, --min, --max, --nonfinite-elsewhere) "
        "and --require apply as they do without --from; --select is the adapter's own. Non-finite numbers "
        'outside the value are listed unless the policy states nonfinite_elsewhere "refuse".',
        width,
        break_on_hyphens=False,
    )
    return "\n".join(lines) + "\n"


def resolve_source(source: object) -> Source:
    """Return *source* as a checked ``Source`` for a headline adapter.

    A bare string names a harness with no options (``"simple-evals"``).
    Raises ``PolicyError``: ``bad-option`` for an unknown harness, an option
    its adapter does not take, or an option of the wrong type;
    ``missing-option`` for one it needs.
    """
    if type(source) is str:
        source = Source(source)
    if type(source) is not Source:
        raise PolicyError("bad-option", f"source must be a Source or a harness name, not {describe_value(source)}")
    adapter = ADAPTERS[source.harness]
    source.refuse_options_beyond(adapter["takes"], f"the {source.harness} headline adapter")
    for name in adapter["needs"]:
        if source.get(name) is None:
            raise PolicyError(
                "missing-option",
                f"the {source.harness} headline adapter needs {name} ({_FLAGS[name]} on the command line)",
            )
    for name, value in source.options:
        if name in _BOOLEAN:
            if type(value) is not bool:
                raise PolicyError("bad-option", f"{name} must be true or false, not {describe_value(value)}")
        elif type(value) is not str or not value:
            raise PolicyError("bad-option", f"{name} must be a non-empty string, not {describe_value(value)}")
    return source


def _option(source: Source, name: str) -> object:
    value = source.get(name)
    if value is None:
        for key, default in ADAPTERS[source.harness]["defaults"]:
            if key == name:
                return default
    return value


def _text_option(source: Source, name: str) -> str:
    value = _option(source, name)
    if type(value) is not str:
        raise PolicyError("missing-option", f"the {source.harness} headline adapter needs {name}")
    return value


# -- the shared machinery ------------------------------------------------------------


def _path(*keys: str | int) -> str:
    """The normalized path of *keys*, which is also a JSONPath query for them."""
    from ._jsonpath import normalized_path

    return normalized_path(keys)


def _literal(text: str) -> str:
    """*text* as an RFC 9535 string literal: ``'choice'``."""
    return _path(text)[2:-1]


_ABSENT = object()


def _at(document: object, *keys: str | int) -> object:
    """The value at *keys* in *document*, or ``_ABSENT``."""
    for key in keys:
        if type(key) is int:
            if type(document) is not list or not 0 <= key < len(document):
                return _ABSENT
        elif type(document) is not dict or key not in document:
            return _ABSENT
        document = document[key]  # type: ignore[index]
    return document


def _count(value: object, what: str) -> int:
    """*value*, which the harness writes as a whole number >= 0, or INVALID."""
    if value is _ABSENT:
        raise InvalidEvidence("missing-member", f"{what} is absent")
    if type(value) is not int or value < 0:
        raise InvalidEvidence("wrong-type", f"{what} is {describe_value(value)}, not a whole number")
    return value


def _require(document: object, expression: str, code: str, message: str) -> None:
    """Raise ``InvalidEvidence`` (*code*, *message*) unless *expression* holds.

    The requirement engine of ``--require``, with the harness's own words in
    the message; a requirement that reads NaN raises ``non-finite``.
    """
    from ._jsonpath import compile_requirement

    try:
        holds = compile_requirement(expression).holds(document)
    except PolicyError as exc:
        raise InvalidEvidence(
            "unanswerable-query", f"the query cannot be answered on this document: {exc.message}"
        ) from None
    if not holds:
        raise InvalidEvidence(code, f"{message} (requirement {ascii(expression)})")


def _one(document: object, query: str) -> tuple[str, object]:
    from ._jsonpath import compile_query
    from ._select import select_one

    return select_one(document, compile_query(query))


def _load(text: str, policy: Policy) -> tuple[object, list[tuple[str, str]]]:
    from ._evaluate import load_with_records

    return load_with_records(text, policy)


def _decode(raw: bytes | str, max_bytes: int) -> str:
    from ._encoding import decode_evidence

    return decode_evidence(raw, max_bytes)


def _listing(policy: Policy) -> Policy:
    """*policy* with ``nonfinite_elsewhere = "list"`` unless it states otherwise.

    Every adapter lists non-finite numbers outside its value (a NaN stderr,
    an unscored sample) where the policy is silent; a policy that states
    ``"refuse"`` keeps it, so a stricter setting is honoured, never relaxed.
    """
    if policy.nonfinite_elsewhere == "list" or policy.nonfinite_stated:
        return policy
    return policy.replace(nonfinite_elsewhere="list")


class _Trace:
    """What an adapter has found so far, for the decision's selection.

    ``query`` is the query it gates (or the node it computes from),
    ``path`` the node that query resolved to once it has, and ``origin``
    grows as the adapter learns where the value came from; an INVALID
    decision at any step names them.
    """

    __slots__ = ("origin", "path", "query", "source")

    def __init__(self, source: Source, query: str) -> None:
        self.source = source
        self.query = query
        self.path: str | None = None
        self.origin: list[tuple[str, object]] = []

    def selection(self) -> Selection:
        from ._select import Selection

        return Selection(self.query, self.path, source=self.source, origin=self.origin)


# -- lm-evaluation-harness -------------------------------------------------------------


def _lm_eval_direction(document: object, task: str, metric: str) -> str | None:
    """``"higher"`` or ``"lower"`` as higher_is_better says, or None if it is silent."""
    name = metric.split(",", 1)[0]
    flag = _at(document, "higher_is_better", task, name)
    if flag is _ABSENT:
        return None
    if type(flag) is not bool:
        raise InvalidEvidence(
            "wrong-type",
            f"lm-eval's higher_is_better for {ascii(name)} of {ascii(task)} is {describe_value(flag)}, not true or false",
        )
    return "higher" if flag else "lower"


def lm_eval_direction(raw: bytes | str, source: Source, max_bytes: int, policy: Policy) -> str | None:
    """The direction an lm-eval results file states for *source*'s metric, or None.

    The command line adopts it when the user stated no direction; unreadable
    evidence gives None here and is judged INVALID by ``evaluate``.
    """
    try:
        document, _ = _load(_decode(raw, max_bytes), policy)
        return _lm_eval_direction(document, _text_option(source, "task"), _text_option(source, "metric"))
    except Exception:
        # evaluate() reads the same bytes next and turns any fault into an
        # INVALID decision; a guess of the direction must not crash first.
        return None


def _lm_eval_coverage(document: object, task: str, gated: str, allow: bool, notes: list[str], seen: set[str]) -> None:
    """Raise unless lm-eval's n-samples says *task* ran every document.

    lm-eval writes n-samples for tasks only, never for a group: a group's
    coverage is that of its subtasks, as group_subtasks lists them.  A
    partial or unaccounted task is INVALID unless *allow* (--allow-partial),
    which adds what was partial to *notes*.  *gated* is the task or group
    the headline is read from, for the messages.
    """
    seen.add(task)
    table = _at(document, "n-samples")
    if table is not _ABSENT and type(table) is not dict:
        raise InvalidEvidence("wrong-type", f"lm-eval's n-samples is {describe_value(table)}, not an object")
    of = "" if task == gated else f", a subtask of {gated}"
    counts = _at(document, "n-samples", task)
    if counts is _ABSENT:
        subtasks = _at(document, "group_subtasks", task)
        if type(subtasks) is list and subtasks:
            for subtask in subtasks:
                if type(subtask) is not str:
                    raise InvalidEvidence(
                        "wrong-type",
                        f"lm-eval's group_subtasks of {ascii(task)} holds {describe_value(subtask)}, not a task name",
                    )
                if subtask not in seen:  # a task in two groups counts once; a cycle ends
                    _lm_eval_coverage(document, subtask, gated, allow, notes, seen)
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
        raise InvalidEvidence(
            "wrong-type", f"lm-eval's n-samples of {ascii(task)} is {describe_value(counts)}, not an object"
        )
    original = _count(_at(counts, "original"), f"n-samples of {ascii(task)}: original")
    effective = _count(_at(counts, "effective"), f"n-samples of {ascii(task)}: effective")
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


def _lm_eval(raw: bytes | str, source: Source, policy: Policy, max_bytes: int, trace: _Trace) -> Decision:
    from ._evaluate import decide_selected

    task, metric = _text_option(source, "task"), _text_option(source, "metric")
    query = _path("results", task, metric)
    trace.query = query
    origin = trace.origin
    document, records = _load(_decode(raw, max_bytes), policy)
    _one(document, query)  # no-match or ambiguous before anything else is said
    stated = _lm_eval_direction(document, task, metric)
    if stated is not None and stated != policy.direction:
        name = metric.split(",", 1)[0]
        raise PolicyError(
            "option-conflict",
            f"lm-eval marks {ascii(name)} of {ascii(task)} {stated} is better (higher_is_better "
            f"{'true' if stated == 'higher' else 'false'}), and the policy says direction {policy.direction!r}; "
            f"state direction {stated!r} (--direction {stated})",
        )
    notes: list[str] = []
    _lm_eval_coverage(document, task, task, bool(_option(source, "allow_partial")), notes, set())
    if notes:
        origin.append(("partial", notes[0] if len(notes) == 1 else notes))
    metrics = _at(document, "results", task)
    if type(metrics) is dict:
        odd = [
            _path("results", task, key) for key, value in metrics.items() if "_stderr," in key and type(value) is str
        ]
        if odd:
            origin.append(("not_numbers", odd))
    return decide_selected(document, records, query, _listing(policy), trace.selection())


# -- Inspect AI -------------------------------------------------------------------------


def _inspect_text(raw: bytes | str, max_bytes: int, origin: list[tuple[str, object]]) -> str:
    """The log's text: the whole ``.json`` log, or a ``.eval``'s member header.json."""
    if type(raw) is bytes and raw[:4] == b"PK\x03\x04":
        from ._archive import Archive

        if len(raw) > max_bytes:
            # The archive itself is evidence, bounded as every evidence is.
            raise InvalidEvidence("too-large", f"evidence is {len(raw)} bytes, over the limit of {max_bytes}")
        origin.append(("member", "header.json"))
        # header.json is the log without its samples: their NaN scores and
        # their size stay in their own members, unread.
        member = Archive(raw, what="the Inspect .eval log").read("header.json", max_bytes)
        return _decode(member, max_bytes)
    return _decode(raw, max_bytes)


def _inspect_completed(document: object) -> int:
    """Return the log's total_samples, once every sample completed.

    A run stopped part way (a sample limit, a failure on error) can still
    say success and hold metrics over the samples that did complete; a
    run of no sample has metrics over nothing.
    """
    completed = _count(_at(document, "results", "completed_samples"), "the Inspect log's completed_samples")
    total = _count(_at(document, "results", "total_samples"), "the Inspect log's total_samples")
    if completed != total:
        raise InvalidEvidence(
            "requirement-failed",
            f"Inspect completed {completed} of {total} samples (completed_samples != total_samples)",
        )
    if total == 0:
        raise InvalidEvidence(
            "empty-run", "the Inspect log's total_samples is 0: no sample ran, there is nothing to gate"
        )
    return total


def _inspect(raw: bytes | str, source: Source, policy: Policy, max_bytes: int, trace: _Trace) -> Decision:
    from ._evaluate import decide_selected

    scorer, metric = _text_option(source, "scorer"), _text_option(source, "metric")
    trace.query = _path("results", "scores")
    origin = trace.origin
    text = _inspect_text(raw, max_bytes, origin)
    document, records = _load(text, policy)
    if type(document) is not dict:
        raise InvalidEvidence("not-an-object", f"an Inspect log is a JSON object, not {describe_value(document)}")
    version = _at(document, "version")
    if type(version) is not int or version not in (1, 2):
        raise InvalidEvidence(
            "requirement-failed",
            f"Inspect log version {describe_value(version)}: this adapter reads log versions 1 and 2",
        )
    status = _at(document, "status")
    _require(
        document,
        "$.status == 'success'",
        "requirement-failed",
        f"the Inspect log's status is {'absent' if status is _ABSENT else describe_value(status)}, not 'success'",
    )
    if _at(document, "error") is not _ABSENT:
        # Inspect leaves out what is None (exclude_none): a log that says
        # success and still holds an error contradicts itself.
        raise InvalidEvidence(
            "requirement-failed", "the Inspect log's status is 'success' but it holds an error: which is true?"
        )
    # Inspect writes invalidated as a bool, or leaves it out: anything else
    # (the string "true", null, 1) is not "not invalidated", and a test that
    # only asks "!= true" would let it pass.
    invalidated = _at(document, "invalidated")
    if invalidated is True:
        raise InvalidEvidence("requirement-failed", "Inspect marks this log invalidated (invalidated is true)")
    if invalidated is not _ABSENT and invalidated is not False:
        raise InvalidEvidence(
            "wrong-type", f"the Inspect log's invalidated is {describe_value(invalidated)}, not true or false"
        )
    if _at(document, "results") is _ABSENT:
        raise InvalidEvidence("missing-member", "the Inspect log has no results: no scorer ran")
    if version == 1:
        query = _path("results", "metrics", metric, "value")
        trace.query = query
        _require(
            document,
            f"$.results.scorer.name == {_literal(scorer)}",
            "requirement-failed",
            f"the Inspect log (version 1) was scored by {describe_value(_at(document, 'results', 'scorer', 'name'))}, "
            f"not {ascii(scorer)}",
        )
        # A version 1 log may write neither count (the one in Inspect's own
        # tests does not): it is gated on its status alone.  Where either is
        # written, both are required as in version 2.
        results = _at(document, "results")
        if type(results) is dict and ("completed_samples" in results or "total_samples" in results):
            _inspect_completed(document)
        return decide_selected(document, records, query, _listing(policy), trace.selection())
    scores = _at(document, "results", "scores")
    if type(scores) is not list:
        raise InvalidEvidence("missing-member", "the Inspect log's results have no scores array")
    if not scores:
        raise InvalidEvidence(
            "empty-run",
            "the Inspect log's status is 'success' but results.scores is empty: no scorer produced a metric",
        )
    names = [_at(entry, "name") for entry in scores]
    if scorer not in [name for name in names if type(name) is str]:
        shown = ", ".join(ascii(name) if type(name) is str else "one without a name" for name in names[:10])
        raise InvalidEvidence("no-match", f"the Inspect log has no scorer named {ascii(scorer)} (its scorers: {shown})")
    element = f"$['results']['scores'][?@.name == {_literal(scorer)}]"
    query = f"{element}['metrics'][{_literal(metric)}]['value']"
    trace.query = query
    path, entry = _one(document, element)
    total = _inspect_completed(document)
    unscored = _at(entry, "unscored_samples")
    if unscored is not _ABSENT and _count(unscored, f"unscored_samples of scorer {ascii(scorer)}") != 0:
        raise InvalidEvidence(
            "requirement-failed",
            f"Inspect's scorer {ascii(scorer)} left {unscored} of {total} samples unscored (unscored_samples at {path})",
        )
    return decide_selected(document, records, query, _listing(policy), trace.selection())


# -- HELM --------------------------------------------------------------------------------


def _helm(raw: bytes | str, source: Source, policy: Policy, max_bytes: int, trace: _Trace) -> Decision:
    from ._evaluate import decide_selected

    metric, split = _text_option(source, "metric"), _text_option(source, "split")
    stat = f"$[?@.name.name == {_literal(metric)} && @.name.split == {_literal(split)} && !@.name.perturbation]"
    query = f"{stat}['mean']"
    trace.query = query
    document, records = _load(_decode(raw, max_bytes), policy)
    if type(document) is not list:
        raise InvalidEvidence("wrong-type", f"HELM's stats.json is a JSON array, not {describe_value(document)}")
    path, entry = _one(document, stat)
    count = _count(_at(entry, "count"), f"the count of HELM stat {ascii(metric)} (split {ascii(split)})")
    if count == 0:
        raise InvalidEvidence(
            "empty-run",
            f"HELM stat {ascii(metric)} (split {ascii(split)}) at {path} has count 0: no instance was scored",
        )
    if _at(entry, "mean") is _ABSENT:
        raise InvalidEvidence(
            "missing-member", f"HELM stat {ascii(metric)} (split {ascii(split)}) at {path} has no mean"
        )
    return decide_selected(document, records, query, _listing(policy), trace.selection())


# -- simple-evals -------------------------------------------------------------------------


def _simple_evals(raw: bytes | str, source: Source, policy: Policy, max_bytes: int, trace: _Trace) -> Decision:
    from ._evaluate import decide_selected

    query = _path(_text_option(source, "metric"))
    trace.query = query
    document, records = _load(_decode(raw, max_bytes), policy)
    return decide_selected(document, records, query, _listing(policy), trace.selection())


# -- openai/evals -------------------------------------------------------------------------


def _openai_evals(raw: bytes | str, source: Source, policy: Policy, max_bytes: int, trace: _Trace) -> Decision:
    from ._evaluate import decide_selected

    query = _path("final_report", _text_option(source, "metric"))
    trace.query = query
    origin = trace.origin
    text = _decode(raw, max_bytes)
    found: list[tuple[int, object, list[tuple[str, str]]]] = []
    elsewhere = 0
    first_elsewhere: tuple[int, str, str] | None = None
    # str.splitlines() would also split at U+2028, U+0085 and form feeds,
    # which a JSON string may hold raw: JSON Lines separates at \n only.
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip(" \t\r"):
            continue
        try:
            document, records = _load(line, policy)
        except InvalidEvidence as exc:
            raise InvalidEvidence(exc.code, f"line {number}: {exc.message}") from None
        if type(document) is dict and "final_report" in document:
            found.append((number, document, records))
        else:
            if records and first_elsewhere is None:
                first_elsewhere = (number, records[0][0], records[0][1])
            elsewhere += len(records)
    if not found:
        raise InvalidEvidence("no-match", "no line of the openai/evals log holds final_report: the run did not finish")
    if len(found) > 1:
        lines = ", ".join(str(number) for number, _, _ in found[:5])
        raise InvalidEvidence(
            "ambiguous-selection",
            f"{len(found)} lines of the openai/evals log hold final_report (lines {lines}): "
            "two runs' records in one file; gate each run's own log",
        )
    number, document, records = found[0]
    origin.append(("line", number))
    policy = _listing(policy)
    if first_elsewhere is not None and policy.nonfinite_elsewhere != "list":
        # A stated "refuse" covers the whole log, not only the line read.
        other, path, code = first_elsewhere
        raise InvalidEvidence(
            code,
            f"line {other} of the openai/evals log holds a non-finite number at {path} ({elsewhere} on lines "
            'other than the final_report line); the policy states nonfinite_elsewhere "refuse"',
        )
    if elsewhere:
        origin.append(("nonfinite_on_other_lines", elsewhere))
    trace.query = query
    return decide_selected(document, records, query, policy, trace.selection())


def _gate(harness: str) -> Gate:
    """The function that gates *harness*'s headline."""
    if harness in ("promptfoo", "deepeval"):
        from ._headline_counts import deepeval, promptfoo

        return promptfoo if harness == "promptfoo" else deepeval
    gates: dict[str, Gate] = {
        "lm-eval": _lm_eval,
        "inspect": _inspect,
        "helm": _helm,
        "openai-evals": _openai_evals,
        "simple-evals": _simple_evals,
    }
    return gates[harness]


# Why a harness writes a non-finite headline, added to the INVALID message.
_NONFINITE_WHY = {
    "lm-eval": "lm-eval writes NaN or Infinity when per-document values were (unparsable answers)",
    "inspect": "Inspect writes NaN for a metric over no scored sample",
    "helm": "HELM drops a NaN stat but keeps an infinite one",
    "openai-evals": "openai/evals writes accuracy NaN when no event was recorded",
    "simple-evals": "simple-evals writes NaN for a metric over no samples",
    "promptfoo": "promptfoo's counts are whole numbers",
    "deepeval": "DeepEval writes NaN for a score its metric could not measure",
}


def _explained(decision: Decision, harness: str) -> Decision:
    """*decision*, with why the harness wrote a non-finite headline."""
    from ._evaluate import Decision

    message = decision.message
    if decision.code not in ("non-standard-constant", "non-finite") or not message.startswith("the selected value"):
        return decision
    return Decision(
        decision.verdict,
        decision.code,
        f"{message}; {_NONFINITE_WHY[harness]}",
        None,
        decision.policy,
        None,
        decision.selection,
    )


def evaluate_source(raw: bytes | str, source: Source, policy: Policy, max_bytes: int) -> Decision:
    """``evaluate(raw, source=...)``: the adapter of *source* decides.

    *source* has passed ``resolve_source``.  Bad evidence is an INVALID
    decision whose selection names the source; a policy that contradicts
    the evidence (lm-eval's ``higher_is_better``) raises ``PolicyError``.
    """
    from ._evaluate import Decision, internal_error, too_large_hint

    trace = _Trace(source, "$")
    gate = _gate(source.harness)
    try:
        return _explained(gate(raw, source, policy, max_bytes, trace), source.harness)
    except InvalidEvidence as exc:
        return Decision.invalid(too_large_hint(exc), _listing(policy), trace.selection())
    except PolicyError:
        raise
    except Exception:  # fail closed: a defect here must not release
        return internal_error(policy, trace.selection())
