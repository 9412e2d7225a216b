# SPDX-License-Identifier: MIT
"""The pure-Python Zstandard decoder: throughput, a header.json, and linear time.

    python benchmarks/zstd.py                 # 10 MB members; exits 1 if a target is missed
    python benchmarks/zstd.py --print-only    # figures only
    python benchmarks/zstd.py --smoke         # tiny sizes, outcomes only (the test suite runs this)
    python benchmarks/zstd.py --size 2000000

What it measures, in CPU time of this process (``time.process_time``),
the best of ``--rounds``:

- MB/s of content decoded from a member of ``--size`` bytes, for two
  members: text-like JSON records, and an Inspect-like log (the generator
  of benchmarks/selection.py: samples with messages, events and scores),
  each compressed as Inspect compresses (level 3, a streaming frame);
- the time to read ``header.json`` from the Inspect log that inspect-ai
  0.3.285 wrote (tests/data/zstd/inspect-run.eval) through ``Archive``,
  and from a 64 KiB header-like member; the target is well under 100 ms;
- linear time: each of three shapes (JSON; four-byte tokens, the most
  sequences a block can hold; long overlapping matches) at 1x and 4x
  its size; linear work takes about 4x as long, and the script fails if
  a ratio is over 6x.

The members are compressed with ``zstandard`` (the reference, a dev-only
tool), which is also timed for scale.  Without it the script builds each
member from the frames of the committed vectors, one after another (a
valid member of several frames), and says so; ``--smoke`` always does,
and checks that every member decodes to its content.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import platform
import random
import sys
import time
from functools import partial
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from selection import harness_log  # noqa: E402

from scorecontract._archive import Archive  # noqa: E402
from scorecontract._zstd import decompress  # noqa: E402

DATA = ROOT / "tests" / "data" / "zstd"
HEADER_TARGET = 0.1  # seconds
LINEAR_LIMIT = 6.0
_WORDS = (
    "the model answer question choice because therefore option correct reason step result value "
    "sample score token output analysis evidence \u00e9t\u00e9 na\u00efve"
).split()


def json_records(size: int, seed: int = 93) -> bytes:
    """Text-like JSON: records of ids, floats, letters and sentences, about *size* bytes."""
    rng = random.Random(seed)
    records = []
    total = 0
    while total < size:
        record = json.dumps(
            {
                "id": rng.randrange(10**9),
                "input": " ".join(rng.choice(_WORDS) for _ in range(rng.randrange(5, 60))),
                "target": rng.choice("ABCD"),
                "score": rng.random(),
                "tokens": {"input": rng.randrange(2000), "output": rng.randrange(500)},
            },
            ensure_ascii=False,
        )
        records.append(record)
        total += len(record.encode("utf-8")) + 2
    return ("[" + ",\n".join(records) + "]").encode("utf-8")


def tokens(size: int, seed: int = 4) -> bytes:
    """Four-byte tokens whose matches never extend: one sequence per four bytes."""
    rng = random.Random(seed)
    table = [bytes([index + 1, rng.randrange(256), rng.randrange(256), rng.randrange(256)]) for index in range(32)]
    follows: dict[int, int] = {}
    out = []
    previous = -1
    for _ in range(size // 4):
        token = rng.randrange(32)
        while follows.get(previous) == token:
            token = rng.randrange(32)
        follows[previous] = token
        out.append(table[token])
        previous = token
    return b"".join(out)


def runs(size: int, seed: int = 5) -> bytes:
    """Runs of one byte broken every 4 KiB: long matches that overlap their own output."""
    rng = random.Random(seed)
    out = bytearray()
    while len(out) < size:
        out += bytes([rng.randrange(256)]) * 4095 + bytes([rng.randrange(256)])
    return bytes(out[:size])


def compress(content: bytes) -> bytes | None:
    """A streaming level-3 frame, as Inspect writes a member; None without zstandard."""
    try:
        import zstandard
    except ImportError:
        return None
    compressor = zstandard.ZstdCompressor(level=3).compressobj()
    return compressor.compress(content) + compressor.flush()


def from_vectors(size: int) -> tuple[bytes, bytes]:
    """A member of at least *size* bytes of content: the committed vectors' frames, one after another."""
    manifest = json.loads((DATA / "manifest.json").read_text(encoding="utf-8"))["files"]
    names = [name for name, entry in sorted(manifest.items()) if name.endswith(".zst") and not entry.get("refused")]
    member, content = bytearray(), bytearray()
    while len(content) < size:
        for name in names:
            if name not in _DECODED:
                frame = (DATA / name).read_bytes()
                _DECODED[name] = frame, decompress(frame, max_size=manifest[name]["content"]["size"])
            member += _DECODED[name][0]
            content += _DECODED[name][1]
            if len(content) >= size:
                break
    return bytes(member), bytes(content)


_DECODED: dict[str, tuple[bytes, bytes]] = {}


def best(rounds: int, function: Callable[[], object]) -> float:
    """The least CPU time of *rounds* calls of *function*."""
    times = []
    for _ in range(rounds):
        gc.collect()
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return min(times)


def member(content: bytes, smoke: bool) -> tuple[bytes, bytes, str]:
    compressed = None if smoke else compress(content)
    if compressed is None:
        compressed, content = from_vectors(len(content))
        return compressed, content, "the committed vectors' frames"
    return compressed, content, "zstandard level 3, one streaming frame"


def main(argv: list[str] | None = None) -> int:
    # __doc__ is None under python -OO.
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--size", type=int, default=10_000_000, help="bytes of content per member")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per figure; the best counts")
    parser.add_argument("--print-only", action="store_true", help="print the figures, never fail")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes; check outcomes, not times")
    options = parser.parse_args(argv)
    size = 60_000 if options.smoke else options.size
    rounds = 1 if options.smoke else options.rounds
    failures: list[str] = []  # a target missed
    wrong: list[str] = []  # an outcome that is not what the input was built for
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")

    print(f"\n{'member':<28} {'content':>12} {'compressed':>11} {'MB/s':>8} {'zstandard MB/s':>15}  source")
    for name, content in (("text-like JSON", json_records(size)), ("Inspect-like log", harness_log(size))):
        compressed, content, source = member(content, options.smoke)
        decoded = decompress(compressed, max_size=len(content))
        if hashlib.sha256(decoded).digest() != hashlib.sha256(content).digest():
            wrong.append(f"{name}: the member does not decode to its content")
        seconds = best(rounds, partial(decompress, compressed, max_size=len(content)))
        reference = "-"
        if not options.smoke and source.startswith("zstandard"):
            import zstandard

            def reference(data: bytes) -> object:
                return zstandard.ZstdDecompressor().decompressobj().decompress(data)

            fast = best(rounds, partial(reference, compressed))
            reference = f"{len(content) / max(fast, 1e-9) / 1e6:.0f}"
        rate = "-" if options.smoke else f"{len(content) / max(seconds, 1e-9) / 1e6:.1f}"
        print(f"{name:<28} {len(content):>12,} {len(compressed):>11,} {rate:>8} {reference:>15}  {source}")

    print(f"\n{'header.json':<40} {'bytes':>8} {'ms':>8}  target < {HEADER_TARGET * 1000:.0f} ms")
    log = (DATA / "inspect-run.eval").read_bytes()

    def read_header() -> bytes:
        with Archive(log, what="log") as archive:
            return archive.read("header.json", 1 << 20)

    header = read_header()
    headers: list[tuple[str, Callable[[], object], int]] = [
        ("inspect-run.eval (inspect-ai 0.3.285)", read_header, len(header))
    ]
    large = json_records(64 * 1024)
    large_member = None if options.smoke else compress(large)
    if large_member is not None:
        headers.append(
            ("a 64 KiB header-like member", lambda: decompress(large_member, max_size=len(large)), len(large))
        )
    for name, function, length in headers:
        seconds = best(1 if options.smoke else max(rounds, 5), function)
        shown = "-" if options.smoke else f"{seconds * 1000:.2f}"
        print(f"{name:<40} {length:>8,} {shown:>8}")
        if not options.smoke and seconds > HEADER_TARGET:
            failures.append(f"{name}: {seconds * 1000:.1f} ms, over {HEADER_TARGET * 1000:.0f} ms")
    if json.loads(header).get("status") != "success":
        wrong.append("the real header.json does not decode to Inspect's log")

    base = 30_000 if options.smoke else max(options.size // 4, 1000)
    print(f"\n{'linear time, shape':<28} {'1x bytes':>11} {'1x s':>8} {'4x s':>8} {'ratio':>6}  limit {LINEAR_LIMIT}x")
    for name, build in (("JSON", json_records), ("four-byte tokens", tokens), ("overlapping matches", runs)):
        small, small_content, _ = member(build(base), options.smoke)
        large_compressed, large_content, _ = member(build(4 * base), options.smoke)
        outcomes = (
            decompress(small, max_size=len(small_content)) == small_content,
            decompress(large_compressed, max_size=len(large_content)) == large_content,
        )
        if outcomes != (True, True):
            wrong.append(f"{name}: a member does not decode to its content")
        if options.smoke:
            print(f"{name:<28} {len(small_content):>11,} {'-':>8} {'-':>8} {'-':>6}")
            continue
        one = best(rounds, partial(decompress, small, max_size=len(small_content)))
        four = best(rounds, partial(decompress, large_compressed, max_size=len(large_content)))
        ratio = four / max(one, 1e-9)
        flag = "" if ratio <= LINEAR_LIMIT else "  <-- over the limit"
        print(f"{name:<28} {len(small_content):>11,} {one:>8.3f} {four:>8.3f} {ratio:>5.1f}x{flag}")
        if ratio > LINEAR_LIMIT:
            failures.append(f"{name}: {ratio:.1f}x from 1x to 4x")

    for failure in wrong + failures:
        print(f"  {failure}", file=sys.stderr)
    if wrong or (failures and not options.print_only):
        print(f"\n{len(wrong)} wrong outcome(s), {len(failures)} target(s) missed", file=sys.stderr)
        return 1
    print("\nall outcomes as built" if options.smoke else "\nevery target met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
