# SPDX-License-Identifier: MIT
"""Zstandard frames decoded in pure Python, within a bound (RFC 8878).

``decompress(data, max_size)`` returns the content of every frame in
*data*, one after the other, skipping skippable frames.  It is what
``_archive`` uses for ZIP members of method 93, which is how Inspect
writes every member of a ``.eval`` log: ``zipfile`` reads that method
only from Python 3.14.

The one decoder serves every Python, 3.14 included, where
``compression.zstd`` exists.  A gate must give a file the same verdict on
every interpreter, and libzstd's refusals are not this module's: it
accepts, for one, a table log of 12 where RFC 8878 section 4.2.1 stops at
11, and it sizes its window buffer from a header field the file chooses
(``window_log_max`` rounds the bound to a power of two, so a member cannot
be held to the caller's exact limit).  Here the output is the window, and
nothing is allocated past the limit.

What the decoder does to be bounded:

- the output never exceeds *max_size*: a frame that declares more content
  is refused before a block is decoded, and a block that would write past
  the limit is refused before it writes (``ZstdLimitError``); the output
  is the only buffer that grows, so memory stays within about twice the
  limit (the buffer, and the ``bytes`` returned);
- the time is linear in the input and the output: each block's work is
  bounded by its own size and the at most 128 KiB it may produce
  (section 3.1.1.2.4, Block_Maximum_Size), and no table is built for more
  than one block's worth of symbols;
- frames that need a dictionary are refused (there is none to use);
- the content checksum (XXH64, section 3.1.1) is verified when present.

Everything malformed raises ``ZstdError`` and nothing else: no
``IndexError`` or ``KeyError`` escapes from a hostile table.
"""

from __future__ import annotations

from ._errors import ScoreContractError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._errors import Reduced

__all__ = ["ZstdError", "ZstdLimitError", "decompress", "xxh64"]


class ZstdError(ScoreContractError):
    """Zstandard data that cannot be decoded; the message says where and why.

    Part of the package's one hierarchy (code ``bad-archive``), so nothing
    the decoder raises on purpose falls outside ``ScoreContractError``.
    ``str()`` is the message alone: the archive reader quotes it.
    """

    def __init__(self, message: str) -> None:
        super().__init__("bad-archive", message)

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> Reduced:  # one field, not two
        return type(self), (self.message,)


class ZstdLimitError(ZstdError):
    """The content would exceed the caller's limit.

    *limit* is that limit, in bytes.  A subclass of ``ZstdError``, so a
    caller that does not tell the two apart still fails closed.
    """

    def __init__(self, message: str, limit: int) -> None:
        super().__init__(message)
        self.limit = limit

    def __reduce__(self) -> Reduced:  # adds limit
        return type(self), (self.message, self.limit)


_MAGIC = 0xFD2FB528
# Section 3.1.2: 0x184D2A50 to 0x184D2A5F.
_SKIPPABLE = 0x184D2A50
_BLOCK_MAX = 128 * 1024
# libzstd decodes no window over 2**31 bytes (ZSTD_WINDOWLOG_MAX on 64
# bits); neither does this decoder, which accepts nothing libzstd refuses.
# The window costs nothing here (it is the output), so there is no lower
# bound.
_WINDOW_MAX = 1 << 31
# Section 4.2.1: Max_Number_of_Bits may not exceed 11.
_HUFFMAN_LOG_MAX = 11
_MASK64 = (1 << 64) - 1

# Section 3.1.1.3.2.1.1 (literal and match length codes): the baseline and
# the number of extra bits of each code.
_LL_BASE = (
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22,
    24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
)  # fmt: skip
_LL_BITS = (
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
)  # fmt: skip
_ML_BASE = (
    3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
    21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 37, 39, 41,
    43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539,
)  # fmt: skip
_ML_BITS = (
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
)  # fmt: skip
# Offset codes (section 3.1.1.3.2.1.1): Offset_Value = (1 << code) + code
# extra bits.  libzstd reads at most 31 codes (MaxOff).
_OF_MAX = 31

# Section 3.1.1.3.2.2: the predefined distributions and their accuracy logs.
_LL_DEFAULT = (
    4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1,
    -1, -1, -1, -1,
)  # fmt: skip
_ML_DEFAULT = (
    1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1,
)  # fmt: skip
_OF_DEFAULT = (
    1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1,
)  # fmt: skip

if TYPE_CHECKING:
    # A sequence decoding table: per state, the symbol's baseline, its
    # number of extra bits and their mask, the state's number of bits and
    # their mask, and the next state's base.
    _States = tuple[tuple[int, int, int, int, int, int], ...]

# The predefined sequence tables and the bit readers' masks, built on
# first use.
_DEFAULTS: dict[str, _States] = {}
_MASKS: list[tuple[int, ...]] = []


def _masks() -> tuple[int, ...]:
    """``(1 << n) - 1`` by ``n``, for the bit readers."""
    if not _MASKS:
        _MASKS.append(tuple((1 << n) - 1 for n in range(256)))
    return _MASKS[0]


def decompress(data: bytes, /, *, max_size: int) -> bytes:
    """Return the content of the Zstandard frames in *data*.

    The frames are decoded one after the other and their contents
    concatenated; skippable frames are skipped.  *max_size* bounds the
    result: ``ZstdLimitError`` as soon as the content would exceed it.
    Anything that is not Zstandard data, is damaged, needs a dictionary
    or ends part way raises ``ZstdError``.

    >>> decompress(bytes.fromhex("28b52ffd2003190000616263"), max_size=3)
    b'abc'
    """
    if type(data) is not bytes:
        data = bytes(data)
    if not data:
        raise ZstdError("there is no Zstandard frame (no data)")
    out = bytearray()
    position = 0
    end = len(data)
    frame = 0
    try:
        while position < end:
            frame += 1
            if end - position < 4:
                raise ZstdError(f"{end - position} bytes after the last frame are not a frame")
            magic = int.from_bytes(data[position : position + 4], "little")
            if magic == _MAGIC:
                position = _frame(data, position + 4, out, max_size, frame)
            elif magic & 0xFFFFFFF0 == _SKIPPABLE:
                if end - position < 8:
                    raise ZstdError(f"the skippable frame {frame} is cut short")
                size = int.from_bytes(data[position + 4 : position + 8], "little")
                if size > end - position - 8:
                    raise ZstdError(f"the skippable frame {frame} declares {size} bytes and is cut short")
                position += 8 + size
            else:
                raise ZstdError(f"frame {frame} (at byte {position}) does not start with the Zstandard magic number")
    except (IndexError, KeyError, ValueError, OverflowError) as exc:
        # A safety net: every check above raises ZstdError itself, so this
        # turns a missed one into a refusal, never a crash.
        if isinstance(exc, ZstdError):
            raise
        raise ZstdError(f"frame {frame} is malformed ({type(exc).__name__})") from None
    return bytes(out)


def _frame(data: bytes, position: int, out: bytearray, max_size: int, frame: int) -> int:
    """Decode the frame whose header starts at *position* into *out*; return where it ends."""
    end = len(data)
    if position >= end:
        raise ZstdError(f"frame {frame} has no frame header")
    descriptor = data[position]
    position += 1
    size_flag = descriptor >> 6
    single_segment = descriptor >> 5 & 1
    checksum = descriptor >> 2 & 1
    dictionary_size = (0, 1, 2, 4)[descriptor & 3]
    if descriptor & 0x08:
        raise ZstdError(f"frame {frame}: the reserved bit of the frame header descriptor is set")
    header_size = (not single_segment) + dictionary_size + (single_segment if size_flag == 0 else 1 << size_flag)
    if end - position < header_size:
        raise ZstdError(f"frame {frame}: the frame header is cut short")
    window = 0
    if not single_segment:
        exponent = data[position] >> 3
        mantissa = data[position] & 7
        position += 1
        base = 1 << (exponent + 10)
        window = base + (base >> 3) * mantissa
    if dictionary_size:
        dictionary = int.from_bytes(data[position : position + dictionary_size], "little")
        position += dictionary_size
        if dictionary:
            raise ZstdError(f"frame {frame} needs the dictionary {dictionary}, and there is none")
    content_size = -1
    if size_flag or single_segment:
        field = 1 if size_flag == 0 else 1 << size_flag
        content_size = int.from_bytes(data[position : position + field], "little") + (256 if field == 2 else 0)
        position += field
        if single_segment:
            window = content_size
        if len(out) + content_size > max_size:
            raise ZstdLimitError(
                f"frame {frame} declares {content_size} bytes of content, over the limit of {max_size}", max_size
            )
    if window > _WINDOW_MAX:
        raise ZstdError(f"frame {frame}: its window of {window} bytes is over 2**31")
    block_max = min(window, _BLOCK_MAX)
    start = len(out)
    state = _FrameState(window)
    block = 0
    while True:
        block += 1
        if end - position < 3:
            raise ZstdError(f"frame {frame}: block {block} has no block header (the frame is cut short)")
        header = data[position] | data[position + 1] << 8 | data[position + 2] << 16
        position += 3
        last = header & 1
        kind = header >> 1 & 3
        size = header >> 3
        where = f"frame {frame}, block {block}"
        if size > block_max:
            raise ZstdError(f"{where}: its size {size} is over the block maximum of {block_max}")
        if kind == 0:
            if end - position < size:
                raise ZstdError(f"{where}: the raw block is cut short")
            _room(out, size, max_size, where)
            out += data[position : position + size]
            position += size
        elif kind == 1:
            if position >= end:
                raise ZstdError(f"{where}: the RLE block is cut short")
            _room(out, size, max_size, where)
            out += bytes((data[position],)) * size
            position += 1
        elif kind == 2:
            if end - position < size:
                raise ZstdError(f"{where}: the compressed block is cut short")
            _block(data, position, position + size, out, start, block_max, max_size, state, where)
            position += size
        else:
            raise ZstdError(f"{where}: the block type is reserved (3)")
        if last:
            break
    produced = len(out) - start
    if content_size >= 0 and produced != content_size:
        raise ZstdError(f"frame {frame} declares {content_size} bytes of content and holds {produced}")
    if checksum:
        if end - position < 4:
            raise ZstdError(f"frame {frame}: the content checksum is cut short")
        stored = int.from_bytes(data[position : position + 4], "little")
        position += 4
        if xxh64(memoryview(out)[start:]) & 0xFFFFFFFF != stored:
            raise ZstdError(f"frame {frame}: the content checksum (XXH64) does not match: the content is damaged")
    return position


def _room(out: bytearray, size: int, max_size: int, where: str) -> None:
    if len(out) + size > max_size:
        raise ZstdLimitError(f"{where}: the content would exceed the limit of {max_size} bytes", max_size)


class _FrameState:
    """What one block leaves to the next in a frame (section 3.1.1.3.2.1.3, 3.1.1.5)."""

    __slots__ = ("window", "huffman", "tables", "offsets")

    def __init__(self, window: int) -> None:
        self.window = window
        # The last Huffman table (for treeless literals) and the last
        # literal-length, offset and match-length tables (for repeat mode).
        self.huffman: tuple[tuple[tuple[int, int], ...], int] | None = None
        self.tables: tuple[_States, _States, _States] | None = None
        self.offsets = (1, 4, 8)


def _block(
    data: bytes,
    position: int,
    end: int,
    out: bytearray,
    frame_start: int,
    block_max: int,
    max_size: int,
    state: _FrameState,
    where: str,
) -> None:
    """Decode the compressed block ``data[position:end]`` into *out*."""
    if end - position < 2:
        raise ZstdError(f"{where}: the compressed block is too short to hold its sections")
    literals, position = _literals(data, position, end, block_max, state, where)
    # Sequences section header (section 3.1.1.3.2.1).
    if position >= end:
        raise ZstdError(f"{where}: the sequences section is missing")
    first = data[position]
    position += 1
    if first < 128:
        count = first
    elif first < 255:
        if position >= end:
            raise ZstdError(f"{where}: the number of sequences is cut short")
        count = (first - 128 << 8) + data[position]
        position += 1
    else:
        if end - position < 2:
            raise ZstdError(f"{where}: the number of sequences is cut short")
        count = data[position] + (data[position + 1] << 8) + 0x7F00
        position += 2
    if count == 0:
        if position != end:
            raise ZstdError(f"{where}: {end - position} bytes follow a sequences section of no sequence")
        _room(out, len(literals), max_size, where)
        out += literals
        return
    # Every sequence writes at least a match of 3 bytes: refuse a count that
    # cannot fit before decoding any of them.
    if count * 3 > block_max:
        raise ZstdError(f"{where}: {count} sequences cannot fit in a block of at most {block_max} bytes")
    if position >= end:
        raise ZstdError(f"{where}: the symbol compression modes are missing")
    modes = data[position]
    position += 1
    if modes & 3:
        raise ZstdError(f"{where}: the reserved bits of the symbol compression modes are set")
    previous = state.tables
    tables = []
    for index, (name, mode, kind) in enumerate(
        (("literal length", modes >> 6, "ll"), ("offset", modes >> 4 & 3, "of"), ("match length", modes >> 2 & 3, "ml"))
    ):
        if mode == 0:
            table = _default(kind)
        elif mode == 1:
            if position >= end:
                raise ZstdError(f"{where}: the {name} RLE symbol is missing")
            table = _rle_table(kind, data[position], name, where)
            position += 1
        elif mode == 2:
            table, position = _sequence_table(data, position, end, kind, name, where)
        else:
            if previous is None:
                raise ZstdError(f"{where}: the {name} table repeats a table no earlier block of the frame defined")
            table = previous[index]
        tables.append(table)
    state.tables = (tables[0], tables[1], tables[2])
    _sequences(data, position, end, literals, out, frame_start, block_max, max_size, state, count, tables, where)


def _literals(
    data: bytes, position: int, end: int, block_max: int, state: _FrameState, where: str
) -> tuple[bytes, int]:
    """Decode the literals section (section 3.1.1.3.1); return the literals and where the section ends."""
    first = data[position]
    kind = first & 3
    size_format = first >> 2 & 3
    if kind < 2:
        # Raw or RLE: the regenerated size takes 5, 12 or 20 bits.
        if size_format & 1 == 0:
            size = first >> 3
            position += 1
        elif size_format == 1:
            size = (first >> 4) + (data[position + 1] << 4)
            position += 2
        else:
            if end - position < 3:
                raise ZstdError(f"{where}: the literals section header is cut short")
            size = (first >> 4) + (data[position + 1] << 4) + (data[position + 2] << 12)
            position += 3
        if size > block_max:
            raise ZstdError(f"{where}: {size} literals are over the block maximum of {block_max}")
        if kind == 0:
            if end - position < size:
                raise ZstdError(f"{where}: the raw literals are cut short")
            return data[position : position + size], position + size
        if position >= end:
            raise ZstdError(f"{where}: the RLE literal is missing")
        return bytes((data[position],)) * size, position + 1
    # Compressed or treeless: sizes of 10, 14 or 18 bits each.
    if end - position < 5:
        raise ZstdError(f"{where}: the literals section header is cut short")
    streams = 1 if size_format == 0 else 4
    if size_format < 2:
        value = int.from_bytes(data[position : position + 3], "little")
        size, compressed = value >> 4 & 0x3FF, value >> 14 & 0x3FF
        position += 3
    elif size_format == 2:
        value = int.from_bytes(data[position : position + 4], "little")
        size, compressed = value >> 4 & 0x3FFF, value >> 18
        position += 4
    else:
        value = int.from_bytes(data[position : position + 5], "little")
        size, compressed = value >> 4 & 0x3FFFF, value >> 22
        position += 5
    if size > block_max:
        raise ZstdError(f"{where}: {size} literals are over the block maximum of {block_max}")
    # libzstd's MIN_LITERALS_FOR_4_STREAMS: four streams of fewer than 6
    # literals are refused there, so here too.
    if streams == 4 and size < 6:
        raise ZstdError(f"{where}: {size} literals cannot be split into 4 Huffman streams")
    if end - position < compressed:
        raise ZstdError(f"{where}: the compressed literals are cut short")
    stop = position + compressed
    if kind == 2:
        state.huffman, position = _huffman_table(data, position, stop, where)
    elif state.huffman is None:
        raise ZstdError(f"{where}: treeless literals reuse a Huffman table no earlier block of the frame defined")
    table, log = state.huffman
    if streams == 1:
        return _huffman_stream(data, position, stop, size, table, log, where), stop
    if stop - position < 10:
        raise ZstdError(f"{where}: four Huffman streams need at least 10 bytes")
    sizes = (
        data[position] | data[position + 1] << 8,
        data[position + 2] | data[position + 3] << 8,
        data[position + 4] | data[position + 5] << 8,
    )
    position += 6
    segment = (size + 3) // 4
    parts = []
    for index in range(4):
        length = sizes[index] if index < 3 else stop - position
        if length > stop - position:
            raise ZstdError(f"{where}: the Huffman stream {index + 1} runs past the literals section")
        count = segment if index < 3 else size - 3 * segment
        parts.append(_huffman_stream(data, position, position + length, count, table, log, where))
        position += length
    return b"".join(parts), stop


def _huffman_table(
    data: bytes, position: int, end: int, where: str
) -> tuple[tuple[tuple[tuple[int, int], ...], int], int]:
    """Read a Huffman tree description (section 4.2.1); return the decoding table, its log, and the end."""
    if position >= end:
        raise ZstdError(f"{where}: the Huffman tree description is missing")
    header = data[position]
    position += 1
    if header < 128:
        if end - position < header:
            raise ZstdError(f"{where}: the Huffman weights are cut short")
        weights = _fse_weights(data, position, position + header, where)
        position += header
    else:
        count = header - 127
        length = (count + 1) // 2
        if end - position < length:
            raise ZstdError(f"{where}: the Huffman weights are cut short")
        weights = []
        for index in range(count):
            byte = data[position + index // 2]
            weights.append(byte & 15 if index & 1 else byte >> 4)
        position += length
    total = 0
    for weight in weights:
        # libzstd's HUF_TABLELOG_MAX bounds a weight before it is summed.
        if weight > 12:
            raise ZstdError(f"{where}: the Huffman weight {weight} is over 12")
        if weight:
            total += 1 << (weight - 1)
    if total == 0:
        raise ZstdError(f"{where}: every Huffman weight is 0")
    log = total.bit_length()
    if log > _HUFFMAN_LOG_MAX:
        raise ZstdError(f"{where}: the Huffman codes are longer than {_HUFFMAN_LOG_MAX} bits")
    rest = (1 << log) - total
    if rest & (rest - 1):
        raise ZstdError(f"{where}: the Huffman weights do not sum to a power of 2")
    weights.append(rest.bit_length())
    # A prefix code needs an even number of the longest codes, at least two
    # of them (libzstd refuses the others the same way).
    ones = weights.count(1)
    if ones < 2 or ones & 1:
        raise ZstdError(f"{where}: the Huffman tree is not a complete prefix code")
    # Section 4.2.1.3: the codes go to symbols by increasing weight, then by
    # symbol; a symbol of weight w takes 2**(w-1) slots of nb = log+1-w bits.
    table: list[tuple[int, int]] = []
    for weight in range(1, log + 1):
        entry_bits = log + 1 - weight
        slots = 1 << (weight - 1)
        for symbol, symbol_weight in enumerate(weights):
            if symbol_weight == weight:
                table.extend([(symbol, entry_bits)] * slots)
    return (tuple(table), log), position


def _huffman_stream(
    data: bytes, start: int, end: int, count: int, table: tuple[tuple[int, int], ...], log: int, where: str
) -> bytes:
    """Decode *count* literals from one backward Huffman bitstream (section 4.2.2)."""
    if end <= start or data[end - 1] == 0:
        raise ZstdError(f"{where}: a Huffman stream has no end marker")
    low = _masks()
    container = data[end - 1]
    bits = container.bit_length() - 1
    container &= low[bits]
    position = end - 1
    # Bits past the stream's first byte read as zeros; *padding* counts them,
    # so that a stream read past its start is refused at the end.
    padding = 0
    mask = low[log]
    out = bytearray(count)
    for index in range(count):
        if bits < log:
            if position - start >= 7:
                container = (container & low[bits]) << 56 | int.from_bytes(data[position - 7 : position], "little")
                position -= 7
                bits += 56
            else:
                width = (position - start) * 8
                container = ((container & low[bits]) << width | int.from_bytes(data[start:position], "little")) << 56
                position = start
                bits += width + 56
                padding += 56
        symbol, used = table[container >> (bits - log) & mask]
        out[index] = symbol
        bits -= used
    if position != start or bits != padding:
        raise ZstdError(f"{where}: a Huffman stream does not end with its last literal")
    return bytes(out)


def _read_counts(
    data: bytes, position: int, end: int, max_symbol: int, max_log: int, what: str
) -> tuple[list[int], int, int]:
    """Read an FSE table description (section 4.1.1); return the counts, the accuracy log and the end."""
    available = end - position
    # Section 4.1.1: at most (max_symbol + 1) counts of at most max_log + 2
    # bits each, plus zero repeats: 512 bytes cover every table here.
    value = int.from_bytes(data[position : position + min(available, 512)], "little")
    log = (value & 15) + 5
    if log > max_log:
        raise ZstdError(f"{what}: the accuracy log {log} is over {max_log}")
    offset = 4
    remaining = (1 << log) + 1
    threshold = 1 << log
    width = log + 1
    counts: list[int] = []
    while remaining > 1:
        if len(counts) > max_symbol:
            raise ZstdError(f"{what}: the distribution has symbols past {max_symbol}")
        largest = 2 * threshold - 1 - remaining
        small = value >> offset & (threshold - 1)
        if small < largest:
            count = small
            offset += width - 1
        else:
            count = value >> offset & (2 * threshold - 1)
            if count >= threshold:
                count -= largest
            offset += width
        count -= 1
        remaining -= count if count >= 0 else 1
        counts.append(count)
        if count == 0:
            # Zero repeats: 2 bits each, 3 meaning "3 more, and read again".
            while True:
                repeat = value >> offset & 3
                offset += 2
                counts.extend([0] * repeat)
                if repeat != 3:
                    break
                if len(counts) > max_symbol + 1:
                    break
            if len(counts) > max_symbol + 1:
                raise ZstdError(f"{what}: the distribution has symbols past {max_symbol}")
        while remaining < threshold and threshold > 1:
            width -= 1
            threshold >>= 1
    if remaining != 1:
        raise ZstdError(f"{what}: the distribution does not add up to 2**{log}")
    size = (offset + 7) >> 3
    if size > min(available, 512):
        raise ZstdError(f"{what}: the table description is cut short")
    return counts, log, position + size


def _spread(counts: list[int], log: int, what: str) -> list[tuple[int, int, int]]:
    """Build an FSE decoding table (section 4.1.1): (symbol, bits, next state base) per state."""
    size = 1 << log
    symbols = [0] * size
    high = size - 1
    following = []
    for symbol, count in enumerate(counts):
        if count == -1:
            symbols[high] = symbol
            high -= 1
            following.append(1)
        else:
            following.append(count)
    step = (size >> 1) + (size >> 3) + 3
    mask = size - 1
    place = 0
    for symbol, count in enumerate(counts):
        for _ in range(count):
            symbols[place] = symbol
            place = (place + step) & mask
            while place > high:
                place = (place + step) & mask
    if place != 0:
        raise ZstdError(f"{what}: the distribution does not spread over its table")
    table = []
    for symbol in symbols:
        state = following[symbol]
        following[symbol] = state + 1
        bits = log - (state.bit_length() - 1)
        table.append((symbol, bits, (state << bits) - size))
    return table


def _fse_weights(data: bytes, position: int, end: int, where: str) -> list[int]:
    """Decode FSE-compressed Huffman weights (section 4.2.1.2)."""
    what = f"{where}: the Huffman weights"
    counts, log, position = _read_counts(data, position, end, 255, 6, what)
    table = _spread(counts, log, what)
    if end <= position or data[end - 1] == 0:
        raise ZstdError(f"{what} have no end marker")
    value = int.from_bytes(data[position:end], "little")
    bits = (end - position) * 8 - 9 + data[end - 1].bit_length()

    def read(width: int) -> int:
        nonlocal bits
        bits -= width
        if bits >= 0:
            return value >> bits & (1 << width) - 1
        return value << -bits & (1 << width) - 1

    states = [read(log), read(log)]
    if bits < 0:
        raise ZstdError(f"{what} are cut short")
    weights: list[int] = []
    which = 0
    # Two interleaved states; when an update would read past the stream's
    # start, the other state gives the last weight (section 4.2.1.2).
    while True:
        # libzstd's FSE_decompress leaves room for two symbols before each
        # one it decodes, in a buffer of 255.
        if len(weights) > 253:
            raise ZstdError(f"{what} are more than 255")
        symbol, width, base = table[states[which]]
        weights.append(symbol)
        states[which] = base + read(width)
        if bits < 0:
            weights.append(table[states[1 - which]][0])
            return weights
        which = 1 - which


def _default(kind: str) -> _States:
    table = _DEFAULTS.get(kind)
    if table is None:
        counts, log = {"ll": (_LL_DEFAULT, 6), "of": (_OF_DEFAULT, 5), "ml": (_ML_DEFAULT, 6)}[kind]
        table = _DEFAULTS[kind] = _seq_states(_spread(list(counts), log, "a predefined table"), kind)
    return table


def _values(kind: str, symbol: int) -> tuple[int, int]:
    if kind == "ll":
        return _LL_BASE[symbol], _LL_BITS[symbol]
    if kind == "ml":
        return _ML_BASE[symbol], _ML_BITS[symbol]
    return 1 << symbol, symbol


_MAX_SYMBOL = {"ll": 35, "of": _OF_MAX, "ml": 52}
_MAX_LOG = {"ll": 9, "of": 8, "ml": 9}


def _seq_states(table: list[tuple[int, int, int]], kind: str) -> _States:
    low = _masks()
    states = []
    for symbol, bits, base in table:
        value, extra = _values(kind, symbol)
        states.append((value, extra, low[extra], bits, low[bits], base))
    return tuple(states)


def _rle_table(kind: str, symbol: int, name: str, where: str) -> _States:
    if symbol > _MAX_SYMBOL[kind]:
        raise ZstdError(f"{where}: the {name} RLE symbol {symbol} is over {_MAX_SYMBOL[kind]}")
    value, extra = _values(kind, symbol)
    return ((value, extra, (1 << extra) - 1, 0, 0, 0),)


def _sequence_table(data: bytes, position: int, end: int, kind: str, name: str, where: str) -> tuple[_States, int]:
    what = f"{where}: the {name} table"
    if position >= end:
        raise ZstdError(f"{what} is missing")
    counts, log, position = _read_counts(data, position, end, _MAX_SYMBOL[kind], _MAX_LOG[kind], what)
    return _seq_states(_spread(counts, log, what), kind), position


def _sequences(
    data: bytes,
    start: int,
    end: int,
    literals: bytes,
    out: bytearray,
    frame_start: int,
    block_max: int,
    max_size: int,
    state: _FrameState,
    count: int,
    tables: list[_States],
    where: str,
) -> None:
    """Decode and execute *count* sequences (sections 3.1.1.3.2.2, 3.1.2); the hot loop.

    One loop both decodes each sequence from the backward bitstream and
    executes it, with every name it uses local: the checks that bound it
    (the literals it takes, the offset's reach, the output's limit) come
    before it writes.
    """
    if end <= start or data[end - 1] == 0:
        raise ZstdError(f"{where}: the sequences bitstream has no end marker")
    low = _masks()
    ll_table, of_table, ml_table = tables
    position = end - 1
    container = data[position]
    bits = container.bit_length() - 1
    container &= low[bits]
    padding = 0
    # The three initial states: literal length, offset, match length.
    need = len(ll_table).bit_length() - 1 + len(of_table).bit_length() - 1 + len(ml_table).bit_length() - 1
    while bits < need and position > start:
        position -= 1
        container = container << 8 | data[position]
        bits += 8
    if bits < need:
        raise ZstdError(f"{where}: the sequences bitstream is cut short")
    width = len(ll_table).bit_length() - 1
    bits -= width
    ll_state = container >> bits & low[width]
    width = len(of_table).bit_length() - 1
    bits -= width
    of_state = container >> bits & low[width]
    width = len(ml_table).bit_length() - 1
    bits -= width
    ml_state = container >> bits & low[width]

    repeat1, repeat2, repeat3 = state.offsets
    window = state.window
    block_start = len(out)
    written = block_start
    cap = min(block_start + block_max, max_size)
    used = 0
    available = len(literals)
    view = memoryview(literals)
    ll_bits = ml_bits = of_bits = 0
    for _ in range(count):
        # 31 offset bits, 16 + 16 length bits and 9 + 9 + 8 state bits at most:
        # with 90 bits in hand a sequence reads nothing more.
        if bits < 90:
            if position - start >= 16:
                container = (container & low[bits]) << 128 | int.from_bytes(data[position - 16 : position], "little")
                position -= 16
                bits += 128
            else:
                width = (position - start) * 8
                container = (container & low[bits]) << width | int.from_bytes(data[start:position], "little")
                position = start
                bits += width
                if bits < 90:
                    container <<= 128
                    padding += 128
                    bits += 128
        of_base, of_extra, of_mask, of_bits, of_low, of_next = of_table[of_state]
        ml_base, ml_extra, ml_mask, ml_bits, ml_low, ml_next = ml_table[ml_state]
        ll_base, ll_extra, ll_mask, ll_bits, ll_low, ll_next = ll_table[ll_state]
        bits -= of_extra
        offset = of_base + (container >> bits & of_mask)
        bits -= ml_extra
        match = ml_base + (container >> bits & ml_mask)
        bits -= ll_extra
        length = ll_base + (container >> bits & ll_mask)
        # The next states; the last sequence's are not read, and are given
        # back below.
        bits -= ll_bits
        ll_state = ll_next + (container >> bits & ll_low)
        bits -= ml_bits
        ml_state = ml_next + (container >> bits & ml_low)
        bits -= of_bits
        of_state = of_next + (container >> bits & of_low)
        # Repeat offsets (section 3.1.1.5).
        if offset > 3:
            offset -= 3
            repeat3 = repeat2
            repeat2 = repeat1
            repeat1 = offset
        else:
            if length == 0:
                offset += 1
            if offset == 1:
                offset = repeat1
            elif offset == 2:
                offset = repeat2
                repeat2 = repeat1
                repeat1 = offset
            else:
                if offset == 3:
                    offset = repeat3
                else:
                    # Repeated_Offset1 - 1, for a literal length of 0.
                    offset = repeat1 - 1
                    if offset == 0:
                        raise ZstdError(f"{where}: a repeat offset is 0")
                repeat3 = repeat2
                repeat2 = repeat1
                repeat1 = offset
        if written + length + match > cap:
            _over(written + length + match - block_start, block_max, max_size, where)
        if length:
            if used + length > available:
                raise ZstdError(f"{where}: a sequence takes more literals than the block holds")
            out += view[used : used + length]
            used += length
            written += length
        if offset > written - frame_start or offset > window:
            raise ZstdError(f"{where}: an offset of {offset} reaches before the frame's first byte or past its window")
        source = written - offset
        if match <= offset:
            out += out[source : source + match]
        else:
            pattern = out[source:written]
            whole, part = divmod(match, offset)
            out += pattern * whole + pattern[:part]
        written += match
    bits += ll_bits + ml_bits + of_bits
    if position != start or bits != padding:
        raise ZstdError(f"{where}: the sequences bitstream does not end with its last sequence")
    state.offsets = (repeat1, repeat2, repeat3)
    rest = available - used
    if written + rest > cap:
        _over(written + rest - block_start, block_max, max_size, where)
    out += view[used:]


def _over(block_size: int, block_max: int, max_size: int, where: str) -> None:
    if block_size > block_max:
        raise ZstdError(f"{where}: the block holds more than the block maximum of {block_max} bytes")
    raise ZstdLimitError(f"{where}: the content would exceed the limit of {max_size} bytes", max_size)


_P1 = 0x9E3779B185EBCA87
_P2 = 0xC2B2AE3D27D4EB4F
_P3 = 0x165667B19E3779F9
_P4 = 0x85EBCA77C2B2AE63
_P5 = 0x27D4EB2F165667C5


def xxh64(data: bytes | bytearray | memoryview, seed: int = 0) -> int:
    """Return the XXH64 digest of *data* (the Zstandard content checksum, RFC 8878 section 3.1.1).

    >>> hex(xxh64(b""))
    '0xef46db3751d8e999'
    """
    import struct

    mask = _MASK64
    p1, p2 = _P1, _P2
    view = memoryview(data).cast("B")
    length = len(view)
    stripes = length - length % 32
    if length >= 32:
        v1 = (seed + p1 + p2) & mask
        v2 = (seed + p2) & mask
        v3 = seed
        v4 = (seed - p1) & mask
        for a, b, c, d in struct.iter_unpack("<4Q", view[:stripes]):
            # round(acc, lane) = rotl(acc + lane * P2, 31) * P1; bits the
            # rotation leaves above 64 only reach bits above 64 of the product.
            v1 = (v1 + a * p2) & mask
            v1 = ((v1 << 31 | v1 >> 33) * p1) & mask
            v2 = (v2 + b * p2) & mask
            v2 = ((v2 << 31 | v2 >> 33) * p1) & mask
            v3 = (v3 + c * p2) & mask
            v3 = ((v3 << 31 | v3 >> 33) * p1) & mask
            v4 = (v4 + d * p2) & mask
            v4 = ((v4 << 31 | v4 >> 33) * p1) & mask
        digest = (_rotl(v1, 1) + _rotl(v2, 7) + _rotl(v3, 12) + _rotl(v4, 18)) & mask
        for lane in (v1, v2, v3, v4):
            digest = ((digest ^ _round(0, lane)) * p1 + _P4) & mask
    else:
        digest = (seed + _P5) & mask
    digest = (digest + length) & mask
    position = stripes
    while position + 8 <= length:
        lane = int.from_bytes(view[position : position + 8], "little")
        digest = (_rotl(digest ^ _round(0, lane), 27) * p1 + _P4) & mask
        position += 8
    if position + 4 <= length:
        lane = int.from_bytes(view[position : position + 4], "little")
        digest = (_rotl(digest ^ (lane * p1 & mask), 23) * p2 + _P3) & mask
        position += 4
    while position < length:
        digest = (_rotl(digest ^ (view[position] * _P5 & mask), 11) * p1) & mask
        position += 1
    digest ^= digest >> 33
    digest = digest * p2 & mask
    digest ^= digest >> 29
    digest = digest * _P3 & mask
    return digest ^ digest >> 32


def _rotl(value: int, count: int) -> int:
    return (value << count | value >> (64 - count)) & _MASK64


def _round(accumulator: int, lane: int) -> int:
    accumulator = (accumulator + lane * _P2) & _MASK64
    return (_rotl(accumulator, 31) * _P1) & _MASK64
