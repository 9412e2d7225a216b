# SPDX-License-Identifier: MIT
"""Computed headlines: promptfoo's pass rate and DeepEval's mean (docs/harnesses.md).

Neither harness writes the number a release is gated on: promptfoo writes
counts (its ``metrics.score`` is a sum, never read here), DeepEval a list
of scores per metric.  Both values are computed as exact fractions from
what the strict loader made, and compared exactly with the threshold's
decimal text, so 4 passes of 5 meet a threshold of 0.8 (in binary, 4/5 is
below the float 0.8).  The shared machinery (``_Trace``, the member and
count readers) is the headline adapters' own (``_headline``).
"""

from __future__ import annotations

from ._describe import describe_value
from ._errors import InvalidEvidence
from ._headline import _ABSENT, _at, _count, _decode, _listing, _literal, _load, _one, _option, _text_option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from fractions import Fraction

    from ._evaluate import Decision
    from ._headline import _Trace
    from ._policy import Policy
    from ._select import Selection
    from ._source import Source

__all__ = ["deepeval", "promptfoo", "promptfoo_tally"]


def _exact(value: object) -> Fraction:
    """The exact value of a number the strict loader made, as a Fraction.

    A float counts as the decimal text of its ``repr`` (what the producer
    wrote), as everywhere in the numeric contract.
    """
    from fractions import Fraction

    from ._score import to_decimal

    return Fraction(to_decimal(value))  # type: ignore[arg-type]


def _fraction_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _decide_fraction(
    value: Fraction, what: str, path: str, policy: Policy, selection: Selection, listed: list[str]
) -> Decision:
    """PASS or FAIL for an exactly computed *value*; INVALID outside the bounds.

    The comparison is exact, against the threshold's and the bounds'
    decimal text.  The decision's score is the nearest float (a Decimal of
    34 digits under an exact policy); the message and the receipt give the
    fraction itself.
    """
    from ._describe import format_number
    from ._evaluate import Decision
    from ._policy import bounds_text
    from ._select import Selection
    from ._verdict import Verdict

    selection = Selection(
        selection.query,
        path,
        listed,
        len(listed),
        selection.source,
        [*selection.origin, ("value", _fraction_text(value))],
    )
    low, high = policy.minimum, policy.maximum
    if (low is not None and value < _exact(low)) or (high is not None and value > _exact(high)):
        return Decision(
            Verdict.INVALID,
            "out-of-range",
            f"{what} {_fraction_text(value)} is outside {bounds_text(policy)}",
            None,
            policy,
            None,
            selection,
        )
    limit = _exact(policy.threshold)
    meets = value <= limit if policy.direction == "lower" else value >= limit
    if policy.exact:
        import decimal

        # Every field given: a caller's changed decimal.DefaultContext must
        # not reach the score (the comparison above is exact either way).
        context = decimal.Context(
            prec=34,
            rounding=decimal.ROUND_HALF_EVEN,
            Emin=-999999,
            Emax=999999,
            capitals=1,
            clamp=0,
            flags=[],
            traps=[],
        )
        score: int | float | decimal.Decimal = context.divide(
            decimal.Decimal(value.numerator), decimal.Decimal(value.denominator)
        )
    else:
        score = value.numerator / value.denominator
    if policy.direction == "lower":
        relation, suffix = ("<=" if meets else ">"), " (lower is better)"
    else:
        relation, suffix = (">=" if meets else "<"), ""
    shown = _fraction_text(value)
    approx = format_number(score)
    message = (
        f"{what} {shown}{'' if shown == approx else f' = {approx}'} {relation} threshold "
        f"{format_number(policy.threshold)}{suffix}, compared exactly (at {path})"
    )
    if listed:
        message += (
            f"; {len(listed)} non-finite number{'s' if len(listed) != 1 else ''} elsewhere in the document, "
            f"listed and not judged (the first at {listed[0]})"
        )
    if meets:
        return Decision(Verdict.PASS, "meets-threshold", message, score, policy, None, selection)
    return Decision(Verdict.FAIL, "below-threshold", message, score, policy, None, selection)


def promptfoo_tally(rows: list[object]) -> tuple[int, int, int]:
    """Return the passes, failures and errors among promptfoo's *rows*.

    Each row is one of the three, as promptfoo counts it in its stats: an
    error when its failureReason is ResultFailureReason.ERROR (2), whatever
    its success says (a timeout is written as an error row with success
    false); else a pass when its success is true; else a failure.  Both
    ``check --from promptfoo`` and ``report --from promptfoo`` compare
    these with the counts, so the two agree on what a row is.
    """
    passes = errors = 0
    for row in rows:
        reason = row.get("failureReason") if type(row) is dict else None
        if type(reason) is int and reason == 2:
            errors += 1
        elif type(row) is dict and row.get("success") is True:
            passes += 1
    return passes, len(rows) - passes - errors, errors


def _check_rows(document: object, path: str, per_prompt: bool, counts: tuple[int, int, int], counted: str) -> None:
    """Refuse counts that disagree with the rows promptfoo wrote beside them.

    promptfoo writes one row in results.results per test, prompt and
    repeat, and counts each row once in stats (and in its prompt's
    metrics), as a pass, a failure or an error: a count that no row backs
    (10**30 successes of 20 tests, 5 successes of 5 rows that all say
    success false, an edited file) is INVALID, not a pass rate.  A file
    without the rows is gated on its counts alone.
    """
    rows = _at(document, "results", "results")
    if rows is _ABSENT:
        return
    if type(rows) is not list:
        raise InvalidEvidence("wrong-type", f"promptfoo's results.results is {describe_value(rows)}, not a list")
    what = "rows in results.results"
    if per_prompt:
        # The prompt's position in results.prompts is the rows' promptIdx.
        index = int(path.rsplit("][", 2)[-2])
        mine: list[object] = []
        for number, row in enumerate(rows):
            prompt = _at(row, "promptIdx")
            if type(prompt) is not int:
                raise InvalidEvidence(
                    "wrong-type",
                    f"promptfoo's row $['results']['results'][{number}] has promptIdx {describe_value(prompt)}, "
                    "not a whole number",
                )
            if prompt == index:
                mine.append(row)
        rows = mine
        what = f"rows of promptIdx {index} in results.results"
    total = sum(counts)
    if len(rows) != total:
        raise InvalidEvidence(
            "requirement-failed",
            f"promptfoo's counts at {path} add up to {total} tests ({counted}), but it wrote {len(rows)} {what}",
        )
    tallied = promptfoo_tally(rows)
    if tallied != counts:
        raise InvalidEvidence(
            "requirement-failed",
            f"promptfoo's counts at {path} are {' + '.join(map(str, counts))} ({counted}), but its {len(rows)} "
            f"{what} are {tallied[0]} passing, {tallied[1]} failing and {tallied[2]} errors (failureReason 2)",
        )


def promptfoo(raw: bytes | str, source: Source, policy: Policy, max_bytes: int, trace: _Trace) -> Decision:
    from fractions import Fraction

    from ._select import check_requirements, split_records

    provider = source.get("provider")
    if provider is None:
        node = "$['results']['stats']"
        names = ("successes", "failures", "errors")
        what = "promptfoo's pass rate successes / (successes + failures + errors)"
    else:
        node = f"$['results']['prompts'][?@.provider == {_literal(str(provider))}]['metrics']"
        names = ("testPassCount", "testFailCount", "testErrorCount")
        what = f"promptfoo's pass rate of provider {ascii(provider)}"
    trace.query = node
    policy = _listing(policy)
    document, records = _load(_decode(raw, max_bytes), policy)
    check_requirements(document, policy)
    path, counts = _one(document, node)
    trace.path = path  # the counts' node: a refusal of them names it in the receipt
    listed = split_records(records, path, policy) if records else []
    passed, failed, errors = (_count(_at(counts, name), f"promptfoo's {name} at {path}") for name in names)
    if errors and not _option(source, "allow_errors"):
        raise InvalidEvidence(
            "grader-errors",
            f"promptfoo reports {errors} error{'s' if errors != 1 else ''} ({names[2]} at {path}): those tests were "
            "never graded; pass --allow-errors to count them as not passed",
        )
    total = passed + failed + errors
    if total == 0:
        raise InvalidEvidence("empty-run", f"promptfoo ran no tests ({' + '.join(names)} is 0 at {path})")
    _check_rows(document, path, provider is not None, (passed, failed, errors), " + ".join(names))
    return _decide_fraction(Fraction(passed, total), what, path, policy, trace.selection(), listed)


def deepeval(raw: bytes | str, source: Source, policy: Policy, max_bytes: int, trace: _Trace) -> Decision:
    from fractions import Fraction

    from ._select import check_requirements, split_records

    metric = _text_option(source, "metric")
    policy = _listing(policy)
    trace.query = f"$['metricsScores'][?@.metric == {_literal(metric)}]"
    document, records = _load(_decode(raw, max_bytes), policy)
    base = "$['testRunData']" if type(document) is dict and "testRunData" in document else "$"
    if _at(document, *(("testRunData",) if base != "$" else ()), "metricsScores") == []:
        raise InvalidEvidence(
            "empty-run", "DeepEval's metricsScores is empty: no metric produced a score (timed out or cancelled?)"
        )
    node = f"{base}['metricsScores'][?@.metric == {_literal(metric)}]"
    trace.query = node
    trace.origin.append(("wrapped", base != "$"))
    check_requirements(document, policy)
    path, entry = _one(document, node)
    trace.path = path  # the metric's entry: a refusal of it names it in the receipt
    listed = split_records(records, path, policy) if records else []
    errors = _count(_at(entry, "errors"), f"DeepEval's errors of metric {ascii(metric)} at {path}")
    if errors:
        raise InvalidEvidence(
            "grader-errors",
            f"DeepEval's metric {ascii(metric)} errored on {errors} test case{'s' if errors != 1 else ''} "
            f"(errors at {path}): an errored metric has no score, and a mean without it would claim too much",
        )
    scores = _at(entry, "scores")
    if type(scores) is not list:
        raise InvalidEvidence("wrong-type", f"DeepEval's scores at {path} are {describe_value(scores)}, not a list")
    if not scores:
        raise InvalidEvidence("empty-run", f"DeepEval's metric {ascii(metric)} has no scores at {path}")
    # DeepEval counts each scored test case as a pass or a fail: a list
    # that disagrees with its own counts has lost or gained a score.
    # Both counts are required: a string or bool count must not switch the
    # check off (True is an int to Python, so each is read by _count).
    passes = _count(_at(entry, "passes"), f"DeepEval's passes of metric {ascii(metric)} at {path}")
    fails = _count(_at(entry, "fails"), f"DeepEval's fails of metric {ascii(metric)} at {path}")
    if passes + fails != len(scores):
        raise InvalidEvidence(
            "requirement-failed",
            f"DeepEval's metric {ascii(metric)} at {path} has {len(scores)} scores, "
            f"but passes + fails is {passes + fails}",
        )
    from ._select import value_problem

    total = Fraction(0)
    for index, score in enumerate(scores):
        # Each score meets the whole numeric contract, bounds included: a
        # mean of 1.5 and 0.2 is inside [0, 1], but neither is a score.
        problem = value_problem(f"{path}['scores'][{index}]", score, policy)
        if problem is not None:
            raise InvalidEvidence(*problem)
        total += _exact(score)
    what = f"DeepEval's mean {ascii(metric)} score over {len(scores)} test case{'s' if len(scores) != 1 else ''}"
    return _decide_fraction(total / len(scores), what, path, policy, trace.selection(), listed)
