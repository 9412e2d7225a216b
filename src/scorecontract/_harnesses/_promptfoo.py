# SPDX-License-Identifier: MIT
"""promptfoo: ``promptfoo eval -o results.json``.

promptfoo writes no headline: ``results.stats`` counts the tests that
passed, failed and errored, and each prompt's ``metrics`` counts its own
(``metrics.score`` is a **sum** of row scores, never read here).  The pass
rate is computed from the counts as an exact fraction.  Each row of
``results.results`` is one test of one prompt; promptfoo counts it once,
as a pass, a failure or an error (``failureReason`` 2, ResultFailureReason
.ERROR, whatever its ``success`` says).
"""

from __future__ import annotations

from .._describe import json_kind
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
from ._base import ABSENT, Computed, Headline, Option, Samples, at, count, decode, literal, load, no_such, one, shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from .._policy import Policy
    from .._sample_reader import Codes, Placed, Row
    from ._base import Options, Trace

__all__ = ["FOLLOWS", "HEADLINE", "NAME", "SAMPLES", "TITLE", "tally"]

NAME = "promptfoo"
TITLE = "promptfoo"
FOLLOWS = "promptfoo eval -o results.json (results.version 3)"


def tally(rows: list[object]) -> tuple[int, int, int]:
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


def _check_rows(document: object, where: str, per_prompt: bool, counts: tuple[int, int, int], counted: str) -> None:
    """Refuse counts that disagree with the rows promptfoo wrote beside them.

    promptfoo writes one row in results.results per test, prompt and
    repeat, and counts each row once in stats (and in its prompt's
    metrics), as a pass, a failure or an error: a count that no row backs
    (10**30 successes of 20 tests, 5 successes of 5 rows that all say
    success false, an edited file) is INVALID, not a pass rate.  A file
    without the rows is gated on its counts alone.
    """
    rows = at(document, "results", "results")
    if rows is ABSENT:
        return
    if type(rows) is not list:
        raise InvalidEvidence("wrong-type", f"promptfoo's results.results is {shown(rows)}, not a list")
    what = "rows in results.results"
    if per_prompt:
        # The prompt's position in results.prompts is the rows' promptIdx.
        index = int(where.rsplit("][", 2)[-2])
        mine: list[object] = []
        for number, row in enumerate(rows):
            prompt = at(row, "promptIdx")
            if type(prompt) is not int:
                raise InvalidEvidence(
                    "wrong-type",
                    f"promptfoo's row $['results']['results'][{number}] has promptIdx {shown(prompt)}, "
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
            f"promptfoo's counts at {where} add up to {total} tests ({counted}), but it wrote {len(rows)} {what}",
        )
    tallied = tally(rows)
    if tallied != counts:
        raise InvalidEvidence(
            "requirement-failed",
            f"promptfoo's counts at {where} are {' + '.join(map(str, counts))} ({counted}), but its {len(rows)} "
            f"{what} are {tallied[0]} passing, {tallied[1]} failing and {tallied[2]} errors (failureReason 2)",
        )


def _gate(raw: bytes | str, options: Options, policy: Policy, max_bytes: int, trace: Trace) -> Computed:
    from fractions import Fraction

    from .._select import check_requirements, split_records

    provider = options.get("provider")
    if provider is None:
        node = "$['results']['stats']"
        names = ("successes", "failures", "errors")
        what = "promptfoo's pass rate successes / (successes + failures + errors)"
    else:
        node = f"$['results']['prompts'][?@.provider == {literal(str(provider))}]['metrics']"
        names = ("testPassCount", "testFailCount", "testErrorCount")
        what = f"promptfoo's pass rate of provider {ascii(provider)}"
    trace.query = node
    document, records = load(decode(raw, max_bytes), policy)
    if type(at(document, "results", "stats")) is not dict:
        raise InvalidEvidence(
            "not-an-object" if type(document) is not dict else "missing-member",
            "this is not a promptfoo results file: it has no results.stats (write it with promptfoo eval -o "
            "results.json)",
        )
    if provider is not None:
        prompts = at(document, "results", "prompts")
        providers = [at(prompt, "provider") for prompt in prompts] if type(prompts) is list else []
        if provider not in providers:
            raise no_such(
                "prompt of provider", str(provider), "--provider", "the promptfoo results", providers, "providers"
            )
    check_requirements(document, policy)
    where, counts = one(document, node)
    trace.path = where  # the counts' node: a refusal of them names it in the receipt
    listed = split_records(records, where, policy) if records else []
    passed, failed, errors = (count(at(counts, name), f"promptfoo's {name} at {where}") for name in names)
    if errors and not options.switch("allow_errors"):
        raise InvalidEvidence(
            "grader-errors",
            f"promptfoo reports {errors} error{'s' if errors != 1 else ''} ({names[2]} at {where}): those tests were "
            "never graded; pass --allow-errors to count them as not passed",
        )
    total = passed + failed + errors
    if total == 0:
        raise InvalidEvidence("empty-run", f"promptfoo ran no tests ({' + '.join(names)} is 0 at {where})")
    _check_rows(document, where, provider is not None, (passed, failed, errors), " + ".join(names))
    return Computed(Fraction(passed, total), what, where, policy, listed)


HEADLINE = Headline(
    options=(
        Option("provider", "gate the prompt whose provider is LABEL, not the whole run"),
        Option("allow_errors", "gate a run with errors, counting each as not passed", default=False),
    ),
    file="`promptfoo eval -o results.json`",
    selects="the pass rate successes / (successes + failures + errors) of results.stats, or with --provider "
    "testPassCount / (testPassCount + testFailCount + testErrorCount) of the prompt whose provider is LABEL, "
    "computed as an exact fraction; never metrics.score, which is a sum",
    requires="every count a whole number; errors == 0 (else INVALID grader-errors; --allow-errors counts "
    "them as not passed); at least one test (else INVALID empty-run); as many rows in results.results (of "
    "that prompt's promptIdx, with --provider) as the counts add up to, where the file has them",
    lists="NaN and infinities outside the counts (promptfoo writes none: its NaN becomes null)",
    gate=_gate,
    nonfinite="promptfoo's counts are whole numbers",
)


class _Reader(SampleReader):
    """promptfoo ``eval -o results.json``: the rows of ``results.results``."""

    framing = "document"
    declares_population = True

    def __init__(self, policy: Policy, options: Options) -> None:
        super().__init__(policy)
        metric = options.get("metric")
        if metric is None:
            metric = "score"
        if metric not in ("score", "pass"):
            raise PolicyError(
                "bad-option", f"report --from promptfoo scores a row by 'score' or 'pass', not {shown(metric)}"
            )
        self.metric = metric

    def description(self) -> dict[str, object]:
        return {"harness": "promptfoo", "metric": self.metric}

    def document(self, data: bytes, name: str, max_bytes: int) -> tuple[list[Placed], int | None]:
        output, codes = load_with_codes(data, max_bytes, self.policy.exact)
        rows = at(output, "results", "results")
        if type(rows) is not list:
            raise InvalidEvidence("missing-member", "the promptfoo output has no results.results array of rows")
        stats = at(output, "results", "stats")
        successes = declared_count(at(stats, "successes"), "results.stats.successes", "promptfoo output")
        failures = declared_count(at(stats, "failures"), "results.stats.failures", "promptfoo output")
        errors = declared_count(at(stats, "errors"), "results.stats.errors", "promptfoo output")
        population = successes + failures + errors
        if not population:
            raise InvalidEvidence("missing-evidence", "the promptfoo output counts no tests: there is nothing to gate")
        passed, _, errored = tally(rows)
        if (len(rows), passed, errored) != (population, successes, errors):
            raise InvalidEvidence(
                "population-mismatch",
                f"the promptfoo rows disagree with results.stats: {len(rows)} rows ({passed} passing, "
                f"{errored} errors) against {population} tests ({successes} successes, {failures} failures, "
                f"{errors} errors)",
            )
        placed: list[Placed] = []
        for index, row in enumerate(rows):
            base = f"$['results']['results'][{index}]"
            placed.append((base, self.row(row, base, codes)))
        return placed, population

    def row(self, row: object, base: str, codes: Codes) -> Row:
        if type(row) is not dict:
            return invalid_row(None, "not-an-object", f"a promptfoo row must be a JSON object, not {json_kind(row)}")
        parts = [
            (path_under(base, "testIdx"), row.get("testIdx", ABSENT)),
            (path_under(base, "promptIdx"), row.get("promptIdx", ABSENT)),
        ]
        if "repeatIndex" in row:
            parts.append((path_under(base, "repeatIndex"), row["repeatIndex"]))
        trial_id, problem = canonical_trial_id(parts, codes)
        if problem is not None:
            return invalid_row(None, *problem)
        reason = row.get("failureReason", 0)
        if type(reason) is not int or reason not in (0, 1, 2):
            # ResultFailureReason is NONE 0, ASSERT 1 or ERROR 2: anything
            # else cannot say whether the row errored.
            return invalid_row(
                trial_id,
                "wrong-type",
                f"the failure reason at {clip(path_under(base, 'failureReason'))} is {shown(reason)}, not 0, 1 or 2",
            )
        if reason == 2:
            error = row.get("error")
            why = f": {clip(error, 80)}" if type(error) is str else ""
            return invalid_row(
                trial_id, "grader-errors", f"promptfoo recorded an error for this row (failureReason 2){why}"
            )
        if self.metric == "pass":
            success = row.get("success", ABSENT)
            where = path_under(base, "success")
            if success is ABSENT:
                return invalid_row(trial_id, "missing-member", f"the row has no {where}")
            if type(success) is not bool:
                return invalid_row(
                    trial_id,
                    "wrong-type",
                    f"the pass flag at {clip(where)} is {shown(success)}, not true or false",
                )
            # The one place a bool becomes a number: the pass flag, by name.
            return self.judge(trial_id, where, 1 if success else 0, codes, row)
        return self.judge(trial_id, path_under(base, "score"), row.get("score", ABSENT), codes, row)


def _reader(options: Options, policy: Policy, names: Sequence[str | None]) -> SampleReader:
    return _Reader(policy, options)


SAMPLES = Samples(
    options=(Option("metric", "score (default) or pass: what of a row is its score"),),
    reader=_reader,
)
