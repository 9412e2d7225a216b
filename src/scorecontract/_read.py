# SPDX-License-Identifier: MIT
"""Reading evidence from a file or a stream, never past the byte limit."""

from __future__ import annotations

from ._errors import InvalidEvidence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

__all__ = ["read_bounded", "read_evidence_file", "standard_input"]


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


def read_evidence_file(path: str, max_bytes: int) -> bytes:
    """Return the bytes of the evidence file *path*.

    A missing or unreadable file, or a directory, is INVALID evidence
    (``InvalidEvidence``), not a crash: the gate has nothing to decide on.
    """
    try:
        with open(path, "rb") as stream:
            return read_bounded(stream, max_bytes)
    except FileNotFoundError:
        raise InvalidEvidence(
            "file-not-found", f"no evidence file at {ascii(path)}"
        ) from None
    except IsADirectoryError:
        raise InvalidEvidence(
            "file-unreadable", f"{ascii(path)} is a directory, not an evidence file"
        ) from None
    except OSError as exc:
        raise InvalidEvidence(
            "file-unreadable", f"cannot read {ascii(path)}: {exc.strerror or exc}"
        ) from None
    except InvalidEvidence:
        raise  # too large: already the right reason (it is a ValueError too)
    except (ValueError, UnicodeError):
        # A NUL byte or a lone surrogate in the path: no such file exists.
        raise InvalidEvidence(
            "file-unreadable", f"{ascii(path)} is not a usable file name"
        ) from None
