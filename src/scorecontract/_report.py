# SPDX-License-Identifier: MIT
"""Reports over many trials (docs/reports.md): JSON Lines in, a gate out.

The bug this module exists to prevent: an evaluation framework drops the
samples that errored or came back NaN, divides by what is left, and a run
that degrades reports a *better* score.  Here the population is declared up
front, every line is an observation that is counted, and a scheduled trial
without valid evidence blocks the release however good the rest look.

``report()`` puts the parts together, each in a module of its own:

- ``_report_results``: the result types (``Report``, ``Metric``,
  ``Observation``, ``Input``);
- ``_report_population``: the declared population, a count or a manifest;
- ``_report_inputs``: reading the inputs (shards, documents, streams) into
  one tally, with their digests; counting each line is ``_tally``'s job;
- ``_report_gate``: the options that decide, and the verdict;
- ``_report_regression``: the paired comparison with a baseline.
"""

from __future__ import annotations

import os

from ._constants import DEFAULT_MAX_BYTES, DEFAULT_MAX_LISTED
from ._errors import PolicyError
from ._policy import UNSET, policy_for
from ._report_gate import Gate, check_bound_scope, check_options, check_paired, gate, refuse_check_only_keys
from ._report_inputs import named_inputs, read_inputs, refuse_same_file
from ._report_population import population
from ._report_regression import check_regression_scale
from ._report_results import Input, Metric, Observation, Report

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import BinaryIO, Union

    from ._policy import Policy
    from ._score import Number
    from ._source import Source

    TrialSource = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, BinaryIO]

__all__ = ["MAX_MANIFEST_BYTES", "Input", "Metric", "Observation", "Report", "report"]

# A manifest of a million ids is about 20 MB; this bound only stops a
# runaway file, it is not a limit anyone should meet.
MAX_MANIFEST_BYTES = 256 * 1024 * 1024


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
    the pass rate on the exact Clopper-Pearson lower bound, the mean on
    *bound*: for bounded scores by default the finite-sample
    ``"empirical-bernstein"`` (exact Clopper-Pearson when every score is the
    minimum or the maximum), or ``"hoeffding"``; ``"asymptotic-t"`` (Student
    t, the default for unbounded scores) holds only as n grows.  For a
    policy whose direction is ``"lower"``, the mean's upper bound.  Each
    metric's ``interval`` holds the bound.  A mean over one trial, or trials
    that all scored the same, has no asymptotic bound: INVALID
    (``insufficient-trials``).
    A policy may state ``confidence`` and ``bound`` itself; the keywords
    may then be left out or repeat its values, and a keyword that
    contradicts them raises ``PolicyError`` (``option-conflict``).
    *cluster_by*, a JSONPath query, JSON Pointer or member name selecting
    each record's cluster (a string or integer), makes the mean's bound
    clustered (over the cluster means, or with clustered standard errors);
    a valid line without one is an invalid observation (``missing-cluster``,
    ``bad-cluster``).  The Hoeffding and Clopper-Pearson bounds would
    ignore the clusters: *cluster_by* with *bound* ``"hoeffding"``,
    ``metric="pass-rate"`` or *min_pass_rate* raises ``PolicyError``
    (``option-conflict``), and so does *baseline* with *bound*
    ``"hoeffding"``.  lm-eval's results file (``Source(..., results=...)``) whose
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
    refuse_check_only_keys(policy)
    check_binding(candidate, None, policy)
    check_options(metric, min_pass_rate, max_line_bytes, max_listed)
    confidence, bound = resolve_confidence(policy, confidence, bound)
    check_confidence(confidence, bound, policy)
    check_paired(confidence, cluster_by, baseline, max_regression, metric)
    if max_regression is not None:
        check_regression_scale(max_regression, policy)
    check_bound_scope(confidence, bound, cluster_by, baseline, metric, min_pass_rate)
    inputs = named_inputs(trials, "trials")
    baseline_inputs = [] if baseline is None else named_inputs(baseline, "baseline")
    refuse_same_file(inputs, baseline_inputs)
    reader = reader_for(source, select_score, trial_id, policy, [name for name, _ in inputs])
    if reader is not None and candidate is not None:
        raise PolicyError(
            "bad-policy",
            "candidate binds trial records' \"candidate\" member; a harness's samples or selected records have none",
        )
    if reader is not None and reader.declares_population and scheduled is None and manifest is None:
        count, ids, population_sha256 = 0, None, None  # the input declares it
    else:
        count, ids, population_sha256 = population(scheduled, manifest, MAX_MANIFEST_BYTES)
    given = count if scheduled is not None or manifest is not None else None
    options = Gate(metric, min_pass_rate, confidence, bound, cluster_by, max_regression)
    tally_options = (policy, max_listed, candidate, cluster_by, baseline is not None)
    tally, read = read_inputs(inputs, reader, given, ids, tally_options, max_line_bytes, "trials")
    if baseline is None:
        return gate(tally, options, read, population_sha256)
    # The baseline runs the same strict contract, over the same population,
    # with its own tally; its report is kept whole in the comparison.
    # *candidate* binds the candidate's file only: the baseline is another
    # model's run, whose lines name that model.
    baseline_options = (policy, max_listed, None, cluster_by, True)
    expected = tally.scheduled if read.failure is None else given
    baseline_tally, baseline_read = read_inputs(
        baseline_inputs, reader, expected, ids, baseline_options, max_line_bytes, "baseline"
    )
    plain = Gate(metric, min_pass_rate, None, options.bound, cluster_by, None)
    baseline_report = gate(baseline_tally, plain, baseline_read, population_sha256)
    return gate(tally, options, read, population_sha256, baseline_report, baseline_tally)
