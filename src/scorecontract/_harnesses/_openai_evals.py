# SPDX-License-Identifier: MIT
"""openai/evals: the ``oaieval`` record log, JSON Lines (evals/record.py).

The log's first line is the run's ``spec``; one line holds ``final_report``
(the headline's metrics, ``accuracy`` for a match eval); the others are
events, one per sampled or matched answer.  A run that did not finish
writes no ``final_report``.
"""

from __future__ import annotations

from .._describe import format_number
from .._errors import InvalidEvidence
from .._sample_reader import SampleReader, canonical_trial_id, clip, codes_of, invalid_row, once
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
    exact,
    finite,
    load,
    no_such,
    path,
    reconcile,
    shown,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from .._policy import Policy
    from .._sample_reader import Codes, Placed, Row
    from ._base import Options, Trace

__all__ = ["FOLLOWS", "HEADLINE", "NAME", "SAMPLES", "TITLE"]

NAME = "openai-evals"
TITLE = "openai/evals oaieval"
FOLLOWS = "evals 3.0.1.post1 oaieval record logs (evals/record.py, --max_samples in the spec line), as written at commit 4bfc1f5"


def _gate(raw: bytes | str, options: Options, policy: Policy, max_bytes: int, trace: Trace) -> Selected:
    query = path("final_report", options.text("metric"))
    trace.query = query
    text = decode(raw, max_bytes)
    found: list[tuple[int, object, list[tuple[str, str]]]] = []
    spec: tuple[int, object] | None = None
    events: list[tuple[int, object]] = []
    elsewhere = 0
    first_elsewhere: tuple[int, str, str] | None = None
    # str.splitlines() would also split at U+2028, U+0085 and form feeds,
    # which a JSON string may hold raw: JSON Lines separates at \n only.
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip(" \t\r"):
            continue
        try:
            document, records = load(line, policy)
        except InvalidEvidence as exc:
            raise InvalidEvidence(exc.code, f"line {number}: {exc.message}") from None
        if type(document) is dict and "final_report" in document:
            found.append((number, document, records))
        else:
            spec = _sort(number, document, spec, events)
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
    trace.origin.append(("line", number))
    report = at(document, "final_report")
    metric = options.text("metric")
    if type(report) is dict and metric not in report:
        raise no_such("metric", metric, "--metric", f"the final_report on line {number}", list(report))
    if first_elsewhere is not None and policy.nonfinite_elsewhere != "list":
        # A stated "refuse" covers the whole log, not only the line read.
        other, where, code = first_elsewhere
        raise InvalidEvidence(
            code,
            f"line {other} of the openai/evals log holds a non-finite number at {where} ({elsewhere} on lines "
            'other than the final_report line); the policy states nonfinite_elsewhere "refuse"',
        )
    if elsewhere:
        trace.origin.append(("nonfinite_on_other_lines", elsewhere))
    invalid = at(document, "final_report", "counts/__invalid__")
    if (
        invalid is not ABSENT
        and count(invalid, f"counts/__invalid__ on line {number}")
        and not options.switch("allow_errors")
    ):
        # A model-graded eval records a grader reply that is no choice as
        # __invalid__ and scores it as the lowest choice (evals
        # elsuite/modelgraded): a score over replies no grader gave.
        raise InvalidEvidence(
            "grader-errors",
            f"the final_report on line {number} counts {invalid} grader repl{'ies' if invalid != 1 else 'y'} that "
            "were no grade (counts/__invalid__), which openai/evals scored as the lowest choice; pass --allow-errors "
            "to gate the score anyway",
        )
    matches = _vet(spec, events, (number, document))
    notes = _coverage(spec, matches, options.switch("allow_partial"))
    if notes:
        trace.origin.append(("partial", notes[0]))
    _reconciled(document, number, metric, matches, [event for _, event in events if at(event, "type") == "metrics"])
    return Selected(document, records, query, policy)


def _coverage(spec: tuple[int, object] | None, matches: list[tuple[int, object]], allow: bool) -> list[str]:
    """Reconcile the match events with the run's --max_samples (the spec line's run_config).

    oaieval --max_samples evaluates the first N samples of the shuffled
    dataset (evals/eval.py _index_samples) and records N in the spec: the
    log does not say how many the dataset has, so a run with N as many
    events as it selected covered a part, unless --allow-partial.
    """
    counts: list[Count] = []
    if matches:
        first, last = matches[0][0], matches[-1][0]
        counts.append(Count(len(matches), "match events", f"lines {first} to {last}", "covered"))
    if spec is not None:
        line, document = spec
        limit = at(document, "spec", "run_config", "max_samples")
        if limit is not ABSENT and limit is not None:
            where = f"line {line}, $['spec']['run_config']['max_samples']"
            counts.append(
                Count(count(limit, f"openai/evals' max_samples on line {line}"), "max_samples", where, "selected")
            )
    if not any(count.role == "covered" for count in counts):
        if any(count.role == "selected" for count in counts) and not allow:
            raise InvalidEvidence(
                "partial-run",
                f"openai/evals ran a selection ({counts[0]!r}) of a dataset whose size the log does not say; "
                "pass --allow-partial to gate a partial run",
            )
        return []
    return reconcile(counts, harness="openai/evals", unit="samples", allow_partial=allow)[1]


def _sort(
    number: int, document: object, spec: tuple[int, object] | None, events: list[tuple[int, object]]
) -> tuple[int, object] | None:
    """File a line other than final_report: the first spec line, returned, or an event, added to *events*.

    A second spec line is filed as an event, for _vet to refuse once the
    final_report lines are counted (two of those say more).
    """
    if type(document) is not dict:
        return spec
    if "spec" in document and spec is None:
        return (number, document)
    events.append((number, document))
    return spec


def _vet(
    spec: tuple[int, object] | None, events: list[tuple[int, object]], final: tuple[int, object] | None
) -> list[tuple[int, object]]:
    """Refuse a log that is not one whole run's; return its match events.

    What evals 3.0.1's recorder guarantees (evals/record.py): the spec line
    first, once, with run_config.max_samples as its command gave it
    (oaieval.py, null when not given); every event and the final report with the spec's
    run_id; event_id ``len(self._events)`` at recording, so the ids are 0 to
    N - 1, each once (a paused recorder records nothing, leaving no gap);
    a sampling event's data always holds prompt (record_sampling).  A Match
    eval records one match event per sample.  ``check`` and ``report``
    both read a log through here, so they refuse it alike.
    """
    if spec is None:
        raise InvalidEvidence(
            "missing-member",
            "the openai/evals log has no spec line: evals' recorder writes it first, with the run's max_samples, "
            "and without it nothing says whether the run covered its samples",
        )
    line, document = spec
    for number, event in events:
        if "spec" in _data_of(event):  # a second spec line, which _sort files as an event
            # evals' LocalRecorder writes the spec once, when it opens the
            # log ("wb", evals/record.py l. 343): a second is another run's.
            raise InvalidEvidence(
                "ambiguous-selection",
                f"lines {line} and {number} of the openai/evals log both hold a spec: two runs' records in one "
                "file; gate each run's own log",
            )
    limit = at(document, "spec", "run_config", "max_samples")
    stated = _command_max_samples(at(document, "spec", "run_config", "command"))
    # A max_samples deleted or nulled while the command still says it
    # would turn a selection into a whole run (oaieval.py passes
    # args.max_samples into run_config as given).
    if stated is not None and (type(limit) is not int or str(limit) != stated):
        raise InvalidEvidence(
            "value-mismatch",
            f"the spec on line {line} says max_samples {'absent' if limit is ABSENT else shown(limit)}, but its "
            f"command reads --max_samples {clip(stated, 40)}",
        )
    run_id = at(document, "spec", "run_id")
    if run_id is not ABSENT:
        for number, event in [*events, *([final] if final is not None else [])]:
            other = at(event, "run_id")
            if other is not ABSENT and other != run_id:
                raise InvalidEvidence(
                    "value-mismatch",
                    f"line {number} of the openai/evals log has run_id {clip(repr(other), 60)}, but the spec on line {line} "
                    f"has {clip(repr(run_id), 60)}: evals writes one run_id on every line of a log, so lines of two runs "
                    "were joined",
                )
    _numbered(events)
    matches: list[tuple[int, object]] = []
    seen: dict[str, str] = {}
    for number, event in events:
        kind = at(event, "type")
        if kind == "match":
            sample = at(event, "sample_id")
            if type(sample) is str:
                once(seen, sample, f"line {number}", "the openai/evals log's match events")
            matches.append((number, event))
        elif kind == "sampling" and at(event, "data", "prompt") is ABSENT:
            raise InvalidEvidence(
                "missing-member",
                f"the sampling event on line {number} has no data.prompt: evals' record_sampling always writes "
                "one (a match event retyped?)",
            )
    return matches


def _data(event: object) -> dict[str, object]:
    """An event's data object; empty when it has none."""
    return _data_of(at(event, "data"))


def _data_of(value: object) -> dict[str, object]:
    """*value* when it is an object, else an empty one."""
    return value if type(value) is dict else {}


def _command_max_samples(command: object) -> str | None:
    """The value of --max_samples on oaieval's recorded command line, as written; None when it has none.

    argparse takes the last of a repeated option, and both ``--max_samples N``
    and ``--max_samples=N``; the abbreviations argparse also accepts are not
    read.
    """
    if type(command) is not str:
        return None
    words = command.split()
    value = None
    for index, word in enumerate(words):
        if word == "--max_samples" and index + 1 < len(words):
            value = words[index + 1]
        elif word.startswith("--max_samples="):
            value = word[len("--max_samples=") :]
    return value


def _numbered(events: list[tuple[int, object]]) -> None:
    """Refuse event_ids that are not 0 to N - 1, each once: events dropped, added or copied."""
    ids = [at(event, "event_id") for _, event in events]
    if all(value is ABSENT for value in ids):
        return
    numbers: list[int] = []
    for (number, _), value in zip(events, ids):
        if type(value) is int:
            numbers.append(value)
        else:
            raise InvalidEvidence(
                "wrong-type" if value is not ABSENT else "missing-member",
                f"the event on line {number} has event_id {shown(value)}, not an integer, while others have one",
            )
    if sorted(numbers) != list(range(len(numbers))):
        missing = sorted(set(range(len(numbers))) - set(numbers))
        raise InvalidEvidence(
            "population-mismatch",
            f"the openai/evals log's {len(ids)} events are not event_ids 0 to {len(ids) - 1}, each once "
            f"({'first missing ' + str(missing[0]) if missing else 'one repeated'}): evals numbers its events "
            "consecutively, so events were dropped, added or copied",
        )


def _reconciled(
    document: object, number: int, metric: str, matches: list[tuple[int, object]], metrics: list[object]
) -> None:
    """Refuse a final_report metric its own events contradict, or one they do not determine.

    What each eval computes from its events (evals 3.0.1): a match eval's
    accuracy is evals.metrics.get_accuracy of the match events, the share
    with data.correct true; FuzzyMatch's accuracy and f1_score, and a
    model-graded eval's score, are the mean of that member over the
    metrics events (recorder.get_scores; ModelBasedClassify skips a null
    score); its counts/<choice> count the metrics events of data.choice.
    """
    from collections import Counter
    from fractions import Fraction

    value = at(document, "final_report", metric)
    # A Decimal (exact mode) is checked as a float is; NaN is the
    # contract's to refuse.
    if not finite(value):
        return
    said = exact(value)
    if metric == "accuracy" and matches:
        correct = [at(event, "data", "correct") for _, event in matches]
        if not all(type(flag) is bool for flag in correct):
            # evals writes data.correct as a bool; anything else would switch the
            # check off (one "false" string let an accuracy of 0.8 read 1.0).
            raise InvalidEvidence(
                "wrong-type",
                f"a match event on the record log has data.correct that is not true or false; "
                f"the final_report on line {number} cannot be checked against its events",
            )
        right = sum(1 for flag in correct if flag)
        computed = Fraction(right, len(correct))
        events = f"{len(correct)} match events say {right} correct"
    elif metric.startswith("counts/") and metrics:
        computed = Fraction(Counter(at(event, "data", "choice") for event in metrics)[metric[len("counts/") :]])
        events = f"{len(metrics)} metrics events count {computed} with data.choice {metric[len('counts/') :]!r}"
    elif metrics and all(metric in _data(event) for event in metrics):
        values = [item for item in (at(event, "data", metric) for event in metrics) if item is not None]
        if not values or not all(finite(item) for item in values):
            return
        computed = sum((exact(item) for item in values), Fraction(0)) / len(values)
        events = f"the mean of data.{metric} over its {len(values)} metrics events is"
    else:
        determined = ["accuracy"] if matches else []
        members = sorted({key for event in metrics for key in _data(event) if key != "choice"})
        choices = sorted({str(at(event, "data", "choice")) for event in metrics if "choice" in _data(event)})
        determined += [*members, *(f"counts/{choice}" for choice in choices)]
        raise InvalidEvidence(
            "requirement-failed",
            f"the final_report's {metric!r} on line {number} is not a value its events determine, so nothing "
            "checks it; gate one that is: " + (", ".join(repr(name) for name in determined) or "none in this log"),
        )
    if abs(computed - said) > Fraction(1, 10**9):
        raise InvalidEvidence(
            "value-mismatch",
            f"the final_report on line {number} says {metric} {format_number(value)}, but {events} "
            f"{format_number(float(computed))}",
        )


HEADLINE = Headline(
    options=(
        Option("metric", "the member of final_report", default="accuracy"),
        Option("allow_partial", "gate a run of a selection of its samples (oaieval --max_samples)"),
        Option("allow_errors", "gate a model-graded run whose grader gave replies that were no grade"),
    ),
    file="an `oaieval` record log (JSON Lines)",
    selects="final_report[M] of the one JSON Lines line holding final_report",
    requires="exactly one line holding final_report (two are INVALID ambiguous-selection); every line strict "
    "JSON; a finite value (no events writes NaN: INVALID); the match events agree with the spec's max_samples (a "
    "selection is partial-run unless --allow-partial); one run's log: a spec line, one run_id, event_ids 0 to N - 1, one "
    "match event per sample, the command's --max_samples in run_config (else INVALID); the metric one its events "
    "determine and agree with: accuracy the share of correct match events, counts/<choice> and other members the "
    "metrics events' (else INVALID value-mismatch, or requirement-failed for one they do not determine)",
    lists="NaN and infinities elsewhere on the final_report line; those on other lines are counted "
    '(a policy stating nonfinite_elsewhere "refuse" refuses both)',
    gate=_gate,
    nonfinite="openai/evals writes accuracy NaN when no event was recorded",
)


class _Reader(SampleReader):
    """An oaieval record log: each match event is the trial of its sample.

    The trial id is the event's ``[sample_id]``; its score the event's
    ``data.correct``, true 1 and false 0 (what a match eval's accuracy
    averages).  The population is the match events, reconciled with the
    spec's max_samples as ``check --from openai-evals`` does.
    """

    framing = "document"
    declares_population = True

    def __init__(self, policy: Policy, options: Options) -> None:
        super().__init__(policy)
        self.allow_partial = options.switch("allow_partial")

    def description(self) -> dict[str, object]:
        return {"harness": "openai-evals", "score": "data.correct of match events", "allow_partial": self.allow_partial}

    def document(self, data: bytes, name: str, max_bytes: int) -> tuple[list[Placed], int | None]:
        from .._encoding import decode_evidence
        from .._strict_json import load_document

        text = decode_evidence(data, max_bytes)
        spec: tuple[int, object] | None = None
        events: list[tuple[int, object]] = []
        codes: dict[int, Codes] = {}
        for number, line in enumerate(text.split("\n"), 1):
            if not line.strip(" \t\r"):
                continue
            try:
                document, records = load_document(line, exact=self.policy.exact)
            except InvalidEvidence as exc:
                raise InvalidEvidence(exc.code, f"line {number}: {exc.message}") from None
            if type(document) is dict and "final_report" not in document:
                spec = _sort(number, document, spec, events)
                codes[number] = codes_of(records)
        matches = _vet(spec, events, None)
        if not matches:
            raise InvalidEvidence(
                "missing-evidence", "the openai/evals log holds no match event: nothing to gate per sample"
            )
        _coverage(spec, matches, self.allow_partial)
        rows: list[Placed] = []
        for number, event in matches:
            rows.append((f"line {number}", self.event(event, codes[number])))
        return rows, len(matches)

    def event(self, event: object, codes: Codes) -> Row:
        trial_id, problem = canonical_trial_id([("$['sample_id']", at(event, "sample_id"))], codes)
        if problem is not None:
            return invalid_row(None, *problem)
        correct = at(event, "data", "correct")
        where = "$['data']['correct']"
        if correct is ABSENT:
            return invalid_row(trial_id, "missing-member", f"the match event has no {where}")
        if type(correct) is not bool:
            return invalid_row(
                trial_id, "wrong-type", f"the match event's {where} is {shown(correct)}, not true or false"
            )
        # The one place a bool becomes a number here: the match's verdict, by name.
        return self.judge(trial_id, where, 1 if correct else 0, codes, event)


def _reader(options: Options, policy: Policy, names: Sequence[str | None]) -> SampleReader:
    return _Reader(policy, options)


SAMPLES = Samples(
    options=(Option("allow_partial", "gate a run of a selection of its samples (oaieval --max_samples)"),),
    reader=_reader,
)
