# SPDX-License-Identifier: MIT
"""The command line's exit statuses and its two writers, ``emit`` and ``warn``.

Every byte the command line prints goes through ``_escape.escape`` and one
of these writers; a result line that cannot be delivered is remembered, and
``main`` then exits 74 (``EX_IOERR``) instead of the verdict's status.
"""

from __future__ import annotations

import sys

from ._escape import escape

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

__all__ = [
    "EXIT_INTERNAL_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_IOERR",
    "EXIT_USAGE",
    "VERDICT_STATUSES",
    "Output",
    "emit",
    "exit_table",
    "guard_standard_descriptors",
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
VERDICT_STATUSES = frozenset({0, 1, 3, 4})

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
    "gate": ("pass", "fail", "usage", "invalid", "review", "internal", "ioerr", "interrupted"),
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


class Output:
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
        Output.stdout_lost = True


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
    if stream is None or (stream is original and (1 if name == "stdout" else 2) in Output.closed):
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


def guard_standard_descriptors() -> frozenset[int]:
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
