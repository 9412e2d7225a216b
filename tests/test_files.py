# SPDX-License-Identifier: MIT
"""The one reader, the one writer and the one escaper, and every file the tool touches.

White-box: these are the primitives every command shares (``_read``,
``_write``, ``_cli._escape`` with the GitHub workflow-command encoder, and
the receipt serialiser); each is held here to its whole contract on the
function itself -- every corner a path can be, every code point -- which no
command can reach in full.  The regression tests drive the commands into
the same corners from outside.

Every file the tool reads goes through ``_read`` (regular files only, never
blocking, never past a limit); every file it writes goes through
``_write.write_new_file`` (atomic, never over an existing path, never
through a final symbolic link).  The group tests run each against a FIFO, a
symbolic link, a dangling link, a directory, an existing file and a path no
one -- root included -- can create; the regression tests below them drive
each command that reads or writes a file into the same corners.

A FIFO blocks ``open()`` forever in a broken reader, so every test here runs
under an alarm: a regression fails instead of hanging the suite.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import os
import signal
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal
from pathlib import Path

import pytest

from scorecontract import InvalidEvidence, PolicyError, Verdict, report
from scorecontract._cli import main
from scorecontract._cli._escape import escape
from scorecontract._cli._github import escape_data, escape_property, workflow_command
from scorecontract._cli._receipt import receipt_bytes
from scorecontract._digest import sha256_hex
from scorecontract._read import open_regular, read_bounded, read_file
from scorecontract._write import write_new_file
from support import SRC, parse_source
from test_escape_fuzz import raw_unsafe, unsafe

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs")

EVIDENCE = b'{"score": 0.9}\n'
TRIAL = b'{"trial_id": "a", "score": 0.9}\n'
KEY = b"0123456789abcdef0123456789abcdef\n"


class Hung(Exception):
    """Raised by the alarm: the code under test blocked."""


@pytest.fixture(autouse=True)
def alarm():
    # PEP 475 retries a system call interrupted by a signal unless the
    # handler raises: this one does, so a blocked open() fails the test.
    def hung(signum, frame):
        raise Hung("blocked: a FIFO or a device was opened")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def make_corner(tmp_path: Path, kind: str) -> Path:
    """Return a path in *tmp_path* that is *kind*; 'file' holds EVIDENCE."""
    path = tmp_path / f"corner-{kind}"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink":
        (tmp_path / "target").write_bytes(EVIDENCE)
        path.symlink_to(tmp_path / "target")
    elif kind == "dangling":
        path.symlink_to(tmp_path / "nowhere")
    elif kind == "directory":
        path.mkdir()
    elif kind == "file":
        path.write_bytes(EVIDENCE)
    elif kind == "under-a-file":
        # No one can create or read anything under a regular file, root
        # included (ENOTDIR): the failure a permission test cannot give here.
        (tmp_path / "plain").write_bytes(EVIDENCE)
        path = tmp_path / "plain" / "sub"
    else:
        raise ValueError(kind)
    return path


CORNERS = ["fifo", "symlink", "dangling", "directory", "file", "under-a-file"]


# -- the one reader --------------------------------------------------------

# What the reader does with each corner: the bytes, or the reason code.
READER = {
    "fifo": "file-unreadable",
    "symlink": EVIDENCE,  # a link to a regular file is that file
    "dangling": "file-not-found",
    "directory": "file-unreadable",
    "file": EVIDENCE,
    "under-a-file": "file-unreadable",
}


@pytest.mark.parametrize("kind", CORNERS)
def test_the_reader_takes_only_regular_files(tmp_path, kind):
    path = str(make_corner(tmp_path, kind))
    expected = READER[kind]
    if isinstance(expected, bytes):
        assert read_file(path, 100) == expected
        with open_regular(path) as stream:
            assert stream.read() == expected
        return
    with pytest.raises(InvalidEvidence) as info:
        read_file(path, 100)
    assert info.value.code == expected
    with pytest.raises(InvalidEvidence):
        open_regular(path)


@pytest.mark.parametrize("kind", CORNERS)
def test_the_reader_without_following_refuses_any_link(tmp_path, kind):
    path = str(make_corner(tmp_path, kind))
    if kind == "file":
        assert read_file(path, 100, follow_symlinks=False) == EVIDENCE
        return
    with pytest.raises(InvalidEvidence) as info:
        read_file(path, 100, follow_symlinks=False)
    assert info.value.code == "file-unreadable"
    if kind in ("symlink", "dangling"):
        assert "symbolic link" in info.value.message


def test_the_reader_checks_the_opened_descriptor(tmp_path, monkeypatch):
    # A FIFO swapped in between stat and open: the open must not block and
    # fstat must refuse it.  The race is forced by lying in os.stat.
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    real_stat = os.stat

    def regular_looking(path, *args, **kwargs):
        result = real_stat(path, *args, **kwargs)
        if str(path) == str(fifo):
            return os.stat_result((stat.S_IFREG | 0o600,) + tuple(result)[1:])
        return result

    monkeypatch.setattr(os, "stat", regular_looking)
    with pytest.raises(InvalidEvidence) as info:
        read_file(str(fifo), 100)
    assert info.value.code == "file-unreadable"
    assert "FIFO" in info.value.message


def test_the_reader_returns_a_blocking_stream(tmp_path):
    path = make_corner(tmp_path, "file")
    with open_regular(str(path)) as stream:
        assert os.get_blocking(stream.fileno())


@pytest.mark.parametrize("size, limit, code", [(10, 10, None), (11, 10, "too-large"), (0, 1, None)])
def test_the_reader_stops_one_byte_past_the_limit(tmp_path, size, limit, code):
    path = tmp_path / "f"
    path.write_bytes(b"x" * size)
    if code is None:
        assert read_file(str(path), limit) == b"x" * size
    else:
        with pytest.raises(InvalidEvidence) as info:
            read_file(str(path), limit)
        assert info.value.code == code


class Recording(io.BytesIO):
    """A stream that records the size of every read it is asked for."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.asked: list[int] = []

    def read(self, size: int | None = -1) -> bytes:
        self.asked.append(-1 if size is None else size)
        return super().read(size)


def test_item7_a_huge_limit_allocates_nothing_up_front():
    # stream.read(n) allocates n bytes before reading: a 1 TiB limit must
    # be read in chunks, never asked for whole.
    stream = Recording(EVIDENCE)
    assert read_bounded(stream, 1 << 40) == EVIDENCE
    assert stream.asked and max(stream.asked) <= 1 << 20


def test_item7_a_huge_max_bytes_on_the_command_line(tmp_path, capsys):
    path = make_corner(tmp_path, "file")
    assert main(["check", "--max-bytes", "1099511627776", "--", str(path)]) == 0
    assert capsys.readouterr().out.startswith("PASS ")
    args = ["sign", "--key-file", key_file(tmp_path), "--max-bytes", "1099511627776", "--", str(path)]
    assert main(args) == 0


@pytest.mark.parametrize("failure", [OSError(9, "Bad file descriptor"), ValueError("I/O operation on closed file")])
def test_a_stream_that_cannot_be_read_is_unreadable(failure):
    class Broken:
        def read(self, size=-1):
            raise failure

    with pytest.raises(InvalidEvidence) as info:
        read_bounded(Broken(), 100)  # type: ignore[arg-type]
    assert info.value.code == "file-unreadable"


def test_a_non_blocking_empty_stream_is_not_the_end_of_the_evidence():
    class WouldBlock:
        def read(self, size=-1):
            return None

    with pytest.raises(InvalidEvidence) as info:
        read_bounded(WouldBlock(), 100)  # type: ignore[arg-type]
    assert info.value.code == "file-unreadable"


# -- the one writer --------------------------------------------------------


def listing(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


@pytest.mark.parametrize("kind", CORNERS)
def test_the_writer_never_replaces_follows_or_opens(tmp_path, kind):
    path = make_corner(tmp_path, kind)
    before = listing(tmp_path)
    expected_error = NotADirectoryError if kind == "under-a-file" else FileExistsError
    with pytest.raises(expected_error):
        write_new_file(str(path), b"written\n")
    assert listing(tmp_path) == before  # no temporary file left, nothing created
    if kind == "fifo":
        assert stat.S_ISFIFO(os.lstat(path).st_mode)
    elif kind == "symlink":
        assert (tmp_path / "target").read_bytes() == EVIDENCE
    elif kind == "dangling":
        assert not (tmp_path / "nowhere").exists()  # not created through the link
    elif kind == "file":
        assert path.read_bytes() == EVIDENCE
    elif kind == "directory":
        assert listing(path) == []


def test_the_writer_writes_a_new_file_from_bytes_or_chunks(tmp_path):
    write_new_file(str(tmp_path / "a"), b"one\n")
    write_new_file(str(tmp_path / "b"), iter([b"o", b"ne", b"\n"]))
    assert (tmp_path / "a").read_bytes() == (tmp_path / "b").read_bytes() == b"one\n"
    assert listing(tmp_path) == ["a", "b"]
    assert stat.S_IMODE(os.stat(tmp_path / "a").st_mode) == 0o600


def test_the_writer_leaves_nothing_when_the_content_fails(tmp_path):
    def chunks():
        yield b"half"
        raise RuntimeError("the renderer broke")

    with pytest.raises(RuntimeError):
        write_new_file(str(tmp_path / "out"), chunks())
    assert listing(tmp_path) == []


@pytest.mark.parametrize("path", ["", "a\x00b"])
def test_the_writer_refuses_unusable_names_as_oserror(tmp_path, path):
    with pytest.raises(OSError):
        write_new_file(path, b"x")


def test_the_writer_without_hard_links_still_never_overwrites(tmp_path, monkeypatch):
    def no_links(source, target):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    write_new_file(str(tmp_path / "new"), iter([b"chunk\n"]))
    assert (tmp_path / "new").read_bytes() == b"chunk\n"
    for kind in ("fifo", "dangling", "file"):
        path = make_corner(tmp_path, kind)
        with pytest.raises(FileExistsError):
            write_new_file(str(path), b"written\n")
    assert (tmp_path / "corner-file").read_bytes() == EVIDENCE
    assert not (tmp_path / "nowhere").exists()
    assert not [name for name in listing(tmp_path) if name.startswith(".scorecontract-")]


# -- only one reader and one writer in the package -------------------------

# os.open of os.devnull in _cli/_io.py silences a closed stdout; it reads and
# writes no file of the user's.  _archive.py opens members of a ZIP whose
# bytes the reader already read.
_OPENERS = {"open", "fdopen", "read_bytes", "read_text", "write_bytes", "write_text", "mkstemp", "link"}


def test_no_module_but_the_reader_and_the_writer_opens_files():
    found = []
    for module in sorted((SRC / "scorecontract").rglob("*.py")):
        if module.name in ("_read.py", "_write.py"):
            continue
        for node in ast.walk(parse_source(module.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name not in _OPENERS:
                continue
            if module.name == "_io.py" and name == "open" and "devnull" in ast.dump(node):
                continue
            if module.name == "_archive.py" and name == "open" and "attr='_zip'" in ast.dump(func):
                continue  # a member of a ZIP held in memory, not a file
            found.append(f"{module.name}:{node.lineno}: {name}")
    assert found == []
    # ... and the check itself sees the calls it is looking for.
    assert "open" in (SRC / "scorecontract" / "_read.py").read_text(encoding="utf-8")


# -- regressions, command by command ---------------------------------------


def key_file(tmp_path: Path) -> str:
    path = tmp_path / "release.key"
    if not path.exists():
        path.write_bytes(KEY)
        path.chmod(0o600)
    return str(path)


def test_item12_a_fifo_as_any_input_never_blocks(tmp_path, capsys):
    fifo = str(make_corner(tmp_path, "fifo"))
    evidence = make_corner(tmp_path, "file")
    trials = tmp_path / "trials.jsonl"
    trials.write_bytes(TRIAL)
    key = key_file(tmp_path)
    cases = [
        (["check", "--", fifo], 3, "file-unreadable"),
        (["check", "--contract", "judgment", "--", fifo], 3, "file-unreadable"),
        (["check", "--policy", fifo, "--", str(evidence)], 2, "policy-file-unreadable"),
        (["check", "--key-file", key, "--signature", fifo, "--", str(evidence)], 3, "signature-unreadable"),
        (["check", "--key-file", fifo, "--signature", fifo, "--", str(evidence)], 2, "bad-key"),
        (["report", "--scheduled", "1", "--", fifo], 3, "file-unreadable"),
        (["report", "--manifest", fifo, "--", str(trials)], 2, "bad-population"),
        (["report", "--scheduled", "1", "--policy", fifo, "--", str(trials)], 2, "policy-file-unreadable"),
        (["sign", "--key-file", key, "--output", str(tmp_path / "s.sig"), "--", fifo], 3, "file-unreadable"),
        (["sign", "--key-file", fifo, "--output", str(tmp_path / "s.sig"), "--", str(evidence)], 2, "bad-key"),
    ]
    for args, status, code in cases:
        assert main(args) == status, args
        captured = capsys.readouterr()
        assert code in captured.out + captured.err, args
        assert "FIFO" in captured.out + captured.err, args
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert not (tmp_path / "s.sig").exists()


def test_item12_a_fifo_as_an_api_input_never_blocks(tmp_path):
    from scorecontract import load_policy

    fifo = str(make_corner(tmp_path, "fifo"))
    assert report(fifo, scheduled=1).code == "file-unreadable"
    with pytest.raises(PolicyError) as info:
        report(TRIAL, manifest=fifo)
    assert info.value.code == "bad-population"
    with pytest.raises(PolicyError) as info:
        load_policy(fifo)
    assert info.value.code == "policy-file-unreadable"


def test_item9_a_manifest_over_a_mebibyte_loads(tmp_path):
    ids = [f"trial-{i:012d}" for i in range(100_000)]
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps(ids), encoding="ascii")
    assert manifest.stat().st_size > 1024 * 1024
    data = b"".join(b'{"trial_id": "%s", "score": 0.9}\n' % i.encode() for i in ids)
    result = report(data, manifest=str(manifest))
    assert (result.verdict, result.scheduled, result.valid) == (Verdict.PASS, 100_000, 100_000)


def test_item9_the_manifest_limit_is_the_one_constant(tmp_path, monkeypatch):
    import scorecontract._report as report_module

    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps(["a", "b"]), encoding="ascii")
    monkeypatch.setattr(report_module, "MAX_MANIFEST_BYTES", manifest.stat().st_size - 1)
    with pytest.raises(PolicyError) as info:
        report(TRIAL, manifest=str(manifest))
    assert info.value.code == "bad-population" and "too-large" in str(info.value)
    monkeypatch.setattr(report_module, "MAX_MANIFEST_BYTES", manifest.stat().st_size)
    assert report(TRIAL, manifest=str(manifest)).scheduled == 2


def test_item15_a_closed_stream_is_an_invalid_report(tmp_path):
    path = tmp_path / "trials.jsonl"
    path.write_bytes(TRIAL)
    with open(path, "rb") as stream:
        pass
    for closed in (stream, io.BytesIO(TRIAL)):
        closed.close()
        result = report(closed, scheduled=1)
        assert (result.verdict, result.code) == (Verdict.INVALID, "file-unreadable")


def write_only_stdin(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """Run the CLI with standard input open write-only, as ``0>>file`` does."""
    sink = tmp_path / "sink"
    with open(sink, "ab") as stdin:
        return subprocess.run(
            [sys.executable, "-m", "scorecontract", *args],
            stdin=stdin,
            capture_output=True,
            timeout=60,
            env={**os.environ, "PYTHONPATH": str(SRC)},
        )


@pytest.mark.parametrize(
    "args",
    [
        ["check", "-"],
        ["check", "--contract", "judgment", "-"],
        ["sign", "--key-file", "KEY", "--output", "OUT", "-"],
        ["report", "--scheduled", "1", "-"],
    ],
    ids=["check", "judgment", "sign", "report"],
)
def test_item13_unreadable_standard_input_is_invalid(tmp_path, args):
    args = [key_file(tmp_path) if a == "KEY" else str(tmp_path / "out.sig") if a == "OUT" else a for a in args]
    result = write_only_stdin(tmp_path, *args)
    assert result.returncode == 3, result.stderr
    assert b"file-unreadable" in result.stdout + result.stderr
    assert b"Traceback" not in result.stderr
    assert not (tmp_path / "out.sig").exists()


def test_item10_junit_xml_never_overwrites_the_trials_file(tmp_path, capsys):
    trials = tmp_path / "trials.jsonl"
    trials.write_bytes(TRIAL)
    assert main(["report", "--scheduled", "1", "--junit-xml", str(trials), "--", str(trials)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert trials.read_bytes() == TRIAL


@pytest.mark.parametrize("option", ["--junit-xml", "--receipt"])
def test_item10_report_outputs_never_overwrite_or_follow(tmp_path, capsys, option):
    trials = tmp_path / "trials.jsonl"
    trials.write_bytes(TRIAL)
    earlier = tmp_path / "earlier-receipt.json"
    earlier.write_bytes(b'{"kept": true}\n')
    planted = tmp_path / "planted.xml"
    planted.symlink_to(tmp_path / "victim")
    linked = tmp_path / "linked.xml"
    linked.symlink_to(earlier)
    for target in (earlier, planted, linked, make_corner(tmp_path, "fifo")):
        assert main(["report", "--scheduled", "1", option, str(target), "--", str(trials)]) == 2
        assert "already exists" in capsys.readouterr().err
    assert earlier.read_bytes() == b'{"kept": true}\n'
    assert not (tmp_path / "victim").exists()


def test_item10_junit_and_receipt_cannot_name_one_file(tmp_path, capsys):
    trials = tmp_path / "trials.jsonl"
    trials.write_bytes(TRIAL)
    out = str(tmp_path / "out")
    assert main(["report", "--scheduled", "1", "--junit-xml", out, "--receipt", out, "--", str(trials)]) == 2
    assert "both name" in capsys.readouterr().err
    assert not os.path.lexists(out)


@pytest.mark.parametrize("kind", ["fifo", "symlink", "dangling", "directory", "file"])
def test_every_command_writes_through_the_one_writer(tmp_path, capsys, kind):
    evidence = tmp_path / "ev.json"
    evidence.write_bytes(EVIDENCE)
    trials = tmp_path / "trials.jsonl"
    trials.write_bytes(TRIAL)
    target = str(make_corner(tmp_path, kind))
    commands = [
        ["check", "--receipt", target, "--", str(evidence)],
        ["check", "--contract", "judgment", "--receipt", target, "--", str(evidence)],
        ["report", "--scheduled", "1", "--receipt", target, "--", str(trials)],
        ["report", "--scheduled", "1", "--junit-xml", target, "--", str(trials)],
        ["sign", "--key-file", key_file(tmp_path), "--output", target, "--", str(evidence)],
    ]
    for args in commands:
        before = os.lstat(target) if os.path.lexists(target) else None
        assert main(args) == 2, args
        capsys.readouterr()
        after = os.lstat(target) if os.path.lexists(target) else None
        assert (before is None) == (after is None)
        if before is not None and after is not None:
            assert (before.st_ino, before.st_mode, before.st_mtime_ns) == (
                after.st_ino,
                after.st_mode,
                after.st_mtime_ns,
            )
    assert evidence.read_bytes() == EVIDENCE
    if kind == "symlink":
        assert (tmp_path / "target").read_bytes() == EVIDENCE
    if kind == "dangling":
        assert not (tmp_path / "nowhere").exists()


def test_item11_keep_evidence_refuses_a_fifo_and_a_symlink(tmp_path, capsys):
    evidence = tmp_path / "ev.json"
    evidence.write_bytes(EVIDENCE)
    name = hashlib.sha256(EVIDENCE).hexdigest()
    fifo_dir, link_dir, good_dir = tmp_path / "fifo", tmp_path / "link", tmp_path / "good"
    fifo_dir.mkdir()
    link_dir.mkdir()
    os.mkfifo(fifo_dir / name)
    (tmp_path / "same-bytes").write_bytes(EVIDENCE)
    (link_dir / name).symlink_to(tmp_path / "same-bytes")
    for directory in (fifo_dir, link_dir):
        assert main(["check", "--keep-evidence", str(directory), "--", str(evidence)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""  # no verdict is announced for a run that exits 2
        assert "cannot keep the evidence" in captured.err and "(PASS meets-threshold)" in captured.err
    assert stat.S_ISFIFO(os.lstat(fifo_dir / name).st_mode)
    assert os.path.islink(link_dir / name)
    # A regular file with the same bytes is already kept; other bytes are not.
    for _ in range(2):
        assert main(["check", "--keep-evidence", str(good_dir), "--", str(evidence)]) == 0
    assert (good_dir / name).read_bytes() == EVIDENCE
    (good_dir / name).write_bytes(EVIDENCE + b" ")
    assert main(["check", "--keep-evidence", str(good_dir), "--", str(evidence)]) == 2
    assert "does not hold the evidence bytes" in capsys.readouterr().err


def test_item8_a_huge_scheduled_count_gives_bounded_junit(tmp_path, capsys):
    trials = tmp_path / "trials.jsonl"
    trials.write_bytes(TRIAL)
    junit = tmp_path / "junit.xml"
    args = ["report", "--scheduled", "999999999999999999", "--junit-xml", str(junit), "--", str(trials)]
    assert main(args) == 3
    capsys.readouterr()
    suite = ET.parse(junit).getroot().find("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == ["a", "(999999999999999998 scheduled trials never named in the file)"]
    assert cases[1].find("error").get("type") == "missing-evidence"
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "0", "1")
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties["scheduled"] == "999999999999999999"
    assert properties["missing"] == "999999999999999998"


def test_item8_junit_memory_is_bounded_by_what_the_file_names():
    import tracemalloc

    from scorecontract._cli._report_output import junit_xml_chunks

    result = report(TRIAL, scheduled=1_000_000)
    tracemalloc.start()
    try:
        size = sum(len(chunk) for chunk in junit_xml_chunks(result))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # A testcase per unnamed trial was about 1.3 GB for this report.
    assert size < 10_000 and peak < 1_000_000


def test_item8_junit_is_streamed_in_chunks():
    from scorecontract._cli._report_output import junit_xml_bytes, junit_xml_chunks

    data = b"".join(b'{"trial_id": "t-%d", "score": 0.9}\n' % i for i in range(5000))
    result = report(data, scheduled=5000)
    chunks = list(junit_xml_chunks(result))
    assert len(chunks) > 2
    assert max(len(chunk) for chunk in chunks[:-1]) < 70 * 1024
    root = ET.fromstring(b"".join(chunks))
    assert len(root.find("testsuite").findall("testcase")) == 5000
    assert junit_xml_bytes(result) == b"".join(chunks)


# -- the output primitives: escaping, workflow commands, receipts --------------------


@pytest.mark.parametrize(
    "text, data, prop",
    [
        ("plain", "plain", "plain"),
        ("50%", "50%25", "50%25"),
        ("a\nb", "a%0Ab", "a%0Ab"),
        ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
        ("x::error::y", "x::error::y", "x%3A%3Aerror%3A%3Ay"),
        ("a,b", "a,b", "a%2Cb"),
        ("%0A", "%250A", "%250A"),
    ],
)
def test_escaping_follows_the_actions_toolkit(text, data, prop):
    assert escape_data(text) == data
    assert escape_property(text) == prop


def test_a_newline_in_evidence_cannot_forge_a_second_command():
    line = workflow_command("error", "bad\n::notice::released", title="t-1,\n::x")
    assert "\n" not in line and "\r" not in line
    assert line == "::error title=t-1%2C%0A%3A%3Ax::bad%0A::notice::released"


def test_lone_surrogates_are_escaped_not_fatal():
    line = workflow_command("error", "id \ud800")
    line.encode("utf-8")
    assert "\\ud800" in line


def test_receipt_bytes_are_deterministic_and_ascii():
    receipt = {"b": 1, "a": "caf\u00e9 \ud800", "threshold": Decimal("0.8")}
    first = receipt_bytes(receipt)
    assert first == receipt_bytes(dict(reversed(list(receipt.items()))))
    first.decode("ascii")
    assert b'"threshold": "0.8"' in first
    assert first.endswith(b"}\n")
    with pytest.raises(ValueError):
        receipt_bytes({"score": float("nan")})


def test_sha256_hex():
    assert sha256_hex(b"") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def test_write_new_file_never_overwrites(tmp_path):
    target = tmp_path / "receipt.json"
    write_new_file(str(target), b"first\n")
    with pytest.raises(FileExistsError):
        write_new_file(str(target), b"second\n")
    assert target.read_bytes() == b"first\n"
    assert [p.name for p in tmp_path.iterdir()] == ["receipt.json"]  # no temp left


# -- the escaper itself ---------------------------------------------------------


def test_every_unsafe_character_is_escaped_and_nothing_else():
    for code in range(0x110000):
        character = chr(code)
        shown = escape(character)
        if unsafe(character):
            expected = f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
            assert shown == expected, hex(code)
        else:
            assert shown == character, hex(code)


def test_escaping_is_idempotent_and_keeps_backslashes():
    text = "a\\x1b\x1b\u202e\udcff\\n"
    once = escape(text)
    assert once == "a\\x1b\\x1b\\u202e\\udcff\\n"
    assert escape(once) == once


def test_github_escapes_esc_and_soh_beside_the_toolkit_rules():
    assert escape_data("a%b\r\nc\x1bd\x01") == "a%25b%0D%0Ac\\x1bd\\x01"
    assert escape_property("x:y,z\x1b\u202e") == "x%3Ay%2Cz\\x1b\\u202e"
    line = workflow_command("error", "m\x1b\x01\n::notice::x", file="f\x1b\n,:%", title="t\u2028")
    assert line == "::error file=f\\x1b%0A%2C%3A%25,title=t\\u2028::m\\x1b\\x01%0A::notice::x"
    assert raw_unsafe(line + "\n") == []
