# SPDX-License-Identifier: MIT
"""The pure-Python Zstandard decoder (RFC 8878): vectors, bounds, refusals, fuzz, differential.

White-box: the decoder, ``_zstd``, is driven directly on the reference's
vectors, bounds and fuzz; Inspect .eval logs reach it through ``_archive``.

The vectors under tests/data/zstd/ were written by the reference
implementation (tools/zstd/make_vectors.py); their manifest gives each
one's SHA-256 and the SHA-256 of its content, so the default suite, which
has no ``zstandard``, checks every block, literals and sequence mode
against the reference's own output.  With ``zstandard`` installed (a
dev-only test tool, never a dependency) the differential and the fuzz
also compare with it directly.  ``SCORECONTRACT_ZSTD_LONG=1`` runs the
long fuzz and differential.
"""

import hashlib
import inspect
import json
import os
import pickle
import random
import struct
import sys
import tracemalloc
import types

import pytest

from scorecontract._zstd import ZstdError, ZstdLimitError, decompress, xxh64
from support import ROOT, CorpusMissing

DATA = ROOT / "tests" / "data" / "zstd"
LONG = os.environ.get("SCORECONTRACT_ZSTD_LONG") == "1"

try:
    import zstandard
except ImportError:
    zstandard = None

needs_reference = pytest.mark.skipif(zstandard is None, reason="zstandard (the reference, dev-only) is not installed")


def manifest():
    files = json.loads((DATA / "manifest.json").read_text(encoding="utf-8"))["files"]
    if not any(name.endswith(".zst") for name in files) or not any(name.endswith(".eval") for name in files):
        raise CorpusMissing("tests/data/zstd/manifest.json lists no .zst vector or no .eval log")
    return files


def vectors():
    return sorted(name for name in manifest() if name.endswith(".zst"))


def digest(data):
    return hashlib.sha256(data).hexdigest()


def reference(data):
    """Decode every frame with zstandard's streaming decoder (libzstd's stricter checks)."""
    out = []
    while data:
        decoder = zstandard.ZstdDecompressor(max_window_size=1 << 31).decompressobj()
        out.append(decoder.decompress(data))
        if not decoder.eof:
            raise zstandard.ZstdError("the last frame is cut short")
        data = decoder.unused_data
    return b"".join(out)


# -- the committed vectors -------------------------------------------------


def test_the_manifest_lists_every_file_with_its_digest():
    files = manifest()
    on_disk = {path.name for path in DATA.iterdir()} - {"manifest.json"}
    assert on_disk == set(files)
    for name, entry in files.items():
        assert digest((DATA / name).read_bytes()) == entry["sha256"], name


@pytest.mark.parametrize("name", vectors())
def test_each_vector_decodes_to_the_reference_content(name):
    entry = manifest()[name]
    data = (DATA / name).read_bytes()
    if entry.get("refused"):
        with pytest.raises(ZstdError):
            decompress(data, max_size=1 << 24)
        return
    content = decompress(data, max_size=entry["content"]["size"])
    assert (len(content), digest(content)) == (entry["content"]["size"], entry["content"]["sha256"])


def test_a_frame_that_needs_a_dictionary_is_refused():
    with pytest.raises(ZstdError, match="needs the dictionary"):
        decompress((DATA / "dictionary.zst").read_bytes(), max_size=1 << 20)


def walk(data, seen):
    """Record the frame, block, literals and sequences shapes in *data*, from their headers alone.

    Independent of the decoder: it reads the headers RFC 8878 defines
    (sections 3.1.1, 3.1.1.2, 3.1.1.3.1.1, 3.1.1.3.2.1) and skips the
    entropy-coded parts by their sizes.
    """
    position = 0
    while position < len(data):
        magic = int.from_bytes(data[position : position + 4], "little")
        if magic & 0xFFFFFFF0 == 0x184D2A50:
            seen.add("frame:skippable")
            position += 8 + int.from_bytes(data[position + 4 : position + 8], "little")
            continue
        assert magic == 0xFD2FB528
        descriptor = data[position + 4]
        position += 5
        size_flag, single, checksum = descriptor >> 6, descriptor >> 5 & 1, descriptor >> 2 & 1
        dictionary = (0, 1, 2, 4)[descriptor & 3]
        size_bytes = single if size_flag == 0 else 1 << size_flag
        seen |= {f"frame:single={single}", f"frame:checksum={checksum}", f"frame:size-bytes={size_bytes}"}
        if dictionary:
            seen.add("frame:dictionary")
        position += (not single) + dictionary + size_bytes
        while True:
            header = int.from_bytes(data[position : position + 3], "little")
            position += 3
            kind, size = header >> 1 & 3, header >> 3
            seen.add("block:" + ("raw", "rle", "compressed")[kind])
            if kind == 2:
                _walk_block(data[position : position + size], seen)
            position += 1 if kind == 1 else size
            if header & 1:
                break
        position += 4 * checksum


def _walk_block(block, seen):
    kind, size_format = block[0] & 3, block[0] >> 2 & 3
    name = ("raw", "rle", "huffman", "treeless")[kind]
    if kind < 2:
        header = (1, 2, 1, 3)[size_format]
        size = int.from_bytes(block[:header], "little") >> (3 if header == 1 else 4)
        seen.add(f"literals:{name}:header={header}")
        position = header + (size if kind == 0 else 1)
    else:
        header = (3, 3, 4, 5)[size_format]
        value = int.from_bytes(block[:header], "little")
        compressed = {3: value >> 14 & 0x3FF, 4: value >> 18, 5: value >> 22}[header]
        seen.add(f"literals:{name}:streams={1 if size_format == 0 else 4}")
        if kind == 2:
            seen.add("huffman:" + ("fse-weights" if block[header] < 128 else "direct-weights"))
        position = header + compressed
    count = block[position]
    if count == 0:
        seen.add("sequences:none")
        return
    width = 1 if count < 128 else 2 if count < 255 else 3
    seen.add(f"sequences:count={width}-byte")
    modes = block[position + width]
    for code, mode in (("literal-length", modes >> 6), ("offset", modes >> 4 & 3), ("match-length", modes >> 2 & 3)):
        seen.add(f"sequences:{code}:" + ("predefined", "rle", "compressed", "repeat")[mode])


EVERY_SHAPE = {
    "frame:skippable", "frame:dictionary",
    "frame:single=0", "frame:single=1", "frame:checksum=0", "frame:checksum=1",
    *(f"frame:size-bytes={size}" for size in (0, 1, 2, 4, 8)),
    "block:raw", "block:rle", "block:compressed",
    *(f"literals:raw:header={size}" for size in (1, 2, 3)), "literals:rle:header=2",
    "literals:huffman:streams=1", "literals:huffman:streams=4",
    "literals:treeless:streams=1", "literals:treeless:streams=4",
    "huffman:fse-weights", "huffman:direct-weights",
    "sequences:none", *(f"sequences:count={width}-byte" for width in (1, 2, 3)),
    *(
        f"sequences:{code}:{mode}"
        for code in ("literal-length", "offset", "match-length")
        for mode in ("predefined", "rle", "compressed", "repeat")
    ),
}  # fmt: skip


def test_the_vectors_hold_every_frame_block_literals_and_sequence_shape():
    seen = set()
    for name in vectors():
        walk((DATA / name).read_bytes(), seen)
    assert EVERY_SHAPE - seen == set()


def _lines_run(function, calls):
    """The source lines of *function* that *calls* execute, by their stripped text."""
    code = function.__code__
    lines = set()

    def tracer(frame, event, arg):
        if frame.f_code is not code:
            return None

        def local(frame, event, arg):
            if event == "line":
                lines.add(frame.f_lineno)
            return local

        return local

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        calls()
    finally:
        sys.settrace(previous)
    source, first = inspect.getsourcelines(function)
    return {source[number - first].strip() for number in lines}


def test_the_vectors_take_every_repeat_offset_and_the_overlapping_copy():
    from scorecontract import _zstd

    def decode_all():
        # The small vectors, as the fuzz takes them: tracing is slow.
        for name in vectors():
            if not manifest()[name].get("refused") and (DATA / name).stat().st_size < 13_000:
                decompress((DATA / name).read_bytes(), max_size=1 << 22)

    run = _lines_run(_zstd._sequences, decode_all)
    for line in (
        "offset = repeat1",  # Repeated_Offset1
        "offset = repeat2",  # Repeated_Offset2, swapped to the front
        "offset = repeat3",  # Repeated_Offset3
        "offset = repeat1 - 1",  # Repeated_Offset1 - 1, after a literal length of 0
        "offset += 1",  # the shift of repeat codes when the literal length is 0
        "out += pattern * whole + pattern[:part]",  # a match longer than its offset
    ):
        assert line in run, line


# -- the Inspect logs, member by member --------------------------------------


@pytest.mark.parametrize("name", sorted(name for name in manifest() if name.endswith(".eval")))
def test_each_member_of_a_real_inspect_log_decodes_to_the_reference_content(name):
    from scorecontract._archive import Archive

    entry = manifest()[name]
    with Archive((DATA / name).read_bytes(), what=name) as archive:
        assert archive.names and set(archive.names) == set(entry["members"])
        assert archive.superseded == tuple(entry["superseded"])
        for member, expected in entry["members"].items():
            content = archive.read(member, 1 << 24)
            assert (len(content), digest(content)) == (expected["size"], expected["sha256"]), member


def test_a_real_header_json_is_the_log_inspect_wrote():
    from scorecontract._archive import Archive

    with Archive((DATA / "inspect-run.eval").read_bytes(), what="log") as archive:
        header = json.loads(archive.read("header.json", 1 << 20))
    assert header["status"] == "success" and header["eval"]["packages"] == {"inspect_ai": "0.3.285"}
    assert header["results"]["scores"][0]["metrics"]["accuracy"]["value"] == 0.75


# -- bounds -------------------------------------------------------------------


def raw_block(data, last=True):
    return struct.pack("<L", last | len(data) << 3)[:3] + data


def rle_block(byte, size, last):
    return struct.pack("<L", last | 1 << 1 | size << 3)[:3] + bytes([byte])


def compressed_block(body):
    return struct.pack("<L", 1 | 2 << 1 | len(body) << 3)[:3] + body


def frame(blocks, descriptor=0x00, header=b"\x58"):
    """A frame: by default a 2 MiB window, no content size, no checksum."""
    return struct.pack("<LB", 0xFD2FB528, descriptor) + header + blocks


def rle_bomb(blocks):
    """A frame of *blocks* RLE blocks of 128 KiB: 4 bytes each."""
    return frame(b"".join(rle_block(0, 128 * 1024, index == blocks - 1) for index in range(blocks)))


def test_the_limit_is_exact():
    data = (DATA / "level3-json.zst").read_bytes()
    size = manifest()["level3-json.zst"]["content"]["size"]
    assert len(decompress(data, max_size=size)) == size
    with pytest.raises(ZstdLimitError) as caught:
        decompress(data, max_size=size - 1)
    assert caught.value.limit == size - 1


@pytest.mark.parametrize(
    "name", ["streaming-json.zst", "rle-blocks.zst", "many-sequences.zst", "treeless-literals.zst", "raw-blocks.zst"]
)
def test_output_stops_at_the_limit_in_every_kind_of_block(name):
    size = manifest()[name]["content"]["size"]
    for limit in (0, 1, 1000, size // 2, size - 1):
        with pytest.raises(ZstdLimitError):
            decompress((DATA / name).read_bytes(), max_size=limit)


def test_a_declared_content_size_over_the_limit_is_refused_before_any_block():
    # 8-byte content size of 2**40, then bytes that are no block at all: the
    # refusal is the limit's, so no block was decoded.
    data = frame(b"\xff" * 64, descriptor=0xE0, header=struct.pack("<Q", 1 << 40))
    with pytest.raises(ZstdLimitError, match="declares 1099511627776 bytes"):
        decompress(data, max_size=1 << 20)


def test_a_bomb_allocates_nothing_past_the_limit():
    bomb = rle_bomb(800)  # 100 MiB from 3 KiB
    tracemalloc.start()
    try:
        with pytest.raises(ZstdLimitError):
            decompress(bomb, max_size=1 << 20)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 << 20  # the 1 MiB output, a copy of it, and change


def test_several_frames_share_one_limit():
    one = frame(raw_block(b"x" * 600))
    assert decompress(one + one, max_size=1200) == b"x" * 1200
    with pytest.raises(ZstdLimitError):
        decompress(one + one, max_size=1199)


def test_the_limit_error_survives_pickling():
    error = ZstdLimitError("over", 5)
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), copy.limit) == (ZstdLimitError, "over", 5)
    assert isinstance(copy, ZstdError) and isinstance(copy, ValueError)


# -- refusals -----------------------------------------------------------------

HELLO = frame(raw_block(b"hello"))


def checksummed(data):
    return frame(raw_block(data), descriptor=0x04) + struct.pack("<L", xxh64(data) & 0xFFFFFFFF)


MALFORMED = {
    "empty": (b"", "no data"),
    "not zstandard": (b"PK\x03\x04 not a frame", "magic number"),
    "trailing bytes": (HELLO + b"\x00\x01", "bytes after the last frame"),
    "trailing frame garbage": (HELLO + b"\x00" * 8, "magic number"),
    "no frame header": (b"\x28\xb5\x2f\xfd", "no frame header"),
    "header cut short": (b"\x28\xb5\x2f\xfd\xe0\x01", "frame header is cut short"),
    "reserved bit": (frame(raw_block(b"x"), descriptor=0x08), "reserved bit"),
    "window over 2**31": (frame(raw_block(b"x"), header=b"\xad"), "over 2**31"),
    "no block": (frame(b""), "no block header"),
    "reserved block type": (frame(struct.pack("<L", 1 | 3 << 1 | 5 << 3)[:3] + b"xxxxx"), "reserved"),
    "raw block cut short": (frame(raw_block(b"hello")[:-2]), "cut short"),
    "block over the window": (frame(raw_block(b"x" * 2000), header=b"\x00"), "over the block maximum"),
    "RLE block over the window": (frame(rle_block(0, 2000, True), header=b"\x00"), "over the block maximum"),
    "block over 128 KiB": (frame(rle_block(0, 128 * 1024 + 1, True)), "over the block maximum"),
    "last block missing": (frame(raw_block(b"x", last=False)), "no block header"),
    "content size mismatch": (frame(raw_block(b"hello"), descriptor=0x20, header=b"\x06"), "holds 5"),
    "checksum mismatch": (checksummed(b"hello")[:-1] + bytes([checksummed(b"hello")[-1] ^ 1]), "checksum"),
    "checksum cut short": (checksummed(b"hello")[:-2], "checksum is cut short"),
    "skippable cut short": (struct.pack("<LL", 0x184D2A50, 10) + b"abc", "skippable frame 1 declares 10"),
    "tiny compressed block": (frame(compressed_block(b"\x00")), "too short"),
    # One raw literal, no sequence, and a byte too many.
    "bytes after no sequence": (frame(compressed_block(b"\x08x\x00\x00")), "follow"),
    # Treeless literals (type 3: 10 literals in 2 bytes, one stream) in a
    # frame's first block, with no Huffman table to reuse.
    "treeless first": (
        frame(compressed_block(struct.pack("<L", 3 | 10 << 4 | 2 << 14)[:3] + b"\x80\x80\x00")),
        "treeless",
    ),
    # No literal, one sequence, every table in repeat mode.
    "repeat table first": (frame(compressed_block(b"\x00\x01\xfc\x00\x00")), "repeats a table"),
    "reserved mode bits": (frame(compressed_block(b"\x00\x01\x01\x00")), "reserved bits"),
    # 0xFFFF + 0x7F00 sequences of at least 3 bytes each: over any block.
    "too many sequences": (frame(compressed_block(b"\x00\xff\xff\xff\x00")), "cannot fit"),
    "a Huffman stream with no end marker": (
        frame(compressed_block(struct.pack("<L", 2 | 4 << 4 | 3 << 14)[:3] + b"\x80\x11\x00\x00")),
        "end marker",
    ),
}


@pytest.mark.parametrize("data, message", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_data_is_refused_with_a_reason(data, message):
    with pytest.raises(ZstdError) as caught:
        decompress(data, max_size=1 << 20)
    assert type(caught.value) is ZstdError
    assert message in str(caught.value)


def test_hand_made_frames_decode():
    assert decompress(HELLO, max_size=5) == b"hello"
    assert decompress(checksummed(b"hello"), max_size=5) == b"hello"
    skippable = struct.pack("<LL", 0x184D2A5F, 3) + b"abc"
    assert decompress(skippable + HELLO + skippable, max_size=5) == b"hello"
    assert decompress(skippable, max_size=0) == b""
    assert decompress(bytearray(HELLO), max_size=5) == b"hello"
    assert decompress(frame(rle_block(ord("z"), 7, True)), max_size=7) == b"zzzzzzz"


@pytest.mark.parametrize(
    "data, expected",
    [(b"", 0xEF46DB3751D8E999), (b"a", 0xD24EC4F1A98C6E5B), (b"abc", 0x44BC2CF5AD770999)],
    ids=["empty", "a", "abc"],
)
def test_xxh64_matches_the_published_values(data, expected):
    assert xxh64(data) == expected


def test_xxh64_of_every_tail_length_matches_the_checksums_the_reference_wrote():
    # The checksummed vectors hold contents of every length class: the
    # 32-byte stripes, then 8-, 4- and 1-byte tails.
    checked = 0
    for name in ("level1-text-checksum.zst", "level19-text.zst", "rle-blocks.zst", "empty.zst"):
        data = (DATA / name).read_bytes()
        content = decompress(data, max_size=1 << 22)
        assert int.from_bytes(data[-4:], "little") == xxh64(content) & 0xFFFFFFFF, name
        checked += 1
    assert checked == 4


# -- fuzz ---------------------------------------------------------------------


def mutations(seed, count, sources):
    """Seeded mutants of *sources*: bit flips, byte changes, truncations, deletions and splices."""
    rng = random.Random(seed)
    for _ in range(count):
        data = bytearray(rng.choice(sources))
        for _ in range(rng.randint(1, 3)):
            roll = rng.random()
            where = rng.randrange(len(data))
            if roll < 0.45:
                data[where] ^= 1 << rng.randrange(8)
            elif roll < 0.65:
                data[where] = rng.randrange(256)
            elif roll < 0.75:
                del data[where:]
            elif roll < 0.85:
                del data[where : where + rng.randint(1, 8)]
            else:
                other = rng.choice(sources)
                data[where:] = other[rng.randrange(len(other)) :]
            if not data:
                data = bytearray(b"\x28")
        yield bytes(data)


def fuzz(seed, count):
    # Small vectors, so that each mutant costs little; every mode is among them.
    sources = [(DATA / name).read_bytes() for name in vectors() if (DATA / name).stat().st_size < 13_000]
    assert len(sources) >= 15
    accepted = refused = 0
    for data in mutations(seed, count, sources):
        try:
            content = decompress(data, max_size=1 << 20)
        except ZstdError:
            refused += 1
            continue
        accepted += 1
        if zstandard is not None:
            # Nothing libzstd refuses is accepted here, and what is accepted
            # decodes to what libzstd decodes.
            assert reference(data) == content, data.hex()
    return accepted, refused


def test_mutated_vectors_raise_only_zstd_error_or_decode_as_the_reference_does():
    accepted, refused = fuzz(seed=8878, count=30_000 if LONG else 1500)
    assert accepted > 10 and refused > 1000


@pytest.mark.skipif(not LONG, reason="the long fuzz runs with SCORECONTRACT_ZSTD_LONG=1")
@pytest.mark.parametrize("seed", range(4))
def test_the_long_fuzz(seed):
    accepted, refused = fuzz(seed=seed, count=200_000)
    assert accepted and refused


# -- differential against the reference ----------------------------------------

_WORDS = "the model answer question choice because score sample token output 0.75 {} [] , :".split()


def generated(rng, size):
    kind = rng.randrange(4)
    if kind == 0:
        return " ".join(rng.choice(_WORDS) for _ in range(size // 5)).encode()[:size]
    if kind == 1:
        return rng.randbytes(size)
    if kind == 2:
        return bytes(rng.randrange(rng.randint(1, 40)) for _ in range(size))
    return json.dumps([{"id": rng.randrange(1000), "value": rng.random()} for _ in range(size // 30)]).encode()


@needs_reference
def test_differential_on_generated_data():
    rng = random.Random(93)
    rounds = 400 if LONG else 40
    for _ in range(rounds):
        data = generated(rng, rng.choice((0, 1, 100, 5000, 40_000, 200_000 if LONG else 60_000)))
        options = {
            "level": rng.choice((-5, 1, 3, 9, 19, 22)),
            "write_checksum": rng.random() < 0.5,
            "write_content_size": rng.random() < 0.5,
        }
        compressed = zstandard.ZstdCompressor(**options).compress(data)
        assert decompress(compressed, max_size=len(data)) == data == reference(compressed), options


@needs_reference
def test_differential_on_streaming_and_long_distance_frames():
    rng = random.Random(8878)
    data = generated(rng, 150_000) + rng.randbytes(5000) + generated(rng, 150_000)
    compressor = zstandard.ZstdCompressor(level=3).compressobj()
    streamed = compressor.compress(data[:70_000]) + compressor.compress(data[70_000:]) + compressor.flush()
    parameters = zstandard.ZstdCompressionParameters.from_level(19, enable_ldm=True, window_log=27)
    distant = zstandard.ZstdCompressor(compression_params=parameters).compress(data)
    for compressed in (streamed, distant, streamed + distant):
        expected = reference(compressed)
        assert decompress(compressed, max_size=len(expected)) == expected


# -- benchmarks/zstd.py (its timings are not tested) ----------------------------


def load_benchmark():
    import importlib.util

    script = ROOT / "benchmarks" / "zstd.py"
    spec = importlib.util.spec_from_file_location("zstd_benchmark", script)
    if spec is None or spec.loader is None:
        raise AssertionError(f"cannot load {script}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # Its gc.collect() before each timed call walks the whole suite's heap
    # here (a second each, late in a run); the tests read outcomes, not times.
    module.gc = types.SimpleNamespace(collect=lambda: 0)
    return module


def test_the_benchmark_smoke_run_decodes_every_member(capsys):
    bench = load_benchmark()
    assert bench.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    assert "all outcomes as built" in out
    for row in ("text-like JSON", "Inspect-like log", "inspect-run.eval (inspect-ai 0.3.285)", "four-byte tokens"):
        assert row in out, row


def test_the_benchmark_shapes_are_what_they_say():
    bench = load_benchmark()
    tokens = bench.tokens(40_000)
    assert tokens == bench.tokens(40_000) and len(tokens) == 40_000
    assert len({tokens[index : index + 4] for index in range(0, len(tokens), 4)}) == 32
    runs = bench.runs(10_000)
    assert len(runs) == 10_000 and runs[:4095] == runs[:1] * 4095 and runs[4096:8191] == runs[4096:4097] * 4095
    records = json.loads(bench.json_records(20_000))
    assert len(records) > 50 and {"id", "input", "score"} <= set(records[0])
    member, content = bench.from_vectors(100_000)
    assert len(content) >= 100_000 and decompress(member, max_size=len(content)) == content


def test_the_benchmark_fails_a_missed_target(monkeypatch, capsys):
    bench = load_benchmark()
    monkeypatch.setattr(bench, "compress", lambda content: None)  # no zstandard: the vectors' frames
    monkeypatch.setattr(bench, "HEADER_TARGET", 0.0)
    assert bench.main(["--size", "1000", "--rounds", "1"]) == 1
    assert "over 0 ms" in capsys.readouterr().err
    assert bench.main(["--size", "1000", "--rounds", "1", "--print-only"]) == 0
