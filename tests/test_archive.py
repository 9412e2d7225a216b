# SPDX-License-Identifier: MIT
"""ZIP members read with bounds: what an Inspect .eval archive can do to a reader.

White-box: the ZIP member reader, ``_archive.Archive``, is driven directly
with its size and ratio limits (``MAX_RATIO``, ``RATIO_FLOOR``): a bomb or a
forged directory must be refused by the reader itself, whichever harness
opens the archive.  tests/test_headline.py reaches it through Inspect .eval
logs.

Every archive is built here with zipfile, so no opaque binary is committed.
"""

import io
import warnings
import zipfile

import pytest

from scorecontract import InvalidEvidence
from scorecontract._archive import MAX_RATIO, RATIO_FLOOR, Archive

HEADER = b'{"status": "success"}'


def build(*members, compression=zipfile.ZIP_DEFLATED):
    """Return the bytes of a ZIP holding *members*: (name, data) or ZipInfo pairs."""
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns on a duplicate name
        with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
            for name, data in members:
                archive.writestr(name, data)
    return buffer.getvalue()


def refusal(data, name="header.json", max_bytes=1 << 20, total_limit=None):
    with pytest.raises(InvalidEvidence) as caught:
        with Archive(data, what="the Inspect log 'x.eval'", total_limit=total_limit) as archive:
            archive.read(name, max_bytes)
    return caught.value


def test_reads_a_member_and_lists_names():
    data = build(("header.json", HEADER), ("samples/1_epoch_1.json", b"{}"))
    with Archive(data, what="log") as archive:
        assert archive.names == ("header.json", "samples/1_epoch_1.json")
        assert archive.read("header.json", 100) == HEADER
        assert archive.read("samples/1_epoch_1.json", 2) == b"{}"


@pytest.mark.parametrize(
    "data", [b"", b"{}", b"PK\x03\x04garbage", b"\x00" * 100], ids=["empty", "json", "torn", "zeros"]
)
def test_not_a_zip(data):
    error = refusal(data)
    assert error.code == "bad-archive"
    assert "x.eval" in error.message


def test_duplicate_member_names_are_refused():
    data = build(("header.json", HEADER), ("header.json", b'{"status": "error"}'))
    error = refusal(data)
    assert error.code == "bad-archive"
    assert "appears twice" in error.message


def test_an_encrypted_member_is_refused():
    # zipfile cannot write encrypted members: set bit 0 of the general
    # purpose flag in the local and central headers (APPNOTE 4.3.7, 4.3.12).
    data = bytearray(build(("header.json", HEADER), compression=zipfile.ZIP_STORED))
    data[6] |= 0x1
    data[data.rfind(b"PK\x01\x02") + 8] |= 0x1
    error = refusal(bytes(data))
    assert error.code == "bad-archive"
    assert "encrypted" in error.message


def test_a_missing_member_is_refused():
    error = refusal(build(("samples/1_epoch_1.json", b"{}")))
    assert error.code == "bad-archive"
    assert "no member 'header.json'" in error.message


def test_a_bomb_is_refused_by_its_ratio():
    bomb = build(("header.json", b"0" * (8 << 20)))
    assert len(bomb) * MAX_RATIO < 8 << 20  # the fixture really is a bomb
    error = refusal(bomb, max_bytes=64 << 20)
    assert error.code == "archive-too-large"
    assert "ratio" in error.message


def test_a_member_over_the_limit_is_refused_by_its_declared_size():
    data = build(("header.json", b" " * 5000), compression=zipfile.ZIP_STORED)
    error = refusal(data, max_bytes=4999)
    assert error.code == "archive-too-large"
    assert "declares 5000 bytes" in error.message
    with Archive(data, what="log") as archive:
        assert len(archive.read("header.json", 5000)) == 5000


def test_a_lying_declared_size_is_not_trusted():
    # The central directory says 10 bytes; the stored data is 5000: zipfile
    # reads no more than declared, so the CRC-32 of the 10 bytes is wrong.
    data = bytearray(build(("header.json", b"x" * 5000), compression=zipfile.ZIP_STORED))
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as archive:
        info = archive.getinfo("header.json")
    central = data.rfind(b"PK\x01\x02")
    size_field = central + 24  # uncompressed size (APPNOTE 4.3.12)
    data[size_field : size_field + 4] = (10).to_bytes(4, "little")
    error = refusal(bytes(data))
    assert info.file_size == 5000
    assert error.code == "bad-archive"


def test_a_damaged_member_is_refused():
    data = bytearray(build(("header.json", HEADER * 50)))
    start = data.find(b"header.json") + len("header.json") + 5
    data[start] ^= 0xFF
    error = refusal(bytes(data))
    assert error.code == "bad-archive"
    assert "cannot be read" in error.message


def test_small_members_may_compress_well():
    indentation = b"{" + b" " * (RATIO_FLOOR - 2) + b"}"
    data = build(("header.json", indentation))
    with Archive(data, what="log") as archive:
        assert archive.read("header.json", RATIO_FLOOR) == indentation


def test_the_total_limit_covers_every_read():
    data = build(("a.json", b"1" * 600), ("b.json", b"2" * 600), compression=zipfile.ZIP_STORED)
    with Archive(data, what="log", total_limit=1000) as archive:
        assert archive.read("a.json", 1000) == b"1" * 600
        with pytest.raises(InvalidEvidence) as caught:
            archive.read("b.json", 1000)
    assert caught.value.code == "archive-too-large"
    assert "over the limit of 400" in caught.value.message


class _Unseekable(io.RawIOBase):
    """A write-only stream zipfile cannot seek: it then writes data descriptors."""

    def __init__(self):
        self.buffer = bytearray()

    def writable(self):
        return True

    def write(self, data):
        self.buffer += data
        return len(data)


def test_members_with_data_descriptors_are_read():
    stream = _Unseekable()
    with zipfile.ZipFile(stream, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.json", HEADER)
        archive.writestr("summaries.json", b"[]")
    data = bytes(stream.buffer)
    with zipfile.ZipFile(io.BytesIO(data)) as check:
        if not all(info.flag_bits & 0x8 for info in check.infolist()):
            raise AssertionError("zipfile wrote no data descriptor: the test tests nothing")
    with Archive(data, what="log") as archive:
        assert archive.read("header.json", 100) == HEADER


@pytest.mark.parametrize(
    "data",
    [
        # Two archives in one file: zipfile reads the last central directory.
        build(("header.json", b'{"status": "error"}')) + build(("header.json", HEADER)),
        # Bytes before the archive, which zipfile skips.
        b"PK\x03\x04" + b"\x00" * 26 + build(("header.json", HEADER)),
    ],
    ids=["concatenated", "prefixed"],
)
def test_bytes_no_listed_member_accounts_for_are_refused(data):
    with zipfile.ZipFile(io.BytesIO(data)) as plain:
        assert plain.read("header.json") == HEADER  # zipfile alone would read this log
    error = refusal(data)
    assert error.code == "bad-archive"
    assert "belong to no listed member" in error.message


def test_a_member_hidden_between_listed_ones_is_refused():
    import struct

    hidden = build(("header.json", b'{"status": "error"}'))
    shown = build(("header.json", HEADER))
    # The shown entry, then the hidden one, then the shown central directory,
    # its start moved past the hidden entry.
    with zipfile.ZipFile(io.BytesIO(hidden)) as archive:
        hidden_entry = hidden[: archive.start_dir]
    with zipfile.ZipFile(io.BytesIO(shown)) as archive:
        start = archive.start_dir
    local, central = shown[:start], bytearray(shown[start:])
    end = central.index(b"PK\x05\x06") + 16
    central[end : end + 4] = struct.pack("<L", len(local) + len(hidden_entry))
    data = local + hidden_entry + bytes(central)
    with zipfile.ZipFile(io.BytesIO(data)) as plain:
        assert plain.read("header.json") == HEADER
    error = refusal(data)
    assert error.code == "bad-archive"
    assert "belong to no listed member" in error.message


# -- Zstandard members (method 93), as Inspect writes every member today --------

ZSTANDARD = 93


def zstd_frame(content):
    """A Zstandard frame holding *content* in raw blocks (RFC 8878 section 3.1.1.2)."""
    import struct

    blocks = b""
    for start in range(0, max(len(content), 1), 128 * 1024):
        chunk = content[start : start + 128 * 1024]
        last = start + 128 * 1024 >= len(content)
        blocks += struct.pack("<L", last | len(chunk) << 3)[:3] + chunk
    return struct.pack("<LB", 0xFD2FB528, 0) + b"\x58" + blocks


def zstd_bomb(blocks):
    """A frame of *blocks* RLE blocks of 128 KiB of zeros, 4 bytes each."""
    import struct

    body = b"".join(
        struct.pack("<L", (index == blocks - 1) | 1 << 1 | (128 * 1024) << 3)[:3] + b"\x00" for index in range(blocks)
    )
    return struct.pack("<LB", 0xFD2FB528, 0) + b"\x58" + body


def entry(name, content, *, method=ZSTANDARD, compressed=None, flags=0, size=None, crc=None):
    """One member: what its local header and its central directory entry say."""
    import zlib

    if compressed is None:
        compressed = zstd_frame(content) if method == ZSTANDARD else content
    return {
        "name": name.encode("utf-8"),
        "method": method,
        "compressed": compressed,
        "flags": flags | 0x800,
        "size": len(content) if size is None else size,
        "crc": zlib.crc32(content) if crc is None else crc,
    }


def write_zip(entries, *, unlisted=()):
    """The bytes of a ZIP holding *entries* in order; those at the indexes in *unlisted* are left out of its central directory."""
    import struct

    local, central = b"", b""
    listed = 0
    for index, item in enumerate(entries):
        offset = len(local)
        fields = (20, item["flags"], item["method"], 0, 0x21, item["crc"], len(item["compressed"]), item["size"])
        local += struct.pack("<4sHHHHHLLLHH", b"PK\x03\x04", *fields, len(item["name"]), 0)
        local += item["name"] + item["compressed"]
        if index in unlisted:
            continue
        listed += 1
        central += struct.pack("<4sH", b"PK\x01\x02", 20) + struct.pack(
            "<HHHHHLLLHHHHHLL", *fields, len(item["name"]), 0, 0, 0, 0, 0, offset
        )
        central += item["name"]
    end = struct.pack("<4sHHHHLLH", b"PK\x05\x06", 0, 0, listed, listed, len(central), len(local), 0)
    return local + central + end


def test_a_zstandard_member_is_read_on_every_python():
    data = write_zip([entry("header.json", HEADER), entry("samples/1_epoch_1.json", b"{}")])
    with Archive(data, what="log") as archive:
        assert archive.names == ("header.json", "samples/1_epoch_1.json")
        assert archive.superseded == ()
        assert archive.read("header.json", 100) == HEADER
        assert archive.read("samples/1_epoch_1.json", 2) == b"{}"


def test_a_damaged_zstandard_member_is_refused():
    data = write_zip([entry("header.json", HEADER, compressed=b"\x28\xb5\x2f\xfd\x08" + HEADER)])
    error = refusal(data)
    assert error.code == "bad-archive"
    assert "cannot be read" in error.message and "reserved bit" in error.message


def test_a_zstandard_member_must_match_its_crc_and_size():
    for item in (entry("header.json", HEADER, crc=0), entry("header.json", HEADER, size=len(HEADER) - 1)):
        error = refusal(write_zip([item]))
        assert error.code == "bad-archive"
        assert "CRC-32" in error.message


def test_a_zstandard_bomb_stops_at_its_ratio():
    bomb = zstd_bomb(800)  # 100 MiB from 3 KiB
    # The central directory lies (10 bytes): decoding itself stops at the
    # ratio's bound, 100 times the member's compressed size.
    error = refusal(write_zip([entry("header.json", b"0" * 10, compressed=bomb)]), max_bytes=1 << 30)
    assert error.code == "archive-too-large"
    assert f"inflates to at least {MAX_RATIO * len(bomb) + 1} bytes from {len(bomb)}" in error.message
    assert "ratio" in error.message


def test_a_zstandard_member_stops_at_the_limit_and_the_budget():
    content = b"x" * 5000
    lying = entry("header.json", content, size=10)
    error = refusal(write_zip([lying]), max_bytes=4999)
    assert error.code == "archive-too-large"
    assert "inflates to at least 5000 bytes, over the limit of 4999" in error.message
    data = write_zip([entry("a.json", b"1" * 600), entry("b.json", b"2" * 600)])
    with Archive(data, what="log", total_limit=1000) as archive:
        assert archive.read("a.json", 1000) == b"1" * 600
        with pytest.raises(InvalidEvidence) as caught:
            archive.read("b.json", 1000)
    assert caught.value.code == "archive-too-large"
    assert "over the limit of 400" in caught.value.message


def test_a_local_header_that_differs_from_the_central_directory_is_refused():
    data = bytearray(write_zip([entry("header.json", HEADER)]))
    data[30:41] = b"headex.json"  # the local header's name (APPNOTE 4.3.7)
    error = refusal(bytes(data))
    assert error.code == "bad-archive"
    assert "names 'headex.json'" in error.message


# -- Inspect's own header-only edits: superseded entries -------------------------


def inspect_edit(data, content):
    """Edit *data* as Inspect's edit_eval_log does (log/_recorders/eval.py, 0.3.285).

    It opens the log in append mode, drops header.json from the central
    directory and writes a new one where the central directory was: the
    old entry's bytes stay in the file.
    """
    buffer = io.BytesIO(data)
    with zipfile.ZipFile(buffer, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.filelist = [info for info in archive.filelist if info.filename != "header.json"]
        archive.NameToInfo.pop("header.json")
        archive.writestr("header.json", content)
    return buffer.getvalue()


def test_inspects_header_only_edit_is_accepted_and_named():
    original = build(("samples/1_epoch_1.json", b"{}"), ("header.json", b'{"status": "started"}'))
    edited = inspect_edit(original, HEADER)
    with zipfile.ZipFile(io.BytesIO(edited)) as plain:
        assert plain.start_dir > sum(len(info.FileHeader()) + info.compress_size for info in plain.infolist())
    with Archive(edited, what="log") as archive:
        assert archive.names == ("samples/1_epoch_1.json", "header.json")
        assert archive.superseded == ("header.json",)
        assert archive.read("header.json", 100) == HEADER
    with Archive(inspect_edit(edited, b"{}"), what="log") as archive:
        assert archive.superseded == ("header.json", "header.json")
        assert archive.read("header.json", 100) == b"{}"


def test_the_real_edited_log_names_its_superseded_header():
    from support import ROOT

    data = (ROOT / "tests" / "data" / "zstd" / "inspect-edited.eval").read_bytes()
    with Archive(data, what="log") as archive:
        assert archive.superseded == ("header.json",)
        assert b'"note":"edited header"' in archive.read("header.json", 1 << 20)


OLD, NEW = b'{"status": "error"}', HEADER


@pytest.mark.parametrize(
    "entries, unlisted, why",
    [
        # Inspect's prune of a sample: its name is no longer listed.
        ([entry("samples/1.json", b"{}"), entry("header.json", NEW)], {0}, "is not a listed member"),
        ([entry("header.json", NEW), entry("header.json", OLD)], {1}, "comes after the listed one"),
        ([entry("header.json", OLD, flags=0x1), entry("header.json", NEW)], {0}, "is encrypted"),
        ([entry("header.json", OLD, flags=0x8), entry("header.json", NEW)], {0}, "data descriptor"),
    ],
    ids=["pruned", "after", "encrypted", "descriptor"],
)
def test_other_unlisted_entries_are_refused(entries, unlisted, why):
    error = refusal(write_zip(entries, unlisted=unlisted))
    assert error.code == "bad-archive"
    assert "belong to no listed member" in error.message
    assert why in error.message


def test_a_superseded_entry_must_fill_its_gap_exactly():
    data = write_zip([entry("header.json", OLD), entry("header.json", NEW)], unlisted={0})
    start = data.index(b"PK\x03\x04", 1)
    for damaged in (data[: start - 1] + data[start:], data[:start] + b"\x00" + data[start:]):
        # One byte short: the entry runs past the gap; one byte more: junk.
        fixed = bytearray(damaged)
        shift = len(damaged) - len(data)
        end = fixed.rindex(b"PK\x05\x06")
        for position in (end + 16, fixed.rindex(b"PK\x01\x02") + 42):
            value = int.from_bytes(fixed[position : position + 4], "little") + shift
            fixed[position : position + 4] = value.to_bytes(4, "little")
        error = refusal(bytes(fixed))
        assert error.code == "bad-archive"
        assert "belong to no listed member" in error.message


# -- alias names: one file once extracted --------------------------------------


@pytest.mark.parametrize(
    "first, second",
    [
        ("header.json", "/header.json"),
        ("header.json", "./header.json"),
        ("header.json", "samples/../header.json"),
        ("header.json", "../header.json"),
        ("samples/1_epoch_1.json", "samples\\1_epoch_1.json"),
        ("samples/1_epoch_1.json", "samples//1_epoch_1.json"),
        ("header.json", "Header.JSON"),
        ("caf\u00e9.json", "cafe\u0301.json"),
    ],
    ids=["leading-slash", "dot", "dot-dot", "leading-dot-dot", "backslash", "double-slash", "case", "unicode"],
)
def test_alias_names_are_duplicates(first, second):
    for data in (build((first, HEADER), (second, OLD)), write_zip([entry(first, HEADER), entry(second, OLD)])):
        with zipfile.ZipFile(io.BytesIO(data)) as plain:
            assert plain.namelist() == [first, second]  # zipfile keeps both
        error = refusal(data, name=first)
        assert error.code == "bad-archive"
        assert f"{first!r} and {second!r} are one file once extracted" in error.message


def test_names_that_only_look_alike_are_not_aliases():
    data = build(("header.json", HEADER), ("header.json.bak", OLD), ("samples/header.json", b"{}"))
    with Archive(data, what="log") as archive:
        assert archive.read("header.json", 100) == HEADER


# -- the logs Inspect writes today, gated ------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "inspect-run.eval",
        "inspect-epochs.eval",
        "inspect-edited.eval",
    ],
)
def test_a_log_inspect_writes_today_gates(name):
    from support import ROOT, run_main

    path = str(ROOT / "tests" / "data" / "zstd" / name)
    options = ("check", "--from", "inspect", "--scorer", "match", "--metric", "accuracy")
    passed = run_main(*options, "--threshold", "0.7", path)
    assert (passed.returncode, passed.stdout.split()[:1]) == (0, [b"PASS"]), passed.stderr
    failed = run_main(*options, "--threshold", "0.8", path)
    assert (failed.returncode, failed.stdout.split()[:1]) == (1, [b"FAIL"]), failed.stderr
