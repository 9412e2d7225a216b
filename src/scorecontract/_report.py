# SPDX-License-Identifier: MIT
"""Reports over many trials (SPEC section 6): JSON Lines in, a gate out.

The bug this module exists to prevent: an evaluation framework drops the
samples that errored or came back NaN, divides by what is left, and a run
that degrades reports a *better* score.  Here the population is declared up
front, every line is an observation that is counted, and a scheduled trial
without valid evidence blocks the release however good the rest look.

Memory: the file is streamed line by line (each line at most *max_line_bytes*
long), and its SHA-256 is computed on the way.  What is kept grows with the
number of *scheduled trials* (one small entry each, to recognise reruns and
to list each trial in JUnit XML), never with the number of lines: invalid
observations and ignored reruns are counted, by reason code, and only the
first *max_listed* of each are kept in detail.
"""

from __future__ import annotations


import os

from ._encoding import DEFAULT_MAX_BYTES
from ._errors import InvalidEvidence, PolicyError
from ._policy import policy_for
from ._score import exact_context, number_problem, to_decimal
from ._describe import describe_value, format_number
from ._strict_json import MAX_DECIMAL_EXPONENT, underflows
from ._trials import canonical_trial_matchers, read_trial
from ._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    import decimal
    from decimal import Decimal
    from typing import BinaryIO, Callable, Iterator, Sequence, Union

    from ._policy import Number, Policy

    Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, BinaryIO]

__all__ = ["DEFAULT_MAX_LISTED", "METRICS", "Metric", "Observation", "Report", "report"]

METRICS = ("mean", "pass-rate")
DEFAULT_MAX_LISTED = 100
# A manifest of a million ids is about 20 MB; this bound only stops a
# runaway file, it is not a limit anyone should meet.
MAX_MANIFEST_BYTES = 256 * 1024 * 1024
# Read in large blocks: one read, one hash update and one split per block
# instead of per line.  A line is held whole only up to max_line_bytes.
_CHUNK = 256 * 1024

# Per-trial state is one int, line << 2 | status, or None before any
# observation: a million scheduled trials cost a million small ints, not a
# million tuples.  The score is kept only for failing trials (for JUnit),
# the reason only while a trial has nothing but invalid observations.
_PASS, _FAIL, _INVALID = 1, 2, 3


class Observation:
    """One listed observation: an invalid line, or an ignored rerun.

    Attributes: ``line`` (1-based), ``trial_id`` (None when the line has no
    readable id), ``code`` and ``message``; ``evidence_line`` is, for an
    ignored rerun, the line holding the trial's evidence, else None.
    """

    __slots__ = ("line", "trial_id", "code", "message", "evidence_line")

    def __init__(
        self,
        line: int,
        trial_id: str | None,
        code: str,
        message: str,
        evidence_line: int | None = None,
    ) -> None:
        self.line = line
        self.trial_id = trial_id
        self.code = code
        self.message = message
        self.evidence_line = evidence_line

    def as_dict(self) -> dict[str, object]:
        """Return the observation as a JSON-ready dict."""
        result: dict[str, object] = {
            "line": self.line,
            "trial_id": self.trial_id,
            "code": self.code,
            "message": self.message,
        }
        if self.evidence_line is not None:
            result["evidence_line"] = self.evidence_line
        return result

    def __eq__(self, other: object) -> bool:
        if type(other) is not Observation:
            return NotImplemented
        return self.as_dict() == other.as_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Observation(line={self.line}, trial_id={self.trial_id!r}, "
            f"code={self.code!r}, message={self.message!r})"
        )


class Metric:
    """A metric with its numerator and denominator, always both.

    Attributes: ``name`` (``"mean"`` or ``"pass-rate"``); ``numerator``
    (the sum of the valid scores, or the number of passing trials);
    ``denominator`` (the number of trials with valid evidence); ``value``,
    their quotient as a float, or None when the denominator is 0 (never
    0.0); ``threshold``, what the value is compared with; ``meets``, whether
    it reaches the threshold, compared exactly, or None without a value.
    The value decides the report only when no scheduled trial lacks
    evidence.  The numerator and value are floats for display; where a
    double cannot hold one (an exact policy's ``1e999`` would be ``inf``,
    its ``1e-999`` ``0.0``) it is the ``decimal.Decimal`` instead.
    """

    __slots__ = ("name", "numerator", "denominator", "value", "threshold", "meets")

    def __init__(
        self,
        name: str,
        numerator: Decimal | int,
        denominator: int,
        threshold: Number,
    ) -> None:
        self.name = name
        self.numerator: float | int | Decimal = (
            numerator if type(numerator) is int else _for_display(numerator)  # type: ignore[arg-type]
        )
        self.denominator = denominator
        self.threshold = threshold
        self.value: float | Decimal | None = None
        self.meets: bool | None = None
        if denominator:
            from decimal import Decimal

            # The value is for people, so it may round: in a private context,
            # never the thread's, whose traps (Inexact) would raise here.
            self.value = _for_display(_display_context().divide(Decimal(numerator), denominator))
            # No division and no rounding in the decision: numerator >=
            # threshold * denominator, in exact decimal arithmetic.
            product = exact_context().multiply(to_decimal(threshold), Decimal(denominator))
            self.meets = Decimal(numerator) >= product

    def as_dict(self) -> dict[str, object]:
        """Return the metric as a JSON-ready dict."""
        return {
            "name": self.name,
            "value": self.value,
            "numerator": self.numerator,
            "denominator": self.denominator,
            "threshold": self.threshold,
            "meets_threshold": self.meets,
        }

    def __repr__(self) -> str:
        return (
            f"Metric(name={self.name!r}, numerator={self.numerator!r}, "
            f"denominator={self.denominator!r}, value={self.value!r})"
        )


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


class Report:
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
    - ``metric``, the name of the deciding metric, and ``mean`` and
      ``pass_rate``, both ``Metric`` objects, each with its numerator and
      denominator;
    - ``deciding``: whether the metric decided (False when evidence is
      missing: the metric is shown but never decides);
    - ``invalid_by_code``: the number of invalid observations per reason;
    - ``invalid_observations``, ``ignored_observations``: the first
      ``max_listed`` of each, as ``Observation`` objects, with
      ``invalid_not_listed`` and ``ignored_not_listed`` counting the rest;
    - ``missing_trials``: ids of scheduled trials without valid evidence
      (those the file or manifest names; the first ``max_listed``), and
      ``missing_not_listed`` for the rest;
    - ``sha256`` and ``size``: of the whole input, every byte read;
    - ``population_sha256``: of the manifest's ids, or None;
    - ``policy``: the ``Policy`` applied;
    - ``candidate``: the candidate every line had to name, or None.

    Like a ``Verdict``, a report has no truth value.
    """

    if TYPE_CHECKING:
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
        mean: Metric
        pass_rate: Metric
        deciding: bool
        invalid_by_code: dict[str, int]
        invalid_observations: tuple[Observation, ...]
        invalid_not_listed: int
        ignored_observations: tuple[Observation, ...]
        ignored_not_listed: int
        missing_trials: tuple[str, ...]
        missing_not_listed: int
        sha256: str
        size: int
        population_sha256: str | None
        policy: Policy
        candidate: str | None
        _trials: dict[str, int | None]
        _failed_scores: dict[str, object]
        _first_invalid: dict[str, tuple[str, str]]

    def __init__(self, **fields: object) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Report is immutable")

    def __bool__(self) -> bool:
        raise TypeError("a Report has no truth value; test 'report.verdict is Verdict.PASS'")

    def __repr__(self) -> str:
        return (
            f"Report(verdict={self.verdict}, code={self.code!r}, scheduled={self.scheduled}, "
            f"observed={self.observed}, valid={self.valid}, invalid={self.invalid}, "
            f"ignored={self.ignored}, missing={self.missing})"
        )

    def trials(self) -> Iterator[tuple[str | None, str, int | None, str, str]]:
        """Yield ``(trial_id, status, line, code, message)`` per scheduled trial.

        *status* is ``"PASS"``, ``"FAIL"``, ``"INVALID"`` (only invalid
        observations) or ``"MISSING"`` (no observation).  Trials come in
        manifest order, or in order of first appearance; under a bare
        ``scheduled`` count, trials the file never names come last with
        *trial_id* None.
        """
        threshold = format_number(self.policy.threshold)
        for trial_id, state in self._trials.items():
            if state is None:
                yield (trial_id, "MISSING", None, "missing-evidence", "no observation of this trial")
                continue
            line, status = state >> 2, state & 3
            if status == _INVALID:
                code, message = self._first_invalid[trial_id]
                yield (trial_id, "INVALID", line, code, message)
            elif status == _PASS:
                yield (trial_id, "PASS", line, "meets-threshold", f"score >= threshold {threshold}")
            else:
                score = format_number(self._failed_scores[trial_id])
                yield (trial_id, "FAIL", line, "below-threshold", f"score {score} < threshold {threshold}")
        for _ in range(self.scheduled - len(self._trials)):
            yield (None, "MISSING", None, "missing-evidence", "the file never names this trial")

    def as_dict(self) -> dict[str, object]:
        """Return the report as the JSON object ``--format json`` prints."""
        chosen = self.mean if self.metric == "mean" else self.pass_rate
        metric = chosen.as_dict()
        metric["decides"] = self.deciding
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
            "metrics": {"mean": self.mean.as_dict(), "pass_rate": self.pass_rate.as_dict()},
            "invalid_by_code": dict(sorted(self.invalid_by_code.items())),
            "invalid_observations": [o.as_dict() for o in self.invalid_observations],
            "invalid_not_listed": self.invalid_not_listed,
            "ignored_observations": [o.as_dict() for o in self.ignored_observations],
            "ignored_not_listed": self.ignored_not_listed,
            "missing_trials": list(self.missing_trials),
            "missing_not_listed": self.missing_not_listed,
            "review_owner": self.policy.review_owner,
            "policy": self.policy.as_dict(),
            "candidate": self.candidate,
            "input": {"sha256": self.sha256, "bytes": self.size},
            "population": {"scheduled": self.scheduled, "manifest_sha256": self.population_sha256},
        }


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
            value = parse_json(decode_evidence(read_file(path, MAX_MANIFEST_BYTES, what="manifest"), MAX_MANIFEST_BYTES))
        except InvalidEvidence as exc:
            raise PolicyError("bad-population", f"manifest {ascii(path)}: {exc}") from None
        where = f"manifest {ascii(path)}"
    elif type(manifest) in (list, tuple):
        value = list(manifest)  # type: ignore[call-overload]
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
                f"{where}: item {index} must be a non-empty string of Unicode text, "
                f"not {describe_value(trial_id)}",
            )
        if trial_id in seen:
            # A duplicate would either count one trial twice or shrink the
            # population without anyone noticing: both are configuration
            # mistakes, not something to resolve silently.
            raise PolicyError("bad-population", f"{where}: trial id {trial_id!a} is listed twice (item {index})")
        seen.add(trial_id)
    ids: list[str] = value
    return ids


def _check_options(metric: object, min_pass_rate: object, max_line_bytes: object, max_listed: object) -> None:
    if metric not in METRICS or type(metric) is not str:
        raise PolicyError("bad-policy", f"metric must be 'mean' or 'pass-rate', not {describe_value(metric)}")
    # The score's numeric contract; Decimal is allowed, since the rate is
    # compared exactly in decimal whatever the policy (--exact reads it so).
    problem = number_problem(min_pass_rate, True)
    if problem is not None:
        raise PolicyError("bad-threshold", f"min_pass_rate is {problem[1]}")
    if not 0 <= min_pass_rate <= 1:  # type: ignore[operator]
        raise PolicyError(
            "bad-threshold", f"min_pass_rate {format_number(min_pass_rate)} is outside [0, 1]"
        )
    if type(max_line_bytes) is not int or max_line_bytes < 1:
        raise PolicyError("bad-policy", f"max_line_bytes must be a positive int, not {describe_value(max_line_bytes)}")
    if max_listed is not None and (type(max_listed) is not int or max_listed < 0):
        raise PolicyError("bad-policy", f"max_listed must be an int >= 0 or None, not {describe_value(max_listed)}")


class _Tally:
    """The streaming state: counts, the exact sum, and per-trial evidence."""

    def __init__(
        self, scheduled: int, ids: list[str] | None, policy: Policy, max_listed: int | None,
        candidate: str | None = None,
    ) -> None:
        self.candidate = candidate
        self.scheduled = scheduled
        self.fixed = ids is not None
        self.trials: dict[str, int | None] = dict.fromkeys(ids) if ids is not None else {}
        self.failed_scores: dict[str, object] = {}
        self.first_invalid: dict[str, tuple[str, str]] = {}
        self.policy = policy
        self.max_listed = max_listed
        self.observed = self.valid = self.invalid = self.ignored = self.passed = 0
        self.overflow = False
        # Under a bare count: observations whose trial cannot be made out,
        # and the line of the first.
        self.unattributed = 0
        self.first_unattributed = 0
        # How many valid trials scored each value: the exact sum is taken
        # once at the end.  Ints and fractions are counted apart: the float
        # 1e23 equals the int 99999999999999991611392, so one shared entry
        # would sum one as the other, yet the float counts as the "1e23" its
        # producer wrote.  Within one type, equal values have one decimal
        # value (floats: the same repr, but for 0.0 and -0.0; Decimals and
        # ints compare exactly), so sharing an entry leaves the sum unchanged.
        self.int_counts: dict[object, int] = {}
        self.fraction_counts: dict[object, int] = {}
        self.size = 0
        self.by_code: dict[str, int] = {}
        self.invalid_list: list[Observation] = []
        self.ignored_list: list[Observation] = []

    def _room(self, listed: list[Observation]) -> bool:
        return self.max_listed is None or len(listed) < self.max_listed

    def add(self, line: int, raw: bytes, max_line_bytes: int) -> None:
        self.observed += 1
        trial_id, verdict, code, message, score = read_trial(raw, self.policy, max_line_bytes, self.candidate)
        self._add(line, trial_id, verdict, code, message, score)

    def add_invalid(self, line: int, code: str, message: str) -> None:
        self.observed += 1
        self._add(line, None, Verdict.INVALID, code, message, None)

    def _add(
        self, line: int, trial_id: str | None, verdict: Verdict, code: str, message: str, score: object
    ) -> None:
        trials = self.trials
        known = False
        if trial_id is None:
            if not self.fixed:
                # It may be a scheduled trial's only attempt, and under a bare
                # count a fresh trial would then take that trial's place.
                if not self.unattributed:
                    self.first_unattributed = line
                self.unattributed += 1
        else:
            known = trial_id in trials
            if not known:
                if not self.fixed and len(trials) < self.scheduled:
                    # Under a bare count, the first N distinct ids named
                    # anywhere (invalid lines included, so a failed trial
                    # cannot be swapped for a fresh one) are the population.
                    trials[trial_id] = None
                    known = True
                else:
                    if not self.fixed:
                        self.overflow = True
                    if verdict is not Verdict.INVALID:
                        verdict, code = Verdict.INVALID, "not-scheduled"
                        message = (
                            f"trial {trial_id!r} is not in the manifest"
                            if self.fixed
                            else f"trial {trial_id!r} is beyond the {self.scheduled} scheduled trials"
                        )
        if verdict is Verdict.INVALID:
            self.invalid += 1
            self.by_code[code] = self.by_code.get(code, 0) + 1
            if self._room(self.invalid_list):
                self.invalid_list.append(Observation(line, trial_id, code, message))
            if known and trials[trial_id] is None:  # type: ignore[index]
                trials[trial_id] = line << 2 | _INVALID  # type: ignore[index]
                self.first_invalid[trial_id] = (code, message)  # type: ignore[index]
            return
        state = trials[trial_id]  # type: ignore[index]
        if state is not None and state & 3 != _INVALID:
            # No rerun-until-pass: the first valid observation is the evidence.
            self.ignored += 1
            if self._room(self.ignored_list):
                self.ignored_list.append(Observation(
                    line, trial_id, code,
                    f"rerun ignored: the trial's evidence is line {state >> 2}", state >> 2,
                ))
            return
        if state is not None:
            del self.first_invalid[trial_id]  # type: ignore[arg-type]
        self.valid += 1
        if verdict is Verdict.PASS:
            self.passed += 1
            trials[trial_id] = line << 2 | _PASS  # type: ignore[index]
        else:
            trials[trial_id] = line << 2 | _FAIL  # type: ignore[index]
            self.failed_scores[trial_id] = score  # type: ignore[index]
        counts = self.int_counts if type(score) is int else self.fraction_counts
        counts[score] = counts.get(score, 0) + 1

    def counted(self) -> Iterator[tuple[object, int]]:
        """Yield ``(score, how many valid trials scored it)``."""
        yield from self.int_counts.items()
        yield from self.fraction_counts.items()

    def total(self) -> Decimal | int:
        """The exact sum of the valid scores."""
        total: Decimal | int = 0
        if self.int_counts or self.fraction_counts:
            context = exact_context()
            # Summed as the decimal text each producer wrote (the repr of a
            # float), exactly: binary float sums drift, and a mean of 0.7
            # and 0.9 must meet a threshold of 0.8.
            for score, count in self.counted():
                total = context.add(total, context.multiply(to_decimal(score), count))  # type: ignore[arg-type]
        return total

    def finish(
        self,
        metric: str,
        min_pass_rate: Number,
        sha256: str,
        population_sha256: str | None,
        failure: tuple[str, str] | None,
    ) -> Report:
        policy = self.policy
        mean = Metric("mean", self.total(), self.valid, policy.threshold)
        pass_rate = Metric("pass-rate", self.passed, self.valid, min_pass_rate)
        missing = self.scheduled - self.valid
        chosen = mean if metric == "mean" else pass_rate
        deciding = False
        if failure is not None:
            verdict, (code, message) = Verdict.INVALID, failure
        elif self.overflow:
            verdict, code = Verdict.INVALID, "population-mismatch"
            message = (
                f"the file names more than the {self.scheduled} scheduled trials; with a "
                "bare count the report cannot tell which were scheduled (give a manifest)"
            )
        elif self.unattributed:
            verdict, code = Verdict.INVALID, "population-unknown"
            count = self.unattributed
            message = (
                f"{count} observation{'s' if count != 1 else ''} (the first on line "
                f"{self.first_unattributed}) name{'s' if count == 1 else ''} no readable trial id; with a "
                "bare count the report cannot tell whether a scheduled trial failed and a "
                "fresh one took its place (give a manifest)"
            )
        elif missing:
            code = "missing-evidence"
            message = (
                f"{missing} of {self.scheduled} scheduled trials lack valid evidence"
                if self.observed
                else f"no observations: all {self.scheduled} scheduled trials lack evidence"
            )
            if policy.review_owner is not None:
                verdict = Verdict.REVIEW
                message += f"; review owner: {policy.review_owner!r}"
            else:
                verdict = Verdict.INVALID
        else:
            deciding = True
            shown = _metric_text(chosen)
            if chosen.meets:
                verdict, code = Verdict.PASS, "meets-threshold"
                message = f"{shown} >= {format_number(chosen.threshold)}"
            else:
                verdict, code = Verdict.FAIL, "below-threshold"
                message = f"{shown} < {format_number(chosen.threshold)}"
        listed_missing: list[str] = []
        limit = self.max_listed
        for trial_id, state in self.trials.items():
            if limit is not None and len(listed_missing) >= limit:
                break
            if state is None or state & 3 == _INVALID:
                listed_missing.append(trial_id)
        return Report(
            verdict=verdict,
            code=code,
            message=message,
            scheduled=self.scheduled,
            observed=self.observed,
            valid=self.valid,
            invalid=self.invalid,
            ignored=self.ignored,
            missing=missing,
            metric=metric,
            mean=mean,
            pass_rate=pass_rate,
            deciding=deciding,
            invalid_by_code=dict(self.by_code),
            invalid_observations=tuple(self.invalid_list),
            invalid_not_listed=self.invalid - len(self.invalid_list),
            ignored_observations=tuple(self.ignored_list),
            ignored_not_listed=self.ignored - len(self.ignored_list),
            missing_trials=tuple(listed_missing),
            missing_not_listed=missing - len(listed_missing),
            sha256=sha256,
            size=self.size,
            population_sha256=population_sha256,
            policy=policy,
            candidate=self.candidate,
            _trials=self.trials,
            _failed_scores=self.failed_scores,
            _first_invalid=self.first_invalid,
        )


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


def _no_match(raw: bytes) -> None:
    """A matcher that matches nothing: the fast path switched off."""
    return None


def _stream_lines(stream: BinaryIO, tally: _Tally, max_line_bytes: int, digest: object) -> None:
    """Feed every line of *stream* to *tally*, counting bytes in ``tally.size``.

    Every byte read goes into *digest*.  A line longer than *max_line_bytes*
    is an invalid observation, skipped in blocks without holding it whole.

    A canonical line, ``{"trial_id": "<printable ASCII>", "score": <number>}``
    (``canonical_trial_matchers``), whose score is valid is counted here
    without the full strict pipeline: the grammar admits nothing the full
    path would refuse, and its number converts exactly as the strict
    decoder converts it.  Everything else -- and every score outside the
    bounds, where the full path has a message to give -- goes through
    ``read_trial``.  This loop is the hot path of a report: no function
    calls per line beyond the regex, the conversion and dict access.
    """
    read = stream.read
    update = digest.update  # type: ignore[attr-defined]
    policy = tally.policy
    id_first, score_first = canonical_trial_matchers()
    if tally.candidate is not None:
        # A canonical line names no candidate, so when one is required every
        # line takes the full path, where the binding is checked.
        id_first = score_first = _no_match
    low, high, limit = policy._bounds
    if policy._exact:
        from decimal import Decimal

        # Fails the range check below, so the full path decides.  Not
        # high + 1: that is arithmetic in the thread's decimal context,
        # where prec = 1 rounds it back to high.
        beyond = Decimal("Infinity")
        context = exact_context()

        def to_fraction(token: bytes) -> Number:
            value = Decimal(token.decode("ascii"), context)
            # The strict decoder refuses an exponent past MAX_DECIMAL_EXPONENT
            # (too-many-digits); such a line must reach it, not be counted.
            return value if abs(value.adjusted()) <= MAX_DECIMAL_EXPONENT else beyond

        convert: Callable[[bytes], Number] = to_fraction
    else:
        convert = float
    trials = tally.trials
    get = trials.get
    failed_scores = tally.failed_scores
    first_invalid = tally.first_invalid
    int_counts, fraction_counts = tally.int_counts, tally.fraction_counts
    int_count_of, fraction_count_of = int_counts.get, fraction_counts.get
    ignored_list = tally.ignored_list
    max_listed = tally.max_listed
    room = max_listed is None or len(ignored_list) < max_listed
    fixed, scheduled = tally.fixed, tally.scheduled
    slow = tally.add
    line = valid = passed = ignored = 0
    PASS, FAIL, INVALID = _PASS, _FAIL, _INVALID  # noqa: N806  (locals: the loop is hot)
    hand_over = False
    # The unfinished last line, as pieces joined once it ends: joining at
    # every read instead copies a long line once per read, quadratic time
    # for a line of many reads (a big max_line_bytes, or a pipe's 64 KiB).
    carry: list[bytes] = []
    carried = 0
    overlong = -1  # bytes so far of a line over max_line_bytes, or -1
    try:
        while True:
            chunk = read(_CHUNK)
            if chunk:
                if type(chunk) is not bytes:
                    raise InvalidEvidence(
                        "input-type", f"the trial stream must give bytes, not {describe_value(chunk)}"
                    )
                update(chunk)
                tally.size += len(chunk)
                if overlong >= 0:
                    end = chunk.find(b"\n")
                    if end == -1:
                        overlong += len(chunk)
                        continue
                    line += 1
                    tally.add_invalid(line, "too-large", _too_large(overlong + end, max_line_bytes))
                    overlong = -1
                    chunk = chunk[end + 1:]
                lines = chunk.split(b"\n")
                last = lines.pop()
                if not lines:  # no line ends in this chunk
                    carry.append(last)
                    carried += len(last)
                    if carried > max_line_bytes:
                        overlong, carry, carried = carried, [], 0
                    continue
                if carry:
                    carry.append(lines[0])
                    lines[0] = b"".join(carry)
                carry, carried = [last], len(last)
                if carried > max_line_bytes:
                    overlong, carry, carried = carried, [], 0
            elif overlong >= 0:
                line += 1
                tally.add_invalid(line, "too-large", _too_large(overlong, max_line_bytes))
                return
            elif carried:
                lines, carry, carried = [b"".join(carry)], [], 0  # the last line, without "\n"
            else:
                return
            for raw in lines:
                line += 1
                if len(raw) > max_line_bytes:
                    tally.add_invalid(line, "too-large", _too_large(len(raw), max_line_bytes))
                    continue
                match = id_first(raw)
                if match is not None:
                    trial_id, number, fraction = match.groups()
                else:
                    match = score_first(raw)
                    if match is None:
                        slow(line, raw, max_line_bytes)
                        continue
                    number, fraction, trial_id = match.groups()
                # The strict decoder's hooks: float (or Decimal) for a number
                # with a fraction or exponent, int otherwise.
                score = convert(number) if fraction else int(number)
                if not low <= score <= high or (not score and fraction and underflows(number)):
                    # Out of range, 1e400 (inf) or 1e-400 (0.0 from a nonzero
                    # literal): the full path says why.
                    slow(line, raw, max_line_bytes)
                    continue
                trial_id = trial_id.decode("ascii")
                state = get(trial_id, -1)
                if state is None:
                    pass  # a manifest's trial, first observed
                elif state == -1:
                    if fixed or len(trials) >= scheduled:
                        hand_over = True  # not in the population
                    else:
                        hand_over = False  # a new trial under a bare count
                elif state & 3 != INVALID:
                    if not room:
                        ignored += 1  # a rerun: no rerun-until-pass
                        continue
                    hand_over = True  # a rerun that is listed
                else:
                    del first_invalid[trial_id]  # an invalid attempt, now rerun validly
                if hand_over:
                    # What read_trial would give, but for the message, which
                    # _add writes for both cases.
                    hand_over = False
                    tally.observed += 1
                    if score >= limit:
                        tally._add(line, trial_id, Verdict.PASS, "meets-threshold", "", score)
                    else:
                        tally._add(line, trial_id, Verdict.FAIL, "below-threshold", "", score)
                    room = max_listed is None or len(ignored_list) < max_listed
                    continue
                valid += 1
                if score >= limit:
                    passed += 1
                    trials[trial_id] = line << 2 | PASS
                else:
                    trials[trial_id] = line << 2 | FAIL
                    failed_scores[trial_id] = score
                if fraction:
                    fraction_counts[score] = fraction_count_of(score, 0) + 1
                else:
                    int_counts[score] = int_count_of(score, 0) + 1
    finally:
        tally.observed += valid + ignored
        tally.valid += valid
        tally.passed += passed
        tally.ignored += ignored


def _too_large(length: int, max_line_bytes: int) -> str:
    return f"line is {length} bytes, over the limit of {max_line_bytes}"


def report(
    source: Source,
    /,
    *,
    scheduled: int | None = None,
    manifest: str | os.PathLike[str] | Sequence[str] | None = None,
    threshold: object = None,
    policy: Policy | None = None,
    metric: str = "mean",
    min_pass_rate: Number = 1,
    max_line_bytes: int = DEFAULT_MAX_BYTES,
    max_listed: int | None = DEFAULT_MAX_LISTED,
    candidate: str | None = None,
) -> Report:
    """Gate a JSON Lines file of trial records and return a ``Report``.

    *source* is a path (``str`` or ``os.PathLike``), the file's ``bytes``,
    or a binary stream with ``read``.  Each line is one trial record,
    ``{"trial_id": "t-001", "score": 0.9}``, with any extra members; each
    runs the whole score contract.  A final newline is fine; a blank line
    elsewhere is an invalid observation.

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
    against *min_pass_rate*, default 1: every trial).  Both are compared
    exactly, in decimal, without dividing.

    A missing or unreadable file is an INVALID report; only configuration
    (*threshold*, *policy*, the population and the options) raises
    ``PolicyError``.  At most *max_listed* invalid observations, ignored
    reruns and missing trials are kept in detail (None keeps them all);
    the counts always cover everything.

    *candidate*, a non-empty string, must then be every line's
    ``"candidate"`` member, exactly: a line without it, or for another
    candidate, is an invalid observation (``missing-candidate``,
    ``candidate-mismatch``).  A policy with ``require_candidate`` raises
    ``PolicyError`` (``candidate-required``) without it.

        >>> r = report(b'{"trial_id": "a", "score": 0.9}\\n{"trial_id": "b", "score": NaN}\\n',
        ...            scheduled=2)
        >>> r.verdict, r.valid, r.invalid, r.missing
        (<Verdict.INVALID: 'INVALID'>, 1, 1, 1)
    """
    import hashlib

    from ._provenance import check_binding

    policy = policy_for(threshold, policy)
    check_binding(candidate, None, policy)
    _check_options(metric, min_pass_rate, max_line_bytes, max_listed)
    count, ids, population_sha256 = _population(scheduled, manifest)
    tally = _Tally(count, ids, policy, max_listed, candidate)
    digest = hashlib.sha256()
    failure: tuple[str, str] | None = None
    try:
        if isinstance(source, (str, os.PathLike)):
            from ._read import checked_stream, open_regular

            # The one reader: a regular file only, refused without blocking.
            with open_regular(os.fspath(source), what="trials file") as stream:
                _stream_lines(checked_stream(stream, what="trials"), tally, max_line_bytes, digest)
        elif isinstance(source, (bytes, bytearray, memoryview)):
            import io

            _stream_lines(io.BytesIO(bytes(source)), tally, max_line_bytes, digest)
        elif callable(getattr(source, "read", None)):
            from ._read import checked_stream

            # A closed or unreadable stream is an INVALID report, not the
            # ValueError io raises for it.
            _stream_lines(checked_stream(source, what="trials"), tally, max_line_bytes, digest)
        else:
            failure = (
                "input-type",
                f"source must be a path, bytes or a binary stream, not {describe_value(source)}",
            )
    except OSError as exc:  # closing the file; reads fail as InvalidEvidence
        failure = ("file-unreadable", f"cannot read the trials: {exc.strerror or exc}")
    except InvalidEvidence as exc:
        failure = (exc.code, exc.message)
    return tally.finish(metric, min_pass_rate, digest.hexdigest(), population_sha256, failure)
