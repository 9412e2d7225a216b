# SPDX-License-Identifier: MIT
"""Reading evidence from a file or a stream, never past the byte limit."""

from __future__ import annotations

from ._errors import InvalidEvidence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

__all__ = ["read_bounded", "read_evidence_file", "read_file", "standard_input"]


def standard_input() -> BinaryIO:
    """Return standard input as bytes, or raise ``InvalidEvidence``.

    With the descriptor closed (``<&-``) or no console, ``sys.stdin`` is
    None: there is no evidence, which is INVALID, not an internal error.
    """
    import sys

    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise InvalidEvidence("file-unreadable", "standard input is closed: there is no evidence to read")
    return stream  # type: ignore[no-any-return]


def read_bounded(stream: BinaryIO, max_bytes: int) -> bytes:
    """Read at most *max_bytes* + 1 bytes, so oversize is detected.

    The extra byte is what tells "exactly at the limit" from "over it";
    nothing beyond it is ever read into memory.
    """
    chunks = []
    remaining = max_bytes + 1
    while remaining > 0:
        chunk = stream.read(remaining)
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise InvalidEvidence(
            "too-large", f"evidence is over the limit of {max_bytes} bytes"
        )
    return data


def read_file(path: str, max_bytes: int, /, *, what: str = "evidence file") -> bytes:
    """Return the bytes of the file *path*, at most *max_bytes* of them.

    Every failure is ``InvalidEvidence``, never a crash: ``file-not-found``;
    ``file-unreadable`` for a directory, no permission, or a path no file
    can have (a NUL byte, a lone surrogate); ``too-large``.  *what* names
    the file in messages.  Callers reading configuration or signatures map
    these codes onto their own.
    """
    try:
        with open(path, "rb") as stream:
            return read_bounded(stream, max_bytes)
    except FileNotFoundError:
        raise InvalidEvidence("file-not-found", f"no {what} at {ascii(path)}") from None
    except IsADirectoryError:
        raise InvalidEvidence(
            "file-unreadable", f"{ascii(path)} is a directory, not a {what}"
        ) from None
    except OSError as exc:
        raise InvalidEvidence(
            "file-unreadable", f"cannot read {what} {ascii(path)}: {exc.strerror or exc}"
        ) from None
    except InvalidEvidence:
        # too-large (a ValueError too, so it must be caught before the next)
        raise InvalidEvidence(
            "too-large", f"{what} {ascii(path)} is over the limit of {max_bytes} bytes"
        ) from None
    except (ValueError, UnicodeError):
        raise InvalidEvidence(
            "file-unreadable", f"{ascii(path)} is not a usable file name"
        ) from None


def read_evidence_file(path: str, max_bytes: int) -> bytes:
    """Return the bytes of the evidence file *path* (see ``read_file``).

    A missing or unreadable file, or a directory, is INVALID evidence, not
    a crash: the gate has nothing to decide on.
    """
    return read_file(path, max_bytes, what="evidence file")
