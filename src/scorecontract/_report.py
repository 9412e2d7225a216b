# SPDX-License-Identifier: MIT
"""Reports over many trials (docs/reports.md): JSON Lines in, a gate out.

The bug this module exists to prevent: an evaluation framework drops the
samples that errored or came back NaN, divides by what is left, and a run
that degrades reports a *better* score.  Here the population is declared up
front, every line is an observation that is counted, and a scheduled trial
without valid evidence blocks the release however good the rest look.

This module holds the result classes (``Report``, ``Metric``,
``Observation``), the declared population and the gate; reading and
counting the lines is ``_tally``'s job.
"""

from __future__ import annotations

import os
import types

from ._constants import DEFAULT_MAX_BYTES, DEFAULT_MAX_LISTED, METRICS
from ._describe import describe_value, format_number
from ._errors import InvalidEvidence, PolicyError
from ._policy import UNSET, check_limit, policy_for
from ._score import exact_context, number_problem, to_decimal
from ._tally import Tally, stream_lines, trial_rows
from ._value import NoTruthValue, Value
from ._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    import decimal
    from collections.abc import Iterator, Mapping, Sequence
    from decimal import Decimal
    from typing import BinaryIO, Union

    from ._confidence import Interval
    from ._policy import Policy
    from ._samples import Placed, SampleReader
    from ._score import Number
    from ._source import Source
    from ._tally import Listed

    TrialSource = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, BinaryIO]
    # Where each input's observations start: (first number - 1, name, places or None).
    _Start = tuple[int, Union[str, None], Union[tuple[str, ...], None]]

__all__ = ["MAX_MANIFEST_BYTES", "Input", "Metric", "Observation", "Report", "report"]

# A manifest of a million ids is about 20 MB; this bound only stops a
# runaway file, it is not a limit anyone should meet.
MAX_MANIFEST_BYTES = 256 * 1024 * 1024


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
            value = _for_display(_display_context().divide(Decimal(numerator), denominator))
            # No division and no rounding in the decision: numerator >=
            # threshold * denominator (<= when lower is better), in exact
            # decimal arithmetic.
            product = exact_context().multiply(to_decimal(threshold), Decimal(denominator))
            meets = Decimal(numerator) >= product if direction == "higher" else Decimal(numerator) <= product
        if interval is not None:
            meets = interval.meets
        self._fill(
            name=name,
            numerator=numerator if isinstance(numerator, int) else _for_display(numerator),
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


def _for_display(value: Decimal) -> float | Decimal:
    """*value* as a float, unless a double would show another number."""
    number = float(value)
    if number in (float("inf"), float("-inf")) or (number == 0.0 and value):
        # A JSON writer refuses inf, and 0.0 for 1e-999 is false.
        return value
    return number


_contexts: list[decimal.Context] = []


def _display_context() -> decimal.Context:
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
      point estimates decided); ``bound``, the mean's method (``"clt"`` or
      ``"hoeffding"``), and ``cluster_by``, the query naming each trial's
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
    _starts: tuple[_Start, ...]

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
            yield trial_id, status, None if line is None else _locate(self._starts, line)[0], code, message

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
            yield trial_id, status, None if line is None else _place(self._starts, line), code, message

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
            "input": _input_dict(self),
            "source": None if self.reading is None else dict(self.reading),
            "population": {"scheduled": self.scheduled, "manifest_sha256": self.population_sha256},
            "confidence": self.confidence,
            "bound": self.bound if self.confidence is not None else None,
            "cluster_by": self.cluster_by,
            "regression": None if self.regression is None else self.regression.as_dict(),
        }


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
        return {
            "max_regression": self.max_regression,
            "pairs": self.pairs,
            "mean_difference": self.mean_difference,
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


def _regression(
    tally: Tally, baseline: Report, baseline_tally: Tally | None, options: _Gate, bounded: bool = True
) -> Regression:
    """Pair the candidate's trials with the baseline's and compare them.

    With a confidence and *bounded*, the comparison is on the paired
    bound, and ``InvalidEvidence`` (``insufficient-trials``) when there is
    none; else on the point difference.
    """
    from fractions import Fraction

    from ._stats import Sums, paired_bound

    if tally.scores is None or baseline_tally is None or baseline_tally.scores is None:
        raise InvalidEvidence("internal-error", "a paired comparison without scores; please report it")
    mine, theirs = tally.scores, baseline_tally.scores
    pairs = [trial_id for trial_id in mine if trial_id in theirs]
    only_candidate = [trial_id for trial_id in mine if trial_id not in theirs]
    only_baseline = [trial_id for trial_id in theirs if trial_id not in mine]
    limit = tally.max_listed
    max_regression = options.max_regression
    if max_regression is None:  # unreachable: checked with the options
        raise PolicyError("bad-policy", "a baseline needs max_regression")
    context = exact_context()
    differences: dict[Decimal, int] = {}
    values: dict[str, Decimal] = {}
    for trial_id in pairs:
        value = context.subtract(to_decimal(mine[trial_id]), to_decimal(theirs[trial_id]))  # type: ignore[arg-type]
        values[trial_id] = value
        differences[value] = differences.get(value, 0) + 1
    side = interval_side(tally.policy)
    threshold = -to_decimal(max_regression) if side == "lower" else to_decimal(max_regression)
    mean_difference: float | None = None
    meets: bool | None = None
    interval = None
    if pairs:
        sums = Sums.of_counts(differences)
        mean_difference = float(Fraction(sums.total) / sums.count)
        # Exactly, without dividing: total >= -D * n (or <= D * n).
        product = context.multiply(threshold, len(pairs))
        meets = sums.total >= product if side == "lower" else sums.total <= product
        if options.confidence is not None and bounded:
            from ._confidence import Interval
            from ._tally import cluster_sums

            clusters = None
            if options.cluster_by is not None:
                clusters = cluster_sums(tally.cluster_of, values, pairs)
            try:
                bound = paired_bound(
                    sums,
                    confidence=options.confidence,
                    side=side,
                    clusters=clusters,
                    candidate=Sums.of(mine[t] for t in pairs),  # type: ignore[misc]
                    baseline=Sums.of(theirs[t] for t in pairs),  # type: ignore[misc]
                )
            except InvalidEvidence as exc:
                from ._confidence import _HINT

                raise InvalidEvidence(exc.code, exc.message + _HINT) from None
            interval = Interval(bound, threshold)
            meets = interval.meets
    return Regression(
        max_regression=max_regression,
        pairs=len(pairs),
        mean_difference=mean_difference,
        meets=meets,
        interval=interval,
        only_candidate=len(only_candidate),
        only_baseline=len(only_baseline),
        only_candidate_trials=tuple(only_candidate if limit is None else only_candidate[:limit]),
        only_baseline_trials=tuple(only_baseline if limit is None else only_baseline[:limit]),
        baseline=baseline,
    )


def _population(scheduled: object, manifest: object) -> tuple[int, list[str] | None, str | None]:
    """Resolve ``scheduled=`` and ``manifest=``; raise ``PolicyError``."""
    if scheduled is None and manifest is None:
        raise PolicyError(
            "no-population",
            "no declared population: give the number of scheduled trials (--scheduled N) "
            "or a manifest of their ids (--manifest FILE); without it the denominator "
            "would be whatever the file happens to hold",
        )
    count: int | None = None
    if scheduled is not None:
        if type(scheduled) is not int or scheduled < 1:
            raise PolicyError(
                "bad-population",
                f"scheduled must be a positive int, not {describe_value(scheduled)}",
            )
        count = scheduled
    ids: list[str] | None = None
    digest: str | None = None
    if manifest is not None:
        ids = _manifest_ids(manifest)
        import json

        from ._digest import sha256_hex

        digest = sha256_hex(json.dumps(ids, ensure_ascii=True, separators=(",", ":")).encode("ascii"))
        if count is not None and count != len(ids):
            raise PolicyError(
                "bad-population",
                f"scheduled is {count} but the manifest lists {len(ids)} trials",
            )
        count = len(ids)
    if count is None:  # unreachable: one of the two was given
        raise PolicyError("no-population", "no declared population")
    return count, ids, digest


def _manifest_ids(manifest: object) -> list[str]:
    from ._encoding import decode_evidence, find_surrogate

    if isinstance(manifest, (str, os.PathLike)):
        from ._read import read_file
        from ._strict_json import parse_json

        path = os.fspath(manifest)
        try:
            # One limit for the read and the decoding: decode_evidence's
            # default is the 1 MiB evidence limit, not the manifest's.
            value = parse_json(
                decode_evidence(read_file(path, MAX_MANIFEST_BYTES, what="manifest"), MAX_MANIFEST_BYTES)
            )
        except InvalidEvidence as exc:
            raise PolicyError("bad-population", f"manifest {ascii(path)}: {exc}") from None
        where = f"manifest {ascii(path)}"
    elif type(manifest) is list or type(manifest) is tuple:
        value = list(manifest)
        where = "manifest"
    else:
        raise PolicyError(
            "bad-population",
            f"manifest must be a path or a list of trial ids, not {describe_value(manifest)}",
        )
    if type(value) is not list:
        raise PolicyError("bad-population", f"{where} must be a JSON array of trial ids, not {describe_value(value)}")
    if not value:
        raise PolicyError("bad-population", f"{where} lists no trials")
    seen: set[str] = set()
    for index, trial_id in enumerate(value):
        if type(trial_id) is not str or not trial_id or find_surrogate(trial_id) != -1:
            raise PolicyError(
                "bad-population",
                f"{where}: item {index} must be a non-empty string of Unicode text, not {describe_value(trial_id)}",
            )
        if trial_id in seen:
            # A duplicate would either count one trial twice or shrink the
            # population without anyone noticing: both are configuration
            # mistakes, not something to resolve silently.
            raise PolicyError("bad-population", f"{where}: trial id {trial_id!a} is listed twice (item {index})")
        seen.add(trial_id)
    ids: list[str] = value
    return ids


def _refuse_check_only_keys(policy: Policy) -> None:
    """Refuse the policy keys a report does not apply (exit 2).

    A report reads whole trial lines, not a selection: a policy that
    states requirements on a document, or that lists non-finite values
    outside the selected value, would be judged by rules that mean nothing
    per line.  Refusing is the fail-closed answer; ignoring them is not.
    """
    stated = []
    if policy.require:
        stated.append("require")
    if policy.nonfinite_elsewhere != "refuse":
        stated.append(f"nonfinite_elsewhere {policy.nonfinite_elsewhere!r}")
    if stated:
        raise PolicyError(
            "bad-policy",
            f"a report does not apply the policy's {', '.join(stated)}: "
            "use check for a selected value, or a policy without them",
        )


def _check_options(metric: object, min_pass_rate: object, max_line_bytes: object, max_listed: object) -> None:
    if type(metric) is not str or metric not in METRICS:
        raise PolicyError("bad-policy", f"metric must be 'mean' or 'pass-rate', not {describe_value(metric)}")
    if min_pass_rate is not None:
        # The score's numeric contract; Decimal is allowed, since the rate is
        # compared exactly in decimal whatever the policy (--exact reads it so).
        problem = number_problem(min_pass_rate, True)
        if problem is not None:
            raise PolicyError("bad-threshold", f"min_pass_rate is {problem[1]}")
        if not 0 <= min_pass_rate <= 1:  # type: ignore[operator]
            raise PolicyError("bad-threshold", f"min_pass_rate {format_number(min_pass_rate)} is outside [0, 1]")
    check_limit("max_line_bytes", max_line_bytes)
    if max_listed is not None and (type(max_listed) is not int or max_listed < 0):
        raise PolicyError("bad-policy", f"max_listed must be an int >= 0 or None, not {describe_value(max_listed)}")


def _deciding_metrics(metric: str, min_pass_rate: Number | None) -> tuple[str, ...]:
    """The metrics whose minimums the caller stated: every one must be met."""
    if metric == "pass-rate" or min_pass_rate is None:
        return (metric,)
    # A minimum pass rate stated beside the mean is a second condition, not
    # an option to drop: ignoring it would PASS what the caller refused.
    return ("mean", "pass-rate")


class _Gate:
    """What decides, besides the tally: the options of one ``report()`` call."""

    __slots__ = ("metric", "min_pass_rate", "confidence", "bound", "cluster_by", "max_regression")

    def __init__(
        self,
        metric: str,
        min_pass_rate: Number | None,
        confidence: Number | None,
        bound: str,
        cluster_by: str | None,
        max_regression: Number | None,
    ) -> None:
        self.metric = metric
        self.min_pass_rate = min_pass_rate
        self.confidence = confidence
        self.bound = bound
        self.cluster_by = cluster_by
        self.max_regression = max_regression


def _gate(
    tally: Tally,
    options: _Gate,
    read: _Read,
    population_sha256: str | None,
    baseline: Report | None = None,
    baseline_tally: Tally | None = None,
) -> Report:
    """Decide the finished *tally* and return its ``Report``.

    *read* is what reading the inputs gave (digests, the failure if any).
    With *baseline* (the baseline's own report, over its *baseline_tally*),
    the paired difference decides instead of the mean.
    """
    sha256, failure = read.sha256, read.failure
    metric, min_pass_rate = options.metric, options.min_pass_rate
    policy = tally.policy
    mean = Metric("mean", tally.total(), tally.valid, policy.threshold, direction=policy.direction)
    pass_rate = Metric("pass-rate", tally.passed, tally.valid, 1 if min_pass_rate is None else min_pass_rate)
    deciding_metrics = _deciding_metrics(metric, min_pass_rate)
    regression: Regression | None = None
    if baseline is not None:
        # The paired difference decides in the mean's place; a stated
        # minimum pass rate still decides beside it.
        deciding_metrics = ("regression",) + (("pass-rate",) if min_pass_rate is not None else ())
    missing = tally.scheduled - tally.valid
    deciding = False
    if failure is not None:
        verdict, (code, message) = Verdict.INVALID, failure
    elif tally.overflow:
        verdict, code = Verdict.INVALID, "population-mismatch"
        message = (
            f"the file names more than the {tally.scheduled} scheduled trials; with a "
            "bare count the report cannot tell which were scheduled (give a manifest)"
        )
    elif tally.unattributed:
        verdict, code = Verdict.INVALID, "population-unknown"
        count = tally.unattributed
        message = (
            f"{count} observation{'s' if count != 1 else ''} (the first on "
            f"{_place(read.starts, tally.first_unattributed)}) name{'s' if count == 1 else ''} no readable trial id; with a "
            "bare count the report cannot tell whether a scheduled trial failed and a "
            "fresh one took its place (give a manifest)"
        )
    elif missing:
        code = "missing-evidence"
        message = (
            f"{missing} of {tally.scheduled} scheduled trials lack valid evidence"
            if tally.observed
            else f"no observations: all {tally.scheduled} scheduled trials lack evidence"
        )
        if policy.review_owner is not None:
            verdict = Verdict.REVIEW
            message += f"; review owner: {policy.review_owner!r}"
        else:
            verdict = Verdict.INVALID
    elif baseline is not None and not baseline.deciding:
        # The baseline's evidence is judged by the same contract: whatever
        # keeps it from deciding keeps the comparison from deciding.
        verdict, code = baseline.verdict, baseline.code
        message = f"the baseline: {baseline.message}"
    else:
        try:
            if options.confidence is not None:
                mean, pass_rate = _bounded(tally, mean, pass_rate, deciding_metrics, options)
            if baseline is not None:
                regression = _regression(tally, baseline, baseline_tally, options)
                unpaired = regression.only_candidate + regression.only_baseline
                if unpaired:
                    raise InvalidEvidence(
                        "population-mismatch",
                        f"{regression.only_candidate} trials have valid evidence only in the candidate "
                        f"and {regression.only_baseline} only in the baseline: with a bare count the "
                        "two files name different trials (give a manifest)",
                    )
        except InvalidEvidence as exc:
            verdict, code, message = Verdict.INVALID, exc.code, exc.message
        else:
            deciding = True
            compared: list[Metric | Regression] = [item for item in (mean, pass_rate) if item.name in deciding_metrics]
            if regression is not None:
                compared.insert(0, regression)
            message = "; ".join(_comparison(item) for item in compared)
            if all(item.meets is True for item in compared):
                verdict, code = Verdict.PASS, "meets-threshold"
            else:
                verdict, code = Verdict.FAIL, "below-threshold"
    if baseline is not None and regression is None:
        # Not deciding: the pairs, and the trials valid on one side only,
        # are still counted and listed; no bound is computed.
        regression = _regression(tally, baseline, baseline_tally, options, bounded=False)
    listed_missing = tally.missing_trials()
    return Report(
        verdict=verdict,
        code=code,
        message=message,
        scheduled=tally.scheduled,
        observed=tally.observed,
        valid=tally.valid,
        invalid=tally.invalid,
        ignored=tally.ignored,
        missing=missing,
        metric=metric,
        deciding_metrics=deciding_metrics,
        mean=mean,
        pass_rate=pass_rate,
        deciding=deciding,
        _invalid_by_code=dict(tally.by_code),
        invalid_observations=tuple(_observation(item, read.starts) for item in tally.invalid_list),
        invalid_not_listed=tally.invalid - len(tally.invalid_list),
        ignored_observations=tuple(_observation(item, read.starts) for item in tally.ignored_list),
        ignored_not_listed=tally.ignored - len(tally.ignored_list),
        missing_trials=tuple(listed_missing),
        missing_not_listed=missing - len(listed_missing),
        sha256=sha256,
        size=read.size,
        population_sha256=population_sha256,
        policy=policy,
        candidate=tally.candidate,
        _trials=tally.trials,
        _failed_scores=tally.failed_scores,
        _first_invalid=tally.first_invalid,
        confidence=options.confidence,
        bound=options.bound,
        cluster_by=options.cluster_by,
        regression=regression,
        inputs=tuple(read.inputs),
        reading=read.reading,
        _starts=tuple(read.starts),
    )


def _bounded(
    tally: Tally, mean: Metric, pass_rate: Metric, deciding_metrics: tuple[str, ...], options: _Gate
) -> tuple[Metric, Metric]:
    """*mean* and *pass_rate*, the deciding ones with their confidence bounds.

    Raises ``InvalidEvidence`` (``insufficient-trials``) when the CLT
    cannot bound the mean.
    """
    from ._confidence import mean_bound, pass_rate_bound

    confidence = options.confidence
    if confidence is None:  # unreachable: the caller checks
        return mean, pass_rate
    if "mean" in deciding_metrics:
        interval = mean_bound(
            tally.sums(), confidence, mean.threshold, options.bound, tally.policy, tally.cluster_list()
        )
        mean = Metric("mean", tally.total(), tally.valid, mean.threshold, interval, tally.policy.direction)
    if "pass-rate" in deciding_metrics:
        interval = pass_rate_bound(tally.passed, tally.valid, confidence, pass_rate.threshold)
        pass_rate = Metric("pass-rate", tally.passed, tally.valid, pass_rate.threshold, interval)
    return mean, pass_rate


def _comparison(item: Metric | Regression) -> str:
    """One deciding metric against its minimum, as the verdict's message says it."""
    if isinstance(item, Regression):
        return item.text()
    interval = item.interval
    threshold = format_number(item.threshold)
    lower = item.direction == "lower"
    suffix = " (lower is better)" if lower else ""
    if interval is None:
        relation = ("<=" if item.meets is True else ">") if lower else (">=" if item.meets is True else "<")
        return f"{_metric_text(item)} {relation} {threshold}{suffix}"
    if interval.side == "lower":
        relation = ">=" if interval.meets else "<"
    else:
        relation = "<=" if interval.meets else ">"
    text = f"{_metric_text(item)}, {interval.summary()} {relation} threshold {threshold}{suffix}"
    needed = interval.needed()
    return f"{text}; {needed}" if needed else text


def _metric_text(metric: Metric) -> str:
    """``mean score 0.85 (76.5 / 90)`` or ``pass rate 0.8889 (80 / 90)``."""
    name = "mean score" if metric.name == "mean" else "pass rate"
    value = metric.value
    if value is None:
        shown = "n/a"
    elif isinstance(value, float):
        shown = f"{value:.6g}"
    else:
        # A Decimal's format() rounds in the thread's context: round to six
        # digits in the private one first, so there is nothing left to round.
        shown = f"{_six_digits(value):.6g}"
    return f"{name} {shown} ({format_number(metric.numerator)} / {metric.denominator})"


def _six_digits(value: Decimal) -> Decimal:
    """*value* rounded to six digits, half to even, whatever the thread's context."""
    context = _display_context().copy()
    context.prec = 6
    return context.plus(value)


def report(
    trials: TrialSource | Sequence[TrialSource],
    /,
    *,
    scheduled: int | None = None,
    manifest: str | os.PathLike[str] | Sequence[str] | None = None,
    threshold: Number = UNSET,
    policy: Policy | None = None,
    metric: str = "mean",
    min_pass_rate: Number | None = None,
    max_line_bytes: int = DEFAULT_MAX_BYTES,
    max_listed: int | None = DEFAULT_MAX_LISTED,
    candidate: str | None = None,
    confidence: Number | None = None,
    bound: str = UNSET,
    cluster_by: str | None = None,
    baseline: TrialSource | Sequence[TrialSource] | None = None,
    max_regression: Number | None = None,
    source: Source | None = None,
    select_score: str | None = None,
    trial_id: str | Sequence[str] | None = None,
) -> Report:
    """Gate a JSON Lines file of trial records and return a ``Report``.

    *trials* is a path (``str`` or ``os.PathLike``), the file's ``bytes``,
    or a binary stream with ``read``; or a list (or tuple) of them, the
    shards of one run, read in order as one population: the same trial in
    two shards is a rerun, and the first valid evidence counts.  Each line
    is one trial record, ``{"trial_id": "t-001", "score": 0.9}``, with any
    extra members; each runs the whole score contract.  A final newline is
    fine; a blank line elsewhere is an invalid observation.

    *source*, a ``Source``, reads a harness's per-sample output instead
    (docs/harnesses.md): ``Source("lm-eval", metric="acc",
    results="results.json")``, ``Source("inspect", scorer="match",
    labels={"C": 1, "I": 0})``, ``Source("helm", metric="exact_match")``,
    ``Source("promptfoo")``; each builds the trial id and reads the score as
    its harness writes them, and the lm-eval results file, an Inspect log
    and a promptfoo output declare the population themselves (a
    *scheduled* or *manifest* given too must agree).  *select_score* and
    *trial_id*, a query and a list of queries (JSONPath, JSON Pointer or
    member names), read any JSON Lines file the same way.  Trial ids are
    then the JSON text of the id members' list, ``[3,"none"]``: strings and
    integers only.

    The population must be declared: *scheduled*, a positive int, and/or
    *manifest*, the trial ids as a list (or the path of a JSON array of
    them; duplicates are a configuration error).  With neither,
    ``PolicyError`` (code ``no-population``): a report without a declared
    population would divide by whatever the file happens to hold.  With a
    bare count, the first *scheduled* distinct trial ids the file names are
    the population; naming more makes the report INVALID
    (``population-mismatch``), and so does any line whose trial id cannot
    be read (``population-unknown``), since it may have been a scheduled
    trial's only attempt.  A manifest settles both.

    A trial's evidence is its first valid observation; later valid ones are
    ignored and listed (no rerun-until-pass), invalid ones are counted and
    listed wherever they fall.  A line naming a trial outside the
    population is invalid (``not-scheduled``).

    The gate: a scheduled trial without valid evidence makes the report
    INVALID (``missing-evidence``), or REVIEW when the policy names a
    ``review_owner``; neither releases.  Otherwise the *metric* decides:
    ``"mean"`` (the mean valid score against the policy's threshold) or
    ``"pass-rate"`` (the share of trials scoring at least the threshold,
    against *min_pass_rate*; left out or None, 1: every trial).  With the
    mean, a *min_pass_rate* that is given is a second condition: both
    metrics decide, and a PASS needs both minimums met.  Every metric is
    compared exactly, in decimal, without dividing.  Under a policy whose
    direction is ``"lower"`` (mean absolute error), a trial passes when it
    scores at most the threshold, and the mean must be at most it.

    A missing or unreadable file is an INVALID report; only configuration
    (*threshold*, ``None`` included, *policy*, the population and the
    options) raises ``PolicyError``.  At most *max_listed* invalid observations, ignored
    reruns and missing trials are kept in detail (None keeps them all);
    the counts always cover everything.

    *candidate*, a non-empty string, must then be every line's
    ``"candidate"`` member, exactly: a line without it, or for another
    candidate, is an invalid observation (``missing-candidate``,
    ``candidate-mismatch``).  A policy with ``require_candidate`` raises
    ``PolicyError`` (``candidate-required``) without it.

    *confidence*, in (0.5, 1) (e.g. 0.95), makes each deciding metric
    decide on a one-sided confidence bound instead of its point estimate:
    the pass rate on the exact Clopper-Pearson lower bound, the mean on the
    central-limit bound (*bound* ``"clt"``, the default) or Hoeffding's
    (``"hoeffding"``, which needs finite score bounds); for a policy whose
    direction is ``"lower"``, the mean's upper bound.  Each metric's
    ``interval`` holds the bound.  A mean over one trial, or trials that
    all scored the same, has no CLT bound: INVALID (``insufficient-trials``).
    A policy may state ``confidence`` and ``bound`` itself; the keywords
    may then be left out or repeat its values, and a keyword that
    contradicts them raises ``PolicyError`` (``option-conflict``).
    *cluster_by*, a JSONPath query, JSON Pointer or member name selecting
    each record's cluster (a string or integer), makes the CLT bound use
    clustered standard errors; a valid line without one is an invalid
    observation (``missing-cluster``, ``bad-cluster``).  The Hoeffding
    and Clopper-Pearson bounds would ignore the clusters: *cluster_by*
    with *bound* ``"hoeffding"``, ``metric="pass-rate"`` or
    *min_pass_rate* raises ``PolicyError`` (``option-conflict``), and so
    does *baseline* with *bound* ``"hoeffding"`` (the paired bound is the
    CLT's).  lm-eval's results file (``Source(..., results=...)``) whose
    ``higher_is_better`` disagrees with the policy's direction raises
    ``PolicyError`` (``option-conflict``), as ``evaluate`` does.

    *baseline* (a source like *source*) with *max_regression* D >= 0 is a
    paired regression gate: the baseline runs the same contract over the
    same population, and the mean per-trial difference, candidate -
    baseline, must be at least -D (its lower bound, under *confidence*)
    instead of the mean meeting the threshold; under a policy whose
    direction is ``"lower"``, at most +D (its upper bound).  Either side lacking
    evidence for a scheduled trial is INVALID (or REVIEW), as always;
    ``Report.regression`` holds the comparison.

        >>> r = report(b'{"trial_id": "a", "score": 0.9}\\n{"trial_id": "b", "score": NaN}\\n',
        ...            scheduled=2)
        >>> r.verdict, r.valid, r.invalid, r.missing
        (<Verdict.INVALID: 'INVALID'>, 1, 1, 1)
    """
    from ._confidence import check_confidence, resolve_confidence
    from ._provenance import check_binding
    from ._samples import reader_for

    policy = policy_for(threshold, policy, bounded=True)
    _refuse_check_only_keys(policy)
    check_binding(candidate, None, policy)
    _check_options(metric, min_pass_rate, max_line_bytes, max_listed)
    confidence, bound = resolve_confidence(policy, confidence, bound)
    check_confidence(confidence, bound, policy)
    _check_paired(confidence, cluster_by, baseline, max_regression, metric)
    _check_bound_scope(confidence, bound, cluster_by, baseline, metric, min_pass_rate)
    inputs = _inputs(trials, "trials")
    reader = reader_for(source, select_score, trial_id, policy, [name for name, _ in inputs])
    if reader is not None and candidate is not None:
        raise PolicyError(
            "bad-policy",
            "candidate binds trial records' \"candidate\" member; a harness's samples or selected records have none",
        )
    if reader is not None and reader.declares_population and scheduled is None and manifest is None:
        count, ids, population_sha256 = 0, None, None  # the input declares it
    else:
        count, ids, population_sha256 = _population(scheduled, manifest)
    given = count if scheduled is not None or manifest is not None else None
    options = _Gate(metric, min_pass_rate, confidence, bound, cluster_by, max_regression)
    tally_options = (policy, max_listed, candidate, cluster_by, baseline is not None)
    tally, read = _read_inputs(inputs, reader, given, ids, tally_options, max_line_bytes, "trials")
    if baseline is None:
        return _gate(tally, options, read, population_sha256)
    # The baseline runs the same strict contract, over the same population,
    # with its own tally; its report is kept whole in the comparison.
    # *candidate* binds the candidate's file only: the baseline is another
    # model's run, whose lines name that model.
    baseline_inputs = _inputs(baseline, "baseline")
    baseline_options = (policy, max_listed, None, cluster_by, True)
    expected = tally.scheduled if read.failure is None else given
    baseline_tally, baseline_read = _read_inputs(
        baseline_inputs, reader, expected, ids, baseline_options, max_line_bytes, "baseline"
    )
    plain = _Gate(metric, min_pass_rate, None, "clt", cluster_by, None)
    baseline_report = _gate(baseline_tally, plain, baseline_read, population_sha256)
    return _gate(tally, options, read, population_sha256, baseline_report, baseline_tally)


def _inputs(trials: object, what: str) -> list[tuple[str | None, object]]:
    """*trials* as ``(name, input)`` pairs: one, or each shard of a list."""
    if type(trials) is list or type(trials) is tuple:
        items: list[object] = list(trials)
        if not items:
            raise PolicyError("bad-policy", f"the {what} list names no input")
        pairs: list[tuple[str | None, object]] = []
        seen: dict[object, object] = {}
        for index, item in enumerate(items, 1):
            name = os.fspath(item) if isinstance(item, (str, os.PathLike)) else f"input {index}"
            if isinstance(item, (str, os.PathLike)):
                # The same file twice (a glob that overlaps a name) would be
                # its own rerun, each place named twice alike: a mistake.
                key = os.path.realpath(name)
                if key in seen:
                    raise PolicyError("bad-policy", f"the {what} list names {seen[key]!a} twice")
                seen[key] = name
            pairs.append((name if isinstance(name, str) else repr(name), item))
        if len(pairs) > 1:
            return pairs
        trials = items[0]
    name = os.fspath(trials) if isinstance(trials, (str, os.PathLike)) else None
    return [(name if name is None or isinstance(name, str) else repr(name), trials)]


class _Read:
    """What reading a report's inputs gave, beside the tally."""

    __slots__ = ("failure", "inputs", "reading", "sha256", "size", "starts")

    def __init__(self) -> None:
        self.failure: tuple[str, str] | None = None
        self.inputs: list[Input] = []
        self.starts: list[_Start] = []
        self.reading: tuple[tuple[str, object], ...] | None = None
        # Of every input, read in full, or None: see Input.
        self.sha256: str | None = None
        self.size: int | None = None

    def finish(self, inputs: Sequence[tuple[str | None, object]], overall: object, reader: SampleReader | None) -> None:
        """Name every input not read in full; digest the whole only when each was.

        The reader's description is taken now: it records the digest of a
        file it read itself (lm-eval's results file).
        """
        if reader is not None:
            self.reading = tuple(sorted(reader.description().items()))
        for name, _ in inputs[len(self.inputs) :]:
            self.inputs.append(Input(name, None, None))
        if all(item.sha256 is not None for item in self.inputs):
            # One input's own digest is the whole's: it was not teed.
            self.sha256 = self.inputs[0].sha256 if len(self.inputs) == 1 else overall.hexdigest()  # type: ignore[attr-defined]
            self.size = sum(item.size for item in self.inputs if item.size is not None)


class _Tee:
    """Two digests updated as one."""

    __slots__ = ("update",)

    def __init__(self, first: object, second: object) -> None:
        one, two = first.update, second.update  # type: ignore[attr-defined]

        def update(data: bytes) -> None:
            one(data)
            two(data)

        self.update = update


def _read_inputs(
    inputs: list[tuple[str | None, object]],
    reader: SampleReader | None,
    given: int | None,
    ids: list[str] | None,
    tally_options: tuple[Policy, int | None, str | None, str | None, bool],
    max_line_bytes: int,
    what: str,
) -> tuple[Tally, _Read]:
    """Read every input into one tally; *given* is the declared count, if any.

    Documents are read whole first, since they may declare the population;
    JSON Lines are streamed.  Any failure to read makes the report INVALID
    (``_Read.failure``); the inputs read in full so far keep their digests.
    """
    import hashlib

    policy, max_listed, candidate, cluster_by, keep_scores = tally_options
    read = _Read()
    named = len(inputs) > 1
    overall = hashlib.sha256()
    documents: list[tuple[str | None, list[Placed]]] = []
    declared: list[tuple[str | None, int]] = []
    try:
        if reader is not None and reader.framing == "document":
            for name, item in inputs:
                data = _whole(item, max_line_bytes, what, name)
                overall.update(data)
                read.inputs.append(Input(name, hashlib.sha256(data).hexdigest(), len(data)))
                rows, population = reader.document(data, ascii(name) if name is not None else "(bytes)", max_line_bytes)
                documents.append((name, rows))
                if population is not None:
                    declared.append((name, population))
        elif reader is not None:
            population = reader.population(max_line_bytes)
            if population is not None:
                declared.append((None, population))
    except OSError as exc:
        read.failure = ("file-unreadable", f"cannot read the {what}: {exc.strerror or exc}")
    except InvalidEvidence as exc:
        where = f"{documents and inputs[len(documents)][0] or inputs[0][0]}: " if named else ""
        read.failure = (exc.code, where + exc.message)
    if read.failure is not None and f"over the limit of {max_line_bytes}" in read.failure[1]:
        from ._tally import RAISE_LIMIT

        # A whole document, an .eval member or lm-eval's results file over
        # the one limit: name the option that raises it (not for a member
        # over the archive's own budget, 100 times its size, which no
        # option raises).
        read.failure = (read.failure[0], f"{read.failure[1]}; {RAISE_LIMIT}")
    count = given if given is not None else 0
    if read.failure is None and declared:
        read.failure, count = _agreed(declared, given, ids)
    tally = Tally(count, ids, policy, max_listed, candidate, cluster_by, keep_scores, reader)
    if read.failure is not None or documents:
        if read.failure is None:
            for name, rows in documents:
                read.starts.append((tally.lines, name if named else None, tuple(place for place, _ in rows)))
                for _, row in rows:
                    tally.lines += 1
                    tally.take(tally.lines, row)
        read.finish(inputs, overall, reader)
        return tally, read
    for name, item in inputs:
        read.starts.append((tally.lines, name if named else None, None))
        before = tally.size
        digest = hashlib.sha256()
        failure = _stream_into(tally, item, max_line_bytes, what, _Tee(digest, overall) if named else digest)
        if failure is not None:
            # Its bytes up to the failure are counted but not the file:
            # Input says so with None (see Input).
            read.failure = (failure[0], f"{name}: {failure[1]}" if named else failure[1])
            break
        read.inputs.append(Input(name, digest.hexdigest(), tally.size - before))
    read.finish(inputs, overall, reader)
    return tally, read


def _agreed(
    declared: list[tuple[str | None, int]], given: int | None, ids: list[str] | None
) -> tuple[tuple[str, str] | None, int]:
    """The population the inputs declare, checked against each other and *given*."""
    (first_name, count), *others = declared
    for name, other in others:
        if other != count:
            return ("population-mismatch", f"{first_name} declares {count} trials but {name} declares {other}"), 0
    if given is not None and given != count:
        stated = "the manifest lists" if ids is not None else "--scheduled is"
        return ("population-mismatch", f"{stated} {given} trials but the harness's output declares {count}"), given
    return None, count


def _whole(item: object, max_bytes: int, what: str, name: str | None) -> bytes:
    """A document input's bytes, read whole through the one reader, within *max_bytes*."""
    from ._read import checked_stream, read_bounded, read_file

    if isinstance(item, (str, os.PathLike)):
        return read_file(os.fspath(item), max_bytes, what=f"{what} file")
    if isinstance(item, (bytes, bytearray, memoryview)):
        data = bytes(item)
        if len(data) > max_bytes:
            raise InvalidEvidence("too-large", f"the {what} is over the limit of {max_bytes} bytes")
        return data
    if callable(getattr(item, "read", None)):
        return read_bounded(checked_stream(item, what=what), max_bytes, what=what)
    shown = "source" if what == "trials" else what
    raise InvalidEvidence("input-type", f"{shown} must be a path, bytes or a binary stream, not {describe_value(item)}")


def _stream_into(
    tally: Tally, source: object, max_line_bytes: int, what: str, digest: object
) -> tuple[str, str] | None:
    """Stream *source* into *tally*, every byte into *digest*; return the failure, if any."""
    failure: tuple[str, str] | None = None
    try:
        if isinstance(source, (str, os.PathLike)):
            from ._read import checked_stream, open_regular

            # The one reader: a regular file only, refused without blocking.
            with open_regular(os.fspath(source), what=f"{what} file") as stream:
                stream_lines(checked_stream(stream, what=what), tally, max_line_bytes, digest)
        elif isinstance(source, (bytes, bytearray, memoryview)):
            import io

            stream_lines(io.BytesIO(bytes(source)), tally, max_line_bytes, digest)
        elif callable(getattr(source, "read", None)):
            from ._read import checked_stream

            # A closed or unreadable stream is an INVALID report, not the
            # ValueError io raises for it.
            stream_lines(checked_stream(source, what=what), tally, max_line_bytes, digest)
        else:
            name = "source" if what == "trials" else what
            failure = (
                "input-type",
                f"{name} must be a path, bytes or a binary stream, not {describe_value(source)}",
            )
    except OSError as exc:  # closing the file; reads fail as InvalidEvidence
        failure = ("file-unreadable", f"cannot read the {what}: {exc.strerror or exc}")
    except InvalidEvidence as exc:
        failure = (exc.code, exc.message)
    return failure


def _locate(starts: Sequence[_Start], number: int) -> tuple[int, str | None, str]:
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


def _place(starts: Sequence[_Start], number: int) -> str:
    local, name, where = _locate(starts, number)
    return where if name is None else f"{name} {where}"


def _observation(item: Listed, starts: Sequence[_Start]) -> Observation:
    number, trial_id, code, message, evidence = item
    line, name, where = _locate(starts, number)
    if evidence is None:
        return Observation(line, trial_id, code, message, None, name, where)
    evidence_line, evidence_name, evidence_where = _locate(starts, evidence)
    shown = evidence_where if evidence_name is None else f"{evidence_name} {evidence_where}"
    message = f"rerun ignored: the trial's evidence is {shown}"
    return Observation(line, trial_id, code, message, evidence_line, name, where, evidence_name, evidence_where)


def _input_dict(report: Report) -> dict[str, object]:
    """The receipt's ``input``: the whole input's digest and size, and each file's when there are several."""
    shown: dict[str, object] = {"sha256": report.sha256, "bytes": report.size}
    if len(report.inputs) > 1:
        shown["files"] = [item.as_dict() for item in report.inputs]
    return shown


def _check_bound_scope(
    confidence: object, bound: str, cluster_by: object, baseline: object, metric: str, min_pass_rate: object
) -> None:
    """Refuse a bound an option does not reach (``option-conflict``): none is silently ignored.

    Clustered standard errors widen the CLT bound on the mean only: the
    Hoeffding bound and the pass rate's Clopper-Pearson bound assume
    independent trials and would ignore the clusters.  The paired
    difference with a baseline is bounded by the CLT only.
    """
    if confidence is None:
        return  # no bound is computed; cluster_by and bound were refused already
    if cluster_by is not None:
        if bound == "hoeffding":
            raise PolicyError(
                "option-conflict",
                "cluster_by cannot be combined with bound 'hoeffding': clustered errors apply to the CLT bound "
                "on the mean only (bound 'clt')",
            )
        if metric == "pass-rate" or min_pass_rate is not None:
            raise PolicyError(
                "option-conflict",
                "cluster_by cannot be combined with a pass rate that decides (metric 'pass-rate' or "
                "min_pass_rate): clustered errors apply to the CLT bound on the mean only; the pass rate's "
                "Clopper-Pearson bound would ignore the clusters",
            )
    if baseline is not None and bound == "hoeffding":
        raise PolicyError(
            "option-conflict",
            "a baseline cannot be combined with bound 'hoeffding': the paired difference is bounded by the CLT "
            "only (bound 'clt')",
        )


def _check_paired(
    confidence: object, cluster_by: object, baseline: object, max_regression: object, metric: str
) -> None:
    """Refuse options that would decide nothing, as configuration: none is silently ignored."""
    if cluster_by is not None:
        if type(cluster_by) is not str or not cluster_by:
            raise PolicyError("bad-policy", f"cluster_by must be a non-empty string, not {describe_value(cluster_by)}")
        if confidence is None:
            raise PolicyError("bad-policy", "cluster_by changes only a confidence bound: give a confidence too")
        if cluster_by[:1] in ("$", "/"):
            from ._jsonpath import compile_query

            compile_query(cluster_by)
    if (baseline is None) != (max_regression is None):
        raise PolicyError(
            "bad-policy",
            "a baseline needs max_regression, and max_regression a baseline (--baseline FILE --max-regression D)",
        )
    if max_regression is not None:
        problem = number_problem(max_regression, True)
        if problem is not None:
            raise PolicyError("bad-threshold", f"max_regression is {problem[1]}")
        if max_regression < 0:  # type: ignore[operator]
            raise PolicyError("bad-threshold", f"max_regression {format_number(max_regression)} is negative")
        if metric != "mean":
            raise PolicyError("bad-policy", "a baseline compares scores: it needs metric 'mean', not 'pass-rate'")
