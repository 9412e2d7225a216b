# SPDX-License-Identifier: MIT
"""``scorecontract gate FILE``: every gate of a gate file, one verdict (docs/gates.md).

A gate's keys are the long options of its command, and mean exactly what
the command line makes of them: each gate is parsed by ``check``'s or
``report``'s own parser, turned into typed options by the command's own
``check_options`` or ``report_options``, and decided by the command's own
pipeline (``score_decision``, ``judgment_decision``, ``report_result``) on
evidence read once (``_gate.read_once``).  Every configuration problem, in
any gate, exits 2 before any evidence is read; every output file is
written before anything is printed as a verdict.
"""

from __future__ import annotations

from .._constants import GATE_FORMATS
from .._errors import InvalidEvidence, PolicyError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator, Mapping
    from typing import Any

    from .._evaluate import Decision
    from .._gate import Gate, GateFile
    from .._judgment import Judgment
    from .._report import Report
    from .._verdict import Verdict

__all__ = ["EXCLUDED", "gate_keys", "gate_receipt", "register", "renamed_keys"]

# The default limit on one evidence file read whole by a gate: every gate
# that names it decides on those bytes, so it is read into memory once.
_DEFAULT_MAX_EVIDENCE_BYTES = "256M"

# The long options of check and report that are no gate's key, and why.
# Every other long option is a key (gate_keys); a test holds the two in step.
EXCLUDED = {
    "--help": "help is printed by a command line, not decided by a gate",
    "--format": "what is printed is the gate command's own --format, for every gate",
    "--receipt": "the gate command's --receipt holds every gate's receipt",
    "--junit-xml": "the gate command's --junit-xml holds one testcase per gate",
    "--keep-evidence": "the gate command's --keep-evidence keeps every gate's evidence",
}

_DESCRIPTION = """\
Decide on every gate of a gate file and print one verdict: INVALID if any
gate is INVALID, else FAIL if any fails, else REVIEW if any is REVIEW, else
PASS.  A gate runs check or report on its evidence with that command's
options, spelled as in the command line without the dashes:

    version = "release-7"
    [gates.mmlu]
    command = "check"
    evidence = "lm-eval-results.json"
    from = "lm-eval"
    task = "mmlu"
    metric = "acc,none"
    threshold = 0.6

JSON on every Python, TOML (a name ending in .toml) on Python 3.11+.  Paths
are relative to the gate file's folder; a file named by several gates is
read once, and each decides on the same bytes (docs/gates.md)."""


def register(commands: Any, epilog: str) -> None:
    """Add the ``gate`` sub-command to the parser's *commands* (after check and report)."""
    import argparse

    gate = commands.add_parser(
        "gate",
        help="decide on every gate of a gate file, as one verdict",
        description=_DESCRIPTION,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    gate.add_argument(
        "path",
        metavar="FILE",
        help="the gate file: JSON, or TOML if FILE ends in .toml (Python 3.11+); - reads JSON from standard "
        "input, its paths relative to the current directory",
    )
    gate.add_argument(
        "--format",
        choices=GATE_FORMATS,
        default="text",
        help="stdout format: text (default), json (one receipt holding every gate's), markdown or github",
    )
    gate.add_argument("--receipt", metavar="FILE", help="also write the receipt of every gate; never overwrites")
    gate.add_argument(
        "--junit-xml", metavar="FILE", help="also write JUnit XML, one testcase per gate; never overwrites"
    )
    gate.add_argument(
        "--markdown",
        metavar="FILE",
        help="also write the markdown summary (for $GITHUB_STEP_SUMMARY) to FILE; never overwrites",
    )
    gate.add_argument(
        "--keep-evidence",
        metavar="DIR",
        help="copy every evidence file's exact bytes to DIR/<sha256> (DIR is created); never overwrites other bytes",
    )
    gate.add_argument(
        "--candidate",
        metavar="ID",
        help="give every gate candidate = ID, as check --candidate and report --candidate do; "
        "a gate that states its own, or cannot bind one (--from), is refused",
    )
    gate.add_argument(
        "--max-evidence-bytes",
        metavar="N",
        default=_DEFAULT_MAX_EVIDENCE_BYTES,
        help=f"largest evidence file read, whole, once for every gate naming it (default {_DEFAULT_MAX_EVIDENCE_BYTES}); "
        "a check gate's max-bytes still applies to it",
    )
    # The sibling parsers, registered beside this one: each gate is parsed
    # by its own command's parser.
    gate.set_defaults(run=_run_gate, parsers=commands.choices)


def gate_keys(parsers: Mapping[str, argparse.ArgumentParser], /) -> dict[str, dict[str, str]]:
    """Each gate command's keys, read off its parser: ``{"check": {"threshold": VALUE, ...}}``.

    A key is a long option without its dashes, unless ``EXCLUDED`` or an
    old spelling (``_options.RENAMED``, refused by ``renamed_keys``).  What
    it takes follows from the option: a flag (no value), a list (an option
    that may be repeated), a path (metavar FILE, K or DIR: relative to the
    gate file's folder), or one value.
    """
    import argparse

    from .._gate import FLAG, GATE_COMMANDS, PATH, VALUE, VALUES

    keys: dict[str, dict[str, str]] = {}
    for command in GATE_COMMANDS:
        found: dict[str, str] = {}
        for action in parsers[command]._actions:
            if action.help == argparse.SUPPRESS:
                continue  # an old spelling (_options.RENAMED): no key, refused as one
            for option in action.option_strings:
                if not option.startswith("--") or option in EXCLUDED:
                    continue
                if action.nargs == 0:
                    kind = FLAG
                elif isinstance(action, argparse._AppendAction):
                    kind = VALUES
                elif action.metavar in ("FILE", "K", "DIR"):
                    kind = PATH
                else:
                    kind = VALUE
                found[option[2:]] = kind
        keys[command] = found
    return keys


def renamed_keys() -> dict[str, str]:
    """The old gate keys and their new names, as the options were renamed: ``{"sample-metric": "metric"}``."""
    from ._options import RENAMED

    return {old[2:]: new[2:] for old, new in RENAMED.items()}


# -- one gate -------------------------------------------------------------------


class _Planned:
    """A gate whose options were read: what it must read, and how it decides."""

    __slots__ = ("gate", "options", "limit")

    def __init__(self, gate: Gate, options: Any, limit: int) -> None:
        self.gate = gate
        self.options = options
        self.limit = limit


class _Outcome:
    """What one gate decided, and everything each format shows of it."""

    __slots__ = ("gate", "result", "report", "verdict", "state", "code", "message", "line", "receipt", "evidence")

    def __init__(
        self,
        gate: Gate,
        result: Decision | Judgment | Report,
        line: str,
        receipt: dict[str, object],
        evidence: list[tuple[str, bytes | None]],
        report: Report | None = None,
    ) -> None:
        self.gate = gate
        self.result = result
        # A report gate's Report, for the formats that show its detail.
        self.report = report
        self.verdict: Verdict = result.verdict
        # A judgment names its own state (GRADER_ERROR); the verdict decides.
        outcome = getattr(result, "outcome", None)
        self.state = self.verdict.value if outcome is None else str(outcome.value)
        self.code: str = result.code
        self.message: str = result.message
        self.line = line
        self.receipt = receipt
        self.evidence = evidence


def _arguments(gate: Gate, parsers: Mapping[str, argparse.ArgumentParser], candidate: str | None) -> Any:
    """The gate as its command's parsed arguments, by that command's own parser."""
    from ._options import conflict

    tokens = []
    for key, value in gate.options:
        if value is True:
            tokens.append(f"--{key}")
        elif isinstance(value, tuple):
            tokens += [f"--{key}={item}" for item in value]
        else:
            # --key=value: a value that starts with - (min = -1) stays a value.
            tokens.append(f"--{key}={value}")
    if candidate is not None:
        if gate.get("candidate") is not None:
            raise conflict(f"gate {gate.name}'s candidate", "--candidate", "give the candidate once")
        tokens.append(f"--candidate={candidate}")
    if gate.command == "check" and len(gate.evidence) != 1:
        raise PolicyError(
            "bad-gate-file",
            f"gate {gate.name}: a check gate decides on one evidence file, not {len(gate.evidence)}; "
            "give each its own gate",
        )
    parser = parsers[gate.command]
    stop: type[Exception] = getattr(parser, "stop")
    try:
        return parser.parse_args([*tokens, "--", *gate.evidence])
    except stop as exc:
        # argparse's refusal of a value (an invalid choice): configuration.
        message = exc.args[2] if exc.args[0] == "usage" else "refused by its command's parser"
        raise PolicyError("bad-option", f"gate {gate.name}: {message}") from None


def _plan(gate: Gate, args: Any, max_evidence_bytes: int) -> _Planned:
    """The gate's typed options, by its command's own reader: every refusal now, before reading."""
    try:
        if gate.command == "check":
            from ._check import check_options

            options: Any = check_options(args)
            return _Planned(gate, options, options.max_bytes)
        from ._report import report_options

        options = report_options(args)
        return _Planned(gate, _with_task(options), max_evidence_bytes)
    except PolicyError as exc:
        raise PolicyError(exc.code, f"gate {gate.name}: {exc.message}") from None


def _with_task(options: Any) -> Any:
    """lm-eval's task, taken from the samples' file names while they are still names.

    A gate hands ``report()`` the bytes it read, which carry no name to
    take ``samples_<task>_<date>.jsonl`` from; the command reads the name
    the same way, so the task is named now.
    """
    source = options.source
    if source is None or source.harness != "lm-eval" or source.get("task") is not None:
        return options
    if source.get("results") is None:
        return options
    from .._samples import reader_for
    from .._source import Source

    reader = reader_for(source, None, None, options.policy, list(options.paths))
    task = getattr(reader, "task", None)
    if type(task) is str:
        options.source = Source("lm-eval", **dict(source.options), task=task)
    return options


class _Unread:
    """A stream that says why a report gate's evidence could not be read."""

    __slots__ = ("failure",)

    def __init__(self, failure: InvalidEvidence) -> None:
        self.failure = failure

    def read(self, size: int = -1) -> bytes:
        raise self.failure


def _evidence_for(planned: _Planned, path: str, read: bytes | InvalidEvidence) -> bytes | InvalidEvidence:
    """The gate's view of one file read once: its own byte limit applies too."""
    if isinstance(read, InvalidEvidence):
        if read.code == "too-large":
            return InvalidEvidence(
                read.code,
                f"{read.message}; a gate reads a file once, within the largest limit asked for it: raise "
                "--max-evidence-bytes (and a check gate's max-bytes), in binary units (64M is 64 MiB)",
            )
        return read
    if planned.gate.command == "check" and len(read) > planned.limit:
        import io

        from .._read import read_bounded

        try:
            # The one reader's own refusal, at the gate's own limit.
            read_bounded(io.BytesIO(read), planned.limit, what=f"evidence file {ascii(path)}")
        except InvalidEvidence as exc:
            return InvalidEvidence(exc.code, f"{exc.message}; raise the gate's max-bytes (binary units: 64M)")
    return read


def _decide(planned: _Planned, shared: Mapping[str, bytes | InvalidEvidence]) -> _Outcome:
    try:
        return _decided(planned, shared)
    except PolicyError as exc:
        # What only the library refuses (report()'s population): still
        # configuration, named by its gate, and nothing is printed yet.
        raise PolicyError(exc.code, f"gate {planned.gate.name}: {exc.message}") from None


def _decided(planned: _Planned, shared: Mapping[str, bytes | InvalidEvidence]) -> _Outcome:
    gate = planned.gate
    views = [(path, _evidence_for(planned, path, shared[path])) for path in gate.evidence]
    kept = [(path, None if isinstance(view, InvalidEvidence) else view) for path, view in views]
    if gate.command == "check":
        from ._check_output import check_receipt, result_line

        options = planned.options
        (path, evidence), (_, data) = views[0], kept[0]
        result: Decision | Judgment
        if options.judgment:
            from ._judgment import judgment_decision

            result = judgment_decision(options, evidence)
        else:
            from ._check import score_decision

            result = score_decision(options, evidence)
        receipt = check_receipt(result, path=path, evidence=data, provenance=options.provenance.receipt_section(data))
        return _Outcome(gate, result, result_line(result, format="text", path=path), receipt, kept)
    from ._report import report_result
    from ._report_output import receipt_dict, render_text

    options = planned.options
    inputs = [_Unread(view) if isinstance(view, InvalidEvidence) else view for _, view in views]
    baseline = None
    if options.baseline is not None:
        base = _evidence_for(planned, options.baseline, shared[options.baseline])
        baseline = _Unread(base) if isinstance(base, InvalidEvidence) else base
        kept.append((options.baseline, None if isinstance(base, InvalidEvidence) else base))
    report = report_result(options, inputs[0] if len(inputs) == 1 else inputs, baseline)
    line = render_text(report, None).split("\n", 1)[0]
    return _Outcome(gate, report, line, receipt_dict(report), kept, report)


# -- the run --------------------------------------------------------------------


def _load(path: str, keys: Mapping[str, Mapping[str, str]]) -> GateFile:
    from .._gate import MAX_GATE_FILE_BYTES, gate_file_from_bytes, load_gate_file

    if path != "-":
        return load_gate_file(path, keys, renamed=renamed_keys())
    from .._read import read_bounded, standard_input

    try:
        data = read_bounded(standard_input(), MAX_GATE_FILE_BYTES, what="gate file on standard input")
    except InvalidEvidence as exc:
        raise PolicyError("gate-file-unreadable", exc.message) from None
    return gate_file_from_bytes(data, keys, path="-", renamed=renamed_keys())


def _run_gate(args: argparse.Namespace) -> int:
    from .._gate import combined, read_once
    from ._files import refuse_taken
    from ._options import byte_count

    max_evidence_bytes = byte_count("--max-evidence-bytes", args.max_evidence_bytes)
    outputs = (("--receipt", args.receipt), ("--junit-xml", args.junit_xml), ("--markdown", args.markdown))
    refuse_taken(outputs)
    if args.candidate is not None:
        from .._policy import default_policy
        from ._provenance import bind

        bind(args.candidate, None, default_policy())  # an empty or malformed ID: exit 2 now
    parsers = args.parsers
    gates = _load(args.path, gate_keys(parsers))
    # Every gate's configuration first: one bad gate, and nothing is read.
    plans = [_plan(gate, _arguments(gate, parsers, args.candidate), max_evidence_bytes) for gate in gates.gates]
    wanted = [(path, plan.limit) for plan in plans for path in plan.gate.evidence]
    wanted += [(plan.options.baseline, max_evidence_bytes) for plan in plans if _baseline(plan) is not None]
    shared = read_once(wanted)
    outcomes = [_decide(plan, shared) for plan in plans]
    verdict, code, message = combined([(o.gate.name, o.verdict, o.code) for o in outcomes])
    summary = _Summary(gates, outcomes, verdict, code, message)
    problems = _write_outputs(args, summary)
    if problems:
        from ._io import EXIT_USAGE, warn

        warn(
            *(f"scorecontract: error: {problem}" for problem in problems),
            f"scorecontract: note: the gates were decided ({verdict.value} {code}), "
            "but without their record the decision is not delivered",
        )
        return EXIT_USAGE
    from ._io import emit

    emit(*_render(summary, args.format))
    return verdict.exit_code


def _baseline(plan: _Planned) -> str | None:
    return plan.options.baseline if plan.gate.command == "report" else None


class _Summary:
    """The gate file, every gate's outcome, and the one verdict."""

    __slots__ = ("gates", "outcomes", "verdict", "code", "message")

    def __init__(self, gates: GateFile, outcomes: list[_Outcome], verdict: Verdict, code: str, message: str) -> None:
        self.gates = gates
        self.outcomes = outcomes
        self.verdict = verdict
        self.code = code
        self.message = message

    def line(self) -> str:
        """``VERDICT code: message (gates VERSION)``."""
        return f"{self.verdict.value} {self.code}: {self.message} (gates {self.gates.version})"


def _write_outputs(args: argparse.Namespace, summary: _Summary) -> list[str]:
    """Keep the evidence, write the receipt, JUnit XML and markdown; return what failed."""
    from ._files import refusal, write_output

    problems: list[str] = []
    if args.keep_evidence is not None:
        from ._keep import keep_evidence

        kept = {data for outcome in summary.outcomes for _, data in outcome.evidence if data is not None}
        for data in sorted(kept):
            try:
                keep_evidence(args.keep_evidence, data)
            except OSError as exc:
                problems.append(str(refusal(exc, f"cannot keep the evidence in {ascii(args.keep_evidence)}")))
                break
    for option, path in (("receipt", args.receipt), ("JUnit XML", args.junit_xml), ("markdown summary", args.markdown)):
        if path is None:
            continue
        if option == "receipt":
            content = _receipt_bytes(summary)
        else:
            # Printable text already; a lone surrogate could only be shown escaped.
            text = _junit_xml(summary) if option == "JUnit XML" else _markdown(summary) + "\n"
            content = text.encode("utf-8", "backslashreplace")
        try:
            write_output(option, path, content)
        except PolicyError as exc:
            problems.append(str(exc))
    return problems


# -- the formats ----------------------------------------------------------------


def gate_receipt(summary: _Summary) -> dict[str, object]:
    """The gate receipt: the one verdict, the gate file, and every gate's own receipt."""
    from .._digest import sha256_hex
    from ._escape import loadable
    from ._receipt import stamp

    gates = []
    for outcome in summary.outcomes:
        gates.append(
            {
                "name": outcome.gate.name,
                "command": outcome.gate.command,
                "verdict": outcome.verdict.value,
                "code": outcome.code,
                "message": outcome.message,
                "evidence": [
                    {
                        "path": path,
                        "sha256": None if data is None else sha256_hex(data),
                        "length": None if data is None else len(data),
                    }
                    for path, data in outcome.evidence
                ],
                "receipt": outcome.receipt,
            }
        )
    record: dict[str, object] = {
        "verdict": summary.verdict.value,
        "code": summary.code,
        "message": summary.message,
        "gate_file": {"path": summary.gates.path, "sha256": summary.gates.sha256, "version": summary.gates.version},
        "gates": gates,
    }
    return loadable(stamp(record, "gate"))


def _receipt_bytes(summary: _Summary) -> bytes:
    from ._receipt import receipt_bytes

    return receipt_bytes(gate_receipt(summary))


def _render(summary: _Summary, form: str) -> list[str]:
    """The lines to print, each escaped on its own by ``emit``.

    Never one text split on newlines afterwards: a newline inside a value
    (the gate file's version, a gate's name) would become a line of its
    own, a forged ``PASS`` line or ``::notice`` command (an outside review).
    """
    if form == "json":
        from ._receipt import receipt_text

        return [receipt_text(gate_receipt(summary))]
    if form == "markdown":
        # markdown_text has escaped every newline inside a value already.
        return _markdown(summary).split("\n")
    if form == "github":
        return list(_github(summary))
    return [summary.line(), *(f"  {o.gate.name}: {o.line}" for o in summary.outcomes)]


def _markdown(summary: _Summary) -> str:
    from ._report_output import markdown_text, render_markdown

    lines = [
        f"### scorecontract gate: {summary.verdict.value}",
        "",
        f"**{summary.verdict.value}** `{summary.code}`: {markdown_text(summary.message)} "
        f"{markdown_text('(gates ' + summary.gates.version + ')')}",
        "",
        "| gate | command | verdict | code | message |",
        "| --- | --- | --- | --- | --- |",
    ]
    for outcome in summary.outcomes:
        message = outcome.line.split(": ", 1)[1] if ": " in outcome.line else outcome.message
        lines.append(
            f"| {markdown_text(outcome.gate.name)} | {outcome.gate.command} | **{outcome.state}** "
            f"| `{outcome.code}` | {markdown_text(message)} |"
        )
    for outcome in summary.outcomes:
        if outcome.report is not None:
            shown = ", ".join(path for path, _ in outcome.evidence[: len(outcome.gate.evidence)])
            detail = render_markdown(outcome.report, shown)
            # One level below the gate's own heading, named by the gate.
            heading, rest = detail.split("\n", 1)
            lines += ["", heading.replace("### scorecontract report", f"#### gate {outcome.gate.name} (report)"), rest]
    return "\n".join(lines)


def _github(summary: _Summary) -> Iterator[str]:
    from ._check_output import github_command
    from ._github import workflow_command
    from ._report_output import render_github

    for outcome in summary.outcomes:
        gate = outcome.gate
        properties = {"title": f"scorecontract gate {gate.name}: {outcome.state}"}
        if outcome.report is not None:
            shown = ", ".join(path for path, _ in outcome.evidence[: len(gate.evidence)])
            # The report's own annotations (each invalid observation on its
            # line), all but its closing summary, which the gate's line replaces.
            lines = render_github(outcome.report, shown).split("\n")[:-1]
            yield from (_shard_files(line, gate.evidence) for line in lines)
            if len(gate.evidence) == 1:
                properties["file"] = _annotated(gate.evidence[0])
        else:
            result = outcome.result
            properties["file"] = _annotated(gate.evidence[0])
            lineno, colno = getattr(result, "lineno", None), getattr(result, "colno", None)
            if lineno is not None and colno is not None:
                properties.update(line=str(lineno), col=str(colno))
        yield workflow_command(github_command(outcome.verdict.value), f"gate {gate.name}: {outcome.line}", **properties)
    yield workflow_command(
        github_command(summary.verdict.value), summary.line(), title=f"scorecontract gate {summary.verdict.value}"
    )


def _junit_xml(summary: _Summary) -> str:
    """JUnit XML: one testcase per gate; FAIL a ``<failure>``, INVALID and REVIEW an ``<error>``."""
    from ._report_output import junit_suite, xml_text

    properties = (
        ("verdict", summary.verdict.value),
        ("code", summary.code),
        ("message", summary.message),
        ("version", summary.gates.version),
        ("gate_file", summary.gates.path),
        ("sha256", summary.gates.sha256),
    )
    cases = [
        (f"scorecontract.gate.{o.gate.command}", o.gate.name, o.verdict.value, o.code, o.line) for o in summary.outcomes
    ]
    text = "\n".join(xml_text(line) for line in _render(summary, "text"))
    return junit_suite("scorecontract gate", properties, cases, text)


def _annotated(path: str) -> str:
    """*path* as an annotation names it: the runner resolves no ``..`` (display only)."""
    import os

    return os.path.normpath(path)


def _shard_files(line: str, evidence: tuple[str, ...]) -> str:
    """An annotation on shard ``input N`` of a report gate, put on that shard's file.

    A report gate hands its shards to ``report()`` as bytes, which it names
    ``input 1``, ``input 2``, ... in order; an annotation must name a file
    the runner can show.
    """
    import re

    from ._github import escape_property

    def named(match: re.Match[str]) -> str:
        index = int(match.group(1)) - 1
        if 0 <= index < len(evidence):
            return "file=" + escape_property(_annotated(evidence[index]))
        return match.group(0)

    # Only among the properties: the message after them is evidence text.
    head, separator, message = line[2:].partition("::")
    return "::" + re.sub(r"file=input (\d+)(?=,|$)", named, head) + separator + message
