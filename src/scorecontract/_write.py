# SPDX-License-Identifier: MIT
"""The one writer: every file the tool writes, atomically and never over another.

Receipts, JUnit XML, kept evidence and signature files are what a reviewer
keeps, and the paths come from a command line an attacker may have shaped.
So a file is written to a temporary file in the target's directory, fsynced,
then hard-linked into place: a crash never leaves half a file, and the link
fails with ``EEXIST`` if anything at all has the name -- a file (the trials
file itself included), a directory, a FIFO, or a symbolic link, dangling or
not.  The final path component is therefore never followed and never
opened, so nothing written can land outside the path that was named.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Union

    Content = Union[bytes, Iterable[bytes]]

__all__ = ["write_new_file"]


def _usable(path: object) -> str:
    # os functions raise ValueError for a NUL byte or an unencodable lone
    # surrogate, which callers that handle OSError would let through as a
    # crash; an empty name would name the directory itself.
    try:
        if type(path) is str and path and os.fsencode(path) and "\x00" not in path:
            return path
    except UnicodeError:
        pass
    import errno

    raise OSError(errno.EINVAL, "not a usable file name", ascii(path))


def write_new_file(path: str, data: Content, /) -> None:
    """Write *data* to the new file *path*; raise ``FileExistsError`` if the name is taken.

    *data* is ``bytes``, or an iterable of ``bytes`` chunks (written as they
    come, so output of any length takes no more memory than a chunk).  The
    chunks go to a temporary file beside *path* that is fsynced, then
    ``os.link`` gives it its name: an existing file, directory, FIFO or
    symbolic link (dangling or not) at *path* is never opened, followed or
    replaced (``os.replace`` would silently overwrite).  The new file has
    mode 0600, as ``tempfile.mkstemp`` creates it.  Any other failure is an
    ``OSError`` (a parent that is not a directory, no permission, a full
    disk), and no temporary file is left behind.
    """
    import tempfile

    path = _usable(path)
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=".scorecontract-", dir=directory)
    try:
        with os.fdopen(handle, "wb") as stream:
            if isinstance(data, (bytes, bytearray, memoryview)):
                stream.write(data)
            else:
                for chunk in data:
                    stream.write(chunk)
            stream.flush()
            os.fsync(stream.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            raise
        except OSError:
            # No hard links on this file system (FAT, some FUSE and SMB
            # mounts): exclusive create instead.  Not atomic against a crash
            # mid-copy, but O_EXCL still refuses any existing name and, with
            # O_CREAT, does not follow a symbolic link (POSIX open()).
            _copy_exclusive(temporary, path)
        _sync_directory(directory)
    finally:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass


def _copy_exclusive(temporary: str, path: str) -> None:
    import shutil

    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(path, flags, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as target, open(temporary, "rb") as source:
            shutil.copyfileobj(source, target)
            target.flush()
            os.fsync(target.fileno())
    except BaseException:
        # The name was created by this call (O_EXCL), so removing the
        # partial copy removes nothing anyone else wrote.
        try:
            os.unlink(path)
        except OSError:
            pass
        raise


def _sync_directory(directory: str) -> None:
    # The link is durable only once its directory is (fsync(2), NOTES).
    # Best effort: Windows cannot open a directory, and some file systems
    # refuse fsync on one (EINVAL); the file itself is already synced.
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
