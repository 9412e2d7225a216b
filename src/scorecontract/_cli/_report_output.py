# SPDX-License-Identifier: MIT
"""A ``Report`` as text, JSON, Markdown, GitHub annotations, JUnit XML, receipt.

Trial ids are evidence, and evidence is hostile: an id may hold a newline
(which would forge a second workflow command), ``|`` (which would break a
Markdown table), a control character (which XML 1.0 cannot hold at all) or
a lone surrogate (which UTF-8 cannot encode).  Every format shows an id as
its Python ``repr``, which escapes exactly the characters that are not
printable, and then escapes what is special to the format.
"""

from __future__ import annotations

from .._describe import format_number
from ._verdict_line import policy_note, verdict_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence

    from .._confidence import Interval
    from .._report import Metric, Report

__all__ = [
    "markdown_text",
    "printable",
    "receipt_dict",
    "render",
    "render_github",
    "render_json",
    "render_markdown",
    "render_text",
    "shown_id",
    "junit_suite",
    "junit_xml_bytes",
    "junit_xml_chunks",
    "xml_text",
]

_LONGEST_ID = 80


def shown_id(trial_id: str | None) -> str:
    """Return *trial_id* quoted and escaped for people, or ``(no trial id)``.

    ``repr`` escapes control characters, lone surrogates, line and
    paragraph separators and format characters such as U+202E (which
    reverses the text after it), and keeps other printable text as it is.
    A very long id is shortened.
    """
    if trial_id is None:
        return "(no trial id)"
    if len(trial_id) > _LONGEST_ID:
        return f"{trial_id[:_LONGEST_ID]!r}...({len(trial_id)} characters)"
    return repr(trial_id)


def _printable(text: str) -> str:
    """*text* with every non-printable character escaped."""
    return text if text.isprintable() else repr(text)[1:-1]


def _metric_name(metric: Metric) -> str:
    return "mean score" if metric.name == "mean" else "pass rate"


def _value(metric: Metric) -> str:
    return "n/a" if metric.value is None else f"{metric.value:.6g}"


def _metric_line(report: Report, metric: Metric) -> str:
    chosen = metric.name in report.deciding_metrics
    lower = report.policy.direction == "lower"
    if metric.name == "mean":
        basis = f"threshold {format_number(metric.threshold)}{', lower is better' if lower else ''}"
    else:
        scoring = "<=" if lower else ">="
        basis = f"trials scoring {scoring} {format_number(report.policy.threshold)}; minimum {format_number(metric.threshold)}"
    if not chosen:
        role = "shown only"
    elif report.deciding:
        role = "decides"
    else:
        role = "does not decide: " + ("evidence is missing" if report.missing else "the population is in doubt")
    return (
        f"{_metric_name(metric)} {_value(metric)} = {format_number(metric.numerator)} / "
        f"{metric.denominator} valid trials ({basis}; {role})"
    )


def _intervals(report: Report) -> Iterator[tuple[str, Interval, str]]:
    """``(what, interval, compared with)`` for each bound that decided."""
    for metric in (report.mean, report.pass_rate):
        if metric.interval is not None:
            yield _metric_name(metric), metric.interval, format_number(metric.threshold)
    regression = report.regression
    if regression is not None and regression.interval is not None:
        limit = format_number(regression.max_regression)
        shown = f"-{limit}" if regression.interval.side == "lower" else limit
        yield "mean difference", regression.interval, shown


def _interval_text(what: str, interval: Interval, threshold: str) -> str:
    """``mean score 0.81, 95% lower bound 0.658476 (n=20, SE 0.0877) < threshold 0.8; would need ...``."""
    if interval.side == "lower":
        relation = ">=" if interval.meets else "<"
    else:
        relation = "<=" if interval.meets else ">"
    text = f"{what} {interval.estimate:.6g}, {interval.summary()} {relation} {threshold}"
    needed = interval.needed()
    return f"{text}; {needed}" if needed else text


def _regression_lines(report: Report) -> list[str]:
    regression = report.regression
    if regression is None:
        return []
    base = regression.baseline
    lines = [
        f"baseline: {_digest_text(base.size, base.sha256)}: valid {base.valid}, invalid {base.invalid}, "
        f"ignored reruns {base.ignored}, missing {base.missing}",
        f"paired: {_printable(regression.text())}",
    ]
    for count, listed, side in (
        (regression.only_candidate, regression.only_candidate_trials, "the candidate"),
        (regression.only_baseline, regression.only_baseline_trials, "the baseline"),
    ):
        if count:
            lines.append(f"valid only in {side}: {count}")
            lines.extend(f"  {shown_id(trial_id)}" for trial_id in listed)
            if count > len(listed):
                lines.append(f"  ... and {count - len(listed)} more, not listed")
    return lines


def _digest_text(size: int | None, sha256: str | None) -> str:
    """An input's size and digest, or that it was not read in full (None: see Input)."""
    return "not read in full" if sha256 is None else f"{size} bytes, sha256 {sha256}"


def _by_code(report: Report) -> str:
    return ", ".join(f"{code} {count}" for code, count in sorted(report.invalid_by_code.items()))


def render_text(report: Report, source: str | None = None) -> str:
    """The human summary: verdict line first, then counts, metrics, lists."""
    lines = [_verdict(report)]
    if source is not None:
        lines.append(f"trials: {_printable(source)} ({_digest_text(report.size, report.sha256)})")
    if len(report.inputs) > 1:
        for each in report.inputs:
            lines.append(f"  {_printable(each.name or '')}: {_digest_text(each.size, each.sha256)}")
    lines.append(f"scheduled {report.scheduled}: valid {report.valid}, missing {report.missing}")
    lines.append(
        f"observed {report.observed}: valid {report.valid}, invalid {report.invalid}, ignored reruns {report.ignored}"
    )
    lines.append(_metric_line(report, report.mean))
    lines.append(_metric_line(report, report.pass_rate))
    for what, interval, threshold in _intervals(report):
        if what != "mean difference":  # the paired line below shows it
            lines.append(f"bound: {_interval_text(what, interval, threshold)}")
    lines.extend(_regression_lines(report))
    if report.invalid:
        lines.append(f"invalid observations: {report.invalid} ({_by_code(report)})")
        for item in report.invalid_observations:
            lines.append(
                f"  {_printable(item.location())}: {shown_id(item.trial_id)}: {item.code}: {_printable(item.message)}"
            )
        if report.invalid_not_listed:
            lines.append(f"  ... and {report.invalid_not_listed} more, not listed")
    if report.ignored:
        lines.append(f"ignored reruns: {report.ignored}")
        for item in report.ignored_observations:
            lines.append(
                f"  {_printable(item.location())}: {shown_id(item.trial_id)}: "
                f"evidence is {_printable(item.evidence_location() or '')}"
            )
        if report.ignored_not_listed:
            lines.append(f"  ... and {report.ignored_not_listed} more, not listed")
    if report.missing:
        lines.append(f"missing trials: {report.missing}")
        for trial_id in report.missing_trials:
            lines.append(f"  {shown_id(trial_id)}")
        if report.missing_not_listed:
            lines.append(f"  ... and {report.missing_not_listed} more, not listed or never named")
    return "\n".join(lines)


def _verdict(report: Report) -> str:
    return verdict_line(
        report.verdict.value,
        report.code,
        _printable(report.message),
        version=_printable(report.policy.version),
    )


def render_json(report: Report) -> str:
    """The receipt on one line, as ``check --format json`` prints its own."""
    from ._receipt import receipt_text

    return receipt_text(receipt_dict(report))


# CommonMark: any ASCII punctuation may be backslash-escaped, so escaping
# all of it keeps ids and messages from becoming tables, links, HTML or
# emphasis.  The text is printable by then, so no line break gets through.
_MARKDOWN_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def _md(text: str) -> str:
    return "".join("\\" + c if c in _MARKDOWN_PUNCTUATION else c for c in _printable(text))


def render_markdown(report: Report, source: str | None = None) -> str:
    """A summary for ``$GITHUB_STEP_SUMMARY``: tables of counts and metrics."""
    verdict = report.verdict.value
    lines = [
        f"### scorecontract report: {verdict}",
        "",
        f"**{verdict}** `{report.code}`: {_md(report.message)} {_md(policy_note(report.policy.version))}",
        "",
    ]
    if source is not None:
        shown = "not read in full" if report.sha256 is None else f"{report.size} bytes, sha256 `{report.sha256}`"
        lines += [f"Trials: {_md(source)} ({shown})", ""]
    lines += [
        "| scheduled | observed | valid | invalid | ignored reruns | missing |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
        f"| {report.scheduled} | {report.observed} | {report.valid} | {report.invalid} "
        f"| {report.ignored} | {report.missing} |",
        "",
        "| metric | value | numerator | denominator | compared with | decides |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for metric in (report.mean, report.pass_rate):
        decides = "yes" if metric.name in report.deciding_metrics and report.deciding else "no"
        lines.append(
            f"| {_metric_name(metric)} | {_value(metric)} | {format_number(metric.numerator)} "
            f"| {metric.denominator} | {format_number(metric.threshold)} | {decides} |"
        )
    bounds = list(_intervals(report))
    if bounds:
        lines += [
            "",
            "| bound on | estimate | confidence | method | side | bound | n | SE | compared with | meets |",
            "| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | --- |",
        ]
        for what, interval, threshold in bounds:
            lines.append(
                f"| {what} | {interval.estimate:.6g} | {_md(format_number(interval.confidence))} "
                f"| {_md(interval.method)} | {interval.side} | {_md(interval.shown_bound())} "
                f"| {interval.n} | {_md(interval.shown_se())} | {_md(threshold)} | {'yes' if interval.meets else 'no'} |"
            )
            needed = interval.needed()
            if needed:
                lines += ["", _md(needed.capitalize()) + "."]
    regression_lines = _regression_lines(report)
    if regression_lines:
        lines += ["", "#### Paired comparison with the baseline", ""]
        lines += [f"- {_md(line.strip())}" for line in regression_lines]
    if report.invalid:
        lines += [
            "",
            f"#### Invalid observations: {report.invalid}",
            "",
            "| line | trial | reason | message |",
            "| ---: | --- | --- | --- |",
        ]
        for item in report.invalid_observations:
            # The line number alone for one JSON Lines input, as the column says.
            plain = item.file is None and item.where == f"line {item.line}"
            place = str(item.line) if plain else _md(item.location())
            lines.append(f"| {place} | {_md(shown_id(item.trial_id))} | `{item.code}` | {_md(item.message)} |")
        if report.invalid_not_listed:
            lines += ["", f"... and {report.invalid_not_listed} more, not listed."]
    if report.ignored:
        lines += ["", f"#### Ignored reruns: {report.ignored}", ""]
        for item in report.ignored_observations:
            lines.append(
                f"- {_md(item.location())}: {_md(shown_id(item.trial_id))} "
                f"(evidence is {_md(item.evidence_location() or '')})"
            )
        if report.ignored_not_listed:
            lines.append(f"- ... and {report.ignored_not_listed} more, not listed")
    if report.missing:
        lines += ["", f"#### Missing trials: {report.missing}", ""]
        for trial_id in report.missing_trials:
            lines.append(f"- {_md(shown_id(trial_id))}")
        if report.missing_not_listed:
            lines.append(f"- ... and {report.missing_not_listed} more, not listed or never named")
    return "\n".join(lines)


def render_github(report: Report, source: str | None = None) -> str:
    """GitHub Actions workflow commands: one ``::error`` per listed problem.

    Each invalid observation carries ``file`` and ``line`` so the runner
    annotates the trials file; the last line is the verdict (``::notice``
    for PASS, ``::error`` otherwise).  ``workflow_command`` escapes ``%``,
    CR, LF, and ``,`` and ``:`` in properties.
    """
    from ._github import workflow_command

    lines = []
    for item in report.invalid_observations:
        # The annotation's file is the observation's own input when there
        # are several; its line only when the record is a line.
        annotated = item.file if item.file is not None else source
        is_line = item.where == f"line {item.line}"
        lines.append(
            workflow_command(
                "error",
                f"{_printable(item.location())}: {shown_id(item.trial_id)}: {item.code}: {_printable(item.message)}",
                title=f"invalid trial evidence ({item.code})",
                file=annotated or "",
                line=str(item.line) if annotated and is_line else "",
            )
        )
    if report.invalid_not_listed:
        lines.append(
            workflow_command(
                "error",
                f"{report.invalid_not_listed} more invalid observations, not listed",
                title="invalid trial evidence",
            )
        )
    for trial_id in report.missing_trials:
        lines.append(
            workflow_command(
                "error",
                f"scheduled trial {shown_id(trial_id)} has no valid evidence",
                title="missing trial evidence",
            )
        )
    if report.missing_not_listed:
        lines.append(
            workflow_command(
                "error",
                f"{report.missing_not_listed} more scheduled trials have no valid evidence",
                title="missing trial evidence",
            )
        )
    parts = [
        f"{_metric_name(metric)} {_value(metric)} = {format_number(metric.numerator)} / {metric.denominator}"
        for metric in (report.mean, report.pass_rate)
        if metric.name in report.deciding_metrics
    ]
    parts += [_interval_text(what, interval, threshold) for what, interval, threshold in _intervals(report)]
    if report.regression is not None and report.regression.interval is None:
        parts.append(report.regression.text())
    shown = "; ".join(parts)
    summary = (
        f"{_verdict(report)} -- "
        f"scheduled {report.scheduled}, observed {report.observed}, valid {report.valid}, "
        f"invalid {report.invalid}, ignored {report.ignored}, missing {report.missing}; "
        f"{shown}"
    )
    command = "notice" if report.verdict.releases else "error"
    lines.append(workflow_command(command, summary, title="scorecontract report"))
    return "\n".join(lines)


def render(report: Report, form: str, source: str | None = None) -> str:
    """Render *report* in *form*, one of ``REPORT_FORMATS``."""
    if form == "json":
        return render_json(report)
    if form == "markdown":
        return render_markdown(report, source)
    if form == "github":
        return render_github(report, source)
    return render_text(report, source)


def _xml(text: str) -> str:
    """*text* escaped for XML character data or a double-quoted attribute.

    The text is printable by then (``_printable``), but a trial id may
    still hold ``&``, ``<`` or ``"``.
    """
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _junit_cases(report: Report) -> Iterator[tuple[str, str, str, str]]:
    """``(name, status, code, message)`` per testcase, in ``trials()`` order.

    The trials the file or the manifest names come one testcase each.  Under
    a bare ``scheduled`` count, the trials the file never names are
    indistinguishable, and there may be any number of them: they are one
    testcase, an ``<error>`` giving their count, so the XML grows with
    the input, not with the count.
    """
    named = 0
    for trial_id, status, place, code, message in report.located_trials():
        if trial_id is None:
            break
        named += 1
        name = trial_id if trial_id.isprintable() else shown_id(trial_id)
        where = f"{_printable(place)}: " if place is not None else ""
        yield name, status, code, where + _printable(message)
    unnamed = report.scheduled - named
    if unnamed:
        trials = "trial" if unnamed == 1 else "trials"
        yield (
            f"({unnamed} scheduled {trials} never named in the file)",
            "MISSING",
            "missing-evidence",
            f"{unnamed} of {report.scheduled} scheduled {trials} have no observation: the file never names them",
        )


def junit_xml_chunks(report: Report, source: str | None = None) -> Iterator[bytes]:
    """JUnit XML for *report*, as UTF-8 chunks of about 64 KiB.

    *source*, the trials as given, is named in the ``<system-out>`` text,
    as the text output names it: a place (``$['samples'][2]``) means
    nothing without its file.

    One ``<testcase>`` per trial the file or manifest names, and one for
    all the trials a bare count schedules that the file never names.  PASS
    is a bare testcase, FAIL a ``<failure>``, a trial with only invalid
    observations or none at all an ``<error>``: CI systems show an error as
    "the test could not run", which is what INVALID means.  Names and
    messages are made printable first, because XML 1.0 cannot hold control
    characters even escaped.  Generated as it is written, so a report over
    a million trials never holds its XML in memory.
    """
    failures = errors = tests = 0
    for _, status, _, _ in _junit_cases(report):
        tests += 1
        if status == "FAIL":
            failures += 1
        elif status != "PASS":
            errors += 1
    counts = f'tests="{tests}" failures="{failures}" errors="{errors}" skipped="0"'
    parts = [
        "<?xml version='1.0' encoding='utf-8'?>\n",
        f'<testsuites name="scorecontract" {counts}>\n',
        f'<testsuite name="scorecontract report" {counts}>\n<properties>',
    ]
    for name, value in (
        ("verdict", report.verdict.value),
        ("code", report.code),
        ("message", _printable(report.message)),
        ("scheduled", str(report.scheduled)),
        ("observed", str(report.observed)),
        ("valid", str(report.valid)),
        ("invalid", str(report.invalid)),
        ("ignored", str(report.ignored)),
        ("missing", str(report.missing)),
        ("sha256", "not read in full" if report.sha256 is None else report.sha256),
        ("policy", _printable(report.policy.version)),
        *_bound_properties(report),
    ):
        parts.append(f'<property name="{name}" value="{_xml(value)}" />')
    parts.append("</properties>\n")
    size = 0
    for name, status, code, message in _junit_cases(report):
        case = f'<testcase classname="scorecontract.report" name="{_xml(name)}"'
        if status == "PASS":
            part = case + " />\n"
        elif status == "FAIL":
            part = f'{case}><failure type="{_xml(code)}" message="{_xml(message)}" /></testcase>\n'
        else:
            part = f'{case}><error type="{_xml(code)}" message="{_xml(status + ": " + message)}" /></testcase>\n'
        parts.append(part)
        size += len(part)
        if size >= _JUNIT_CHUNK:
            yield _utf8("".join(parts))
            parts, size = [], 0
    parts.append(f"<system-out>{_xml(render_text(report, source))}</system-out>\n</testsuite>\n</testsuites>\n")
    yield _utf8("".join(parts))


_JUNIT_CHUNK = 64 * 1024


def _bound_properties(report: Report) -> Iterator[tuple[str, str]]:
    """JUnit properties for each bound that decided, and the paired comparison."""
    if report.confidence is not None:
        yield "confidence", format_number(report.confidence)
    for key, metric in (("mean", report.mean), ("pass_rate", report.pass_rate)):
        if metric.interval is not None:
            yield from _interval_properties(key, metric.interval)
    regression = report.regression
    if regression is not None:
        sha256 = regression.baseline.sha256
        yield "baseline_sha256", "not read in full" if sha256 is None else sha256
        yield "max_regression", format_number(regression.max_regression)
        yield "pairs", str(regression.pairs)
        yield "mean_difference", "n/a" if regression.mean_difference is None else repr(regression.mean_difference)
        yield "only_candidate", str(regression.only_candidate)
        yield "only_baseline", str(regression.only_baseline)
        if regression.interval is not None:
            yield from _interval_properties("difference", regression.interval)


def _interval_properties(key: str, interval: Interval) -> Iterator[tuple[str, str]]:
    yield f"{key}_bound_method", interval.method
    yield f"{key}_bound_side", interval.side
    yield f"{key}_estimate", repr(interval.estimate)
    yield f"{key}_bound", repr(interval.bound)
    yield f"{key}_bound_n", str(interval.n)
    if interval.se is not None:
        yield f"{key}_se", repr(interval.se)
    if interval.unpaired_se is not None:
        yield f"{key}_unpaired_se", repr(interval.unpaired_se)
    if interval.clusters is not None:
        yield f"{key}_clusters", str(interval.clusters)
    if interval.trials_needed is not None:
        yield f"{key}_trials_needed", str(interval.trials_needed)


def _utf8(text: str) -> bytes:
    # Printable text holds no lone surrogate (repr escapes them), so this
    # never replaces anything; if one got through, it would be shown as
    # \udXXX rather than crash the write.
    return text.encode("utf-8", "backslashreplace")


def junit_xml_bytes(report: Report) -> bytes:
    """The whole of ``junit_xml_chunks(report)``, for tests and small reports."""
    return b"".join(junit_xml_chunks(report))


def receipt_dict(report: Report) -> dict[str, object]:
    """The receipt: ``Report.as_dict()`` plus the receipt family's keys.

    Deterministic for the same input, population and policy: no clock, no
    path, and the input's SHA-256 covers every byte read.  A trial id
    holding a lone surrogate is shown as ``escape()`` shows it, so the
    receipt loads with ``scorecontract.loads``.
    """
    from ._escape import loadable
    from ._receipt import stamp

    return loadable(stamp(report.as_dict(), "report"))


def junit_suite(
    suite: str,
    properties: Iterable[tuple[str, str]],
    cases: Sequence[tuple[str, str, str, str, str]],
    output: str,
    /,
) -> str:
    """JUnit XML of one small suite: ``check``'s one testcase, ``gate``'s one per gate.

    *suite* names the testsuite (``scorecontract check``), *properties*
    are ``(name, value)`` pairs, each case is ``(classname, name, verdict,
    code, line)``: PASS a testcase showing *line*, FAIL a ``<failure>``,
    any other verdict an ``<error>`` (the test could not run), as
    ``junit_xml_chunks`` writes a report's trials.  *output* is the
    suite's ``<system-out>``.  Every value is escaped here, once.
    """
    failures = sum(1 for case in cases if case[2] == "FAIL")
    errors = sum(1 for case in cases if case[2] not in ("PASS", "FAIL"))
    counts = f'tests="{len(cases)}" failures="{failures}" errors="{errors}" skipped="0"'
    parts = [
        "<?xml version='1.0' encoding='utf-8'?>\n",
        f'<testsuites name="scorecontract" {counts}>\n',
        f'<testsuite name="{xml_text(suite)}" {counts}>\n<properties>',
    ]
    parts += [f'<property name="{xml_text(name)}" value="{xml_text(value)}" />' for name, value in properties]
    parts.append("</properties>\n")
    for classname, name, verdict, code, line in cases:
        case = f'<testcase classname="{xml_text(classname)}" name="{xml_text(name)}"'
        shown = xml_text(line)
        if verdict == "PASS":
            parts.append(f"{case}><system-out>{shown}</system-out></testcase>\n")
        elif verdict == "FAIL":
            parts.append(f'{case}><failure type="{xml_text(code)}" message="{shown}" /></testcase>\n')
        else:
            parts.append(f'{case}><error type="{xml_text(code)}" message="{shown}" /></testcase>\n')
    parts.append(f"<system-out>{output}</system-out>\n</testsuite>\n</testsuites>\n")
    return "".join(parts)


# The escapes above, for the gate command's outputs: one escaper per format.


def printable(text: str, /) -> str:
    """*text* with every non-printable character escaped, as every format shows it."""
    return _printable(text)


def markdown_text(text: str, /) -> str:
    """*text* made printable, its ASCII punctuation backslash-escaped (CommonMark)."""
    return _md(text)


def xml_text(text: str, /) -> str:
    """*text* made printable, then escaped for XML character data or an attribute."""
    return _xml(_printable(text))
