# SPDX-License-Identifier: MIT
"""``scorecontract report``: gate a JSON Lines file of trials, or a harness's samples."""

from __future__ import annotations

from .._bound_rules import bound_names
from .._constants import DEFAULT_MAX_BYTES, DEFAULT_MAX_LISTED, METRICS, REPORT_FORMATS

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from decimal import Decimal
    from typing import Any

    from .._policy import Policy
    from .._report import Report
    from .._source import Source

__all__ = ["ReportOptions", "adapter_help", "register", "report_options", "report_result"]

_DESCRIPTION = """\
Gate a JSON Lines file of trial records, {"trial_id": "t-001", "score": 0.9}
(extra members allowed), against a declared population.  Every line is an
observation; invalid ones are counted and listed, never dropped.  A
scheduled trial without valid evidence makes the report INVALID (or REVIEW
with --review-owner); otherwise --statistic decides: the mean (default) or
the pass rate.

Several TRIALS files are the shards of one run: one population, read in the
order given.  --from HARNESS reads a harness's per-sample output instead
(lm-eval samples_<task>_*.jsonl, an Inspect .json or .eval log, HELM
per_instance_stats.json, promptfoo results.json, a DeepEval test run, an
oaieval record log; scorecontract report --from HARNESS --help for one);
--select and --trial-id read any JSON Lines file (docs/harnesses.md).
--metric is the harness's metric, as check takes it (lm-eval: acc,none,
metric and filter); --statistic is what the report decides on."""


def register(commands: Any, epilog: str) -> None:
    """Add the ``report`` sub-command to the parser's *commands*."""
    import argparse

    command = commands.add_parser(
        "report",
        help="gate a JSON Lines file of trials",
        description=_DESCRIPTION,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    command.add_argument(
        "paths",
        metavar="TRIALS",
        nargs="+",
        help="JSON Lines file (several: the shards of one run), or - for standard input",
    )
    population = command.add_argument_group("population (at least one is required)")
    population.add_argument("--scheduled", metavar="N", help="number of scheduled trials")
    population.add_argument("--manifest", metavar="FILE", help="JSON array of the scheduled trial ids, no duplicates")
    from .._source import OPTIONS, REGISTRY

    harness = command.add_argument_group("per-sample records of a harness (docs/harnesses.md)")
    harness.add_argument("--from", dest="harness", choices=tuple(REGISTRY), help="the harness that wrote TRIALS")
    # The one vocabulary of adapter options (_source.OPTIONS), spelled as
    # check spells them: --metric is the harness's metric in both.
    for name, (metavar, kind, commands, text) in OPTIONS.items():
        if "report" not in commands:
            continue
        flag = "--" + name.replace("_", "-")
        if kind == "switch":
            harness.add_argument(flag, dest=f"source_{name}", action="store_true", help=text)
        else:
            harness.add_argument(flag, dest=f"source_{name}", metavar=metavar, help=text)
    harness.add_argument(
        "--select", metavar="QUERY", help="any JSON Lines: the query (JSONPath, pointer or member) of each score"
    )
    harness.add_argument(
        "--trial-id",
        metavar="QUERY[,QUERY...]",
        action="append",
        help="with --select: the queries of the trial id's members, strings or integers",
    )
    from ._policy import add_policy_arguments

    # --threshold is the lowest passing score, and the lowest passing mean.
    add_policy_arguments(command)
    gate = command.add_argument_group("gate")
    gate.add_argument(
        "--statistic",
        choices=METRICS,
        default="mean",
        help="what the report decides on: the mean score (default) or the pass rate",
    )
    gate.add_argument(
        "--min-pass-rate",
        metavar="R",
        help="the lowest passing share of trials (default 1 with --statistic pass-rate); beside the mean, both must pass",
    )
    bounds = command.add_argument_group("confidence (decide on a bound, not the point estimate)")
    bounds.add_argument(
        "--confidence",
        metavar="C",
        help="decide on a one-sided bound at confidence C in (0.5, 1), e.g. 0.95: the pass rate's "
        "exact Clopper-Pearson bound, the mean's --bound",
    )
    bounds.add_argument(
        "--bound",
        choices=bound_names(),
        default=None,
        help="the mean's bound: empirical-bernstein (finite-sample, the default for bounded scores; exact "
        "Clopper-Pearson for 0/1 scores), hoeffding (finite-sample), asymptotic-t (Student t, holds only as "
        "n grows; the default for unbounded scores) (docs/reports.md)",
    )
    bounds.add_argument(
        "--cluster-by",
        metavar="QUERY",
        help="clustered standard errors: JSONPath, JSON Pointer or member name of each trial's cluster "
        "(needs --confidence; a trial without one is invalid)",
    )
    bounds.add_argument(
        "--baseline",
        metavar="FILE",
        help="paired regression gate: the baseline's trials, same population and contract",
    )
    bounds.add_argument(
        "--max-regression",
        metavar="D",
        help="with --baseline: PASS if the mean difference candidate - baseline is >= -D "
        "(its lower bound, with --confidence; <= +D under a lower-is-better policy)",
    )
    gate.add_argument(
        "--candidate",
        metavar="ID",
        help='require "candidate": ID, exactly, on every line; another is an invalid observation',
    )
    gate.add_argument(
        "--review-owner",
        metavar="NAME",
        help="who reviews missing evidence: the report is REVIEW (exit 4) instead of INVALID",
    )
    output = command.add_argument_group("output")
    output.add_argument(
        "--format",
        choices=REPORT_FORMATS,
        default="text",
        help="stdout format: text (default), json (the receipt on one line), markdown or github",
    )
    output.add_argument(
        "--junit-xml", metavar="FILE", help="also write JUnit XML, one testcase per trial named; never overwrites"
    )
    output.add_argument("--receipt", metavar="FILE", help="also write a receipt; never overwrites")
    output.add_argument(
        "--max-listed",
        metavar="N",
        default=str(DEFAULT_MAX_LISTED),
        help=f"list at most N invalid, ignored and missing items each (default {DEFAULT_MAX_LISTED})",
    )
    command.add_argument(
        "--max-bytes",
        metavar="N",
        default=str(DEFAULT_MAX_BYTES),
        help="largest record accepted: each line of a JSON Lines file (the file itself streams, of any size), "
        "and each whole document (an Inspect log, a HELM or promptfoo file, lm-eval's --results), in bytes, "
        "or with a binary unit: 512K, 64M, 1G (default 1M = 1 MiB)",
    )
    from ._options import add_renamed

    add_renamed(command)
    command.set_defaults(run=_run_report)


def adapter_help(name: str, width: int = 78) -> str:
    """The text ``report --from HARNESS --help`` prints, wrapped to *width*.

    The per-sample adapter's options, as ``check --from HARNESS --help``
    gives the headline adapter's; a harness without one says so.
    """
    import textwrap

    from .._headline import harness, option_lines

    module = harness(name)
    adapter = module.SAMPLES
    width = max(width, 40)
    if adapter is None:
        lines = [
            f"usage: scorecontract check --from {name} ... (report --from {name} reads nothing)",
            "",
            *textwrap.wrap(
                f"{module.TITLE} writes no per-sample records that report reads; gate its headline with "
                f"scorecontract check --from {name} (scorecontract check --from {name} --help).",
                width,
                break_on_hyphens=False,
            ),
        ]
        return "\n".join(lines) + "\n"
    takes = " ".join(option.usage for option in adapter.options)
    lines = [
        f"usage: scorecontract report --from {name} {takes} [population] [policy options] TRIALS".replace("  ", " "),
        "",
        f"Gate the per-sample records of {module.TITLE}, one trial each (docs/harnesses.md).",
        "",
    ]
    lines += textwrap.wrap(
        module.FOLLOWS, width, initial_indent=f"{'follows:':<10}", subsequent_indent=" " * 10, break_on_hyphens=False
    )
    lines += option_lines(adapter.options, width)
    lines.append("")
    lines += textwrap.wrap(
        "The population (--scheduled, --manifest, or what the harness's file declares), the policy options, "
        "--statistic, --min-pass-rate and the confidence and output options apply as they do without --from; "
        "--select and --trial-id are the adapter's own.",
        width,
        break_on_hyphens=False,
    )
    return "\n".join(lines) + "\n"


class ReportOptions:
    """What one ``report`` run was asked to do, as typed values.

    - ``path``: the trials file as given, ``-`` for standard input, and
      ``paths``: every one given (the shards of one run);
    - ``source`` (a ``Source``), or ``select`` and ``trial_id``: how
      records are read, or None for trial lines;
    - ``scheduled``, ``manifest``: the declared population;
    - ``policy``: the ``Policy`` to apply, ``--review-owner`` included;
    - ``statistic``, what decides (``mean`` or ``pass-rate``: the library's
      ``metric``); ``min_pass_rate``, or None when ``--min-pass-rate`` was
      not given (the library's default then applies);
    - ``candidate``: the candidate every line must name, or None;
    - ``confidence`` (or None) and ``bound``, the option's or the policy
      file's, ``cluster_by`` (or None),
      ``baseline`` and ``max_regression`` (both or neither): the bounds;
    - ``format``, ``junit_xml``, ``receipt``, ``max_listed``: the outputs;
    - ``max_bytes``: the byte limit on one line, or one whole document.
    """

    __slots__ = (
        "path",
        "paths",
        "source",
        "select",
        "trial_id",
        "scheduled",
        "manifest",
        "policy",
        "statistic",
        "min_pass_rate",
        "candidate",
        "confidence",
        "bound",
        "cluster_by",
        "baseline",
        "max_regression",
        "format",
        "junit_xml",
        "receipt",
        "max_listed",
        "max_bytes",
    )

    path: str
    paths: tuple[str, ...]
    source: Source | None
    select: str | None
    trial_id: tuple[str, ...] | None
    scheduled: int | None
    manifest: str | None
    policy: Policy
    statistic: str
    min_pass_rate: int | float | Decimal | None
    candidate: str | None
    confidence: int | float | Decimal | None
    bound: str
    cluster_by: str | None
    baseline: str | None
    max_regression: int | float | Decimal | None
    format: str
    junit_xml: str | None
    receipt: str | None
    max_listed: int
    max_bytes: int

    def __init__(
        self,
        *,
        path: str,
        scheduled: int | None,
        manifest: str | None,
        policy: Policy,
        statistic: str,
        min_pass_rate: int | float | Decimal | None,
        candidate: str | None,
        format: str,
        confidence: int | float | Decimal | None = None,
        bound: str = "empirical-bernstein",
        cluster_by: str | None = None,
        baseline: str | None = None,
        max_regression: int | float | Decimal | None = None,
        junit_xml: str | None,
        receipt: str | None,
        max_listed: int,
        max_bytes: int,
        paths: tuple[str, ...] = (),
        source: Source | None = None,
        select: str | None = None,
        trial_id: tuple[str, ...] | None = None,
    ) -> None:
        self.path = path
        self.paths = paths or (path,)
        self.source = source
        self.select = select
        self.trial_id = trial_id
        self.scheduled = scheduled
        self.manifest = manifest
        self.policy = policy
        self.statistic = statistic
        self.min_pass_rate = min_pass_rate
        self.candidate = candidate
        self.confidence = confidence
        self.bound = bound
        self.cluster_by = cluster_by
        self.baseline = baseline
        self.max_regression = max_regression
        self.format = format
        self.junit_xml = junit_xml
        self.receipt = receipt
        self.max_listed = max_listed
        self.max_bytes = max_bytes


def report_options(args: argparse.Namespace) -> ReportOptions:
    """Turn ``report``'s parsed arguments into ``ReportOptions``, once.

    Every refusal is configuration (``PolicyError``, exit 2) and comes
    before the trials are read, taken output paths included.
    """
    from .._bounds import default_bound
    from ._files import refuse_taken
    from ._options import byte_count, whole_number
    from ._policy import number_option
    from ._provenance import bind

    policy = _policy(args.threshold, args.policy, args.exact, args.review_owner)
    scheduled = None
    if args.scheduled is not None:
        scheduled = whole_number("--scheduled", args.scheduled, minimum=1, code="bad-population")
    min_pass_rate = None
    if args.min_pass_rate is not None:
        # As --threshold: decimal text under --exact (or an exact policy).
        min_pass_rate = number_option("--min-pass-rate", args.min_pass_rate, policy.exact)
    bind(args.candidate, None, policy)
    confidence = max_regression = None
    if args.confidence is not None:
        confidence = number_option("--confidence", args.confidence, policy.exact)
    if args.max_regression is not None:
        max_regression = number_option("--max-regression", args.max_regression, policy.exact)
    _check_bounds(args, confidence, max_regression, policy)
    if max_regression is not None:
        from .._report_regression import check_regression_scale

        check_regression_scale(max_regression, policy, "--max-regression", "bad-option")
    # A policy file's own confidence and bound decide (the options beside
    # it were refused above); report() accepts them repeated.
    if confidence is None:
        confidence = policy.confidence
    bound = args.bound or policy.bound or default_bound(policy.minimum, policy.maximum)
    source, select, trial_id = _reading(args, policy)
    max_bytes = byte_count("--max-bytes", args.max_bytes)
    if source is not None and args.policy is None:
        # No direction was stated (report has no --direction; a policy
        # file states one): a file the harness's options name may state it
        # (lm-eval's higher_is_better), as for check --from lm-eval.
        # report() refuses a policy whose direction disagrees (option-conflict).
        from .._samples import reader_for, results_direction

        reader = reader_for(source, None, None, policy, [None if path == "-" else path for path in args.paths])
        stated = results_direction(reader, max_bytes)
        if stated is not None and stated != policy.direction:
            policy = policy.replace(direction=stated)
    options = ReportOptions(
        path=args.paths[0],
        paths=tuple(args.paths),
        source=source,
        select=select,
        trial_id=trial_id,
        scheduled=scheduled,
        manifest=args.manifest,
        policy=policy,
        statistic=args.statistic,
        min_pass_rate=min_pass_rate,
        candidate=args.candidate,
        confidence=confidence,
        bound=bound,
        cluster_by=args.cluster_by,
        baseline=args.baseline,
        max_regression=max_regression,
        format=args.format,
        junit_xml=args.junit_xml,
        receipt=args.receipt,
        max_listed=whole_number("--max-listed", args.max_listed, minimum=0),
        max_bytes=max_bytes,
    )
    refuse_taken((("--junit-xml", options.junit_xml), ("--receipt", options.receipt)))
    return options


def _check_bounds(args: argparse.Namespace, confidence: object, max_regression: object, policy: Policy) -> None:
    """Refuse, before reading anything, what the library would refuse: exit 2."""
    from .._bound_rules import scope_conflict
    from .._bounds import default_bound
    from .._confidence import check_confidence
    from ._options import conflict, needs

    if policy.confidence is not None:
        # As --threshold beside --policy: the versioned file decides, and an
        # option that would override it is refused, not silently dropped.
        for option, given in (("--confidence", confidence), ("--bound", args.bound)):
            if given is not None:
                raise conflict("--policy", option, "the policy file states confidence and bound; change them there")
        confidence = policy.confidence
    elif args.bound is not None and confidence is None:
        raise needs("--bound", "--confidence", "a bound without a confidence would decide nothing")
    if args.cluster_by is not None and confidence is None:
        raise needs("--cluster-by", "--confidence", "clusters change only a confidence bound")
    if args.baseline is not None and max_regression is None:
        raise needs("--baseline", "--max-regression")
    if max_regression is not None and args.baseline is None:
        raise needs("--max-regression", "--baseline")
    if args.baseline is not None and args.statistic != "mean":
        raise conflict("--baseline", "--statistic pass-rate", "the paired difference is of scores")
    if args.baseline == "-" and "-" in args.paths:
        raise conflict("--baseline -", "TRIALS -", "standard input can be read once")
    if "-" in args.paths and len(args.paths) > 1:
        raise conflict("TRIALS -", "other TRIALS files", "standard input is one input; give the shards as files")
    bound = args.bound or policy.bound or default_bound(policy.minimum, policy.maximum)
    check_confidence(confidence, bound, policy)
    if confidence is None:
        return
    # As report() refuses them (option-conflict), with the options' names:
    # the rules are _bound_rules.scope_conflict's, written once.
    pass_rate = "--statistic pass-rate" if args.statistic == "pass-rate" else None
    if pass_rate is None and args.min_pass_rate is not None:
        pass_rate = "--min-pass-rate"
    found = scope_conflict(bound, args.cluster_by is not None, args.baseline is not None, pass_rate)
    if found is not None:
        option, other, why = found
        given = f"--bound {bound}" if args.bound is not None else f"--policy (bound {bound})"
        raise conflict(
            "--cluster-by" if option == "cluster_by" else "--baseline", given if other == "bound" else other, why
        )


def _harness_options() -> list[tuple[str, str, str]]:
    """(flag, attribute, Source keyword) of each harness option report takes."""
    from .._source import OPTIONS

    return [
        ("--" + name.replace("_", "-"), f"source_{name}", name)
        for name, entry in OPTIONS.items()
        if "report" in entry[2]
    ]


def _reading(args: argparse.Namespace, policy: Policy) -> tuple[Source | None, str | None, tuple[str, ...] | None]:
    """The ``Source`` of --from and its options, or the generic queries; refusals exit 2.

    Only the options given go into the ``Source``: one its harness does not
    take is refused by the library (``bad-option``), never ignored.
    """
    from .._samples import reader_for
    from .._source import Source
    from ._options import conflict, needs

    trial_id = tuple(args.trial_id) if args.trial_id is not None else None
    given = [flag for flag, attribute, _ in _harness_options() if getattr(args, attribute) not in (None, False)]
    if args.harness is None:
        if given:
            why = ""
            if given[0] == "--metric" and args.source_metric in METRICS:
                # report --metric once meant this; it now means what it means in check.
                why = f"--metric names the harness's metric; what the report decides on is --statistic {args.source_metric}"
            raise needs(given[0], "--from HARNESS", why)
        if (args.select is None) != (trial_id is None):
            raise needs(
                "--select" if trial_id is None else "--trial-id",
                "--trial-id" if trial_id is None else "--select",
            )
        if args.select is not None:
            reader_for(None, args.select, trial_id, policy, [])  # compiles the queries
        return None, args.select, trial_id
    if args.select is not None or trial_id is not None:
        raise conflict(
            "--from",
            "--select" if args.select is not None else "--trial-id",
            "the harness says where score and id are",
        )
    options: dict[str, object] = {}
    for _, attribute, keyword in _harness_options():
        value = getattr(args, attribute)
        if value is not None and value is not False:
            options[keyword] = _labels(value, policy) if keyword == "labels" else value
    source = Source(args.harness, **options)
    # Every refusal now, before anything is read; "-" has no name to give the task.
    reader_for(source, None, None, policy, [None if path == "-" else path for path in args.paths])
    return source, None, None


def _labels(text: str, policy: Policy) -> dict[str, object]:
    """``C=1,P=0.5,I=0,N=0`` as a dict, each score read as --threshold is."""
    from .._errors import PolicyError
    from ._policy import number_option

    labels: dict[str, object] = {}
    for item in text.split(","):
        label, equals, score = item.partition("=")
        label = label.strip()
        if not equals or not label:
            raise PolicyError("bad-option", f"--labels takes LETTER=SCORE pairs separated by commas, not {item!a}")
        if label in labels:
            raise PolicyError("bad-option", f"--labels maps {label!a} twice")
        labels[label] = number_option("--labels", score.strip(), policy.exact)
    return labels


def _policy(threshold: str | None, path: str | None, exact: bool, review_owner: str | None) -> Policy:
    from ._options import conflict
    from ._policy import policy_option

    if review_owner is not None and path is not None:
        # Same rule as --threshold beside --policy: the file's version must
        # name the policy that was applied.
        raise conflict("--policy", "--review-owner", "put review_owner in the file")
    policy = policy_option(threshold, path, exact)
    if review_owner is None:
        return policy
    return policy.replace(review_owner=review_owner)


def _run_report(args: argparse.Namespace) -> int:
    return run_report(report_options(args))


def run_report(options: ReportOptions) -> int:
    """Gate the trials as *options* say, write the files, print the result.

    The files come first: one that cannot be written exits 2 before
    anything is printed as a verdict.
    """
    from ._files import write_output
    from ._io import emit
    from ._report_output import junit_xml_chunks, render

    result = report_result(options)
    shown = None if options.path == "-" else ", ".join(options.paths)
    if options.junit_xml is not None:
        # Streamed: the XML of a million trials is never held whole.
        write_output("--junit-xml", options.junit_xml, junit_xml_chunks(result, shown))
    if options.receipt is not None:
        from ._receipt import receipt_bytes
        from ._report_output import receipt_dict

        write_output("--receipt", options.receipt, receipt_bytes(receipt_dict(result)))
    # The renderers end each line of their own; emit escapes within them.
    emit(*render(result, options.format, shown).split("\n"))
    return result.verdict.exit_code


def report_result(options: ReportOptions, /, trials: Any = None, baseline: Any = None) -> Report:
    """The ``Report`` on the trials *options* name, as ``report()`` decides it.

    *trials* and *baseline*, when given, are what to read instead of the
    paths (a gate file's evidence, read once, as bytes).
    """
    from .._report import report

    if trials is None:
        inputs = [standard_or_path(path) for path in options.paths]
        trials = inputs[0] if len(inputs) == 1 else inputs
    # How records are read, passed only when given.
    reading: dict[str, Any] = {}
    if options.source is not None:
        reading["source"] = options.source
    if options.select is not None:
        reading["select_score"] = options.select
        reading["trial_id"] = options.trial_id
    # --min-pass-rate is passed only when given: unstated, the library's
    # own default decides, whatever it is.
    stated: dict[str, Any] = {}
    if options.min_pass_rate is not None:
        stated["min_pass_rate"] = options.min_pass_rate
    if options.baseline is not None:
        stated["baseline"] = standard_or_path(options.baseline) if baseline is None else baseline
        stated["max_regression"] = options.max_regression
    return report(
        trials,
        scheduled=options.scheduled,
        manifest=options.manifest,
        policy=options.policy,
        metric=options.statistic,
        max_line_bytes=options.max_bytes,
        max_listed=options.max_listed,
        candidate=options.candidate,
        confidence=options.confidence,
        bound=options.bound,
        cluster_by=options.cluster_by,
        **reading,
        **stated,
    )


def standard_or_path(path: str) -> Any:
    """*path* as ``report()`` reads it: ``-`` is standard input."""
    if path == "-":
        from .._read import standard_input

        return standard_input()
    return path
