# SPDX-License-Identifier: MIT
"""promptfoo: ``promptfoo eval -o results.json``.

promptfoo writes no headline: ``results.stats`` counts the tests that
passed, failed and errored, and each prompt's ``metrics`` counts its own
(``metrics.score`` is a **sum** of row scores, never read here).  The pass
rate is computed from the counts as an exact fraction.  Each row of
``results.results`` is one test of one prompt; promptfoo counts it once,
as a pass, a failure or an error (``failureReason`` 2, ResultFailureReason
.ERROR, whatever its ``success`` says).

The population the run set out to cover is stated by the file itself:
``config.tests`` holds every test promptfoo read (loaded from its CSV or
YAML files too) before ``--filter-first-n``, ``--filter-sample``,
``--filter-pattern`` or ``--filter-failing`` dropped any, none of which
is recorded; ``results.prompts`` holds one entry per prompt and provider
that ran, and ``runtimeOptions`` the repeat count and the two filters
promptfoo does record (``filterRange``, ``providerFilter``).  Both
``check --from promptfoo`` and ``report --from promptfoo`` hand all of
these to the one coverage rule (``_base.reconcile``).
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
    names_of,
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

__all__ = ["FOLLOWS", "HEADLINE", "NAME", "SAMPLES", "TITLE", "run_counts", "tally", "ungraded"]

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
        if type(row) is dict and "failureReason" not in row and row.get("error") is not None:
            # Version 3 writes failureReason on every row (2 on an error):
            # without it an error row would count as a failure.
            raise InvalidEvidence("missing-member", "a promptfoo row with an error has no failureReason (0, 1 or 2)")
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


# How promptfoo 0.123.1 writes an assertion that crashed: the catch of its
# javascript, python and ruby handlers (src/assertions/javascript.ts,
# python.ts, ruby.ts) returns pass false, score 0 and one of these reasons.
_CRASHED = ("Custom function threw error: ", "Python code execution failed: ", "Ruby code execution failed: ")


def ungraded(row: object) -> str | None:
    """Why no grader decided promptfoo's *row*, or None when one did.

    promptfoo counts both of these as ordinary failures (failureReason 1),
    so a low threshold would pass on failures nothing decided:

    - a grader that errs (a transport or parse error of an llm-rubric,
      g-eval, classifier, ...): metadata.graderError on the component's
      grading result;
    - an assertion that crashed (a javascript, python or ruby assertion
      that threw): pass false with the reason ``Custom function threw
      error: ...`` (``Python code execution failed: ...``).
    """
    pending = [at(row, "gradingResult")]
    seen = 0
    while pending and seen < 10_000:
        result = pending.pop()
        seen += 1
        if at(result, "metadata", "graderError") is True:
            return "its grader failed (gradingResult metadata.graderError)"
        reason = at(result, "reason")
        if at(result, "pass") is False and type(reason) is str and reason.startswith(_CRASHED):
            return f"its assertion crashed ({ascii(reason.split(':', 1)[0])})"
        components = at(result, "componentResults")
        if type(components) is list:
            pending.extend(components)
    if pending:
        # A crash past the bound would read as a verdict: refuse, not "graded".
        return f"its gradingResult holds more than {seen:,} results, more than are read for a grader error"
    return None


def _rows(document: object, index: int | None) -> tuple[list[tuple[int, object]] | None, str]:
    """The rows of results.results (of promptIdx *index*), each with its place, or None when the file has none."""
    rows = at(document, "results", "results")
    if rows is ABSENT:
        return None, "rows in results.results"
    if type(rows) is not list:
        raise InvalidEvidence("wrong-type", f"promptfoo's results.results is {shown(rows)}, not a list")
    if index is None:
        return list(enumerate(rows)), "rows in results.results"
    # The prompt's position in results.prompts is the rows' promptIdx.
    mine: list[tuple[int, object]] = []
    for number, row in enumerate(rows):
        prompt = at(row, "promptIdx")
        if type(prompt) is not int:
            raise InvalidEvidence(
                "wrong-type",
                f"promptfoo's row $['results']['results'][{number}] has promptIdx {shown(prompt)}, not a whole number",
            )
        if prompt == index:
            mine.append((number, row))
    return mine, f"rows of promptIdx {index} in results.results"


def _mapping(owner: object, key: str) -> dict[str, object] | None:
    """*owner*'s member *key* as promptfoo reads it: absent or null is {}, an object itself, else None."""
    value = at(owner, key)
    if value is ABSENT or value is None:
        return {}
    return value if type(value) is dict else None


def _spread(value: object) -> int:
    """How many tests promptfoo makes of the var *value*, or 0 when it makes one.

    generateVarCombinations (src/evaluator.ts) expands an array whose first
    element is a string into one test per element; any other value is one.
    """
    if type(value) is list and value and type(value[0]) is str:
        return len(value)
    return 0


def _run_repeat(document: object) -> int | None:
    """runtimeOptions.repeat: an int >= 1, None when not recorded, else INVALID.

    promptfoo 0.123.1 records the --repeat it ran with (1 by default); any
    other value is no repeat count promptfoo writes (JSON.stringify writes 1,
    never 1.0 or "1").
    """
    repeat = at(document, "runtimeOptions", "repeat")
    if repeat is ABSENT or repeat is None:
        return None
    if type(repeat) is not int or repeat < 1:
        raise InvalidEvidence(
            "wrong-type",
            f"promptfoo's runtimeOptions.repeat is {shown(repeat)}, not a whole number of at least 1 (the "
            "--repeat promptfoo ran with)",
        )
    number: int = repeat
    return number


def _expanded(tests: list[object], base: dict[str, object], rows: list[object] | None) -> bool | None:
    """Whether promptfoo expanded the array vars into tests: True, False, or None where the rows do not say.

    PROMPTFOO_DISABLE_VAR_EXPANSION, which the file does not record, shows
    in the rows: a row whose var is the whole array.  Only the vars that
    some test declares as an array are read, and they must agree: all
    whole arrays (disabled) or none (expanded).
    """
    names = {
        key for test in tests for key, value in {**base, **(_mapping(test, "vars") or {})}.items() if _spread(value)
    }
    seen = {bool(_spread(variables[key])) for variables in map(_vars, rows or []) for key in names if key in variables}
    return None if len(seen) != 1 else not seen.pop()


def _test_rows(
    test: object,
    base_vars: dict[str, object],
    base_options: dict[str, object],
    repeat: int | None,
    expanded: bool | None,
) -> tuple[int, bool]:
    """The rows one test of config.tests makes in each prompt's column, and whether that is exact.

    Where the file does not fix the number, the fewest it can be: 0 for a
    test that may run in no column (a file, per-test prompts or providers,
    a glob, transformVars), else one per combination the file does fix.
    """
    variables, options = _mapping(test, "vars"), _mapping(test, "options")
    if type(test) is not dict or options is None:
        return 0, False  # file:// tests: any number, none included
    if variables is None:
        variables, exact = {}, False  # vars from a file: at least one combination
    else:
        exact = True
    variables, options = {**base_vars, **variables}, {**base_options, **options}
    if test.get("prompts") is not None or test.get("providers") is not None or options.get("transformVars") is not None:
        return 0, False
    combinations = 1
    for value in variables.values():
        if type(value) is str and value.startswith("file://"):
            return 0, False  # a glob: one test per file it matches
        spread = _spread(value)
        disabled = options.get("disableVarExpansion")
        if not spread or disabled is True:
            continue
        if disabled not in (None, False) or expanded is None:
            exact = False  # JavaScript's truth of 0 or "yes", or rows that do not say: at least one
        elif expanded:
            combinations *= spread
    each = options.get("repeat")
    # normalizeRepeatCount: a safe integer above 0, else the run's repeat;
    # a float is no value JSON.stringify writes, so it fixes nothing.
    if type(each) is int and 0 < each < 2**53:
        runs = each
    elif type(each) is float or repeat is None:
        runs, exact = 1, False
    else:
        runs = repeat
    return combinations * runs, exact


def _declared(document: object, rows: list[object] | None, columns: int, covered: int) -> Count | None:
    """The rows promptfoo's config says the run makes for *columns* prompts, or None where it cannot say.

    promptfoo 0.123.1 (src/evaluator.ts, appendRunEvalOptionsForTestCase)
    makes, for each test of ``config.tests`` and each prompt, one row per
    combination of its vars and repeat: the test's ``options.repeat`` (or
    defaultTest's), else ``runtimeOptions.repeat``.  A test whose rows the
    file does not fix (see ``_test_rows``) counts as the fewest it can
    make; the sum is then a floor, said only when the *covered* rows are
    below it (a partial run): rows above a floor prove nothing.  Nothing is
    said for scenarios, a red team, or tests that are not a list.
    """
    config = at(document, "config")
    tests = at(config, "tests")
    repeat = _run_repeat(document)
    scenarios = at(config, "scenarios")
    default = _mapping(config, "defaultTest")
    if type(tests) is not list or not tests or default is None:
        return None
    if not (scenarios is ABSENT or scenarios is None or scenarios == []) or at(config, "redteam") not in (ABSENT, None):
        return None
    base_vars, base_options = _mapping(default, "vars"), _mapping(default, "options")
    if base_vars is None or base_options is None:
        return None
    if default.get("prompts") is not None or default.get("providers") is not None:
        return None  # testCase.prompts ?? defaultTest.prompts (prepareTestCaseForEval): every test limited
    expanded = _expanded(tests, base_vars, rows)
    total, exact = 0, True
    for test in tests:
        made, fixed = _test_rows(test, base_vars, base_options, repeat, expanded)
        total += made
        exact = exact and fixed
    total *= columns
    if not exact and total <= covered:
        return None
    return Count(
        total,
        f"{'' if exact else 'at least '}the rows of config.tests ({len(tests)} tests, with their var combinations "
        f"and repeats) x {columns} prompt{'s' if columns != 1 else ''} of results.prompts",
        path("config", "tests"),
        "declared",
    )


def _vars(row: object) -> dict[str, object]:
    """*row*'s vars (none unless an object)."""
    variables = at(row, "vars")
    return variables if type(variables) is dict else {}


# The filters promptfoo 0.123.1 records in runtimeOptions (src/commands/eval.ts),
# by the flag that sets them; any other filter* member counts as one too.
_FILTERS = {"filterRange": "--filter-range", "providerFilter": "--filter-providers"}


def _filters(document: object, whole: bool) -> list[str]:
    """The filters promptfoo recorded for the run, each said as a reason it is partial.

    Of one prompt (not *whole*), a filter of providers or prompts leaves
    its tests whole: only the others are dropped.
    """
    options = at(document, "runtimeOptions")
    reasons = []
    for key, value in options.items() if type(options) is dict else ():
        if (key in _FILTERS or key.startswith("filter")) and value is not None and (whole or key != "providerFilter"):
            flag = _FILTERS.get(key, "with a filter")
            reasons.append(f"runtimeOptions.{key} {ascii(value) if type(value) is str else shown(value)} ({flag})")
    unran = _unran(document) if whole else None
    if unran is not None:
        reasons.append(unran)
    return reasons


def _unran(document: object) -> str | None:
    """Why a prompt or provider of the config did not run, or None.

    promptfoo records neither --filter-prompts nor a provider it never ran
    (a --filter-providers it does record is a filter of its own).  Said
    only where the file shows it beyond doubt: config.prompts a list of
    strings, each prompt that ran (results.prompts[].raw) one of them (so
    none was read from a file), and no provider of config.providers limited
    to part of them (a null ``prompts``, or one naming every prompt, limits
    nothing); a provider, when config.providers is a list of ids or of
    objects with a string label or id, whose name (label, else id) no
    entry of results.prompts ran.
    """
    listed = at(document, "config", "prompts")
    ran = at(document, "results", "prompts")
    providers = at(document, "config", "providers")
    if type(ran) is not list:
        return None
    reasons = [reason for reason in (_unran_prompts(listed, ran, providers), _unran_providers(document, ran)) if reason]
    return "; ".join(reasons) or None


def _unran_prompts(listed: object, ran: list[object], providers: object) -> str | None:
    """Why a prompt of config.prompts never ran (see ``_unran``), or None."""
    if type(providers) is dict:
        providers = list(providers.values())  # the map form: {id: options}
    if type(listed) is not list or type(providers) is not list:
        return None
    raws = [at(prompt, "raw") for prompt in ran]
    if not all(type(text) is str for text in [*listed, *raws]) or not set(raws) <= set(listed):
        return None
    for provider in providers:
        limit = at(provider, "prompts")
        if limit is ABSENT or limit is None:
            continue
        if type(limit) is not list or not set(listed) <= set(text for text in limit if type(text) is str):
            return None  # limited to some prompts: one may be unrun by design
    done = set(raws)
    missing = [text for text in dict.fromkeys(listed) if text not in done]
    if not missing:
        return None
    return (
        f"config.prompts lists {len(missing)} prompt{'s' if len(missing) != 1 else ''} that no entry of "
        f"results.prompts ran ({names_of(missing, 3)}; promptfoo eval --filter-prompts records nothing else)"
    )


def _unran_providers(document: object, ran: list[object]) -> str | None:
    """Why a provider of config.providers never ran with no providerFilter recorded (see ``_unran``), or None."""
    providers = at(document, "config", "providers")
    if type(providers) is not list or at(document, "runtimeOptions", "providerFilter") not in (ABSENT, None):
        return None
    names: list[str] = []
    for provider in providers:
        label, ident = at(provider, "label"), at(provider, "id")
        name = provider if type(provider) is str else label if type(label) is str else ident
        if type(name) is not str:
            return None  # a function, a file, a map: its name is not in the file
        names.append(name)
    done = {name for name in (at(prompt, "provider") for prompt in ran) if type(name) is str}
    missing = [name for name in dict.fromkeys(names) if name not in done]
    if not missing:
        return None
    return (
        f"config.providers lists {len(missing)} provider{'s' if len(missing) != 1 else ''} that no entry of "
        f"results.prompts ran ({names_of(missing, 3)}), and no runtimeOptions.providerFilter says why"
    )


def _repeated(rows: list[tuple[int, object]]) -> Count | None:
    """A count of the distinct tests among *rows* when some row repeats another's, or None.

    A row is one (testIdx, promptIdx, repeatIndex) of the run: a second is
    no second test, and could stand in for one that is missing.  Rows whose
    ids are not whole numbers are skipped here: ``_check_rows`` refuses them.
    """
    seen: dict[tuple[object, ...], int] = {}
    first: tuple[int, int] | None = None
    repeats = 0
    for number, row in rows:
        test, prompt, repeat = (at(row, name) for name in ("testIdx", "promptIdx", "repeatIndex"))
        if type(test) is not int or type(prompt) is not int or not (repeat is ABSENT or type(repeat) is int):
            continue
        key = (test, prompt, None if repeat is ABSENT else repeat)
        if key in seen:
            first = first or (number, seen[key])
            repeats += 1
        else:
            seen[key] = number
    if first is None:
        return None
    return Count(
        len(rows) - repeats,
        f"distinct (testIdx, promptIdx, repeatIndex) of the rows (row [{first[0]}] repeats row [{first[1]}])",
        path("results", "results"),
        "covered",
    )


def run_counts(
    document: object, where: str, counts: tuple[int, int, int], names: Sequence[str], index: int | None
) -> tuple[list[Count], list[tuple[int, object]] | None, list[str]]:
    """Every count promptfoo's file states of the tests at *where*, the rows behind them, and its filters.

    promptfoo writes one row in results.results per test, prompt and
    repeat, and counts each row once in stats (and in its prompt's
    metrics), as a pass, a failure or an error; config.tests and
    runtimeOptions say how many rows the run was to write.  ``check --from
    promptfoo`` and ``report --from promptfoo`` reconcile the same counts.
    """
    found = [Count(sum(counts), " + ".join(names), where, "covered")]
    rows, what = _rows(document, index)
    if rows is not None:
        found.append(Count(len(rows), what, path("results", "results"), "covered"))
        repeated = _repeated(rows)
        if repeated is not None:
            found.append(repeated)
    prompts = at(document, "results", "prompts")
    if index is None:
        sums: list[int] = []
        for prompt in prompts if type(prompts) is list else []:
            metrics = at(prompt, "metrics")
            parts = [at(metrics, name) for name in ("testPassCount", "testFailCount", "testErrorCount")]
            whole = [part for part in parts if type(part) is int and part >= 0]
            if len(whole) != len(parts):
                sums = []
                break
            sums.append(sum(whole))
        if sums:
            label = "testPassCount + testFailCount + testErrorCount of every prompt"
            found.append(Count(sum(sums), label, path("results", "prompts"), "covered"))
    columns = 1 if index is not None else len(prompts) if type(prompts) is list else None
    every = at(document, "results", "results")
    listed = every if type(every) is list else None
    declared = None if columns is None else _declared(document, listed, columns, sum(counts))
    if declared is not None:
        found.append(declared)
    return found, rows, _filters(document, index is None)


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


_METRICS = ("testPassCount", "testFailCount", "testErrorCount")


def _check_rows(document: object, index: int | None) -> None:
    """Refuse rows that are no (testIdx, promptIdx, repeatIndex) of the run, or that disagree with their prompt.

    promptfoo 0.123.1 numbers each prompt's rows testIdx 0 .. n - 1 (its
    repeats too: the repeat corpus file runs 0 .. 11 for 4 tests x 3) and
    writes no repeatIndex; each prompt's metrics count its own rows.  So
    every id is a whole number (never 0.0, "0", true or null), promptIdx
    names an entry of results.prompts, a repeatIndex is below
    runtimeOptions.repeat, each prompt's rows tally with its metrics, and
    their testIdx are below its count: with no row repeated, exactly
    0 .. n - 1.  A row copied under another prompt or testIdx is refused.
    With --provider (*index*), only that prompt's rows are held to its
    metrics: the other prompts are not gated.
    """
    rows = at(document, "results", "results")
    if type(rows) is not list:
        return
    prompts = at(document, "results", "prompts")
    if type(prompts) is not list:
        raise InvalidEvidence(
            "missing-member" if prompts is ABSENT else "wrong-type",
            f"promptfoo's results.prompts is {shown(prompts)}, not the list of prompts its rows' promptIdx name",
        )
    repeat = _run_repeat(document)
    columns: list[list[tuple[int, dict[str, object]]]] = [[] for _ in prompts]
    for number, row in enumerate(rows):
        place = f"$['results']['results'][{number}]"
        if type(row) is not dict:
            raise InvalidEvidence("not-an-object", f"promptfoo's row {place} is {json_kind(row)}, not an object")
        for name in ("testIdx", "promptIdx", "repeatIndex"):
            value = row.get(name, ABSENT)
            if value is ABSENT and name != "repeatIndex":
                raise InvalidEvidence("missing-member", f"promptfoo's row {place} has no {name}")
            if value is not ABSENT and (type(value) is not int or value < 0):
                raise InvalidEvidence(
                    "wrong-type", f"promptfoo's row {place} has {name} {shown(value)}, not a whole number"
                )
        prompt = row["promptIdx"]
        if type(prompt) is int and prompt >= len(prompts):
            raise InvalidEvidence(
                "population-mismatch",
                f"promptfoo's row {place} has promptIdx {prompt}, but results.prompts has {len(prompts)} "
                f"entr{'ies' if len(prompts) != 1 else 'y'}",
            )
        again = row.get("repeatIndex")
        if type(again) is int and repeat is not None and again >= repeat:
            raise InvalidEvidence(
                "population-mismatch",
                f"promptfoo's row {place} has repeatIndex {again}, but runtimeOptions.repeat is {repeat}",
            )
        if type(prompt) is int:
            columns[prompt].append((number, row))
    for column, (prompt, mine) in enumerate(zip(prompts, columns)):
        if index is not None and column != index:
            continue
        where = f"$['results']['prompts'][{column}]['metrics']"
        counts = tuple(count(at(prompt, "metrics", name), f"promptfoo's {name} at {where}") for name in _METRICS)
        said = (counts[0], counts[1], counts[2])
        _check_tally([row for _, row in mine], where, said, " + ".join(_METRICS), f"rows of promptIdx {column}")
        for number, row in mine:
            test = row["testIdx"]
            if type(test) is int and test >= sum(said):
                raise InvalidEvidence(
                    "population-mismatch",
                    f"promptfoo's row $['results']['results'][{number}] has testIdx {test}, but promptfoo numbers the "
                    f"{sum(said)} rows of promptIdx {column} ({where}) 0 to {sum(said) - 1}",
                )


def _check_version(document: object) -> None:
    """Refuse a results file of another version than the one this adapter follows (FOLLOWS)."""
    version = at(document, "results", "version")
    if version == 3 and type(version) is int:
        return
    raise InvalidEvidence(
        "missing-member" if version is ABSENT else "requirement-failed",
        f"promptfoo's results.version is {shown(version)}: this adapter follows results.version 3 (promptfoo "
        "0.123.1 eval -o results.json), whose rows and counts it knows; write the file with that release",
    )


def _grader_errors(rows: list[tuple[int, object]] | None, errors: int, where: str, names: Sequence[str]) -> str | None:
    """Why the tests at *where* include some never graded, or None."""
    graders = [(number, why) for number, why in ((number, ungraded(row)) for number, row in rows or []) if why]
    said = []
    if errors:
        said.append(f"{errors} error{'s' if errors != 1 else ''} ({names[2]} at {where})")
    if graders:
        number, why = graders[0]
        said.append(
            f"{len(graders)} row{'s' if len(graders) != 1 else ''} that no grader decided, which promptfoo counts "
            f"as failures (the first, $['results']['results'][{number}]: {why})"
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
    _check_version(document)
    index = None if provider is None else int(where.rsplit("][", 2)[-2])
    found, rows, filters = run_counts(document, where, (passed, failed, errors), names, index)
    never = _grader_errors(rows, errors, where, names)
    if never is not None and not options.switch("allow_errors"):
        raise InvalidEvidence(
            "grader-errors",
            f"promptfoo reports {never}: those tests were never graded; pass --allow-errors to count them as not "
            "passed",
        )
    total, notes = reconcile(
        found, harness="promptfoo", unit="tests", allow_partial=options.switch("allow_partial"), reasons=filters
    )
    if notes:
        trace.origin.append(("partial", notes[0]))
    if rows is not None:
        _check_tally([row for _, row in rows], where, (passed, failed, errors), " + ".join(names), found[1].what)
    _check_rows(document, index)
    return Computed(Fraction(passed, total), what, where, policy, listed)


# The outputs promptfoo eval -o writes besides JSON, by how they start.
_OTHER_FORMATS = (("<", "HTML or XML (junit.xml)"), ("-", "YAML"), ("id,", "CSV"))


def _other_format(text: str, exc: InvalidEvidence) -> InvalidEvidence:
    """The refusal of *text*, which the JSON loader refused with *exc*: which output to write, if it is promptfoo's."""
    if exc.code not in ("syntax", "trailing-data"):
        return exc
    start = text.lstrip()
    kind = next((name for prefix, name in _OTHER_FORMATS if start.startswith(prefix)), None)
    if kind is None and exc.code == "trailing-data" and start.startswith("{"):
        kind = "JSON Lines (rows only, no stats)"
    if kind is None:
        kind = "YAML or CSV" if ":" in start.split("\n", 1)[0] or "," in start.split("\n", 1)[0] else None
    if kind is None:
        return exc
    return InvalidEvidence(
        exc.code,
        f"this looks like promptfoo's {kind} output, which holds no counts to gate: write JSON with "
        "promptfoo eval -o results.json and gate that",
    )


def _load(raw: bytes | str, max_bytes: int, policy: Policy) -> tuple[object, list[tuple[str, str]]]:
    """The results file, or INVALID saying which output to write when it is another of promptfoo's."""
    text = decode(raw, max_bytes)
    try:
        document, records = load(text, policy)
    except InvalidEvidence as exc:
        refusal = _other_format(text, exc)
        if refusal is exc:
            raise
        raise refusal from None
    if type(at(document, "results", "stats")) is not dict:
        raise InvalidEvidence(
            "not-an-object" if type(document) is not dict else "missing-member",
            "this is not a promptfoo results file: it has no results.stats (write it with promptfoo eval -o "
            "results.json)",
        )
    return document, records


_PARTIAL = "gate a run of part of its tests (--filter-first-n, --filter-range, --filter-sample, a pause)"

HEADLINE = Headline(
    options=(
        Option("provider", "gate the prompt whose provider is LABEL, not the whole run"),
        Option("allow_errors", "gate a run with errors, counting each as not passed", default=False),
        Option("allow_partial", _PARTIAL),
    ),
    file="`promptfoo eval -o results.json`",
    selects="the pass rate successes / (successes + failures + errors) of results.stats, or with --provider "
    "testPassCount / (testPassCount + testFailCount + testErrorCount) of the prompt whose provider is LABEL, "
    "computed as an exact fraction; never metrics.score, which is a sum",
    requires="every count a whole number; no errors, counting rows no grader decided "
    "(componentResults[].metadata.graderError, an assertion that crashed) (else INVALID grader-errors; "
    "--allow-errors counts them as not passed); the counts, the rows in results.results (of that prompt's "
    "promptIdx, with --provider), each a distinct testIdx and promptIdx of the run, and every prompt's counts with "
    "its own rows agree, and the "
    "rows' passes and errors with theirs (else INVALID population-mismatch); at least one test (else INVALID "
    "empty-run); every test of config.tests, times its var combinations, repeats and the prompts, ran, and no "
    "filter is recorded in runtimeOptions (else INVALID partial-run, unless --allow-partial)",
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
        self.allow_partial = options.switch("allow_partial")

    def description(self) -> dict[str, object]:
        return {"harness": "promptfoo", "metric": self.metric, "allow_partial": self.allow_partial}

    def document(self, data: bytes, name: str, max_bytes: int) -> tuple[list[Placed], int | None]:
        try:
            output, codes = load_with_codes(data, max_bytes, self.policy.exact)
        except InvalidEvidence as exc:
            # Enough of the start to tell promptfoo's other outputs apart.
            refusal = _other_format(data[:65536].decode("utf-8", "replace"), exc)
            if refusal is exc:
                raise
            raise refusal from None
        rows = at(output, "results", "results")
        if type(rows) is not list:
            raise InvalidEvidence("missing-member", "the promptfoo output has no results.results array of rows")
        stats = at(output, "results", "stats")
        where = "$['results']['stats']"
        names = ("successes", "failures", "errors")
        passed, failed, errors = (
            declared_count(at(stats, name), f"results.stats.{name}", "promptfoo output") for name in names
        )
        _check_version(output)
        # The rule check --from promptfoo applies to the same counts.
        found, _, filters = run_counts(output, where, (passed, failed, errors), names, None)
        population, _ = reconcile(
            found, harness="promptfoo", unit="tests", allow_partial=self.allow_partial, reasons=filters
        )
        _check_tally(rows, where, (passed, failed, errors), " + ".join(names), "rows in results.results")
        _check_rows(output, None)
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
        reason = row.get("failureReason", ABSENT)
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
        never = ungraded(row)
        if never is not None:
            return invalid_row(
                trial_id,
                "grader-errors",
                f"no grader decided this row: {never}; promptfoo counts it as a failure, but it was never graded",
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
    options=(
        Option("metric", "score (default) or pass: what of a row is its score"),
        Option("allow_partial", _PARTIAL),
    ),
    reader=_reader,
)
