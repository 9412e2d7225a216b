# SPDX-License-Identifier: MIT
"""Write the Zstandard test vectors and the manifest of tests/data/zstd/ (dev-only).

    python -m pip install zstandard==0.25.0     # the reference, libzstd 1.5.7
    python tools/zstd/make_vectors.py           # writes tests/data/zstd/

Each vector is a small ``.zst`` file that ``zstandard`` wrote from seeded,
generated data, chosen so that together they hold every block type,
every literals type (raw, RLE, Huffman in 1 and 4 streams, treeless, with
FSE-compressed and direct weights), every sequence compression mode for
each of the three codes (predefined, RLE, FSE-compressed, repeat), the
three sizes of the sequence count, frames with and without a window,
content size or checksum, several frames and a skippable frame, levels 1,
3, 19 and 22 and long-distance matching.  A few are made by hand where no
encoder writes the shape (an 8-byte content size) or where the decoder
must refuse (a frame that needs a dictionary).  tests/test_zstd.py checks
that the vectors still cover every one of these shapes.

``manifest.json`` gives, for every file in tests/data/zstd/ (the ``.eval``
logs that tools/zstd/make_eval_logs.py wrote included), its SHA-256 and
what decoding it must give: the content's size and SHA-256 as
``zstandard`` decodes it, or the refusal; for a ``.eval``, the digest of
each member's content and the superseded entries.  Run this script again
after make_eval_logs.py.
"""

from __future__ import annotations

import hashlib
import json
import random
import struct
import sys
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent.parent / "tests" / "data" / "zstd"
VERSIONS = {"zstandard": "0.25.0", "libzstd": "1.5.7"}
_WORDS = (
    "the model answer question choice because therefore option correct reason step first second final "
    "result value data test sample score token output input analysis"
).split()


def _text(rng: random.Random, size: int) -> bytes:
    return " ".join(rng.choice(_WORDS) for _ in range(size // 5)).encode()[:size]


def _json(rng: random.Random, size: int) -> bytes:
    items: list[str] = []
    total = 0
    while total < size:
        item = json.dumps(
            {
                "id": rng.randrange(10**6),
                "input": _text(rng, rng.randrange(20, 200)).decode(),
                "score": rng.random(),
                "target": rng.choice("ABCD"),
            }
        )
        items.append(item)
        total += len(item) + 1
    return ("[" + ",".join(items) + "]").encode()


def _alphabet(rng: random.Random, letters: int, size: int) -> bytes:
    return bytes(rng.randrange(letters) + 97 for _ in range(size))


def _tokens(rng: random.Random, count: int, size: int) -> bytes:
    """Four-byte tokens whose matches never extend: about 4 bytes a sequence, > 32512 in a block."""
    tokens = [bytes([index + 1, rng.randrange(256), rng.randrange(256), rng.randrange(256)]) for index in range(count)]
    follows: dict[int, int] = {}
    out = []
    previous = -1
    for _ in range(size):
        while True:
            token = rng.randrange(count)
            if follows.get(previous) != token:
                break
        follows[previous] = token
        out.append(tokens[token])
        previous = token
    return b"".join(out)


def _blocks(zstandard: object, chunks: list[bytes], **options: object) -> bytes:
    """One frame, each chunk ending a block (a streaming frame: no content size)."""
    compressor = zstandard.ZstdCompressor(**options).compressobj()  # type: ignore[attr-defined]
    out = b""
    for chunk in chunks:
        out += compressor.compress(chunk) + compressor.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)  # type: ignore[attr-defined]
    return out + compressor.flush()


def _frame(descriptor: int, header: bytes, blocks: bytes) -> bytes:
    return struct.pack("<LB", 0xFD2FB528, descriptor) + header + blocks


def vectors() -> dict[str, tuple[bytes, bytes | None, str]]:
    """Return name -> (compressed, content or None when refused, why it is here)."""
    import zstandard

    rng = random.Random(8878)
    made: dict[str, tuple[bytes, bytes | None, str]] = {}

    def add(name: str, content: bytes, compressed: bytes, why: str) -> None:
        made[name] = (compressed, content, why)

    def level(name: str, content: bytes, why: str, **options: object) -> None:
        add(name, content, zstandard.ZstdCompressor(**options).compress(content), why)

    text = _text(rng, 60_000)
    level("level1-text-checksum.zst", text, "level 1, content size and checksum", level=1, write_checksum=True)
    level("level3-json.zst", _json(rng, 60_000), "level 3 (Inspect's), content size, no checksum", level=3)
    level("level19-text.zst", _text(rng, 60_000), "level 19, checksum", level=19, write_checksum=True)
    level("level22-json.zst", _json(rng, 60_000), "level 22", level=22, write_content_size=False)
    level("negative-level.zst", _text(rng, 20_000), "level -5 (fast, little entropy coding)", level=-5)
    far = rng.randbytes(6000)
    long_distance = far + _text(rng, 40_000) + far + _text(rng, 20_000) + far
    parameters = zstandard.ZstdCompressionParameters.from_level(19, enable_ldm=True, window_log=27)
    add(
        "long-distance.zst",
        long_distance,
        zstandard.ZstdCompressor(compression_params=parameters).compress(long_distance),
        "long-distance matching, a 128 MiB window",
    )
    add(
        "streaming-json.zst",
        (content := _json(rng, 200_000)),
        _blocks(zstandard, [content[:100_000], content[100_000:]], level=3),
        "Inspect's shape: a streaming frame (window, no content size) of several blocks",
    )
    level("raw-blocks.zst", rng.randbytes(20_000), "incompressible: raw blocks", level=3)
    level("rle-blocks.zst", bytes(300_000), "zeros: RLE blocks", level=3, write_checksum=True)
    level("rle-block-short.zst", b"a" * 1000, "a short run: an RLE block, 1-byte content size", level=19)
    level("empty.zst", b"", "no content: an empty raw block", level=3, write_checksum=True)
    level("tiny.zst", b"abc", "3 bytes: a single-segment frame", level=1)
    first = _alphabet(rng, 8, 20_000)
    add(
        "treeless-literals.zst",
        first + (second := _alphabet(rng, 8, 800)) + (third := _alphabet(rng, 8, 200)),
        _blocks(zstandard, [first, second, third], level=1),
        "literals without sequences; then treeless literals (4 streams, then 1) reusing the Huffman table",
    )
    periodic = bytearray(rng.randbytes(100) * 400)
    for index in range(0, len(periodic), 50):
        periodic[index] = rng.randrange(256)
    add(
        "repeat-offset.zst",
        bytes(periodic),
        _blocks(zstandard, [bytes(periodic[:3000]), bytes(periodic[3000:])], level=3),
        "a period of 100 with noise: a block whose every offset is the repeat offset (RLE offset codes)",
    )
    base = _alphabet(rng, 26, 8000)
    marked = b"".join(base[(index * 97) % 7000 : (index * 97) % 7000 + 100] + b"Z" for index in range(100))
    add("rle-literals.zst", base + marked, _blocks(zstandard, [base, marked], level=19), "RLE literals")
    random_part, other = rng.randbytes(2000), rng.randbytes(9000)
    level(
        "raw-literals.zst",
        random_part + random_part + other + other,
        "raw literals with 2- and 3-byte headers",
        level=3,
    )
    level(
        "direct-weights.zst",
        bytes(rng.randrange(12) for _ in range(5000)),
        "a Huffman table written as direct 4-bit weights",
        level=3,
    )
    skewed = bytes(min(int(rng.expovariate(0.15)), 63) + 64 for _ in range(3000))
    level("no-sequences.zst", skewed, "Huffman literals and no sequence", level=1)
    tokens = _tokens(rng, 32, 33_500)
    parameters = zstandard.ZstdCompressionParameters(
        window_log=17, chain_log=16, hash_log=17, search_log=1, min_match=4, strategy=zstandard.STRATEGY_FAST
    )
    add(
        "many-sequences.zst",
        tokens,
        zstandard.ZstdCompressor(compression_params=parameters).compress(tokens),
        "more than 32512 sequences in a block: the 3-byte sequence count",
    )
    three = [bytes([index, rng.randrange(256), rng.randrange(256)]) for index in range(256)]
    mixed = b"".join(rng.choice(three) for _ in range(30_000))
    parameters = zstandard.ZstdCompressionParameters(
        window_log=17, chain_log=16, hash_log=17, search_log=4, min_match=3, target_length=4,
        strategy=zstandard.STRATEGY_BTOPT,
    )  # fmt: skip
    add(
        "optimal-parser.zst",
        mixed,
        zstandard.ZstdCompressor(compression_params=parameters).compress(mixed),
        "the optimal parser's block splits: predefined, RLE and repeat sequence tables",
    )
    # A byte deleted every 61: each match's offset is one less than the
    # last one's, which the optimal parser writes as Repeated_Offset1 - 1.
    original = rng.randbytes(3000)
    shifted = b"".join(original[start : start + 60] for start in range(0, len(original), 61))
    level("repeat-offset-minus-one.zst", original + shifted, "the repeat offset Repeated_Offset1 - 1", level=19)
    # Several frames and a skippable frame (RFC 8878 section 3.1.2).
    one, two = b"hello, ", _text(rng, 3000)
    skippable = struct.pack("<LL", 0x184D2A5E, 5) + b"\x00skip"
    add(
        "multiple-frames.zst",
        one + two,
        zstandard.ZstdCompressor(level=3).compress(one)
        + skippable
        + zstandard.ZstdCompressor(level=19, write_checksum=True).compress(two)
        + zstandard.ZstdCompressor(level=3).compress(b""),
        "three frames and a skippable frame between them",
    )
    # By hand: no encoder writes an 8-byte content size below 4 GiB.
    hello = b"hello, world"
    raw = struct.pack("<L", 1 | len(hello) << 3)[:3] + hello
    add("content-size-8.zst", hello, _frame(0xE0, struct.pack("<Q", len(hello)), raw), "an 8-byte content size")
    add(
        "window-no-size.zst",
        hello,
        _frame(0x04, bytes([0x00]), raw + struct.pack("<L", _xxh64_low(hello))),
        "a 1 KiB window, no content size, a checksum",
    )
    dictionary = zstandard.train_dictionary(4096, [_text(rng, 500) for _ in range(200)])
    refused = zstandard.ZstdCompressor(dict_data=dictionary, level=3).compress(_text(rng, 2000))
    made["dictionary.zst"] = (refused, None, "needs a dictionary: refused")
    return made


def _xxh64_low(data: bytes) -> int:
    import zstandard

    # The checksum as libzstd writes it: compress with one, read it back.
    frame = zstandard.ZstdCompressor(level=1, write_checksum=True).compress(data)
    return int.from_bytes(frame[-4:], "little")


def _reference(data: bytes) -> bytes:
    import zstandard

    out = []
    while data:
        decoder = zstandard.ZstdDecompressor(max_window_size=1 << 31).decompressobj()
        out.append(decoder.decompress(data))
        if not decoder.eof:
            raise SystemExit("a frame is cut short")
        data = decoder.unused_data
    return b"".join(out)


def _eval_entry(path: Path) -> dict[str, object]:
    """The members of an Inspect log, their contents' digests (as zstandard decodes them), its superseded entries."""
    data = path.read_bytes()
    with zipfile.ZipFile(path) as archive:
        infos = archive.infolist()
        start_dir = archive.start_dir
    members = {}
    for info in infos:
        name_length, extra_length = struct.unpack("<HH", data[info.header_offset + 26 : info.header_offset + 30])
        start = info.header_offset + 30 + name_length + extra_length
        content = _reference(data[start : start + info.compress_size])
        members[info.filename] = {"size": len(content), "sha256": hashlib.sha256(content).hexdigest()}
    # Walk the local entries in order: the ones the central directory does
    # not list are the superseded ones (Inspect's header-only edits).
    listed = {info.header_offset for info in infos}
    superseded = []
    position = 0
    while position < start_dir:
        compressed, _, name_length, extra_length = struct.unpack("<LLHH", data[position + 18 : position + 30])
        if position not in listed:
            superseded.append(data[position + 30 : position + 30 + name_length].decode())
        position += 30 + name_length + extra_length + compressed
    return {"members": members, "superseded": superseded}


def main() -> int:
    import zstandard

    if zstandard.__version__ != VERSIONS["zstandard"] or zstandard.ZSTD_VERSION != (1, 5, 7):
        raise SystemExit(f"zstandard {zstandard.__version__} (libzstd {zstandard.ZSTD_VERSION}): pin {VERSIONS}")
    OUT.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, object] = {"generated_by": VERSIONS, "files": {}}
    files: dict[str, dict[str, object]] = {}
    for name, (compressed, content, why) in vectors().items():
        if content is not None and _reference(compressed) != content:
            raise SystemExit(f"{name}: zstandard does not give back its content")
        (OUT / name).write_bytes(compressed)
        entry: dict[str, object] = {"sha256": hashlib.sha256(compressed).hexdigest(), "what": why}
        if content is None:
            entry["refused"] = True
        else:
            entry["content"] = {"size": len(content), "sha256": hashlib.sha256(content).hexdigest()}
        files[name] = entry
    for path in sorted(OUT.glob("*.eval")):
        entry = {"sha256": hashlib.sha256(path.read_bytes()).hexdigest(), **_eval_entry(path)}
        entry["what"] = "written by inspect-ai 0.3.285 (tools/zstd/make_eval_logs.py)"
        files[path.name] = entry
    manifest["files"] = dict(sorted(files.items()))
    (OUT / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    size = sum((OUT / name).stat().st_size for name in files)
    print(f"{len(files)} files, {size} bytes, in {OUT.name}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
