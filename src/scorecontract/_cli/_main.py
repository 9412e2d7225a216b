# SPDX-License-Identifier: MIT
"""Parsing and dispatch: ``main(argv)`` runs one command and returns its status.

Exit status: 0 PASS, 1 FAIL, 2 usage or configuration error, 3 INVALID,
4 REVIEW, 70 an unexpected internal error, 74 a result that could not be
written.  Only 0 releases.  Results go to stdout, messages to stderr, every
character printed passes through ``_escape.escape``, and bad evidence never
prints a traceback.
"""

from __future__ import annotations

import sys

from .._errors import InvalidEvidence, PolicyError
from .._verdict import Verdict
from ._io import (
    EXIT_INTERNAL_ERROR,
    EXIT_INTERRUPTED,
    EXIT_IOERR,
    EXIT_USAGE,
    VERDICT_STATUSES,
    Output,
    emit,
    exit_table,
    guard_standard_descriptors,
    warn,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import Any, NoReturn

__all__ = ["main"]


# -- parsing: argparse, made to print through the writers and never exit ------


def _help_width() -> int:
    """The width argparse would use, found without importing shutil.

    argparse's HelpFormatter imports shutil (and with it bz2, lzma, zlib
    and fnmatch) for shutil.get_terminal_size() on every add_argument: a
    third of the start-up of a release script's one-line check.  This is
    the same rule: $COLUMNS, else the terminal, else 80; minus 2.
    """
    import os

    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    stream = sys.__stdout__
    if columns <= 0 and stream is not None:
        try:
            columns = os.get_terminal_size(stream.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns if columns > 0 else 80) - 2


def _parser_class() -> type[argparse.ArgumentParser]:
    import argparse

    class Stop(Exception):
        """Parsing stops here; ``main`` decides the status from ``args``.

        ``args`` is ``("help", parser, option, text)`` for -h, --help or
        --version, ``("usage", parser, message)`` for argparse's
        ``error()``, and ``("exit", parser, status)`` for its ``exit()``.
        Defined here, not at module level, because it never leaves ``main``:
        it is no part of the package's exception hierarchy.
        """

    class Help(argparse.Action):
        """-h/--help: hands the request to ``main`` instead of exiting 0."""

        def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
            kwargs.update(nargs=0, default=argparse.SUPPRESS)
            argparse.Action.__init__(self, option_strings, dest, **kwargs)

        def __call__(
            self, parser: argparse.ArgumentParser, namespace: Any, values: Any, option_string: str | None = None
        ) -> NoReturn:
            raise Stop("help", parser, option_string or "--help", parser.format_help())

    class Version(Help):
        """--version: the same, with the version as the text."""

        def __call__(
            self, parser: argparse.ArgumentParser, namespace: Any, values: Any, option_string: str | None = None
        ) -> NoReturn:
            from .._version import __version__

            raise Stop("help", parser, option_string or "--version", f"scorecontract {__version__}\n")

    class StoreOnce(argparse._StoreAction):
        """An option that takes one value refuses a second one.

        argparse's own store action keeps the last value given, so
        ``--threshold 0.99 --threshold 0.4`` gated at 0.4 and said nothing.
        The values given so far are kept in the namespace under ``_GIVEN``
        for the length of one parse (``Parser.parse_known_args`` drops it).
        """

        def __call__(
            self, parser: argparse.ArgumentParser, namespace: Any, values: Any, option_string: str | None = None
        ) -> None:
            given: dict[str, object] = namespace.__dict__.setdefault(_GIVEN, {})
            if self.option_strings and self.dest in given:
                raise argparse.ArgumentError(
                    self, f"given twice ({given[self.dest]!a}, then {values!a}); it takes one value, give it once"
                )
            given[self.dest] = values
            setattr(namespace, self.dest, values)

    class Renamed(argparse.Action):
        """An old spelling of an option: refused, naming the new one.

        Kept as an option of its own (hidden from help) so that no silent
        alias, and no prefix of another option, can take its place.
        """

        def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
            self.renamed: str = kwargs.pop("renamed")
            kwargs.update(nargs="?", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
            argparse.Action.__init__(self, option_strings, dest, **kwargs)

        def __call__(
            self, parser: argparse.ArgumentParser, namespace: Any, values: Any, option_string: str | None = None
        ) -> NoReturn:
            parser.error(f"{option_string} was renamed {self.renamed}")

    class Parser(argparse.ArgumentParser):
        stop = Stop

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            # Every parser, sub-commands included (they are built from this
            # class): no prefix matching, so --he is not --help and --thr is
            # not --threshold; and our own -h/--help.
            kwargs["allow_abbrev"] = False
            kwargs["add_help"] = False
            # The class itself, kept typed: argparse types formatter_class
            # as a callable of prog alone, and _get_formatter passes width.
            self.formatter_type: type[argparse.HelpFormatter] = kwargs.get("formatter_class", argparse.HelpFormatter)
            argparse.ArgumentParser.__init__(self, *args, **kwargs)
            self.register("action", "scorecontract-version", Version)
            self.register("action", "scorecontract-renamed", Renamed)
            # The default action (and "store"): one value, given once.
            self.register("action", None, StoreOnce)
            self.register("action", "store", StoreOnce)
            self.add_argument(
                "-h",
                "--help",
                action=Help,
                help="show this help message and exit; obeyed only alone "
                "(scorecontract --help, scorecontract COMMAND --help)",
            )

        def _get_formatter(self) -> argparse.HelpFormatter:
            return self.formatter_type(prog=self.prog, width=_help_width())

        def _print_message(self, message: str, file: Any = None) -> None:
            # Everything argparse prints (3.13 adds warnings) is escaped:
            # an argument value quoted in a message is evidence too.
            if message:
                lines = message[:-1] if message.endswith("\n") else message
                (warn if file is None or file is sys.stderr else emit)(*lines.split("\n"))

        def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
            parsed, extras = argparse.ArgumentParser.parse_known_args(self, args, namespace)
            parsed.__dict__.pop(_GIVEN, None)
            return parsed, extras

        def error(self, message: str) -> NoReturn:
            raise Stop("usage", self, message)

        def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
            if message:
                self._print_message(message, sys.stderr)
            raise Stop("exit", self, status)

    return Parser


# The values StoreOnce has seen in one parse, by destination.
_GIVEN = "_scorecontract_given"

# The sub-commands, in the order help lists them, and the ones each needs
# beside it: gate parses its gates with check's and report's own parsers.
_COMMANDS = {
    "check": ("check",),
    "report": ("report",),
    "gate": ("check", "report", "gate"),
    "sign": ("sign",),
    "demo": ("demo",),
}


# The parsers built so far, by the commands each holds (see _build_parser).
_PARSERS: dict[tuple[str, ...], argparse.ArgumentParser] = {}


def _build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; with *argv* naming a command first, only what that command needs.

    Building every sub-command's options costs more than deciding on a
    score record, so ``scorecontract check FILE`` builds check's alone (and
    imports neither report's modules nor the harness adapters).  Anything
    else (``--help``, ``--version``, a typo for a command) gets them all.

    Each parser is built once per process and kept: about 40 add_argument
    calls, and argparse's gettext lookups, cost more than a check's parse
    (a test suite or a script calling ``main`` in process pays it each
    time).  Reuse is sound because parsing leaves a parser unchanged: the
    values go to a fresh namespace (StoreOnce keeps its record there), help
    is formatted at the width of the moment (``_help_width``), and gate
    already parses every gate with the same check and report parsers.
    """
    wanted = _COMMANDS.get(argv[0], ()) if argv else ()
    key = wanted or tuple(_COMMANDS)
    parser = _PARSERS.get(key)
    if parser is None:
        parser = _PARSERS[key] = _new_parser(key)
    return parser


def _new_parser(wanted: tuple[str, ...]) -> argparse.ArgumentParser:
    """A root parser holding the sub-commands named in *wanted*, in help order."""
    import argparse

    parser_class = _parser_class()
    parser = parser_class(
        prog="scorecontract",
        description="Fail-closed release gate for AI-evaluation scores.",
        epilog=exit_table("scorecontract"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action="scorecontract-version", help="show the version and exit; obeyed only alone"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=parser_class)
    commands.required = True

    for name in _COMMANDS:
        if name in wanted:
            _register(name, commands)
    return parser


def _register(name: str, commands: Any) -> None:
    if name == "check":
        from . import _check

        _check.register(commands, exit_table("check"))
    elif name == "report":
        from . import _report

        _report.register(commands, exit_table("report"))
    elif name == "gate":
        from . import _gate

        _gate.register(commands, exit_table("gate"))
    elif name == "sign":
        from . import _sign

        _sign.register(commands, exit_table("sign"))
    else:
        from . import _demo

        _demo.register(commands, exit_table("demo"))


def _hint(root: argparse.ArgumentParser, argv: Sequence[str], example: str) -> str:
    """The one-line hint: a path that starts with ``-`` goes after ``--``."""
    commands = _commands(root)
    command = next((argument for argument in argv if argument in commands), "COMMAND")
    return (
        f"scorecontract: hint: a path that starts with - goes after --, "
        f"as in: scorecontract {command} [OPTIONS] -- {example}"
    )


def _commands(root: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    import argparse

    for action in root._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _dash_arguments(root: argparse.ArgumentParser, argv: Sequence[str]) -> list[str]:
    """Arguments before ``--`` that look like options but are no parser's."""
    known = set(root._option_string_actions)
    for parser in _commands(root).values():
        known.update(parser._option_string_actions)
    arguments = list(argv)
    if "--" in arguments:
        arguments = arguments[: arguments.index("--")]
    return [
        argument
        for argument in arguments
        if argument.startswith("-") and argument != "-" and argument.split("=", 1)[0] not in known
    ]


def _suggestions(root: argparse.ArgumentParser, argv: Sequence[str]) -> list[str]:
    """``did you mean --format?`` for each option the command does not have.

    Matched against the long options of the command named first on the
    line (of ``scorecontract`` itself when none is), never against
    ``--help`` and ``--version``, which are obeyed only alone.
    """
    import difflib

    commands = _commands(root)
    name = argv[0] if argv and argv[0] in commands else None
    parser = commands[name] if name is not None else root
    # Compared without the dashes, which every candidate shares: with them,
    # --hel would be close to --threshold.
    import argparse

    # Never an old spelling (_options.RENAMED), hidden from help: it is
    # refused, and suggesting it would send the user to a refusal.
    known = [
        option[2:]
        for option, action in parser._option_string_actions.items()
        if option.startswith("--") and option not in ("--help", "--version") and action.help != argparse.SUPPRESS
    ]
    arguments = list(argv)
    if "--" in arguments:
        arguments = arguments[: arguments.index("--")]
    lines = []
    for argument in arguments:
        option = argument.split("=", 1)[0]
        if not option.startswith("--") or option in parser._option_string_actions:
            continue
        close = difflib.get_close_matches(option[2:], known, n=1)
        if close:
            lines.append(f"{parser.prog}: {option} is not an option of {parser.prog}; did you mean --{close[0]}?")
    return lines


def _stopped(stop: Exception, argv: Sequence[str], root: argparse.ArgumentParser) -> int:
    """The status when parsing stopped: help, a usage error or an exit."""
    kind, parser = stop.args[0], stop.args[1]
    if kind == "help":
        return _help_or_refusal(parser, stop.args[2], stop.args[3], argv, root)
    if kind == "usage":
        commands = _commands(root)
        if parser is root and argv and argv[0] in commands and stop.args[2].startswith("unrecognized arguments"):
            # argparse finds a command's stray arguments at the top level;
            # the usage that helps is the command's own.
            parser = commands[argv[0]]
        lines = [*parser.format_usage().rstrip("\n").split("\n"), f"{parser.prog}: error: {stop.args[2]}"]
        lines += _suggestions(root, argv)
        unknown = _dash_arguments(root, argv)
        if unknown:
            lines.append(_hint(root, argv, unknown[0]))
        warn(*lines)
        return EXIT_USAGE
    # argparse's exit(): only help would exit 0, and help does not come
    # this way, so 0 here is a usage error too.
    status = stop.args[2]
    return status if type(status) is int and status != 0 else EXIT_USAGE


def _help_or_refusal(
    parser: argparse.ArgumentParser, option: str, text: str, argv: Sequence[str], root: argparse.ArgumentParser
) -> int:
    """Print the help or version, exit 0, only if the flag stands alone.

    Alone means ``scorecontract --help``, ``scorecontract --version`` or
    ``scorecontract COMMAND --help``: nothing else on the line.  Anywhere
    else the flag is most likely a file name (``check --receipt R "$f"``
    with ``f=-h``): obeying it would print help and exit 0, a PASS for
    evidence nobody read.
    """
    arguments = list(argv)
    alone = arguments[-1:] == [option] and len(arguments) == (1 if parser is root else 2)
    adapter = _adapter_help(arguments, option)
    if adapter is not None:
        # The one deliberate exception: "check --from HARNESS --help" is
        # help about that adapter, and nothing else can be on the line.
        alone, text = True, adapter
    if alone:
        emit(*(text[:-1] if text.endswith("\n") else text).split("\n"))
        return 0
    warn(
        f"{parser.prog}: error: {option} is obeyed only on its own ({parser.prog} {option}); "
        "beside other arguments it is refused",
        _hint(root, arguments, option),
    )
    return EXIT_USAGE


def _adapter_help(arguments: list[str], option: str) -> str | None:
    """The help of one harness adapter, for exactly ``check|report --from HARNESS --help``."""
    command = arguments[0] if arguments else ""
    if len(arguments) != 4 or command not in ("check", "report") or arguments[1] != "--from":
        return None
    if arguments[3] != option or option not in ("-h", "--help"):
        return None
    from .._source import REGISTRY

    if arguments[2] not in REGISTRY:
        return None
    if command == "report":
        from ._report import adapter_help as samples_help

        return samples_help(arguments[2], _help_width()) + "\n" + exit_table("report")
    from .._headline import adapter_help

    return adapter_help(arguments[2], _help_width()) + "\n" + exit_table("check")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with *argv* and return the exit status."""
    Output.stdout_lost = False
    Output.closed = guard_standard_descriptors()
    for stream in (sys.stdout, sys.stderr):
        # escape() leaves only printable text; a stream whose encoding
        # cannot hold some of it (LANG=C on old systems) shows it escaped.
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (OSError, ValueError):
                pass
    status = _run(sys.argv[1:] if argv is None else list(argv))
    if Output.stdout_lost and status in VERDICT_STATUSES:
        warn(
            f"scorecontract: error: the result could not be written to standard output; "
            f"exit {EXIT_IOERR} instead of {status}"
        )
        return EXIT_IOERR
    return status


def _run(argv: list[str]) -> int:
    try:
        parser = _build_parser(argv)
        stop: type[Exception] = getattr(parser, "stop")
        try:
            args = parser.parse_args(argv)
        except stop as exc:
            return _stopped(exc, argv, parser)
        status: int = args.run(args)
        return status
    except PolicyError as exc:
        warn(f"scorecontract: error: {exc}")
        return EXIT_USAGE
    except InvalidEvidence as exc:
        # Stages that run outside evaluate() still fail closed as INVALID.
        warn(f"scorecontract: invalid evidence: {exc}")
        return Verdict.INVALID.exit_code
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Exception as exc:
        warn(f"scorecontract: internal error: {type(exc).__name__}: {exc}")
        return EXIT_INTERNAL_ERROR
