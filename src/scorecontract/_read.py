# SPDX-License-Identifier: MIT
"""The one reader: every file the tool reads, never past its byte limit.

Evidence, policy files, manifests, signatures, key files, trials files and
kept copies are all read here, and only from a regular file (or standard
input, for ``-``).  A FIFO, a device, a socket or a directory is refused
without blocking: ``open()`` of a FIFO waits for a writer forever, and a
device can be endless.  Every failure is ``InvalidEvidence`` with a stable
code; callers reading configuration map it onto their own.

Messages name the input by *what*, a noun phrase without an article
(``"evidence file"``, ``"manifest"``, ``"key file"``), and put no article
of their own before it but ``the`` and ``no``, which fit every noun:
``"not a {what}"`` once printed "not a evidence file".
"""

from __future__ import annotations

import os

from ._errors import InvalidEvidence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import BinaryIO, Protocol

    class Readable(Protocol):
        """What the reader reads: a binary stream's ``read(size)``, a block at a time."""

        def read(self, size: int, /) -> bytes | None: ...


__all__ = [
    "checked_stream",
    "open_regular",
    "read_bounded",
    "read_evidence_file",
    "read_file",
    "standard_input",
]

# Read at most this much per call: ``stream.read(n)`` allocates n bytes up
# front, so reading ``max_bytes + 1`` at once would make a limit of 1 TiB
# a 1 TiB allocation (a MemoryError) before the first byte arrives.
_CHUNK = 1024 * 1024


def standard_input() -> BinaryIO:
    """Return standard input as bytes, or raise ``InvalidEvidence``.

    With the descriptor closed (``<&-``) or no console, ``sys.stdin`` is
    None: there is no evidence, which is INVALID, not an internal error.
    A descriptor that is open but cannot be read (``0>>file`` opens it
    write-only) fails on the read instead, in ``read_bounded``.
    """
    import sys

    stream: BinaryIO | None = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise InvalidEvidence("file-unreadable", "standard input is closed: there is no evidence to read")
    return stream


def _why(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc)


def _unreadable(what: str, exc: BaseException) -> InvalidEvidence:
    return InvalidEvidence("file-unreadable", f"cannot read the {what}: {_why(exc)}")


def read_bounded(stream: Readable, max_bytes: int, /, *, what: str = "evidence") -> bytes:
    """Read *stream* to its end, but never more than *max_bytes* + 1 bytes.

    The extra byte is what tells "exactly at the limit" from "over it"
    (``too-large``); nothing beyond it is read into memory, and memory is
    taken only as bytes arrive, so any positive limit is usable.  A stream
    that cannot be read (closed, detached, or a descriptor opened
    write-only: ``EBADF``) is ``file-unreadable``.  *what* names the input
    in messages.
    """
    chunks = []
    size = 0
    wanted = max_bytes + 1
    while size < wanted:
        try:
            # Typed as optional: a non-blocking raw stream returns None.
            chunk: bytes | None = stream.read(min(wanted - size, _CHUNK))
        except (OSError, ValueError) as exc:  # ValueError: a closed file
            raise _unreadable(what, exc) from None
        if chunk is None:
            # A non-blocking descriptor with nothing to read yet: stopping
            # here would judge a prefix of the evidence as the whole of it.
            raise InvalidEvidence("file-unreadable", f"cannot read the {what}: it is non-blocking and empty")
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > max_bytes:
        raise InvalidEvidence("too-large", f"{what} is over the limit of {max_bytes} bytes")
    return b"".join(chunks)


class _CheckedStream:
    """A binary stream whose failures to read are ``InvalidEvidence``."""

    __slots__ = ("_read", "_what")

    def __init__(self, read: Callable[[int], bytes | None], what: str) -> None:
        self._read = read
        self._what = what

    def read(self, size: int = -1) -> bytes:
        try:
            chunk = self._read(size)
        except InvalidEvidence:
            # A stream that already says why it has nothing (a gate file's
            # evidence that could not be read) keeps its own reason code.
            raise
        except (OSError, ValueError) as exc:
            # io raises ValueError for a closed or detached file: that is a
            # stream with nothing to read, not a defect in the caller.
            raise _unreadable(self._what, exc) from None
        if chunk is None:  # non-blocking and empty: not the end of the input
            raise InvalidEvidence("file-unreadable", f"cannot read the {self._what}: it is non-blocking and empty")
        return chunk


def checked_stream(stream: object, /, *, what: str = "evidence") -> _CheckedStream:
    """Return *stream* (anything with ``read``) with read failures as ``InvalidEvidence``.

    Used for streams read a block at a time, without a byte limit on the
    whole (the trials of a report): a closed file, or a descriptor that
    cannot be read, gives ``file-unreadable`` on the first read.
    """
    return _CheckedStream(getattr(stream, "read"), what)


_KINDS = (
    ("S_ISDIR", "a directory"),
    ("S_ISFIFO", "a FIFO (named pipe)"),
    ("S_ISCHR", "a character device"),
    ("S_ISBLK", "a block device"),
    ("S_ISSOCK", "a socket"),
    ("S_ISLNK", "a symbolic link"),
)


def _not_regular(path: str, mode: int, what: str) -> InvalidEvidence:
    import stat

    kind = next((name for test, name in _KINDS if getattr(stat, test)(mode)), "not a regular file")
    return InvalidEvidence("file-unreadable", f"{what} {ascii(path)} is {kind}, not a regular file")


def open_regular(path: str, /, *, what: str = "evidence file", follow_symlinks: bool = True) -> BinaryIO:
    """Open the regular file *path* for reading and return a binary stream.

    Raises ``InvalidEvidence``: ``file-not-found``, or ``file-unreadable``
    for anything that is not a regular file (a directory, a FIFO, a device,
    a socket; with *follow_symlinks* false, a symbolic link too), no
    permission, or a path no file can have (a NUL byte, a lone surrogate).

    The type is checked twice.  ``stat`` first, so a device is never even
    opened (opening some has effects, and ``/dev/tty`` could become the
    controlling terminal).  Then the file is opened with ``O_NONBLOCK``,
    so a FIFO swapped in meanwhile does not block the open, and the opened
    descriptor is checked with ``fstat``: what is read is what was checked.
    """
    from stat import S_ISREG

    # O_NONBLOCK: opening a FIFO without it waits for a writer forever.
    # O_NOCTTY: opening a terminal must not make it the controlling one.
    # Windows has neither, and needs O_BINARY.
    nonblocking = getattr(os, "O_NONBLOCK", 0)
    flags = os.O_RDONLY | nonblocking | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        if follow_symlinks:
            mode = os.stat(path).st_mode
        else:
            mode = os.lstat(path).st_mode
            flags |= getattr(os, "O_NOFOLLOW", 0)
        if not S_ISREG(mode):
            raise _not_regular(path, mode, what)
        descriptor = os.open(path, flags)
    except InvalidEvidence:
        raise
    except FileNotFoundError:
        raise InvalidEvidence("file-not-found", f"no {what} at {ascii(path)}") from None
    except OSError as exc:
        raise InvalidEvidence("file-unreadable", f"cannot read the {what} {ascii(path)}: {_why(exc)}") from None
    except (ValueError, UnicodeError):
        # os.fsencode refuses a NUL byte and (outside surrogateescape's
        # range) a lone surrogate: no file can have such a name.  (After
        # the InvalidEvidence clause: InvalidEvidence is a ValueError too.)
        raise InvalidEvidence("file-unreadable", f"{ascii(path)} is not a usable file name") from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not S_ISREG(mode):
            raise _not_regular(path, mode, what)
        if nonblocking:
            # Back to blocking reads: O_NONBLOCK was only for the open.
            os.set_blocking(descriptor, True)
        # Unbuffered: every read is a large block already, and a buffer
        # would only copy it once more.
        return open(descriptor, "rb", buffering=0, closefd=True)
    except BaseException as exc:
        os.close(descriptor)
        if isinstance(exc, OSError):
            raise InvalidEvidence("file-unreadable", f"cannot read the {what} {ascii(path)}: {_why(exc)}") from None
        raise


def read_file(path: str, max_bytes: int, /, *, what: str = "evidence file", follow_symlinks: bool = True) -> bytes:
    """Return the bytes of the regular file *path*, at most *max_bytes* of them.

    Every failure is ``InvalidEvidence``, never a crash and never a wait:
    ``file-not-found``; ``file-unreadable`` as ``open_regular`` says, or
    when a read fails; ``too-large``.  *what* names the file in messages.
    Callers reading configuration or signatures map these codes onto their
    own.
    """
    with open_regular(path, what=what, follow_symlinks=follow_symlinks) as stream:
        return read_bounded(stream, max_bytes, what=f"{what} {ascii(path)}")


def read_evidence_file(path: str, max_bytes: int) -> bytes:
    """Return the bytes of the evidence file *path* (see ``read_file``).

    A missing or unreadable file, or anything but a regular file, is
    INVALID evidence, not a crash: the gate has nothing to decide on.
    """
    return read_file(path, max_bytes, what="evidence file")
