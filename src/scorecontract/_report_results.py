# SPDX-License-Identifier: MIT
"""What a report returns: ``Report``, ``Metric``, ``Observation``, ``Input``.

The result types of ``report()`` (docs/reports.md), immutable all the way
down, and the numbering of observations across a report's inputs: an
observation's number over the whole population is turned back into its
input, and its line or place within it, here.
"""

from __future__ import annotations

import types

from ._describe import format_number
from ._score import exact_context, to_decimal
from ._tally import trial_rows
from ._value import NoTruthValue, Value

TYPE_CHECKING = False
if TYPE_CHECKING:
    import decimal
    from collections.abc import Iterator, Mapping, Sequence
    from decimal import Decimal
    from typing import Union

    from ._confidence import Interval
    from ._policy import Policy
    from ._score import Number
    from ._tally import Listed
    from ._verdict import Verdict

    # Where each input's observations start: (first number - 1, name, places or None).
    Start = tuple[int, Union[str, None], Union[tuple[str, ...], None]]

__all__ = [
    "Input",
    "Metric",
    "Observation",
    "Regression",
    "Report",
    "input_dict",
    "interval_side",
    "locate",
    "observation",
    "place",
]


class Observation(Value):
    """One listed observation: an invalid record, or an ignored rerun.

    Attributes: ``line``, the observation's 1-based number within its
    input (the line of a JSON Lines file; the record's position in a
    document's array or an archive's members); ``trial_id`` (None when the
    record has no readable id), ``code`` and ``message``; ``evidence_line``
    is, for an ignored rerun, the number of the observation holding the
    trial's evidence, else None.  ``file`` names the input when a report
    reads several (else None), and ``where`` says where the record is in
    it: ``"line 3"``, or a document's normalized path (``"$['samples'][2]"``)
    or archive member; ``evidence_file`` and ``evidence_where`` say the same
    of the evidence.  Observations are immutable and compare equal by value.
    """

    __slots__ = (
        "line",
        "trial_id",
        "code",
        "message",
        "evidence_line",
        "file",
        "where",
        "evidence_file",
        "evidence_where",
    )
    _shown = ("line", "trial_id", "code", "message")

    line: int
    trial_id: str | None
    code: str
    message: str
    evidence_line: int | None
    file: str | None
    where: str
    evidence_file: str | None
    evidence_where: str | None

    def __init__(
        self,
        line: int,
        trial_id: str | None,
        code: str,
        message: str,
        evidence_line: int | None = None,
        file: str | None = None,
        where: str | None = None,
        evidence_file: str | None = None,
        evidence_where: str | None = None,
    ) -> None:
        if evidence_line is not None and evidence_where is None:
            evidence_where = f"line {evidence_line}"
        self._fill(
            line=line,
            trial_id=trial_id,
            code=code,
            message=message,
            evidence_line=evidence_line,
            file=file,
            where=f"line {line}" if where is None else where,
            evidence_file=evidence_file,
            evidence_where=evidence_where,
        )

    def location(self) -> str:
        """Where the record is, for people: ``line 3``, ``b.jsonl line 3``, ``$['samples'][2]``."""
        return self.where if self.file is None else f"{self.file} {self.where}"

    def evidence_location(self) -> str | None:
        """Where the trial's evidence is (an ignored rerun's), as ``location()`` says it."""
        if self.evidence_where is None:
            return None
        return self.evidence_where if self.evidence_file is None else f"{self.evidence_file} {self.evidence_where}"

    def as_dict(self) -> dict[str, object]:
        """Return the observation as a JSON-ready dict.

        ``file`` and ``where`` appear only where they say more than
        ``line``: for several inputs, or a record in a document.
        """
        result: dict[str, object] = {
            "line": self.line,
            "trial_id": self.trial_id,
            "code": self.code,
            "message": self.message,
        }
        if self.file is not None or self.where != f"line {self.line}":
            result["file"] = self.file
            result["where"] = self.where
        if self.evidence_line is not None:
            result["evidence_line"] = self.evidence_line
            if self.evidence_file is not None or self.evidence_where != f"line {self.evidence_line}":
                result["evidence_file"] = self.evidence_file
                result["evidence_where"] = self.evidence_where
        return result


class Input(Value):
    """One input of a report: ``name`` (as given, or None for one unnamed
    input), ``sha256`` and ``size`` of its bytes, or both None when it was
    not read in full (over a limit, unreadable, or not reached after an
    earlier input failed): a digest of part of a file, or of nothing, would
    state what was never read."""

    __slots__ = ("name", "sha256", "size")
    _shown = ("name", "sha256", "size")

    name: str | None
    sha256: str | None
    size: int | None

    def __init__(self, name: str | None, sha256: str | None, size: int | None) -> None:
        self._fill(name=name, sha256=sha256, size=size)

    def as_dict(self) -> dict[str, object]:
        """Return the input as a JSON-ready dict: ``name``, ``sha256``, ``bytes``."""
        return {"name": self.name, "sha256": self.sha256, "bytes": self.size}


class Metric(Value):
    """A metric with its numerator and denominator, always both.

    Attributes: ``name`` (``"mean"`` or ``"pass-rate"``); ``numerator``
    (the sum of the valid scores, or the number of passing trials);
    ``denominator`` (the number of trials with valid evidence); ``value``,
    their quotient as a float, or None when the denominator is 0 (never
    0.0); ``threshold``, the minimum the value is compared with (the
    maximum, for a mean whose ``direction`` is ``"lower"``); ``meets``,
    whether it reaches that minimum, compared exactly, or None without a
    value.  ``Report.deciding_metrics`` says which metrics decide; they
    decide only when no scheduled trial lacks evidence.  The numerator and
    value are floats for display; where a double cannot hold one (an exact
    policy's ``1e999`` would be ``inf``, its ``1e-999`` ``0.0``) it is the
    ``decimal.Decimal`` instead.  ``interval`` is the confidence bound the
    metric decided on (an ``Interval``, under ``confidence=``), or None:
    with one, ``meets`` is the bound's verdict, not the point estimate's.
    Metrics are immutable and compare equal by value.
    """

    __slots__ = ("name", "numerator", "denominator", "value", "threshold", "meets", "interval", "direction")
    _shown = ("name", "numerator", "denominator", "value")

    name: str
    numerator: float | int | Decimal
    denominator: int
    value: float | Decimal | None
    threshold: Number
    meets: bool | None
    interval: Interval | None
    direction: str

    def __init__(
        self,
        name: str,
        numerator: Decimal | int,
        denominator: int,
        threshold: Number,
        interval: Interval | None = None,
        direction: str = "higher",
    ) -> None:
        value: float | Decimal | None = None
        meets: bool | None = None
        if denominator:
            from decimal import Decimal

            # The value is for people, so it may round: in a private context,
            # never the thread's, whose traps (Inexact) would raise here.
            value = for_display(display_context().divide(Decimal(numerator), denominator))
            # No division and no rounding in the decision: numerator >=
            # threshold * denominator (<= when lower is better), in exact
            # decimal arithmetic.
            product = exact_context().multiply(to_decimal(threshold), Decimal(denominator))
            meets = Decimal(numerator) >= product if direction == "higher" else Decimal(numerator) <= product
        if interval is not None:
            meets = interval.meets
        self._fill(
            name=name,
            numerator=numerator if isinstance(numerator, int) else for_display(numerator),
            denominator=denominator,
            value=value,
            threshold=threshold,
            meets=meets,
            interval=interval,
            direction=direction,
        )

    def as_dict(self) -> dict[str, object]:
        """Return the metric as a JSON-ready dict."""
        return {
            "name": self.name,
            "value": self.value,
            "numerator": self.numerator,
            "denominator": self.denominator,
            "threshold": self.threshold,
            "meets_threshold": self.meets,
            "interval": None if self.interval is None else self.interval.as_dict(),
        }


def for_display(value: Decimal) -> float | Decimal:
    """*value* as a float, unless a double would show another number."""
    number = float(value)
    if number in (float("inf"), float("-inf")) or (number == 0.0 and value):
        # A JSON writer refuses inf, and 0.0 for 1e-999 is false.
        return value
    return number


_contexts: list[decimal.Context] = []


def display_context() -> decimal.Context:
    """A private context for a metric's value: 28 digits, rounded, no traps
    but for results that are no number."""
    if not _contexts:
        import decimal

        _contexts.append(
            decimal.Context(
                prec=28,
                rounding=decimal.ROUND_HALF_EVEN,
                Emin=decimal.MIN_EMIN,
                Emax=decimal.MAX_EMAX,
                capitals=1,
                clamp=0,
                flags=[],
                traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow],
            )
        )
    return _contexts[0]


class Report(NoTruthValue, Value):
    """The outcome of ``report()``: a verdict over a declared population.

    Attributes:

    - ``verdict``: ``Verdict.PASS``, ``FAIL``, ``INVALID`` or ``REVIEW``;
      ``code`` and ``message`` say why;
    - the counts, all ``int``: ``scheduled`` (the declared population),
      ``observed`` (lines read, blank lines included), ``valid`` (scheduled
      trials with valid evidence: each trial's first valid observation),
      ``invalid`` (observations that are not valid evidence, or name a trial
      outside the population), ``ignored`` (later valid observations of a
      trial that already has evidence) and ``missing`` (scheduled trials
      without valid evidence).  Always ``observed == valid + invalid +
      ignored`` and ``scheduled == valid + missing``;
    - ``metric``, the name given as ``metric=``, and ``mean`` and
      ``pass_rate``, both ``Metric`` objects, each with its numerator and
      denominator;
    - ``deciding_metrics``: the names of the metrics whose minimums the
      gate compares, ``("mean",)``, ``("pass-rate",)``, or ``("mean",
      "pass-rate")`` when the mean decides and a minimum pass rate was
      stated too: a PASS needs every one;
    - ``deciding``: whether those metrics decided (False when evidence is
      missing: the metrics are shown but never decide);
    - ``invalid_by_code``: the number of invalid observations per reason,
      a read-only mapping;
    - ``invalid_observations``, ``ignored_observations``: the first
      ``max_listed`` of each, as tuples of ``Observation`` objects, with
      ``invalid_not_listed`` and ``ignored_not_listed`` counting the rest;
    - ``missing_trials``: a tuple of the ids of scheduled trials without
      valid evidence (those the file or manifest names; the first
      ``max_listed``), and ``missing_not_listed`` for the rest;
    - ``sha256`` and ``size``: of the whole input (every file, in order,
      for shards), or both None when any input was not read in full;
      ``inputs``: one ``Input`` per file, its ``name``, ``sha256`` and
      ``size``;
    - ``reading``: how records were read, as sorted ``(name, value)`` pairs
      (the harness and its options, or the generic queries), or None for
      trial lines;
    - ``population_sha256``: of the manifest's ids, or None;
    - ``policy``: the ``Policy`` applied;
    - ``candidate``: the candidate every line had to name, or None;
    - ``confidence``: the confidence the metrics decided at, or None (the
      point estimates decided); ``bound``, the mean's bound (a name in
      ``_bounds.REGISTRY``: ``"empirical-bernstein"``, ``"hoeffding"`` or
      ``"asymptotic-t"``), and ``cluster_by``, the query naming each trial's
      cluster, or None; each deciding metric's ``interval`` holds its bound;
    - ``regression``: the paired comparison with a baseline (a
      ``Regression``), or None.

    Reports are immutable all the way down (their metrics and observations
    too), so what a receipt shows is what was decided; they compare equal
    by value.  Like a ``Verdict``, a report has no truth value.
    """

    __slots__ = (
        "verdict",
        "code",
        "message",
        "scheduled",
        "observed",
        "valid",
        "invalid",
        "ignored",
        "missing",
        "metric",
        "deciding_metrics",
        "mean",
        "pass_rate",
        "deciding",
        "_invalid_by_code",
        "invalid_observations",
        "invalid_not_listed",
        "ignored_observations",
        "ignored_not_listed",
        "missing_trials",
        "missing_not_listed",
        "sha256",
        "size",
        "population_sha256",
        "policy",
        "candidate",
        "_trials",
        "_failed_scores",
        "_first_invalid",
        "confidence",
        "bound",
        "cluster_by",
        "regression",
        "inputs",
        "reading",
        "_starts",
    )
    _shown = ("verdict", "code", "scheduled", "observed", "valid", "invalid", "ignored", "missing")

    verdict: Verdict
    code: str
    message: str
    scheduled: int
    observed: int
    valid: int
    invalid: int
    ignored: int
    missing: int
    metric: str
    deciding_metrics: tuple[str, ...]
    mean: Metric
    pass_rate: Metric
    deciding: bool
    _invalid_by_code: dict[str, int]
    invalid_observations: tuple[Observation, ...]
    invalid_not_listed: int
    ignored_observations: tuple[Observation, ...]
    ignored_not_listed: int
    missing_trials: tuple[str, ...]
    missing_not_listed: int
    sha256: str | None
    size: int | None
    population_sha256: str | None
    policy: Policy
    candidate: str | None
    _trials: dict[str, int | None]
    _failed_scores: dict[str, object]
    _first_invalid: dict[str, tuple[str, str]]
    confidence: Number | None
    bound: str
    cluster_by: str | None
    regression: Regression | None
    inputs: tuple[Input, ...]
    reading: tuple[tuple[str, object], ...] | None
    _starts: tuple[Start, ...]

    def __init__(self, **fields: object) -> None:
        missing = [name for name in self.__slots__ if name not in fields]
        if missing:
            raise TypeError(f"Report() lacks {', '.join(missing)}")
        self._fill(**fields)

    @property
    def invalid_by_code(self) -> Mapping[str, int]:
        """The number of invalid observations per reason code, read-only."""
        return types.MappingProxyType(self._invalid_by_code)

    def _hash_key(self) -> tuple[object, ...]:
        # Enough to tell reports apart; equality compares everything.
        return (
            self.verdict,
            self.code,
            self.message,
            self.sha256,
            self.size,
            self.scheduled,
            self.observed,
            self.valid,
            self.invalid,
            self.ignored,
            self.missing,
            self.policy,
        )

    def trials(self) -> Iterator[tuple[str | None, str, int | None, str, str]]:
        """Yield ``(trial_id, status, line, code, message)`` per scheduled trial.

        *status* is ``"PASS"``, ``"FAIL"``, ``"INVALID"`` (only invalid
        observations) or ``"MISSING"`` (no observation); *line* is the
        number, within its input, of the observation the status rests on
        (``located_trials()`` names the input and the place).  Trials come in
        manifest order, or in order of first appearance; under a bare
        ``scheduled`` count, trials the file never names come last with
        *trial_id* None.
        """
        for trial_id, status, line, code, message in self._rows():
            yield trial_id, status, None if line is None else locate(self._starts, line)[0], code, message

    def _rows(self) -> Iterator[tuple[str | None, str, int | None, str, str]]:
        return trial_rows(
            self._trials,
            self._failed_scores,
            self._first_invalid,
            self.scheduled,
            self.policy.threshold,
            self.policy.direction == "lower",
        )

    def located_trials(self) -> Iterator[tuple[str | None, str, str | None, str, str]]:
        """As ``trials()``, with the evidence's place as text (``"b.jsonl line 3"``), or None."""
        for trial_id, status, line, code, message in self._rows():
            yield trial_id, status, None if line is None else place(self._starts, line), code, message

    def as_dict(self) -> dict[str, object]:
        """Return the report as the JSON object ``--format json`` prints.

        ``metric`` is the metric named by ``metric=``; ``metrics`` holds
        both, each with ``decides``: whether it decided the verdict.
        """
        chosen = self.mean if self.metric == "mean" else self.pass_rate
        metric = chosen.as_dict()
        metric["decides"] = self.deciding and chosen.name in self.deciding_metrics
        metrics = {}
        for key, item in (("mean", self.mean), ("pass_rate", self.pass_rate)):
            shown = item.as_dict()
            shown["decides"] = self.deciding and item.name in self.deciding_metrics
            metrics[key] = shown
        return {
            "verdict": self.verdict.value,
            "code": self.code,
            "message": self.message,
            "scheduled": self.scheduled,
            "observed": self.observed,
            "valid": self.valid,
            "invalid": self.invalid,
            "ignored": self.ignored,
            "missing": self.missing,
            "metric": metric,
            "metrics": metrics,
            "deciding_metrics": list(self.deciding_metrics),
            "invalid_by_code": dict(sorted(self._invalid_by_code.items())),
            "invalid_observations": [o.as_dict() for o in self.invalid_observations],
            "invalid_not_listed": self.invalid_not_listed,
            "ignored_observations": [o.as_dict() for o in self.ignored_observations],
            "ignored_not_listed": self.ignored_not_listed,
            "missing_trials": list(self.missing_trials),
            "missing_not_listed": self.missing_not_listed,
            "review_owner": self.policy.review_owner,
            "policy": self.policy.as_dict(),
            "candidate": self.candidate,
            "input": input_dict(self),
            "source": None if self.reading is None else dict(self.reading),
            "population": {"scheduled": self.scheduled, "manifest_sha256": self.population_sha256},
            "confidence": self.confidence,
            "bound": self.bound if self.confidence is not None else None,
            "cluster_by": self.cluster_by,
            "regression": None if self.regression is None else self.regression.as_dict(),
        }


def locate(starts: Sequence[Start], number: int) -> tuple[int, str | None, str]:
    """Observation *number* (over all inputs) as (number within its input, input name, where)."""
    import bisect

    index = bisect.bisect_left([start for start, _, _ in starts], number) - 1
    if index < 0:  # no inputs were read (a failure): the number as it is
        return number, None, f"line {number}"
    start, name, places = starts[index]
    local = number - start
    if places is not None and 0 < local <= len(places):
        return local, name, places[local - 1]
    return local, name, f"line {local}"


def place(starts: Sequence[Start], number: int) -> str:
    local, name, where = locate(starts, number)
    return where if name is None else f"{name} {where}"


def observation(item: Listed, starts: Sequence[Start]) -> Observation:
    number, trial_id, code, message, evidence = item
    line, name, where = locate(starts, number)
    if evidence is None:
        return Observation(line, trial_id, code, message, None, name, where)
    evidence_line, evidence_name, evidence_where = locate(starts, evidence)
    shown = evidence_where if evidence_name is None else f"{evidence_name} {evidence_where}"
    message = f"rerun ignored: the trial's evidence is {shown}"
    return Observation(line, trial_id, code, message, evidence_line, name, where, evidence_name, evidence_where)


def input_dict(report: Report) -> dict[str, object]:
    """The receipt's ``input``: the whole input's digest and size, and each file's when there are several."""
    shown: dict[str, object] = {"sha256": report.sha256, "bytes": report.size}
    if len(report.inputs) > 1:
        shown["files"] = [item.as_dict() for item in report.inputs]
    return shown


class Regression(Value):
    """A paired comparison with a baseline: ``Report.regression``.

    Attributes: ``name`` (``"regression"``); ``max_regression``, the
    largest regression allowed, D; ``pairs``, the scheduled trials with
    valid evidence on both sides; ``mean_difference``, the mean of the
    per-trial differences candidate - baseline (a float, None without
    pairs); ``meets``, whether the difference is at least -D (for a policy
    whose direction is ``"lower"``, at most D): the point difference, or
    its confidence bound, ``interval`` (an ``Interval`` whose
    ``unpaired_se`` shows what pairing bought), when a confidence was
    given; ``only_candidate`` and ``only_baseline``, how many trials had
    valid evidence on one side only, with the first ``max_listed`` ids in
    ``only_candidate_trials`` and ``only_baseline_trials``; and
    ``baseline``, the baseline's own ``Report``.
    """

    __slots__ = (
        "name",
        "max_regression",
        "pairs",
        "mean_difference",
        "meets",
        "interval",
        "only_candidate",
        "only_baseline",
        "only_candidate_trials",
        "only_baseline_trials",
        "baseline",
    )
    _shown = ("pairs", "mean_difference", "max_regression", "meets")

    name: str
    max_regression: Number
    pairs: int
    mean_difference: float | None
    meets: bool | None
    interval: Interval | None
    only_candidate: int
    only_baseline: int
    only_candidate_trials: tuple[str, ...]
    only_baseline_trials: tuple[str, ...]
    baseline: Report

    def __init__(self, **fields: object) -> None:
        self._fill(name="regression", **fields)

    def text(self) -> str:
        """The comparison as the verdict's message says it."""
        if self.mean_difference is None:
            return "no trial has valid evidence on both sides"
        limit = format_number(self.max_regression)
        interval = self.interval
        lower = interval_side(self.baseline.policy) == "lower"
        suffix = "" if lower else " (lower is better)"
        if interval is None:
            relation = (">=" if self.meets else "<") if lower else ("<=" if self.meets else ">")
            shown = f"-{limit}" if lower else limit
            return (
                f"mean difference {self.mean_difference:.6g} (candidate - baseline, {self.pairs} pairs) "
                f"{relation} {shown}{suffix}"
            )
        if interval.side == "lower":
            relation, shown = (">=" if self.meets else "<"), f"-{limit}"
        else:
            relation, shown = ("<=" if self.meets else ">"), limit
        text = (
            f"mean difference {self.mean_difference:.6g} (candidate - baseline), "
            f"{interval.summary()} {relation} {shown}{suffix}"
        )
        needed = interval.needed()
        return f"{text}; {needed}" if needed else text

    def as_dict(self) -> dict[str, object]:
        """Return the comparison as a JSON-ready dict (the baseline's input and counts)."""
        base = self.baseline
        difference = self.mean_difference
        if difference is not None and difference in (float("inf"), float("-inf")):
            difference = None  # beyond the doubles (exact 1E+999 scores): JSON has no infinity
        return {
            "max_regression": self.max_regression,
            "pairs": self.pairs,
            "mean_difference": difference,
            "meets_threshold": self.meets,
            "interval": None if self.interval is None else self.interval.as_dict(),
            "only_candidate": self.only_candidate,
            "only_baseline": self.only_baseline,
            "only_candidate_trials": list(self.only_candidate_trials),
            "only_baseline_trials": list(self.only_baseline_trials),
            "baseline": {
                "verdict": base.verdict.value,
                "code": base.code,
                "message": base.message,
                "valid": base.valid,
                "invalid": base.invalid,
                "ignored": base.ignored,
                "missing": base.missing,
                "mean": base.mean.as_dict(),
                "input": {"sha256": base.sha256, "bytes": base.size},
            },
        }


def interval_side(policy: Policy) -> str:
    """``"lower"`` when higher scores are better, else ``"upper"``."""
    from ._confidence import direction

    return "upper" if direction(policy) == "lower" else "lower"
