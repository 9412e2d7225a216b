# SPDX-License-Identifier: MIT
"""The command line: ``scorecontract`` and ``python -m scorecontract``.

Exit status: 0 PASS, 1 FAIL, 2 usage or configuration error, 3 INVALID,
4 REVIEW, 70 an unexpected internal error.  Only 0 releases.  Results go to
stdout, messages to stderr, and bad evidence never prints a traceback.
"""

from __future__ import annotations

import sys

from ._errors import InvalidEvidence, PolicyError
from ._verdict import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Sequence

__all__ = ["EXIT_INTERNAL_ERROR", "EXIT_USAGE", "emit", "main"]

EXIT_USAGE = 2
# EX_SOFTWARE from BSD sysexits.h: distinct from every verdict's code.
EXIT_INTERNAL_ERROR = 70

_EPILOG = """\
exit status:
  0   PASS: the only status that releases
  1   FAIL: valid evidence below the threshold
  2   usage or configuration error (bad option, threshold or policy;
      a receipt or kept-evidence file that cannot be written)
  3   INVALID: the evidence cannot support a decision
  4   REVIEW: a report lacks evidence and names a review owner
  70  unexpected internal error in scorecontract
"""


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

    class Parser(argparse.ArgumentParser):
        def _get_formatter(self) -> argparse.HelpFormatter:
            return self.formatter_class(prog=self.prog, width=_help_width())  # type: ignore[call-arg]

    return Parser


def _build_parser() -> argparse.ArgumentParser:
    import argparse

    from . import __version__

    parser_class = _parser_class()
    parser = parser_class(
        prog="scorecontract",
        description="Fail-closed release gate for AI-evaluation scores.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"scorecontract {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=parser_class)
    commands.required = True

    from . import _cmd_check, _cmd_demo, _cmd_report, _cmd_sign

    _cmd_check.register(commands, _EPILOG)
    _cmd_report.register(commands, _EPILOG)
    _cmd_sign.register(commands, _EPILOG)
    _cmd_demo.register(commands, _EPILOG)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with *argv* and return the exit status."""
    for stream in (sys.stdout, sys.stderr):
        # Evidence can hold any character; printing it must never crash.
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        parser = _build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
            return exc.code if isinstance(exc.code, int) else EXIT_USAGE
        status: int = args.run(args)
        sys.stdout.flush()
        return status
    except PolicyError as exc:
        print(f"scorecontract: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except InvalidEvidence as exc:
        # Stages that run outside evaluate() still fail closed as INVALID.
        print(f"scorecontract: invalid evidence: {exc}", file=sys.stderr)
        return Verdict.INVALID.exit_code
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_INTERNAL_ERROR
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        print(
            f"scorecontract: internal error: {type(exc).__name__}: {exc}",
            file=sys.stderr,
        )
        return EXIT_INTERNAL_ERROR


def emit(text: str) -> None:
    """Print a result line to stdout; a closed pipe does not change the verdict."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        # The reader went away (``| head``).  The exit status still carries
        # the verdict, so it is kept; only the printing is abandoned.
        _silence_stdout()


def _silence_stdout() -> None:
    # Python flushes stdout at exit; with the pipe closed that flush fails
    # again and prints a traceback unless stdout points elsewhere.
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
