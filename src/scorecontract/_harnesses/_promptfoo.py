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
    literal,
    load,
    no_such,
    one,
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

__all__ = ["FOLLOWS", "HEADLINE", "NAME", "SAMPLES", "TITLE", "grader_failed", "run_counts", "tally"]

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
        if reason is not None and type(reason) is not int:
            # ResultFailureReason is 0, 1 or 2; 2.0 must not pass as a failure.
            raise InvalidEvidence(
                "wrong-type", f"a promptfoo row's failureReason is {json_kind(reason)}, not 0, 1 or 2"
            )
        if reason == 2:
            errors += 1
        elif type(row) is dict and row.get("success") is True:
            passes += 1
    return passes, len(rows) - passes - errors, errors


def grader_failed(row: object) -> bool:
    """Whether promptfoo's grader failed on *row*: a graderError in its grading result.

    promptfoo marks a grader that errs (a transport or parse error of an
    llm-rubric, g-eval, classifier, ...) with metadata.graderError on the
    component's grading result, and counts the row as an ordinary failure
    (failureReason 1): a low threshold would pass on failures no grader
    decided.
    """
    pending = [at(row, "gradingResult")]
    seen = 0
    while pending and seen < 10_000:
        result = pending.pop()
        seen += 1
        if at(result, "metadata", "graderError") is True:
            return True
        components = at(result, "componentResults")
        if type(components) is list:
            pending.extend(components)
    return False


def _rows(document: object, index: int | None) -> tuple[list[object] | None, str]:
    """The rows of results.results (of promptIdx *index*), or None when the file has none."""
    rows = at(document, "results", "results")
    if rows is ABSENT:
        return None, "rows in results.results"
    if type(rows) is not list:
        raise InvalidEvidence("wrong-type", f"promptfoo's results.results is {shown(rows)}, not a list")
    if index is None:
        return rows, "rows in results.results"
    # The prompt's position in results.prompts is the rows' promptIdx.
    mine: list[object] = []
    for number, row in enumerate(rows):
        prompt = at(row, "promptIdx")
        if type(prompt) is not int:
            raise InvalidEvidence(
                "wrong-type",
                f"promptfoo's row $['results']['results'][{number}] has promptIdx {shown(prompt)}, not a whole number",
            )
        if prompt == index:
            mine.append(row)
    return mine, f"rows of promptIdx {index} in results.results"


def run_counts(
    document: object, where: str, counts: tuple[int, int, int], names: Sequence[str], index: int | None
) -> tuple[list[Count], list[object] | None]:
    """Every count promptfoo's file states of the tests at *where*, and the rows behind them.

    promptfoo writes one row in results.results per test, prompt and
    repeat, and counts each row once in stats (and in its prompt's
    metrics), as a pass, a failure or an error.  ``check --from promptfoo``
    and ``report --from promptfoo`` reconcile the same counts.
    """
    found = [Count(sum(counts), " + ".join(names), where, "covered")]
    rows, what = _rows(document, index)
    if rows is not None:
        found.append(Count(len(rows), what, path("results", "results"), "covered"))
    if index is None:
        prompts = at(document, "results", "prompts")
        sums: list[int] = []
        for prompt in prompts if type(prompts) is list else []:
            metrics = at(prompt, "metrics")
            parts = [at(metrics, name) for name in ("testPassCount", "testFailCount", "testErrorCount")]
            if not all(type(part) is int and part >= 0 for part in parts):
                sums = []
                break
            sums.append(sum(parts))  # type: ignore[arg-type]
        if sums:
            label = "testPassCount + testFailCount + testErrorCount of every prompt"
            found.append(Count(sum(sums), label, path("results", "prompts"), "covered"))
    return found, rows


def _check_tally(rows: list[object], where: str, counts: tuple[int, int, int], counted: str, what: str) -> None:
    """Refuse counts that disagree with what promptfoo's rows say of themselves.

    A count that no row backs (5 successes of 5 rows that all say success
    false, an edited file) is INVALID, not a pass rate.
    """
    tallied = tally(rows)
    if tallied != counts:
        raise InvalidEvidence(
            "population-mismatch",
            f"promptfoo's counts at {where} are {' + '.join(map(str, counts))} ({counted}), but its {len(rows)} "
            f"{what} are {tallied[0]} passing, {tallied[1]} failing and {tallied[2]} errors (failureReason 2)",
        )


def _grader_errors(rows: list[object] | None, errors: int, where: str, names: Sequence[str]) -> str | None:
    """Why the tests at *where* include some never graded, or None."""
    graders = [number for number, row in enumerate(rows or []) if grader_failed(row)]
    said = []
    if errors:
        said.append(f"{errors} error{'s' if errors != 1 else ''} ({names[2]} at {where})")
    if graders:
        said.append(
            f"{len(graders)} row{'s' if len(graders) != 1 else ''} whose grader failed "
            f"(gradingResult metadata.graderError, the first at $['results']['results'][{graders[0]}]), which "
            "promptfoo counts as failures"
        )
    return "; ".join(said) or None


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
    document, records = _load(raw, max_bytes, policy)
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
    index = None if provider is None else int(where.rsplit("][", 2)[-2])
    found, rows = run_counts(document, where, (passed, failed, errors), names, index)
    ungraded = _grader_errors(rows, errors, where, names)
    if ungraded is not None and not options.switch("allow_errors"):
        raise InvalidEvidence(
            "grader-errors",
            f"promptfoo reports {ungraded}: those tests were never graded; pass --allow-errors to count them as not "
            "passed",
        )
    total = passed + failed + errors
    if total == 0:
        raise InvalidEvidence("empty-run", f"promptfoo ran no tests ({' + '.join(names)} is 0 at {where})")
    reconcile(found, harness="promptfoo", unit="tests", allow_partial=False)
    if rows is not None:
        _check_tally(rows, where, (passed, failed, errors), " + ".join(names), found[1].what)
    return Computed(Fraction(passed, total), what, where, policy, listed)


# The outputs promptfoo eval -o writes besides JSON, by how they start.
_OTHER_FORMATS = (("<", "HTML or XML (junit.xml)"), ("-", "YAML"), ("id,", "CSV"))


def _load(raw: bytes | str, max_bytes: int, policy: Policy) -> tuple[object, list[tuple[str, str]]]:
    """The results file, or INVALID saying which output to write when it is another of promptfoo's."""
    text = decode(raw, max_bytes)
    try:
        document, records = load(text, policy)
    except InvalidEvidence as exc:
        if exc.code not in ("syntax", "trailing-data"):
            raise
        start = text.lstrip()
        kind = next((name for prefix, name in _OTHER_FORMATS if start.startswith(prefix)), None)
        if kind is None and exc.code == "trailing-data" and start.startswith("{"):
            kind = "JSON Lines (rows only, no stats)"
        if kind is None:
            kind = "YAML or CSV" if ":" in start.split("\n", 1)[0] or "," in start.split("\n", 1)[0] else None
        if kind is None:
            raise
        raise InvalidEvidence(
            exc.code,
            f"this looks like promptfoo's {kind} output, which holds no counts to gate: write JSON with "
            "promptfoo eval -o results.json and gate that",
        ) from None
    if type(at(document, "results", "stats")) is not dict:
        raise InvalidEvidence(
            "not-an-object" if type(document) is not dict else "missing-member",
            "this is not a promptfoo results file: it has no results.stats (write it with promptfoo eval -o "
            "results.json)",
        )
    return document, records


HEADLINE = Headline(
    options=(
        Option("provider", "gate the prompt whose provider is LABEL, not the whole run"),
        Option("allow_errors", "gate a run with errors, counting each as not passed", default=False),
    ),
    file="`promptfoo eval -o results.json`",
    selects="the pass rate successes / (successes + failures + errors) of results.stats, or with --provider "
    "testPassCount / (testPassCount + testFailCount + testErrorCount) of the prompt whose provider is LABEL, "
    "computed as an exact fraction; never metrics.score, which is a sum",
    requires="every count a whole number; no errors, counting rows whose grader failed "
    "(componentResults[].metadata.graderError) (else INVALID grader-errors; --allow-errors counts them as not "
    "passed); at least one test (else INVALID empty-run); the counts, the rows in results.results (of that prompt's "
    "promptIdx, with --provider) and every prompt's counts agree, and the rows' passes and errors with theirs (else "
    "INVALID population-mismatch)",
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
        names = ("successes", "failures", "errors")
        counts = tuple(declared_count(at(stats, name), f"results.stats.{name}", "promptfoo output") for name in names)
        if not sum(counts):
            raise InvalidEvidence("missing-evidence", "the promptfoo output counts no tests: there is nothing to gate")
        # The rule check --from promptfoo applies to the same counts.
        found, _ = run_counts(output, "$['results']['stats']", counts, names, None)  # type: ignore[arg-type]
        population, _ = reconcile(found, harness="promptfoo", unit="tests", allow_partial=False)
        _check_tally(rows, "$['results']['stats']", counts, " + ".join(names), "rows in results.results")  # type: ignore[arg-type]
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
        if grader_failed(row):
            return invalid_row(
                trial_id,
                "grader-errors",
                "promptfoo's grader failed on this row (gradingResult metadata.graderError): it was never graded, "
                "whatever promptfoo counts it as",
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
