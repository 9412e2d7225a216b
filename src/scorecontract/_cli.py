# SPDX-License-Identifier: MIT
"""The command line: ``scorecontract`` and ``python -m scorecontract``.

Exit status: 0 PASS, 1 FAIL, 2 usage or configuration error, 3 INVALID,
4 REVIEW, 70 an unexpected internal error, 74 a result that could not be
written.  Only 0 releases.  Results go to stdout, messages to stderr, every
character printed passes through ``_escape.escape``, and bad evidence never
prints a traceback.
"""

from __future__ import annotations

import sys

from ._errors import InvalidEvidence, PolicyError
from ._escape import escape
from ._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any, NoReturn, Sequence, TextIO

__all__ = [
    "EXIT_INTERNAL_ERROR",
    "EXIT_IOERR",
    "EXIT_USAGE",
    "emit",
    "exit_table",
    "main",
    "warn",
]

EXIT_USAGE = 2
# EX_SOFTWARE from BSD sysexits.h: distinct from every verdict's code.
EXIT_INTERNAL_ERROR = 70
# EX_IOERR from sysexits.h: the result line (or JSON, or annotations) was
# not delivered.  A release script reads the status, and a PASS nobody saw
# must not release: a reader that left (``| head``), a full disk or a
# closed stdout all end here instead of at the verdict's own status.
EXIT_IOERR = 74
EXIT_INTERRUPTED = 130
# The statuses a result line carries.  Only these become 74 when the line
# is lost: a usage error stays 2 and a defect 70, whatever was printed.
_VERDICT_STATUSES = frozenset({0, 1, 3, 4})

# One row per status; each command's --help lists the rows that apply to it.
_EXIT_ROWS = {
    "pass": "  0   PASS: the only status that releases",
    "any": "  0   PASS: the only status that releases (sign, demo: done)",
    "fail": "  1   FAIL: valid evidence below the threshold",
    "usage": "  2   usage or configuration error (bad option, threshold or policy;\n"
    "      a receipt or kept-evidence file that cannot be written)",
    "invalid": "  3   INVALID: the evidence cannot support a decision",
    "review": "  4   REVIEW: a report lacks evidence and names a review owner",
    "internal": "  70  unexpected internal error in scorecontract",
    "ioerr": "  74  the result could not be written to standard output (closed,\n"
    "      full, or its reader went away): never a release, whatever the verdict",
    "interrupted": "  130 interrupted (SIGINT)",
}
_EXIT_TABLES = {
    "scorecontract": ("any", "fail", "usage", "invalid", "review", "internal", "ioerr", "interrupted"),
    "check": ("pass", "fail", "usage", "invalid", "internal", "ioerr", "interrupted"),
    "report": ("pass", "fail", "usage", "invalid", "review", "internal", "ioerr", "interrupted"),
}
_SIGN_EXITS = """\
exit status:
  0   the signature file was written and its path printed
  2   usage or configuration error (no key, a bad or group-readable key;
      a signature file that exists already or cannot be written)
  3   the evidence cannot be read (missing, unreadable, over --max-bytes)
  70  unexpected internal error in scorecontract
  74  the signature file was written but its path could not be printed
  130 interrupted (SIGINT)
"""
_DEMO_EXITS = """\
exit status:
  0   the table was printed
  2   usage error
  70  unexpected internal error in scorecontract
  74  the table could not be written to standard output
  130 interrupted (SIGINT)
"""


def exit_table(command: str) -> str:
    """Return the ``exit status:`` epilog for *command*'s ``--help``."""
    if command == "sign":
        return _SIGN_EXITS
    if command == "demo":
        return _DEMO_EXITS
    heading = "exit status (each command's --help lists its own):" if command == "scorecontract" else "exit status:"
    rows = "\n".join(_EXIT_ROWS[name] for name in _EXIT_TABLES[command])
    return f"{heading}\n{rows}\n"


# -- writing: every byte printed goes through escape() and one of two writers --


class _Output:
    """What the run in progress could not write; ``main`` resets it.

    Class attributes, because ``emit`` is called from every command and a
    command must not be able to forget to report a lost result: the one
    decision is taken in ``main`` when the command returns.
    """

    stdout_lost = False
    # Standard descriptors that were closed when the run began (``>&-``).
    closed: frozenset[int] = frozenset()


def emit(*lines: str) -> None:
    """Print result lines to stdout, each escaped, each ended by a newline.

    A line that cannot be written (closed or full stdout, a reader that
    went away) is recorded; ``main`` then exits 74 instead of the verdict's
    status.  Nothing is raised: the command goes on to write its receipt.
    """
    if not _write("stdout", "".join(escape(line) + "\n" for line in lines)):
        _Output.stdout_lost = True


def warn(*lines: str) -> None:
    """Print message lines to stderr, each escaped; best effort.

    A message that cannot be written changes nothing: the exit status,
    decided apart from it, still says what happened.
    """
    if lines:
        _write("stderr", "".join(escape(line) + "\n" for line in lines))


def _write(name: str, text: str) -> bool:
    """Write *text* to ``sys.<name>`` and flush it; return whether it was."""
    stream: TextIO | None = getattr(sys, name)
    original: TextIO | None = sys.__stdout__ if name == "stdout" else sys.__stderr__
    if stream is None or (stream is original and (1 if name == "stdout" else 2) in _Output.closed):
        # Closed when the run began: the descriptor now holds /dev/null,
        # so a write would "succeed" without anyone reading it.
        return False
    try:
        stream.write(text)
        stream.flush()
    except (OSError, ValueError):
        # OSError: EPIPE, ENOSPC, EBADF.  ValueError: a closed file object,
        # or text its encoding refuses (UnicodeEncodeError).
        if stream is original:
            _silence(stream)
        return False
    return True


def _silence(stream: TextIO | None) -> None:
    # Python flushes sys.stdout and sys.stderr at exit; what stayed in the
    # buffer would fail again there, print "Exception ignored" and turn the
    # exit status into 120.  Pointing the descriptor at /dev/null lets that
    # last flush succeed (the advice of the signal module's documentation
    # for SIGPIPE).
    import os

    if stream is None:
        return
    try:
        fd = stream.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
    except (OSError, ValueError):
        return
    try:
        if devnull != fd:
            os.dup2(devnull, fd)
    except OSError:
        pass
    finally:
        if devnull != fd:
            os.close(devnull)


def _guard_standard_descriptors() -> frozenset[int]:
    """Put /dev/null on a closed stdout or stderr; return which were closed.

    With descriptor 2 closed, the next file opened gets number 2: Python's
    ``sys.stderr`` then raises EBADF (which once escaped ``main`` and made
    a bad ``--threshold`` exit 1, the FAIL status), and a message could even
    land in the receipt being written.  Filling the slot keeps every file
    off 1 and 2; remembering it keeps a write to /dev/null from counting as
    delivered.  Standard input is left alone: ``check -`` reports a closed
    one as INVALID evidence.
    """
    import os

    closed = set()
    for fd in (1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.add(fd)
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                if devnull != fd:
                    os.dup2(devnull, fd)
                    os.close(devnull)
            except OSError:
                pass
    return frozenset(closed)


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

        def __call__(self, parser: argparse.ArgumentParser, namespace: Any, values: Any, option_string: str | None = None) -> NoReturn:
            raise Stop("help", parser, option_string or "--help", parser.format_help())

    class Version(Help):
        """--version: the same, with the version as the text."""

        def __call__(self, parser: argparse.ArgumentParser, namespace: Any, values: Any, option_string: str | None = None) -> NoReturn:
            from . import __version__

            raise Stop("help", parser, option_string or "--version", f"scorecontract {__version__}\n")

    class Parser(argparse.ArgumentParser):
        stop = Stop

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            # Every parser, sub-commands included (they are built from this
            # class): no prefix matching, so --he is not --help and --thr is
            # not --threshold; and our own -h/--help.
            kwargs["allow_abbrev"] = False
            kwargs["add_help"] = False
            argparse.ArgumentParser.__init__(self, *args, **kwargs)
            self.register("action", "scorecontract-version", Version)
            self.add_argument(
                "-h", "--help", action=Help,
                help="show this help message and exit; obeyed only alone "
                "(scorecontract --help, scorecontract COMMAND --help)",
            )

        def _get_formatter(self) -> argparse.HelpFormatter:
            return self.formatter_class(prog=self.prog, width=_help_width())  # type: ignore[call-arg]

        def _print_message(self, message: str, file: Any = None) -> None:
            # Everything argparse prints (3.13 adds warnings) is escaped:
            # an argument value quoted in a message is evidence too.
            if message:
                lines = message[:-1] if message.endswith("\n") else message
                (warn if file is None or file is sys.stderr else emit)(*lines.split("\n"))

        def error(self, message: str) -> NoReturn:
            raise Stop("usage", self, message)

        def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
            if message:
                self._print_message(message, sys.stderr)
            raise Stop("exit", self, status)

    return Parser


def _build_parser() -> argparse.ArgumentParser:
    import argparse

    parser_class = _parser_class()
    parser = parser_class(
        prog="scorecontract",
        description="Fail-closed release gate for AI-evaluation scores.",
        epilog=exit_table("scorecontract"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="scorecontract-version", help="show the version and exit; obeyed only alone")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=parser_class)
    commands.required = True

    from . import _cmd_check, _cmd_demo, _cmd_report, _cmd_sign

    _cmd_check.register(commands, exit_table("check"))
    _cmd_report.register(commands, exit_table("report"))
    _cmd_sign.register(commands, exit_table("sign"))
    _cmd_demo.register(commands, exit_table("demo"))
    return parser


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


def _stopped(stop: Exception, argv: Sequence[str], root: argparse.ArgumentParser) -> int:
    """The status when parsing stopped: help, a usage error or an exit."""
    kind, parser = stop.args[0], stop.args[1]
    if kind == "help":
        return _help_or_refusal(parser, stop.args[2], stop.args[3], argv, root)
    if kind == "usage":
        lines = [*parser.format_usage().rstrip("\n").split("\n"), f"{parser.prog}: error: {stop.args[2]}"]
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
    if alone:
        emit(*(text[:-1] if text.endswith("\n") else text).split("\n"))
        return 0
    warn(
        f"{parser.prog}: error: {option} is obeyed only on its own ({parser.prog} {option}); "
        "beside other arguments it is refused",
        _hint(root, arguments, option),
    )
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with *argv* and return the exit status."""
    _Output.stdout_lost = False
    _Output.closed = _guard_standard_descriptors()
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
    if _Output.stdout_lost and status in _VERDICT_STATUSES:
        warn(
            f"scorecontract: error: the result could not be written to standard output; "
            f"exit {EXIT_IOERR} instead of {status}"
        )
        return EXIT_IOERR
    return status


def _run(argv: list[str]) -> int:
    try:
        parser = _build_parser()
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
