# SPDX-License-Identifier: MIT
"""ZIP members read with bounds: what an Inspect .eval archive can do to a reader.

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
