# SPDX-License-Identifier: MIT
"""``scorecontract check``: decide on one piece of evidence."""

from __future__ import annotations

from .._constants import CHECK_FORMATS, DEFAULT_MAX_BYTES
from .._errors import InvalidEvidence, PolicyError
from .._policy import DIRECTIONS, NONFINITE_ELSEWHERE
from ._policy import add_policy_arguments

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from .._evaluate import Decision
    from .._policy import Policy
    from .._select import Selection
    from .._source import Source
    from ._provenance import Provenance

__all__ = ["CheckOptions", "check_options", "register", "score_decision"]


def register(commands: Any, epilog: str) -> None:
    """Add the ``check`` sub-command to the parser's *commands*."""
    import argparse

    check = commands.add_parser(
        "check",
        help="decide on one score record, or one value selected from any JSON document",
        description='Decide on one score record, {"score": <number>}, or with --select on '
        "the one value a query selects in any JSON document (an lm-eval results file, "
        "an Inspect log, ...).",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("path", metavar="PATH", help="evidence file, or - for standard input")
    add_policy_arguments(check)
    _add_selection_options(check)
    _add_source_options(check)
    check.add_argument(
        "--max-bytes",
        metavar="N",
        default=str(DEFAULT_MAX_BYTES),
        help="largest evidence accepted, in bytes, or with a binary unit: 512K, 64M, 1G (default 1M = 1 MiB)",
    )
    _add_output_options(check)
    from ._options import add_renamed

    add_renamed(check)

    from ._judgment import add_arguments

    add_arguments(check)  # --contract, --negate, --extract

    from ._provenance import add_provenance_arguments

    add_provenance_arguments(check)
    check.set_defaults(run=_run_check)


def _add_selection_options(check: argparse.ArgumentParser) -> None:
    group = check.add_argument_group("selection, direction and scale (docs/selection.md)")
    group.add_argument(
        "--select",
        metavar="QUERY",
        help="gate the one value QUERY selects: JSONPath (RFC 9535) if it starts with $, "
        "a JSON Pointer (RFC 6901) if it starts with / ; no node, or several, is INVALID",
    )
    group.add_argument(
        "--require",
        metavar="EXPR",
        action="append",
        default=[],
        help="an RFC 9535 logical expression on the whole document that must hold, "
        "such as \"$.status == 'success'\" (repeatable); else INVALID requirement-failed",
    )
    group.add_argument(
        "--nonfinite-elsewhere",
        choices=NONFINITE_ELSEWHERE,
        metavar="MODE",
        help="refuse (the default; with --from, list unless refuse is stated) or list: what a NaN or infinity "
        "outside the selected value does to the document",
    )
    group.add_argument(
        "--direction",
        choices=DIRECTIONS,
        metavar="D",
        help="higher (the default: score >= threshold passes) or lower (score <= threshold passes: perplexity, MAE)",
    )
    group.add_argument("--min", metavar="X", help="lowest valid score, a JSON number or none (default 0)")
    group.add_argument("--max", metavar="X", help="highest valid score, a JSON number or none (default 1)")


def _add_source_options(check: argparse.ArgumentParser) -> None:
    from .._source import OPTIONS, REGISTRY

    group = check.add_argument_group(
        "harness adapters (docs/harnesses.md; scorecontract check --from HARNESS --help for one)"
    )
    group.add_argument(
        "--from",
        dest="harness",
        choices=tuple(REGISTRY),
        metavar="HARNESS",
        help=f"gate the headline of HARNESS's own results file: {', '.join(REGISTRY)}",
    )
    # The one vocabulary of adapter options (_source.OPTIONS): which
    # harness takes which, check --from HARNESS --help says.
    for name, (metavar, kind, commands, text) in OPTIONS.items():
        if "check" not in commands:
            continue
        flag = "--" + name.replace("_", "-")
        if kind == "switch":
            group.add_argument(flag, dest=name, action="store_true", help=text)
        else:
            group.add_argument(flag, dest=name, metavar=metavar, help=text)


def _source_option(args: argparse.Namespace) -> Source | None:
    """The ``Source`` that ``--from`` and its options name, or None.

    Every refusal is configuration (exit 2): an adapter option without
    ``--from``, one the harness's adapter does not take (``bad-option``),
    one it needs (``missing-option``), and ``--from`` beside an option
    whose job the adapter does itself (``option-conflict``).
    """
    from .._source import OPTIONS
    from ._options import conflict, needs

    given = [
        (name, "--" + name.replace("_", "-"), getattr(args, name))
        for name, entry in OPTIONS.items()
        if "check" in entry[2]
    ]
    given = [(name, flag, value) for name, flag, value in given if value not in (None, False)]
    harness: str | None = args.harness
    if harness is None:
        if given:
            raise needs(given[0][1], "--from HARNESS", "it names an option of a harness adapter")
        return None
    # Only now: a plain check imports no adapter machinery.
    from .._headline import headline_of, resolve_source
    from .._source import Source

    adapter = headline_of(harness)
    takes = {option.name: option for option in adapter.options}
    for name, flag, _ in given:
        if name not in takes:
            listed = ", ".join(option.flag for option in adapter.options)
            raise PolicyError("bad-option", f"--from {harness} does not take {flag}; it takes {listed or 'nothing'}")
    for option in adapter.options:
        if option.needed and option.name not in [name for name, _, _ in given]:
            raise needs(f"--from {harness}", option.flag, f"see scorecontract check --from {harness} --help")
    for name, what in (
        ("select", "the adapter selects the headline itself"),
        ("candidate", "a harness's file names no candidate; sign the file to bind it"),
        ("run_id", "a harness's file names no run id; sign the file to bind it"),
    ):
        if getattr(args, name) is not None:
            raise conflict("--from", f"--{name.replace('_', '-')}", what)
    if args.contract == "judgment":
        raise conflict("--from", "--contract judgment", "an adapter gates a harness's headline score")
    return resolve_source(Source(harness, **{name: value for name, _, value in given}))


def _policy_changes(args: argparse.Namespace) -> list[tuple[str, str, object]]:
    """The policy options beyond --threshold and --exact, read once."""
    from ._policy import bound_option

    changes: list[tuple[str, str, object]] = []
    if args.direction is not None:
        changes.append(("--direction", "direction", args.direction))
    if args.min is not None:
        changes.append(("--min", "minimum", bound_option("--min", args.min, args.exact)))
    if args.max is not None:
        changes.append(("--max", "maximum", bound_option("--max", args.max, args.exact)))
    if args.nonfinite_elsewhere is not None:
        changes.append(("--nonfinite-elsewhere", "nonfinite_elsewhere", args.nonfinite_elsewhere))
    if args.require:
        changes.append(("--require", "require", tuple(args.require)))
    return changes


def _add_output_options(check: argparse.ArgumentParser) -> None:
    check.add_argument(
        "--format",
        choices=CHECK_FORMATS,
        default="text",
        # A metavar: the four choices in braces no longer fit a narrow terminal's usage.
        metavar="FORMAT",
        help="stdout format: text (default: the result line), json (the receipt on one line), "
        "markdown (a summary for $GITHUB_STEP_SUMMARY) or github (an Actions ::error/::notice command)",
    )
    check.add_argument(
        "--junit-xml", metavar="FILE", help="also write JUnit XML, one testcase for the evidence; never overwrites"
    )
    check.add_argument(
        "--receipt",
        metavar="FILE",
        help="write the decision's JSON receipt to FILE, for every verdict; never overwrites: if FILE exists, exit 2",
    )
    check.add_argument(
        "--keep-evidence",
        metavar="DIR",
        help="copy the exact evidence bytes to DIR/<sha256> (DIR is created); never overwrites different bytes",
    )


class CheckOptions:
    """What one ``check`` run was asked to do, as typed values.

    - ``path``: the evidence path as given, ``-`` for standard input;
    - ``policy``: the ``Policy`` to apply, or None for a judgment without
      ``--threshold`` or ``--policy`` (no threshold at all);
    - ``judgment``, ``negate``, ``extract``: the judgment contract;
    - ``select``: the query as given (``--select``), or None for a whole record;
    - ``source``: the harness adapter (``--from``), or None;
    - ``direction_stated``: whether ``--direction`` or ``--policy`` states
      the direction (else an lm-eval file's own ``higher_is_better`` does);
    - ``max_bytes``: the byte limit on the evidence;
    - ``format``, ``junit_xml``, ``receipt``, ``keep_evidence``: what to
      print, write and keep;
    - ``provenance``: the candidate, run and key the evidence must match.
    """

    __slots__ = (
        "path",
        "policy",
        "judgment",
        "negate",
        "extract",
        "select",
        "source",
        "direction_stated",
        "max_bytes",
        "format",
        "junit_xml",
        "receipt",
        "keep_evidence",
        "provenance",
    )

    path: str
    policy: Policy | None
    judgment: bool
    negate: bool
    extract: bool
    select: str | None
    source: Source | None
    direction_stated: bool
    max_bytes: int
    format: str
    junit_xml: str | None
    receipt: str | None
    keep_evidence: str | None
    provenance: Provenance

    def __init__(
        self,
        *,
        path: str,
        policy: Policy | None,
        judgment: bool,
        negate: bool,
        extract: bool,
        select: str | None = None,
        source: Source | None = None,
        direction_stated: bool = True,
        max_bytes: int,
        format: str,
        receipt: str | None,
        keep_evidence: str | None,
        provenance: Provenance,
        junit_xml: str | None = None,
    ) -> None:
        self.path = path
        self.policy = policy
        self.judgment = judgment
        self.negate = negate
        self.extract = extract
        self.select = select
        self.source = source
        self.direction_stated = direction_stated
        self.max_bytes = max_bytes
        self.format = format
        self.junit_xml = junit_xml
        self.receipt = receipt
        self.keep_evidence = keep_evidence
        self.provenance = provenance


def check_options(args: argparse.Namespace) -> CheckOptions:
    """Turn ``check``'s parsed arguments into ``CheckOptions``, once.

    Every refusal is configuration (``PolicyError``, exit 2) and comes
    before any evidence is read: the policy, the judgment options outside
    the judgment contract, the byte limit, the candidate and run, the key.
    """
    from .._policy import default_policy
    from ._judgment import judgment_policy
    from ._options import byte_count, conflict, needs
    from ._policy import policy_option
    from ._provenance import Provenance

    judgment = args.contract == "judgment"
    source = _source_option(args)
    changes = _policy_changes(args)
    if not judgment:
        for option in ("negate", "extract"):
            if getattr(args, option):
                raise needs(f"--{option}", "--contract judgment", "it applies to grader judgments only")
        policy: Policy | None = policy_option(args.threshold, args.policy, args.exact, changes)
    else:
        policy = judgment_policy(args.threshold, args.policy, args.exact, changes)
        if args.select is not None and args.extract:
            raise conflict("--select", "--extract", "give one way to find the judgment")
    select: str | None = args.select
    if select is not None:
        from .._jsonpath import compile_query

        compile_query(select)  # a malformed query is configuration: exit 2 before reading
    max_bytes = byte_count("--max-bytes", args.max_bytes)
    if args.receipt is not None or args.junit_xml is not None:
        from ._files import refuse_taken

        # Before anything is read or printed: a taken output is refused
        # as configuration, never after a verdict was announced.
        refuse_taken((("receipt", args.receipt), ("--junit-xml", args.junit_xml)))
    provenance = Provenance.from_options(
        path=args.path,
        # A judgment without a threshold still obeys the default policy's
        # rules on the candidate.
        policy=default_policy() if policy is None else policy,
        candidate=args.candidate,
        run_id=args.run_id,
        key_file=args.key_file,
        key_env=args.key_env,
        signature=args.signature,
    )
    return CheckOptions(
        path=args.path,
        policy=policy,
        judgment=judgment,
        negate=args.negate,
        extract=args.extract,
        select=select,
        source=source,
        direction_stated=args.direction is not None or args.policy is not None,
        max_bytes=max_bytes,
        format=args.format,
        junit_xml=args.junit_xml,
        receipt=args.receipt,
        keep_evidence=args.keep_evidence,
        provenance=provenance,
    )


def _run_check(args: argparse.Namespace) -> int:
    options = check_options(args)
    if options.judgment:
        from ._judgment import run_judgment_check

        return run_judgment_check(options)
    return _run_score_check(options)


def _unread(options: CheckOptions) -> Selection | None:
    """The selection of evidence refused unread: it names the harness asked for."""
    if options.source is None:
        return None
    from .._select import Selection

    return Selection("$", source=options.source)


def _run_score_check(options: CheckOptions) -> int:
    from ._deliver import deliver, read_evidence

    evidence: bytes | InvalidEvidence
    try:
        evidence = read_evidence(options.path, options.max_bytes)
    except InvalidEvidence as exc:
        evidence = exc
    decision = score_decision(options, evidence)
    return deliver(options, decision, None if isinstance(evidence, InvalidEvidence) else evidence, options.provenance)


def score_decision(options: CheckOptions, evidence: bytes | InvalidEvidence, /) -> Decision:
    """Decide on the score *evidence* read for *options*: its bytes, or why none were read.

    The one score pipeline of ``check`` and of a ``gate``'s check gates:
    authenticate the exact bytes read, then judge those same bytes.
    """
    from .._evaluate import Decision, evaluate
    from .._policy import default_policy

    policy = default_policy() if options.policy is None else options.policy
    provenance = options.provenance
    if isinstance(evidence, InvalidEvidence):
        # Nothing complete was read (missing, unreadable, over the limit).
        return Decision.invalid(evidence, policy, _unread(options))
    forged = provenance.authenticate(evidence)
    if forged is not None:
        return Decision.invalid(forged, policy, _unread(options))
    if options.source is not None:
        source = options.source
        if not options.direction_stated:
            # No direction was stated: the metric's known one applies
            # (perplexity passes low), never the file's own choice.
            from .._headline import default_direction

            stated = default_direction(source)
            if stated is not None and stated != policy.direction:
                policy = policy.replace(direction=stated)
        return evaluate(evidence, policy=policy, max_bytes=options.max_bytes, source=source)
    return evaluate(
        evidence,
        policy=policy,
        max_bytes=options.max_bytes,
        candidate=provenance.candidate,
        run_id=provenance.run_id,
        select=options.select,
    )
