# SPDX-License-Identifier: MIT
"""The command line's output files, and what it says when one is not written.

Every file goes through the one writer, ``_write.write_new_file``
(atomic, never over another).  Its failures become one of two refusals,
worded once: ``output-exists`` (the name is taken; nothing is overwritten)
and ``output-unwritable`` (no directory, no permission, a full disk).
"""

from __future__ import annotations

from .._errors import PolicyError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Union

    Content = Union[bytes, Iterable[bytes]]

__all__ = ["exists", "refusal", "refuse_taken", "unwritable", "write_output"]


def exists(what: str, path: str, /) -> PolicyError:
    """The refusal of an output *what* whose *path* is taken (``output-exists``)."""
    return PolicyError("output-exists", f"{what} {ascii(path)} already exists; not overwritten")


def unwritable(what: str, path: str, exc: OSError, /) -> PolicyError:
    """The refusal of an output *what* that could not be written (``output-unwritable``)."""
    return PolicyError("output-unwritable", f"cannot write {what} {ascii(path)}: {exc.strerror or exc}")


def refusal(exc: OSError, message: str, /) -> PolicyError:
    """The refusal *message* for the failure *exc*: taken name or not writable."""
    code = "output-exists" if isinstance(exc, FileExistsError) else "output-unwritable"
    return PolicyError(code, f"{message}: {exc.strerror or exc}")


def write_output(what: str, path: str, data: Content, /) -> None:
    """Write *data* to the new file *path*; raise ``PolicyError`` if it is not written.

    *what* names the file in the message (``"receipt"``, ``"JUnit XML"``,
    ``"signature file"``).
    """
    from .._write import write_new_file

    try:
        write_new_file(path, data)
    except FileExistsError:
        raise exists(what, path) from None
    except OSError as exc:
        raise unwritable(what, path, exc) from None


def refuse_taken(outputs: Iterable[tuple[str, str | None]], /) -> None:
    """Refuse, before any input is read, output paths that are taken or named twice.

    *outputs* is ``(what, path or None)`` per output option.  Checked first
    so a long run is not wasted, and so an output naming an input fails
    before anything is read; the writer still refuses a path that appears
    meanwhile.  ``lexists``: a dangling symbolic link takes the name too.
    """
    import os

    named = [(what, path) for what, path in outputs if path is not None]
    for what, path in named:
        if os.path.lexists(path):
            raise exists(what, path)
    seen: dict[str, str] = {}
    for what, path in named:
        key = os.path.abspath(path)
        if key in seen:
            from ._options import conflict

            raise conflict(seen[key], what, f"both name {ascii(path)}")
        seen[key] = what
