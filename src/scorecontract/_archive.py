# SPDX-License-Identifier: MIT
"""Members of a ZIP archive, read with bounds (an Inspect ``.eval`` log).

The archive's bytes come from the one reader (``_read``), already bounded
by the byte limit; ``zipfile`` only ever sees them in memory, so it opens
no file of its own.  What a ZIP can do to a reader is refused before it
costs anything:

- a bomb: a member that inflates past the caller's limit, by its declared
  size or by what it really yields, or whose compression ratio is over
  ``MAX_RATIO`` (deflate alone reaches about 1000:1 on zeros; checked
  above ``RATIO_FLOOR`` bytes), and members
  that inflate past a total budget between them (overlapping entries);
- duplicate member names: ``zipfile`` answers a name with the *last* entry
  of that name, as ``json`` keeps the last duplicate member, so two
  ``header.json`` are two different logs in one file;
- bytes the central directory does not account for: ``zipfile`` reads
  the *last* central directory and tolerates data before and between
  members, so two archives concatenated (or a member hidden between two
  listed ones) are two logs of which only one would be read;
- encrypted members, which cannot be read;
- a missing member, a damaged one (bad CRC-32, truncated data) and
  anything that is not a ZIP at all.

Each is ``InvalidEvidence``: ``bad-archive`` for the structure,
``archive-too-large`` for a bound.
"""

from __future__ import annotations

from ._errors import InvalidEvidence

TYPE_CHECKING = False
if TYPE_CHECKING:
    import zipfile

__all__ = ["MAX_RATIO", "RATIO_FLOOR", "Archive"]

# The largest decompressed size per compressed byte a member may claim or
# reach.  JSON logs deflate by 5 to 20 times; 100 leaves room for very
# repetitive ones while a bomb needs far more.
MAX_RATIO = 100
# The ratio is checked for members larger than this: a small member, say a
# run of indentation, can deflate better than 100:1 and costs nothing.
RATIO_FLOOR = 64 * 1024

# Bit 0 of the general purpose flag: the member is encrypted
# (APPNOTE.TXT section 4.4.4).
_ENCRYPTED = 0x1


def _bad(what: str, why: str) -> InvalidEvidence:
    return InvalidEvidence("bad-archive", f"{what} is not a usable ZIP archive: {why}")


# Bit 3 of the general purpose flag: sizes follow the data in a data
# descriptor of 12 or 20 bytes, 16 or 24 with its optional signature
# (APPNOTE.TXT section 4.3.9).
_DESCRIPTOR = 0x8
_DESCRIPTOR_SIZES = (0, 12, 16, 20, 24)


def _check_contiguous(data: bytes, infos: list[zipfile.ZipInfo], start_dir: int, what: str) -> None:
    """Refuse bytes that no listed member accounts for.

    The members, by offset, must start at byte 0 and follow one another
    up to the central directory (APPNOTE.TXT section 4.3.6): a local
    header (section 4.3.7: 30 bytes, the name, the extra field), the
    compressed data, and a data descriptor where bit 3 says so.
    """
    import struct

    position = 0
    for info in sorted(infos, key=lambda item: item.header_offset):
        if info.header_offset != position:
            # zipfile's own offsets are shifted by any bytes before the
            # archive, so a gap or an overlap here is data it would skip.
            raise _bad(
                what,
                f"{abs(info.header_offset - position)} bytes at offset {min(position, info.header_offset)} belong "
                "to no listed member (another archive, or a hidden member): which one is the log?",
            )
        header = data[position : position + 30]
        if len(header) < 30 or header[:4] != b"PK\x03\x04":
            raise _bad(what, f"the member {info.filename!r} has no local header at offset {position}")
        name_length, extra_length = struct.unpack("<HH", header[26:30])
        end = position + 30 + name_length + extra_length + info.compress_size
        if info.flag_bits & _DESCRIPTOR:
            for size in _DESCRIPTOR_SIZES[1:]:
                if (end + size) in (start_dir, *(other.header_offset for other in infos)):
                    end += size
                    break
        position = end
    if position != start_dir:
        raise _bad(
            what,
            f"{abs(start_dir - position)} bytes before its central directory belong to no listed member "
            "(a hidden member?): which one is the log?",
        )


class Archive:
    """A ZIP archive held in memory; ``read`` returns one member's bytes.

    *data* is the whole archive; *what* names it in messages (``"the
    Inspect log 'run.eval'"``).  *total_limit* bounds the bytes all
    ``read`` calls may return together (None: only each member's limit).
    Opening refuses what no member read could survive: not a ZIP,
    duplicate names, encrypted members.
    """

    __slots__ = ("_zip", "_what", "_left", "names")

    names: tuple[str, ...]

    def __init__(self, data: bytes, /, *, what: str, total_limit: int | None = None) -> None:
        import io
        import zipfile

        self._what = what
        self._left = total_limit
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
        except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, OSError, NotImplementedError) as exc:
            raise _bad(what, str(exc) or type(exc).__name__) from None
        infos = archive.infolist()
        seen: set[str] = set()
        for info in infos:
            if info.filename in seen:
                raise _bad(what, f"the member name {info.filename!r} appears twice; which one is the log?")
            seen.add(info.filename)
            if info.flag_bits & _ENCRYPTED:
                raise _bad(what, f"the member {info.filename!r} is encrypted")
        _check_contiguous(data, infos, archive.start_dir, what)
        self._zip = archive
        self.names = tuple(info.filename for info in infos)

    def read(self, name: str, max_bytes: int, /) -> bytes:
        """Return the bytes of the member *name*, at most *max_bytes* of them.

        Refuses (``InvalidEvidence``) a missing or damaged member
        (``bad-archive``), and one whose declared or actual size is over
        *max_bytes*, whose ratio is over ``MAX_RATIO``, or that would take
        the archive past its total limit (``archive-too-large``).
        """
        import zipfile
        import zlib

        what = self._what
        try:
            info = self._zip.getinfo(name)
        except KeyError:
            raise _bad(what, f"it has no member {name!r}") from None
        limit = max_bytes if self._left is None else min(max_bytes, self._left)
        self._check_size(name, info.file_size, info.compress_size, limit, "declares")
        try:
            with self._zip.open(info) as member:
                # The declared size can lie: read one byte past the limit
                # rather than trust it.
                data = member.read(limit + 1)
        except (
            zipfile.BadZipFile,
            zlib.error,
            EOFError,
            ValueError,
            OSError,
            RuntimeError,
            NotImplementedError,
        ) as exc:
            # zipfile raises BadZipFile for a bad CRC-32, zlib.error for
            # damaged deflate data, NotImplementedError for an unknown
            # compression method, RuntimeError for encryption.
            raise _bad(what, f"the member {name!r} cannot be read: {exc or type(exc).__name__}") from None
        self._check_size(name, len(data), info.compress_size, limit, "inflates to")
        if self._left is not None:
            self._left -= len(data)
        return data

    def _check_size(self, name: str, size: int, compressed: int, limit: int, verb: str) -> None:
        if size > limit:
            raise InvalidEvidence(
                "archive-too-large",
                f"{self._what}: the member {name!r} {verb} {size} bytes, over the limit of {limit}",
            )
        if size > RATIO_FLOOR and size > MAX_RATIO * max(compressed, 1):
            raise InvalidEvidence(
                "archive-too-large",
                f"{self._what}: the member {name!r} {verb} {size} bytes from {compressed}, "
                f"a compression ratio over {MAX_RATIO} (a ZIP bomb?)",
            )

    def close(self) -> None:
        """Release the archive."""
        self._zip.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
