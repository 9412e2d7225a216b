# SPDX-License-Identifier: MIT
"""Members of a ZIP archive, read with bounds (an Inspect ``.eval`` log).

The archive's bytes come from the one reader (``_read``), already bounded
by the byte limit; ``zipfile`` only ever sees them in memory, so it opens
no file of its own.  Members compressed with Zstandard (method 93, how
Inspect writes every member today, and which ``zipfile`` reads only from
Python 3.14) are decoded by ``_zstd`` on every Python, under the same
bounds as DEFLATE.  What a ZIP can do to a reader is refused before it
costs anything:

- a bomb: a member that inflates past the caller's limit, by its declared
  size or by what it really yields, or whose compression ratio is over
  ``MAX_RATIO`` (deflate alone reaches about 1000:1 on zeros, Zstandard
  far more; checked above ``RATIO_FLOOR`` bytes), and members that
  inflate past a total budget between them (overlapping entries); a
  Zstandard member stops decoding at the first byte past either bound;
- duplicate member names: ``zipfile`` answers a name with the *last* entry
  of that name, as ``json`` keeps the last duplicate member, so two
  ``header.json`` are two different logs in one file;
- aliases, which are duplicates once extracted: ``/header.json``,
  ``./header.json``, ``a/../header.json``, ``header.json`` written with a
  backslash, and names that differ only in case (or in Unicode
  normalization), which one file on a case-insensitive file system (macOS,
  Windows) receives both of; ``unzip`` keeps the other one;
- bytes the central directory does not account for: ``zipfile`` reads
  the *last* central directory and tolerates data before and between
  members, so two archives concatenated (or a member hidden between two
  listed ones) are two logs of which only one would be read;
- bytes after the end of central directory record, and an archive
  comment (Inspect writes none): ``zipfile`` ignores what follows the
  record it finds, so a local ``header.json`` appended there is a log a
  reader of local entries in order would take;
- encrypted members, which cannot be read;
- a missing member, a damaged one (bad CRC-32, truncated data, a local
  header that does not match the central directory) and anything that is
  not a ZIP at all.

One kind of unlisted bytes is accepted: a *superseded* entry.  Inspect
edits a log in place (``edit_eval_log``, ``write_eval_log(log,
header_only=True)``) by opening it in append mode, dropping
``header.json`` from the central directory and writing a new one after
the members, so the old entry's bytes stay where they were.  Such an
entry is accepted only if it is a well-formed local entry (its header,
name and data fit exactly in the gap, its sizes are in its header, it is
not encrypted), its name is that of a listed member, and it comes before
the listed entry of that name (so a reader of local entries in order,
which keeps the last, agrees with the central directory).  Its bytes are
never decoded, and ``Archive.superseded`` names it, so that the caller
can say it was there.

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
# (APPNOTE.TXT section 4.4.4); bit 6, strong encryption; bit 5, patched
# data, which zipfile refuses to read.
_ENCRYPTED = 0x1
_UNREADABLE = 0x1 | 0x20 | 0x40
# Bit 11: the name is UTF-8 (APPNOTE.TXT appendix D), else code page 437.
_UTF8 = 0x800
# Compression method 93: Zstandard (APPNOTE.TXT section 4.4.5).
_ZSTANDARD = 93


def _bad(what: str, why: str) -> InvalidEvidence:
    return InvalidEvidence("bad-archive", f"{what} is not a usable ZIP archive: {why}")


# Bit 3 of the general purpose flag: sizes follow the data in a data
# descriptor of 12 or 20 bytes, 16 or 24 with its optional signature
# (APPNOTE.TXT section 4.3.9).
_DESCRIPTOR = 0x8
_DESCRIPTOR_SIZES = (0, 12, 16, 20, 24)


def _local_name(data: bytes, position: int, flags: int, what: str) -> tuple[str, int, int]:
    """Return the name, the name length and the extra field length of the local header at *position*."""
    import struct

    name_length, extra_length = struct.unpack("<HH", data[position + 26 : position + 30])
    raw = data[position + 30 : position + 30 + name_length]
    try:
        # The encoding zipfile uses for the same name (ZipFile.open).
        name = raw.decode("utf-8" if flags & _UTF8 else "cp437")
    except UnicodeDecodeError:
        raise _bad(what, f"the local header at offset {position} has a name that is not UTF-8") from None
    return name, name_length, extra_length


def _superseded(data: bytes, position: int, end: int, live: dict[str, int], what: str) -> list[str]:
    """Return the names of the superseded local entries that fill ``data[position:end]`` exactly.

    Each must be a local header (APPNOTE.TXT section 4.3.7) with its sizes
    in it (a ZIP64 extra field where they are 0xFFFFFFFF, section 4.5.3),
    not encrypted, named as a listed member whose entry comes later; else
    the bytes belong to no listed member and the archive is refused.
    """
    import struct

    names = []
    gap = position
    while position < end:
        header = data[position : position + 30]
        problem = ""
        if len(header) < 30 or header[:4] != b"PK\x03\x04" or position + 30 > end:
            problem = "they are not a local entry"
        else:
            (flags,) = struct.unpack("<H", header[6:8])
            compressed, size = struct.unpack("<LL", header[18:26])
            name, name_length, extra_length = _local_name(data, position, flags, what)
            extra_start = position + 30 + name_length
            if flags & _UNREADABLE:
                problem = f"the entry {name!r} there is encrypted"
            elif flags & _DESCRIPTOR:
                problem = f"the entry {name!r} there keeps its sizes in a data descriptor"
            elif name not in live:
                problem = f"the entry {name!r} there is not a listed member"
            elif live[name] < position:
                problem = f"the entry {name!r} there comes after the listed one"
            elif compressed == 0xFFFFFFFF:
                compressed = _zip64_size(data[extra_start : extra_start + extra_length], size == 0xFFFFFFFF)
                if compressed < 0:
                    problem = f"the entry {name!r} there has no ZIP64 sizes"
            if not problem:
                following = extra_start + extra_length + compressed
                if following > end:
                    problem = f"the entry {name!r} there runs past the gap"
                else:
                    names.append(name)
                    position = following
                    continue
        raise _bad(
            what,
            f"{end - gap} bytes at offset {gap} belong to no listed member ({problem}; "
            "another archive, or a hidden member?): which one is the log?",
        )
    return names


def _zip64_size(extra: bytes, has_size: bool) -> int:
    """The compressed size in a ZIP64 extra field (section 4.5.3), or -1 without one."""
    import struct

    position = 0
    while position + 4 <= len(extra):
        tag, length = struct.unpack("<HH", extra[position : position + 4])
        if tag == 0x0001:
            field = extra[position + 4 : position + 4 + length]
            # The original size comes first, when it is there at all.
            skip = 8 if has_size else 0
            if len(field) >= skip + 8:
                return int.from_bytes(field[skip : skip + 8], "little")
            return -1
        position += 4 + length
    return -1


def _layout(
    data: bytes, infos: list[zipfile.ZipInfo], start_dir: int, what: str
) -> tuple[dict[str, int], tuple[str, ...]]:
    """Refuse bytes that no listed member accounts for; return where each member's data starts.

    The members, by offset, must start at byte 0 and follow one another
    up to the central directory (APPNOTE.TXT section 4.3.6): a local
    header (section 4.3.7: 30 bytes, the name, the extra field) whose
    name and method are the central directory's, the compressed data,
    and a data descriptor where bit 3 says so.  A gap may hold only
    superseded entries (see the module's docstring), whose names are
    returned in the order they appear.
    """
    import struct

    live = {info.filename: info.header_offset for info in infos}
    # Where a data descriptor may end: at the next member or the directory.
    boundaries = {start_dir, *live.values()}
    starts: dict[str, int] = {}
    superseded: list[str] = []
    position = 0
    for info in sorted(infos, key=lambda item: item.header_offset):
        if info.header_offset > position:
            superseded += _superseded(data, position, info.header_offset, live, what)
            position = info.header_offset
        if info.header_offset != position:
            # zipfile's own offsets are shifted by any bytes before the
            # archive, so an overlap here is data it would read twice.
            raise _bad(
                what,
                f"{abs(info.header_offset - position)} bytes at offset {min(position, info.header_offset)} belong "
                "to no listed member (another archive, or a hidden member): which one is the log?",
            )
        header = data[position : position + 30]
        if len(header) < 30 or header[:4] != b"PK\x03\x04":
            raise _bad(what, f"the member {info.filename!r} has no local header at offset {position}")
        flags, method = struct.unpack("<HH", header[6:10])
        name, name_length, extra_length = _local_name(data, position, flags, what)
        if name != info.orig_filename or method != info.compress_type:
            # A reader of local entries in order would see another member.
            raise _bad(
                what,
                f"the member {info.filename!r} has a local header at offset {position} that names "
                f"{name!r} (method {method}), not what the central directory lists",
            )
        starts[info.filename] = position + 30 + name_length + extra_length
        end = starts[info.filename] + info.compress_size
        if info.flag_bits & _DESCRIPTOR:
            for size in _DESCRIPTOR_SIZES[1:]:
                if end + size in boundaries:
                    end += size
                    break
        position = end
    if position < start_dir:
        superseded += _superseded(data, position, start_dir, live, what)
        position = start_dir
    if position != start_dir:
        raise _bad(
            what,
            f"{abs(start_dir - position)} bytes before its central directory belong to no listed member "
            "(a hidden member?): which one is the log?",
        )
    return starts, tuple(superseded)


def _tail(data: bytes, count: int, start_dir: int, what: str) -> None:
    """Refuse bytes after the central directory other than its end records, and an archive comment.

    The central directory's *count* headers (APPNOTE.TXT section 4.3.12:
    46 bytes, the name, the extra field, the comment) are followed by an
    optional ZIP64 end record and its locator (sections 4.3.14, 4.3.15)
    and the end of central directory record (section 4.3.16: 22 bytes and
    the comment), which must end the file.  ``zipfile`` searches for that
    record backwards and ignores whatever follows it, so bytes after it
    (junk, or a complete local ``header.json`` that a reader of local
    entries in order would take last) would be a second log beside the
    listed one.  Inspect writes no archive comment (zipfile's default,
    b''): one is refused too, since a comment is text no member accounts
    for.
    """
    import struct

    position = start_dir
    for _ in range(count):
        header = data[position : position + 46]
        if len(header) < 46 or header[:4] != b"PK\x01\x02":
            raise _bad(what, f"its central directory has no entry header at offset {position}")
        name_length, extra_length, comment_length = struct.unpack("<HHH", header[28:34])
        position += 46 + name_length + extra_length + comment_length
    if data[position : position + 4] == b"PK\x06\x06":
        # The ZIP64 record's size field excludes its leading 12 bytes.
        (size,) = struct.unpack("<Q", data[position + 4 : position + 12].ljust(8, b"\0"))
        position += 12 + size
        if data[position : position + 4] != b"PK\x06\x07":
            raise _bad(what, f"its ZIP64 end record at offset {position} has no locator after it")
        position += 20
    record = data[position : position + 22]
    if len(record) < 22 or record[:4] != b"PK\x05\x06":
        raise _bad(
            what,
            f"{len(data) - position} bytes at offset {position}, after its central directory, are not its end "
            "record (a hidden member?): which one is the log?",
        )
    (comment_length,) = struct.unpack("<H", record[20:22])
    if comment_length:
        raise _bad(what, f"it carries an archive comment of {comment_length} bytes, which Inspect never writes")
    if position + 22 != len(data):
        raise _bad(
            what,
            f"{len(data) - position - 22} bytes follow its end of central directory record at offset {position} "
            "(another archive, or a hidden member): which one is the log?",
        )


def _alias(name: str) -> str:
    """The file an extracting tool writes for *name*, as a case-insensitive file system sees it.

    Backslashes are separators (Windows, and unzip's conversion of them);
    empty and ``.`` segments go, ``..`` removes the segment before it (or
    nothing, as unzip drops a leading ``../``); case is folded and Unicode
    normalized (NFC), as on macOS and Windows.
    """
    parts: list[str] = []
    for part in name.replace("\\", "/").split("/"):
        if part == "..":
            if parts:
                parts.pop()
        elif part and part != ".":
            parts.append(part)
    key = "/".join(parts)
    if not key.isascii():
        import unicodedata

        key = unicodedata.normalize("NFC", key)
    return key.casefold()


class Archive:
    """A ZIP archive held in memory; ``read`` returns one member's bytes.

    *data* is the whole archive; *what* names it in messages (``"the
    Inspect log 'run.eval'"``).  *total_limit* bounds the bytes all
    ``read`` calls may return together (None: only each member's limit).
    Opening refuses what no member read could survive: not a ZIP,
    duplicate or alias names, encrypted members, unlisted bytes.

    ``names`` lists the members in central directory order;
    ``superseded`` names the superseded local entries the archive holds
    (an earlier ``header.json`` that Inspect replaced when it edited the
    log), in the order they appear, once per entry: ``()`` for an
    archive written in one go.
    """

    __slots__ = ("_zip", "_data", "_starts", "_what", "_left", "names", "superseded")

    names: tuple[str, ...]
    superseded: tuple[str, ...]

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
        seen: dict[str, str] = {}
        for info in infos:
            name = info.filename
            if info.flag_bits & _ENCRYPTED:
                raise _bad(what, f"the member {name!r} is encrypted")
            key = _alias(name)
            if key in seen:
                other = seen[key]
                if other == name:
                    raise _bad(what, f"the member name {name!r} appears twice; which one is the log?")
                raise _bad(
                    what,
                    f"the member names {other!r} and {name!r} are one file once extracted (a leading '/', "
                    "'.' or '..' segments, a backslash or a difference of case): which one is the log?",
                )
            seen[key] = name
        self._starts, self.superseded = _layout(data, infos, archive.start_dir, what)
        _tail(data, len(infos), archive.start_dir, what)
        self._zip = archive
        self._data = data
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
        if info.compress_type == _ZSTANDARD:
            data = self._read_zstandard(info, limit)
        else:
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

    def _read_zstandard(self, info: zipfile.ZipInfo, limit: int) -> bytes:
        """Decode a method-93 member with ``_zstd``, stopping at the first byte past a bound."""
        import zlib

        from ._zstd import ZstdError, ZstdLimitError, decompress

        name = info.filename
        start = self._starts[name]
        compressed = self._data[start : start + info.compress_size]
        # The ratio bound, as _check_size applies it, is a size bound too:
        # decoding stops at whichever comes first.
        cap = min(limit, max(RATIO_FLOOR, MAX_RATIO * max(info.compress_size, 1)))
        try:
            data = decompress(compressed, max_size=cap)
        except ZstdLimitError:
            self._check_size(name, cap + 1, info.compress_size, limit, "inflates to at least")
            raise InvalidEvidence("archive-too-large", f"{self._what}: the member {name!r} is over a limit") from None
        except ZstdError as exc:
            raise _bad(self._what, f"the member {name!r} cannot be read: {exc}") from None
        if len(data) != info.file_size or zlib.crc32(data) != info.CRC:
            raise _bad(
                self._what,
                f"the member {name!r} cannot be read: its content does not match the size and CRC-32 "
                "its central directory entry declares",
            )
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
