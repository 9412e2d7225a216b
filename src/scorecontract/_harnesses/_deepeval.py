# SPDX-License-Identifier: MIT
"""Confident AI DeepEval: a test run, ``.deepeval/.latest_test_run.json`` or ``test_run_<ts>.json``.

DeepEval writes no headline: ``metricsScores`` holds, per metric, the list
of its ``scores`` (one per test case it measured), and counts of
``passes``, ``fails`` and ``errors``.  The headline is the mean of those
scores, computed as an exact fraction.  ``.latest_test_run.json`` wraps
the run in ``{"testRunData": ...}``; a saved run is the plain object.
"""

from __future__ import annotations

from .._errors import InvalidEvidence, PolicyError
from .._sample_reader import (
    SampleReader,
    canonical_trial_id,
    clip,
    declared_count,
    invalid_row,
    load_with_codes,
    once,
    path_under,
)
from ._base import (
    ABSENT,
    Computed,
    Count,
    Headline,
    Option,
    Samples,
    at,
    count,
    decode,
    exact,
    finite,
    literal,
    load,
    no_such,
    one,
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

NAME = "deepeval"
TITLE = "Confident AI DeepEval"
FOLLOWS = "deepeval 4.3.1 test runs (.deepeval/.latest_test_run.json, test_run_<ts>.json), as written at commit a2e0d4c"


def _gate(raw: bytes | str, options: Options, policy: Policy, max_bytes: int, trace: Trace) -> Computed:
    from fractions import Fraction

    from .._select import check_requirements, split_records, value_problem

    metric = options.text("metric")
    trace.query = f"$['metricsScores'][?@.metric == {literal(metric)}]"
    document, records = load(decode(raw, max_bytes), policy)
    base = _base(document)
    entries = at(document, *(("testRunData",) if base != "$" else ()), "metricsScores")
    if entries == []:
        raise InvalidEvidence(
            "empty-run", "DeepEval's metricsScores is empty: no metric produced a score (timed out or cancelled?)"
        )
    if type(entries) is not list and type(document) is dict and "testRunLink" in document:
        raise InvalidEvidence(
            "missing-member",
            "this DeepEval file holds only testRunLink: logged in to Confident AI, DeepEval sent the run there "
            "and kept no scores here; gate a test run that holds metricsScores (run without logging in, or "
            "keep the run's results folder)",
        )
    if type(entries) is not list:
        raise InvalidEvidence(
            "not-an-object" if type(document) is not dict else "missing-member",
            "this is not a DeepEval test run: it has no metricsScores array (DeepEval writes "
            ".deepeval/.latest_test_run.json, or test_run_<ts>.json in a results folder)",
        )
    if metric not in [at(entry, "metric") for entry in entries]:
        raise no_such("metric", metric, "--metric", "DeepEval's metricsScores", [at(e, "metric") for e in entries])
    node = f"{base}['metricsScores'][?@.metric == {literal(metric)}]"
    trace.query = node
    trace.origin.append(("wrapped", base != "$"))
    check_requirements(document, policy)
    where, entry = one(document, node)
    trace.path = where  # the metric's entry: a refusal of it names it in the receipt
    listed = split_records(records, where, policy) if records else []
    errors = count(at(entry, "errors"), f"DeepEval's errors of metric {ascii(metric)} at {where}")
    if errors:
        raise InvalidEvidence(
            "grader-errors",
            f"DeepEval's metric {ascii(metric)} errored on {errors} test case{'s' if errors != 1 else ''} "
            f"(errors at {where}): an errored metric has no score, and a mean without it would claim too much",
        )
    scores = at(entry, "scores")
    if type(scores) is not list:
        raise InvalidEvidence("wrong-type", f"DeepEval's scores at {where} are {shown(scores)}, not a list")
    if not scores:
        raise InvalidEvidence("empty-run", f"DeepEval's metric {ascii(metric)} has no scores at {where}")
    # DeepEval counts each scored test case as a pass or a fail: a list
    # that disagrees with its own counts has lost or gained a score.
    # Both counts are required: a string or bool count must not switch the
    # check off (True is an int to Python, so each is read by count).
    passes = count(at(entry, "passes"), f"DeepEval's passes of metric {ascii(metric)} at {where}")
    fails = count(at(entry, "fails"), f"DeepEval's fails of metric {ascii(metric)} at {where}")
    counts = [
        Count(len(scores), "scores", f"{where}['scores']", "covered"),
        Count(passes + fails, "passes + fails", where, "covered"),
    ]
    cases = _cases(document, base, metric, counts)
    if cases is None:
        raise InvalidEvidence(
            "missing-member",
            f"DeepEval's test run has no testCases at {base}: DeepEval writes them in every test run, and without "
            "them nothing says which test cases the scores stand on",
        )
    reconcile(counts, harness="DeepEval", unit=f"test cases of metric {ascii(metric)}", allow_partial=False)
    total = Fraction(0)
    for index, score in enumerate(scores):
        # Each score meets the whole numeric contract, bounds included: a
        # mean of 1.5 and 0.2 is inside [0, 1], but neither is a score.
        problem = value_problem(f"{where}['scores'][{index}]", score, policy)
        if problem is not None:
            raise InvalidEvidence(*problem)
        total += exact(score)
    for place, item in cases:
        error = at(item, "error")
        if error is not ABSENT and error is not None:
            # report --from deepeval refuses the case by the same reading
            # (_Reader.case): an errored metric's score is no measurement.
            said = f": {clip(error, 80)}" if type(error) is str else ""
            raise InvalidEvidence(
                "grader-errors",
                f"DeepEval's metric {ascii(metric)} errored on a test case{said} (error at {place}), though errors "
                f"at {where} is 0: an errored metric has no score",
            )
    _agree(scores, passes, cases, metric, where)
    _thresholds(cases, metric)
    what = f"DeepEval's mean {ascii(metric)} score over {len(scores)} test case{'s' if len(scores) != 1 else ''}"
    return Computed(total / len(scores), what, where, policy, listed)


def _base(document: object) -> str:
    """Where the test run is: ``$['testRunData']`` (.latest_test_run.json) or ``$`` (a saved run).

    A file holding both a wrapper and a run beside it is two runs: which
    one is the evidence is not the reader's to choose.
    """
    if type(document) is not dict or "testRunData" not in document:
        return "$"
    beside = [name for name in ("metricsScores", "testCases", "conversationalTestCases") if name in document]
    if beside:
        raise InvalidEvidence(
            "ambiguous-selection",
            f"this DeepEval file holds a test run in testRunData and another beside it ({', '.join(beside)} at $): "
            "DeepEval writes one or the other; gate the run's own file",
        )
    return "$['testRunData']"


def _thresholds(cases: list[tuple[str, object]], metric: str) -> None:
    """Refuse success flags that the scores and thresholds beside them contradict.

    DeepEval's metrics set success from score and threshold: score >=
    threshold for most (BaseMetric.is_successful, deepeval/metrics/
    base_metric.py l. 93-103), score <= threshold for those where lower is
    better (bias.py l. 290, toxicity, hallucination, misuse); strict_mode
    writes the threshold it used.  Which rule a custom metric uses
    the file does not say, so the flags must follow one of the two for
    every test case of the metric; an errored or unscored case is left out.
    """
    judged = []
    for place, item in cases:
        score, threshold, success = at(item, "score"), at(item, "threshold"), at(item, "success")
        if finite(score) and finite(threshold) and type(success) is bool:
            judged.append((place, exact(score), exact(threshold), success))
    if not judged:
        return
    higher = [place for place, score, threshold, success in judged if (score >= threshold) != success]
    lower = [place for place, score, threshold, success in judged if (score <= threshold) != success]
    if higher and lower:
        raise InvalidEvidence(
            "value-mismatch",
            f"DeepEval's success flags of metric {ascii(metric)} follow neither score >= threshold (not at "
            f"{higher[0]}) nor score <= threshold (not at {lower[0]}): a score or a flag was changed",
        )


def _cases(document: object, base: str, metric: str, counts: list[Count]) -> list[tuple[str, object]] | None:
    """The results of *metric* in the test cases beside metricsScores, (path, metricsData entry).

    Adds to *counts* the test cases measured by the metric, one per case:
    DeepEval merges two metrics that share a name into one metricsScores
    entry, whose scores then outnumber the test cases (8 for 4); those of
    the run; its testPassed + testFailed; and the cases that say a success.
    Raises ``value-mismatch`` where testPassed and testFailed are not the
    cases' own successes.  None when the file holds no testCases.
    """
    keys = ("testRunData",) if base != "$" else ()
    found: list[tuple[str, object]] = []
    measured = cases_in_run = 0
    listed = False
    # What each test case says of itself: DeepEval's testPassed and
    # testFailed count the cases whose success is true and false
    # (TestRun.calculate_test_passes_and_fails; a case without one counts
    # in neither).
    said = {True: 0, False: 0}
    # Each test case once: report --from deepeval keys a trial by its
    # [name, order], so a case copied over another (same name and order,
    # counts restated) must not stand in for the one it replaced.
    seen: dict[str, str] = {}
    for member in ("testCases", "conversationalTestCases"):
        cases = at(document, *keys, member)
        if cases is ABSENT or cases is None:
            continue
        if type(cases) is not list:
            raise InvalidEvidence("wrong-type", f"DeepEval's {member} is {shown(cases)}, not a list")
        listed = True
        for index, case in enumerate(cases):
            success = at(case, "success")
            if type(success) is bool:
                said[success] += 1
            data = at(case, "metricsData")
            entries = [
                (f"{base}[{literal(member)}][{index}]['metricsData'][{number}]", item)
                for number, item in enumerate(data if type(data) is list else [])
                if at(item, "name") == metric
            ]
            if len(entries) > 1:
                raise InvalidEvidence(
                    "population-mismatch",
                    f"DeepEval's test case at {base}[{literal(member)}][{index}] holds {len(entries)} metrics named "
                    f"{ascii(metric)}: DeepEval merges metrics that share a name into one metricsScores entry, with "
                    "more scores than test cases; give each metric its own name",
                )
            if entries:
                identity = [at(case, "name")]
                if at(case, "order") is not ABSENT:
                    identity.append(at(case, "order"))
                once(seen, ascii(identity), f"{base}[{literal(member)}][{index}]", "DeepEval's test cases")
            measured += bool(entries)
            cases_in_run += 1
            found += entries
    if not listed:
        return None
    # DeepEval measures every metric of the run on every test case; one it
    # skipped (skip_on_missing_params) or lost leaves the mean over fewer.
    counts.append(Count(measured, "test cases measured by it", f"{base}['testCases']", "covered"))
    counts.append(Count(cases_in_run, "test cases in the run", f"{base}['testCases']", "covered"))
    # The run's own count of its test cases: a case deleted from the file,
    # with its score, leaves testPassed + testFailed one above the rest.
    tally = []
    for name in ("testPassed", "testFailed"):
        value = at(document, *keys, name)
        if value is ABSENT:
            raise InvalidEvidence(
                "missing-member",
                f"DeepEval's test run has no {name} (DeepEval writes testPassed and testFailed in every finished "
                "run, and leaves them out only of .temp_test_run_data.json, a run that did not finish)",
            )
        tally.append(count(value, f"DeepEval's {name} at {base}[{literal(name)}]"))
    passed, failed = tally
    where = f"{base}['testPassed']"
    counts.append(Count(passed + failed, "testPassed + testFailed", where, "covered"))
    judged = said[True] + said[False]
    counts.append(Count(judged, "test cases with a success", f"{base}['testCases'][*]['success']", "covered"))
    # With the totals agreeing (else the rule above names each number), the
    # split must too: a case's success flipped leaves the same total.
    if judged == passed + failed and (passed, failed) != (said[True], said[False]):
        raise InvalidEvidence(
            "value-mismatch",
            f"DeepEval's testPassed and testFailed are {passed} and {failed} (at {base}), but {said[True]} of its "
            f"test cases say success true and {said[False]} say false",
        )
    return found


def _agree(scores: list[object], passes: int, cases: list[tuple[str, object]], metric: str, where: str) -> None:
    """Refuse metricsScores that the test cases beside it contradict: other scores, other passes."""
    written = [at(item, "score") for _, item in cases]
    both = [*written, *scores]
    # NaN and infinities stand as floats here: the contract refused them in
    # the scores already, and a test case's one is not a score to compare.
    # A Decimal is a score too (exact mode), compared as the others are.
    if all(finite(score) for score in scores) and not all(finite(score) for score in written):
        # metricsScores holds a finite score for every case, yet a case has
        # none: the list cannot be its cases' (a null or NaN beside forged
        # scores must not switch the comparison off).
        place = next(place for (place, _), score in zip(cases, written) if not finite(score))
        raise InvalidEvidence(
            "value-mismatch",
            f"DeepEval's scores of metric {ascii(metric)} at {where} are all numbers, but the test case at {place} "
            "holds no finite score: the scores are not its test cases'",
        )
    if all(finite(score) for score in both):
        if sorted(map(exact, scores)) != sorted(map(exact, written)):
            raise InvalidEvidence(
                "value-mismatch",
                f"DeepEval's scores of metric {ascii(metric)} at {where} are not the scores its test cases hold "
                f"(testCases[].metricsData[name == {ascii(metric)}].score, the first at {cases[0][0]})",
            )
    succeeded = sum(1 for _, item in cases if at(item, "success") is True)
    if all(type(at(item, "success")) is bool for _, item in cases) and succeeded != passes:
        raise InvalidEvidence(
            "value-mismatch",
            f"DeepEval's passes of metric {ascii(metric)} at {where} is {passes}, but {succeeded} of its test "
            "cases say success",
        )


HEADLINE = Headline(
    options=(Option("metric", "the metric's name as metricsScores writes it, e.g. Answer Relevancy", needed=True),),
    file="`.deepeval/.latest_test_run.json`, or a plain test run",
    selects='the exact mean of metricsScores[metric == M].scores, in {"testRunData": ...} '
    "(.deepeval/.latest_test_run.json) or in a plain test run",
    requires="exactly one such entry (else no-match or ambiguous-selection); errors == 0 (else INVALID "
    "grader-errors: an errored metric has no score); each test case once (else INVALID population-mismatch); scores non-empty (else INVALID empty-run); testCases, "
    "testPassed and testFailed present (else INVALID missing-member); the scores, passes + fails, the test cases the "
    "metric measured, those of the run and testPassed + testFailed agree (two metrics of one name: INVALID "
    "population-mismatch), and the scores, passes, testPassed and testFailed are the test cases' (else INVALID "
    "value-mismatch); no test case's metricsData with an error (else INVALID grader-errors); success flags following "
    "score >= threshold or score <= threshold throughout (else INVALID value-mismatch); not a testRunData wrapper "
    "and a run beside it (INVALID ambiguous-selection); every score a finite number within the policy's bounds",
    lists="NaN and infinities outside the selected entry",
    gate=_gate,
    nonfinite="DeepEval writes NaN for a score its metric could not measure",
)


class _Reader(SampleReader):
    """A DeepEval test run: each test case the metric measured is a trial.

    The trial id is the test case's ``[name, order]`` (``[name]`` without an
    order); its score the
    ``score`` of its one ``metricsData`` entry named by the metric.  A test
    case whose metric errored (an ``error``, no score) is ``grader-errors``.
    The population is the test cases the metric measured, reconciled with
    metricsScores as ``check --from deepeval`` does.
    """

    framing = "document"
    declares_population = True

    def __init__(self, policy: Policy, options: Options) -> None:
        super().__init__(policy)
        metric = options.get("metric")
        if type(metric) is not str or not metric:
            raise PolicyError("bad-option", "report --from deepeval needs the metric (--metric), e.g. Answer Relevancy")
        self.metric = metric

    def description(self) -> dict[str, object]:
        return {"harness": "deepeval", "metric": self.metric}

    def document(self, data: bytes, name: str, max_bytes: int) -> tuple[list[Placed], int | None]:
        document, codes = load_with_codes(data, max_bytes, self.policy.exact)
        base = _base(document)
        keys = ("testRunData",) if base != "$" else ()
        entries = at(document, *keys, "metricsScores")
        if type(entries) is not list:
            raise InvalidEvidence("missing-member", "this is not a DeepEval test run: it has no metricsScores array")
        found = [(index, entry) for index, entry in enumerate(entries) if at(entry, "metric") == self.metric]
        if not found:
            raise no_such(
                "metric", self.metric, "--metric", "DeepEval's metricsScores", [at(e, "metric") for e in entries]
            )
        if len(found) > 1:
            raise InvalidEvidence(
                "ambiguous-selection", f"DeepEval's metricsScores has {len(found)} entries for {self.metric!r}"
            )
        index, entry = found[0]
        where = f"{base}['metricsScores'][{index}]"
        scores = at(entry, "scores")
        counted = [
            declared_count(at(entry, name), f"metricsScores[{index}].{name}", "DeepEval test run")
            for name in ("passes", "fails", "errors")
        ]
        counts = [
            Count(sum(counted), "passes + fails + errors", where, "covered"),
            Count(
                (len(scores) if type(scores) is list else 0) + counted[2],
                "scores and errors",
                f"{where}['scores']",
                "covered",
            ),
        ]
        cases = _cases(document, base, self.metric, counts)
        if cases is None:
            raise InvalidEvidence(
                "missing-member", "the DeepEval test run has no testCases: nothing to gate per test case"
            )
        population, _ = reconcile(
            counts, harness="DeepEval", unit=f"test cases of metric {self.metric!r}", allow_partial=False
        )
        rows: list[Placed] = []
        measured = {place.split("['metricsData']")[0] for place, _ in cases}
        for member in ("testCases", "conversationalTestCases"):
            listed = at(document, *keys, member)
            for number, case in enumerate(listed if type(listed) is list else []):
                place = f"{base}[{literal(member)}][{number}]"
                if place in measured:  # every one, once reconciled
                    rows.append((place, self.case(case, place, codes)))
        return rows, population

    def case(self, case: object, place: str, codes: Codes) -> Row:
        parts = [(path_under(place, "name"), at(case, "name"))]
        if at(case, "order") is not ABSENT:
            # DeepEval numbers its test cases; a name alone may repeat.
            parts.append((path_under(place, "order"), at(case, "order")))
        trial_id, problem = canonical_trial_id(parts, codes)
        if problem is not None:
            return invalid_row(None, *problem)
        data = at(case, "metricsData")
        number, item = next(
            (number, item)
            for number, item in enumerate(data if type(data) is list else [])
            if at(item, "name") == self.metric
        )
        where = path_under(place, "metricsData", number)
        error = at(item, "error")
        if error is not ABSENT and error is not None:
            said = f": {clip(error, 80)}" if type(error) is str else ""
            return invalid_row(
                trial_id, "grader-errors", f"DeepEval's metric {self.metric!r} errored on this test case{said}"
            )
        return self.judge(trial_id, path_under(where, "score"), at(item, "score"), codes, case)


def _reader(options: Options, policy: Policy, names: Sequence[str | None]) -> SampleReader:
    return _Reader(policy, options)


SAMPLES = Samples(
    options=(Option("metric", "the metric's name as metricsData writes it, e.g. Answer Relevancy"),),
    reader=_reader,
)
