# SPDX-License-Identifier: MIT
"""Headline adapters: a harness's results file gated by name (docs/harnesses.md).

``evaluate(raw, source=Source("lm-eval", task="mmlu", metric="acc,none"))``
gates the headline of an evaluation harness's own output without the user
writing a query.  The harness's module (``_harnesses``) knows where its
headline is and what its file says about the run; this module is what
every harness shares on the way: the one guarded loader, the options
checked against the adapter's, the help text, and the exact comparison
of a computed headline (promptfoo's pass rate, DeepEval's mean).  The
decision itself is the selection stage's and the numeric contract's
(``_evaluate``), the same for every harness.

No adapter turns a missing, null, NaN, string or errored value into a
number: each is INVALID, in the harness's own words.
"""

from __future__ import annotations

from ._describe import describe_value
from ._errors import PolicyError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from fractions import Fraction

    from ._harnesses._base import Computed, Harness, Headline, Option, Options, Reading, Trace
    from ._policy import Policy
    from ._score import Number
    from ._source import Source
    from ._verdict import Verdict

__all__ = [
    "adapter_help",
    "default_direction",
    "fraction_outcome",
    "fraction_text",
    "harness",
    "headline_of",
    "listing",
    "nonfinite_note",
    "option_lines",
    "read_headline",
    "resolve_source",
]


def harness(name: str) -> Harness:
    """The module of the harness *name*: the one loader every caller goes through.

    Raises ``PolicyError`` (``bad-option``) for an unknown name, and for
    every name in a copy of scorecontract vendored without its
    ``_harnesses`` package: harness support is then not in the copy.
    """
    package = __name__.rpartition(".")[0] + "._harnesses"
    try:
        from ._harnesses import load

        return load(name)
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith(package):
            raise
        raise PolicyError(
            "bad-option",
            f"harness support is not in this copy of scorecontract (its _harnesses package, or the module "
            f"for {name}, was left out when it was copied): --from {name} cannot be read here; score records "
            "and trial reports are gated as usual",
        ) from None


def headline_of(name: str) -> Headline:
    """The headline adapter of the harness *name*; ``PolicyError`` if it has none."""
    adapter = harness(name).HEADLINE
    if adapter is None:
        raise PolicyError("bad-option", f"check --from {name} is not supported: {name} has no headline adapter")
    return adapter


def listing(policy: Policy) -> Policy:
    """*policy* with ``nonfinite_elsewhere = "list"`` unless it states otherwise.

    Every adapter lists non-finite numbers outside its value (a NaN stderr,
    an unscored sample) where the policy is silent; a policy that states
    ``"refuse"`` keeps it, so a stricter setting is honoured, never relaxed.
    """
    if policy.nonfinite_elsewhere == "list" or policy.nonfinite_stated:
        return policy
    return policy.replace(nonfinite_elsewhere="list")


def resolve_source(source: object) -> Source:
    """Return *source* as a checked ``Source`` for a headline adapter.

    A bare string names a harness with no options (``"simple-evals"``).
    Raises ``PolicyError``: ``bad-option`` for an unknown harness, an option
    its adapter does not take, or an option of the wrong type;
    ``missing-option`` for one it needs.
    """
    from ._source import Source

    if type(source) is str:
        source = Source(source)
    if type(source) is not Source:
        raise PolicyError("bad-option", f"source must be a Source or a harness name, not {describe_value(source)}")
    _options(source)
    return source


def _options(source: Source) -> Options:
    adapter = headline_of(source.harness)  # first: it says when harness support is not in this copy
    from ._harnesses._base import resolve_options

    return resolve_options(source, adapter.options, f"the {source.harness} headline adapter", adapter.together)


def read_headline(raw: bytes | str, source: Source, policy: Policy, max_bytes: int, trace: Trace) -> Reading:
    """What *source*'s adapter finds in *raw*: a node to select, or a computed value.

    *source* has passed ``resolve_source``; *policy* is the one applied
    (``listing``).  Raises ``InvalidEvidence`` for evidence that does not
    hold a headline, and ``PolicyError`` for a policy it contradicts.
    """
    return headline_of(source.harness).gate(raw, _options(source), policy, max_bytes, trace)


def nonfinite_note(source: Source) -> str:
    """Why *source*'s harness writes a non-finite headline, for the INVALID message."""
    return headline_of(source.harness).nonfinite


def fraction_outcome(found: Computed, policy: Policy) -> tuple[Verdict, str, str, Number | None]:
    """The verdict, code, message and score for an exactly computed headline.

    The comparison is exact, against the threshold's and the bounds'
    decimal text: 4 passes of 5 meet a threshold of 0.8 (in binary, 4/5
    is below the float 0.8).  The score is the nearest float (a Decimal
    of 34 digits under an exact policy); the message gives the fraction.
    An INVALID outcome has no score.
    """
    from ._describe import format_number
    from ._harnesses._base import exact
    from ._policy import bounds_text
    from ._verdict import Verdict

    value, what, path, listed = found.value, found.what, found.path, found.listed
    shown = fraction_text(value)
    low, high = policy.minimum, policy.maximum
    if (low is not None and value < exact(low)) or (high is not None and value > exact(high)):
        return Verdict.INVALID, "out-of-range", f"{what} {shown} is outside {bounds_text(policy)}", None
    limit = exact(policy.threshold)
    meets = value <= limit if policy.direction == "lower" else value >= limit
    score: Number
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
        score = context.divide(decimal.Decimal(value.numerator), decimal.Decimal(value.denominator))
    else:
        score = value.numerator / value.denominator
    if policy.direction == "lower":
        relation, suffix = ("<=" if meets else ">"), " (lower is better)"
    else:
        relation, suffix = (">=" if meets else "<"), ""
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
        return Verdict.PASS, "meets-threshold", message, score
    return Verdict.FAIL, "below-threshold", message, score


def fraction_text(value: Fraction) -> str:
    """A Fraction as its receipt shows it: ``4/5``, or ``3`` when whole."""
    numerator, denominator = value.numerator, value.denominator
    return str(numerator) if denominator == 1 else f"{numerator}/{denominator}"


def default_direction(source: Source) -> str | None:
    """The direction to apply to *source*'s metric when the caller states none, or None.

    Never the file's own (a file may not choose the direction of its own
    comparison): the one the harness knows the metric to have (lm-eval's
    perplexity is better low), which the adapter then meets with what the
    file says.  None leaves the policy's default.
    """
    adapter = headline_of(source.harness)
    if adapter.direction is None:
        return None
    return adapter.direction(_options(source))


def adapter_help(name: str, width: int = 78) -> str:
    """The text ``check --from HARNESS --help`` prints, wrapped to *width*."""
    import textwrap

    module = harness(name)
    adapter = headline_of(name)
    takes = " ".join(option.usage for option in adapter.options)
    defaults = ", ".join(
        f"{option.flag} {option.default}"
        for option in adapter.options
        if option.default is not None and option.kind != "switch"
    )
    rows = [
        ("selects:", adapter.selects),
        ("requires:", adapter.requires),
        ("lists:", adapter.lists),
        ("follows:", module.FOLLOWS),
    ]
    if defaults:
        rows.append(("defaults:", defaults))
    width = max(width, 40)
    lines = [
        f"usage: scorecontract check --from {name} {takes} [policy options] PATH".replace("  ", " "),
        "",
        f"Gate the headline of {module.TITLE}'s own file: {adapter.file.replace('`', '')} (docs/harnesses.md).",
        "",
    ]
    for label, text in rows:
        lines += textwrap.wrap(
            text, width, initial_indent=f"{label:<10}", subsequent_indent=" " * 10, break_on_hyphens=False
        )
    lines += option_lines(adapter.options, width)
    lines.append("")
    lines += textwrap.wrap(
        "The policy options (--threshold, --policy, --exact, --direction, --min, --max, --nonfinite-elsewhere) "
        "and --require apply as they do without --from; --select is the adapter's own. Non-finite numbers "
        'outside the value are listed unless the policy states nonfinite_elsewhere "refuse".',
        width,
        break_on_hyphens=False,
    )
    return "\n".join(lines) + "\n"


def option_lines(options: Sequence[Option], width: int) -> list[str]:
    """The "options:" block of a harness's ``--from HARNESS --help`` page, wrapped to *width*.

    Empty when the adapter takes no option; ``check`` and ``report`` pages
    share it, so one option reads the same on both.
    """
    import textwrap

    if not options:
        return []
    lines = ["", "options:"]
    for option in options:
        lines += textwrap.wrap(
            option.help,
            width,
            initial_indent=f"  {option.usage.strip('[]'):<22}",
            subsequent_indent=" " * 24,
            break_on_hyphens=False,
        )
    return lines
