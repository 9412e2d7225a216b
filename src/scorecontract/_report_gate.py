# SPDX-License-Identifier: MIT
"""A report's gate: the options that decide, checked, and the verdict over a finished tally.

A scheduled trial without valid evidence blocks the release however good
the rest look; otherwise every deciding metric (or the paired difference
with a baseline) must meet its minimum, on its confidence bound when a
confidence is given.
"""

from __future__ import annotations

from ._constants import METRICS
from ._describe import describe_value, format_number
from ._errors import InvalidEvidence, PolicyError
from ._policy import check_limit
from ._report_regression import compare_with_baseline
from ._report_results import Metric, Regression, Report, display_context, observation, place
from ._score import number_problem
from ._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from decimal import Decimal

    from ._policy import Policy
    from ._report_inputs import Read
    from ._score import Number
    from ._tally import Tally

__all__ = [
    "Gate",
    "check_bound_scope",
    "check_options",
    "check_paired",
    "gate",
    "refuse_check_only_keys",
    "stated_metrics",
]


def refuse_check_only_keys(policy: Policy) -> None:
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


def check_options(metric: object, min_pass_rate: object, max_line_bytes: object, max_listed: object) -> None:
    if type(metric) is not str or metric not in METRICS:
        raise PolicyError("bad-policy", f"metric must be 'mean' or 'pass-rate', not {describe_value(metric)}")
    if min_pass_rate is not None:
        # The score's numeric contract; Decimal is allowed, since the rate is
        # compared exactly in decimal whatever the policy (--exact reads it so).
        from decimal import Decimal

        problem = number_problem(min_pass_rate, True)
        if problem is not None or not isinstance(min_pass_rate, (int, float, Decimal)):
            raise PolicyError(
                "bad-threshold", f"min_pass_rate is {problem[1] if problem else describe_value(min_pass_rate)}"
            )
        if not 0 <= min_pass_rate <= 1:
            raise PolicyError("bad-threshold", f"min_pass_rate {format_number(min_pass_rate)} is outside [0, 1]")
    check_limit("max_line_bytes", max_line_bytes)
    if max_listed is not None and (type(max_listed) is not int or max_listed < 0):
        raise PolicyError("bad-policy", f"max_listed must be an int >= 0 or None, not {describe_value(max_listed)}")


def stated_metrics(metric: str, min_pass_rate: Number | None) -> tuple[str, ...]:
    """The metrics whose minimums the caller stated: every one must be met."""
    if metric == "pass-rate" or min_pass_rate is None:
        return (metric,)
    # A minimum pass rate stated beside the mean is a second condition, not
    # an option to drop: ignoring it would PASS what the caller refused.
    return ("mean", "pass-rate")


class Gate:
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


def gate(
    tally: Tally,
    options: Gate,
    read: Read,
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
    deciding_metrics = stated_metrics(metric, min_pass_rate)
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
            f"{place(read.starts, tally.first_unattributed)}) name{'s' if count == 1 else ''} no readable trial id; with a "
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
                mean, pass_rate = bounded(tally, mean, pass_rate, deciding_metrics, options)
            if baseline is not None:
                regression = compare_with_baseline(tally, baseline, baseline_tally, options)
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
            message = "; ".join(comparison(item) for item in compared)
            if all(item.meets is True for item in compared):
                verdict, code = Verdict.PASS, "meets-threshold"
            else:
                verdict, code = Verdict.FAIL, "below-threshold"
    if baseline is not None and regression is None:
        # Not deciding: the pairs, and the trials valid on one side only,
        # are still counted and listed; no bound is computed.
        regression = compare_with_baseline(tally, baseline, baseline_tally, options, bounded=False)
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
        invalid_observations=tuple(observation(item, read.starts) for item in tally.invalid_list),
        invalid_not_listed=tally.invalid - len(tally.invalid_list),
        ignored_observations=tuple(observation(item, read.starts) for item in tally.ignored_list),
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


def bounded(
    tally: Tally, mean: Metric, pass_rate: Metric, deciding_metrics: tuple[str, ...], options: Gate
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


def comparison(item: Metric | Regression) -> str:
    """One deciding metric against its minimum, as the verdict's message says it."""
    if isinstance(item, Regression):
        return item.text()
    interval = item.interval
    threshold = format_number(item.threshold)
    lower = item.direction == "lower"
    suffix = " (lower is better)" if lower else ""
    if interval is None:
        relation = ("<=" if item.meets is True else ">") if lower else (">=" if item.meets is True else "<")
        return f"{metric_text(item)} {relation} {threshold}{suffix}"
    if interval.side == "lower":
        relation = ">=" if interval.meets else "<"
    else:
        relation = "<=" if interval.meets else ">"
    text = f"{metric_text(item)}, {interval.summary()} {relation} threshold {threshold}{suffix}"
    needed = interval.needed()
    return f"{text}; {needed}" if needed else text


def metric_text(metric: Metric) -> str:
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
        shown = f"{six_digits(value):.6g}"
    return f"{name} {shown} ({format_number(metric.numerator)} / {metric.denominator})"


def six_digits(value: Decimal) -> Decimal:
    """*value* rounded to six digits, half to even, whatever the thread's context."""
    context = display_context().copy()
    context.prec = 6
    return context.plus(value)


def check_bound_scope(
    confidence: object, bound: str, cluster_by: object, baseline: object, metric: str, min_pass_rate: object
) -> None:
    """Refuse a bound an option does not reach (``option-conflict``): none is silently ignored.

    The rules are ``_bound_rules.scope_conflict``'s (what each bound of
    ``_bounds.REGISTRY`` applies to), worded here in ``report()``'s keywords.
    """
    from ._bound_rules import scope_conflict

    if confidence is None:
        return  # no bound is computed; cluster_by and bound were refused already
    pass_rate = "metric" if metric == "pass-rate" else "min_pass_rate" if min_pass_rate is not None else None
    found = scope_conflict(bound, cluster_by is not None, baseline is not None, pass_rate)
    if found is not None:
        option, other, why = found
        named = {"bound": f"bound {bound!r}", "metric": "metric 'pass-rate'", "min_pass_rate": "min_pass_rate"}
        where = "a baseline" if option == "baseline" else option
        raise PolicyError("option-conflict", f"{where} cannot be combined with {named[other]}: {why}")


def check_paired(confidence: object, cluster_by: object, baseline: object, max_regression: object, metric: str) -> None:
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
        from decimal import Decimal

        problem = number_problem(max_regression, True)
        if problem is not None or not isinstance(max_regression, (int, float, Decimal)):
            raise PolicyError(
                "bad-threshold", f"max_regression is {problem[1] if problem else describe_value(max_regression)}"
            )
        if max_regression < 0:
            raise PolicyError("bad-threshold", f"max_regression {format_number(max_regression)} is negative")
        if metric != "mean":
            raise PolicyError("bad-policy", "a baseline compares scores: it needs metric 'mean', not 'pass-rate'")
