# SPDX-License-Identifier: MIT
"""A result that cannot be written is never reported as its own status.

A release script reads the exit status, and a person or a harness reads the
line.  When the line is lost (stdout closed with ``>&-``, ``/dev/full``, a
reader that left, as ``| head`` does), the run exits 74 (EX_IOERR), for
every verdict: a PASS nobody received must not release.  A configuration
error is exit 2 whatever happens to stderr, and a message that cannot be
written to stderr changes no status.
"""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys

import pytest

import scorecontract
from public_support import EXIT_INTERNAL_ERROR, EXIT_IOERR, inject_defect
from scorecontract._cli import main
from support import FIXTURES, SRC

PASS = str(FIXTURES / "pass-0.9.json")
NAN = str(FIXTURES / "nan.json")


class Unwritable(io.StringIO):
    """A stream every write to which fails, as *error* says."""

    def __init__(self, error: BaseException) -> None:
        io.StringIO.__init__(self)
        self.error = error
        self.attempts = 0

    def write(self, text: str) -> int:
        self.attempts += 1
        raise self.error

    def fileno(self) -> int:
        raise io.UnsupportedOperation("no descriptor")


FAILURES = {
    "full": OSError(errno.ENOSPC, "No space left on device"),
    "reader-left": BrokenPipeError(errno.EPIPE, "Broken pipe"),
    "bad-descriptor": OSError(errno.EBADF, "Bad file descriptor"),
    "closed-file": ValueError("I/O operation on closed file."),
}


@pytest.fixture(params=sorted(FAILURES))
def lose_stdout(request, monkeypatch):
    """Return a function that replaces stdout by an unwritable stream.

    Called from the test body: pytest puts capsys's own stdout back when
    the test starts, over anything a fixture installed.
    """

    def install() -> Unwritable:
        stream = Unwritable(FAILURES[request.param])
        monkeypatch.setattr(sys, "stdout", stream)
        return stream

    return install


@pytest.fixture
def key(tmp_path):
    path = tmp_path / "key"
    path.write_bytes(b"k" * 32)
    path.chmod(0o600)
    return str(path)


def _commands(tmp_path, key):
    trials = tmp_path / "t.jsonl"
    trials.write_bytes(b'{"trial_id": "t-1", "score": 0.9}\n')
    judgment = tmp_path / "j.json"
    judgment.write_bytes(b'{"pass": false}')
    return {
        "check PASS": (["check", PASS], 0),
        "check FAIL": (["check", "--threshold", "0.95", PASS], 1),
        "check INVALID": (["check", NAN], 3),
        "check json": (["check", "--format", "json", PASS], 0),
        "check github": (["check", "--format", "github", PASS], 0),
        "check receipt": (["check", "--receipt", str(tmp_path / "r.json"), PASS], 0),
        "judgment FAIL": (["check", "--contract", "judgment", str(judgment)], 1),
        "report PASS": (["report", "--scheduled", "1", str(trials)], 0),
        "report REVIEW": (["report", "--scheduled", "2", "--review-owner", "qa", str(trials)], 4),
        "report markdown": (["report", "--scheduled", "1", "--format", "markdown", str(trials)], 0),
        "sign": (["sign", "--key-file", key, "--output", str(tmp_path / "s.sig"), PASS], 0),
        "demo": (["demo"], 0),
        "help": (["--help"], 0),
        "check help": (["check", "--help"], 0),
        "version": (["--version"], 0),
    }


COMMANDS = [
    "check PASS",
    "check FAIL",
    "check INVALID",
    "check json",
    "check github",
    "check receipt",
    "judgment FAIL",
    "report PASS",
    "report REVIEW",
    "report markdown",
    "sign",
    "demo",
    "help",
    "check help",
    "version",
]


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_exits_74_when_its_output_is_lost(name, lose_stdout, tmp_path, key, capsys):
    argv, status = _commands(tmp_path, key)[name]
    lost_stdout = lose_stdout()
    assert main(argv) == EXIT_IOERR
    assert lost_stdout.attempts >= 1
    err = capsys.readouterr().err
    assert err.endswith(f"the result could not be written to standard output; exit 74 instead of {status}\n")


@pytest.mark.parametrize("name", COMMANDS)
def test_with_a_working_stdout_each_command_has_its_own_status(name, tmp_path, key, capsys):
    argv, status = _commands(tmp_path, key)[name]
    assert main(argv) == status
    out, err = capsys.readouterr()
    assert out.endswith("\n") and "could not be written" not in err


def test_no_stdout_at_all_is_exit_74(monkeypatch, capsys):
    # pythonw, or a descriptor closed before Python started: sys.stdout is None.
    monkeypatch.setattr(sys, "stdout", None)
    assert main(["check", PASS]) == EXIT_IOERR


def test_files_are_still_written_when_stdout_is_lost(lose_stdout, tmp_path):
    lose_stdout()
    receipt = tmp_path / "r.json"
    assert main(["check", "--receipt", str(receipt), PASS]) == EXIT_IOERR
    assert scorecontract.loads(receipt.read_bytes())["verdict"] == "PASS"


def test_a_configuration_error_stays_2_when_stdout_is_lost(lose_stdout, tmp_path):
    lose_stdout()
    receipt = tmp_path / "r.json"
    receipt.write_bytes(b"kept")
    # The receipt exists: exit 2 whatever else was lost.
    assert main(["check", "--receipt", str(receipt), PASS]) == 2
    assert receipt.read_bytes() == b"kept"
    assert main(["check", "--threshold", "2", PASS]) == 2
    assert main(["check", "--no-such-option", PASS]) == 2


@pytest.mark.parametrize("failure", sorted(FAILURES))
def test_a_lost_message_changes_no_status(failure, monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(sys, "stderr", Unwritable(FAILURES[failure]))
    assert main(["check", "--threshold", "2", PASS]) == 2
    receipt = tmp_path / "r.json"
    receipt.write_bytes(b"kept")
    assert main(["check", "--receipt", str(receipt), PASS]) == 2
    assert main(["check", "--no-such-option", PASS]) == 2
    assert main(["report", PASS]) == 2  # no population
    assert main(["check", PASS]) == 0
    assert main(["check", NAN]) == 3
    assert capsys.readouterr().out.startswith("PASS ")


def test_an_internal_error_stays_70_when_stdout_is_lost(lose_stdout, monkeypatch):
    lose_stdout()
    with monkeypatch.context() as patched:
        inject_defect(patched)
        status = main(["check", PASS])
    assert status == EXIT_INTERNAL_ERROR


# -- the real streams: a handful of processes ---------------------------------


def _run(args, *, close=(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=None):
    def preexec():
        for fd in close:
            os.close(fd)

    return subprocess.run(
        [sys.executable, "-m", "scorecontract", *args],
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=stderr,
        cwd=cwd,
        env=dict(os.environ, PYTHONPATH=str(SRC)),
        timeout=120,
        preexec_fn=preexec,
    )


def test_closed_stdout_is_74_and_the_receipt_is_intact(tmp_path):
    receipt = tmp_path / "r.json"
    result = _run(["check", "--receipt", str(receipt), PASS], close=(1,), stdout=None)
    assert result.returncode == EXIT_IOERR, result.stderr
    assert b"Traceback" not in result.stderr
    assert b"could not be written" in result.stderr
    # Nothing meant for stdout landed in the file opened where it was.
    assert scorecontract.loads(receipt.read_bytes())["verdict"] == "PASS"


def test_full_stdout_is_74_without_a_traceback():
    with open("/dev/full", "wb") as full:
        for args in (["check", PASS], ["check", NAN], ["demo"]):
            result = _run(args, stdout=full)
            assert result.returncode == EXIT_IOERR, (args, result.stderr)
            # Python's flush of stdout at exit found nothing left to fail on.
            assert result.stderr.count(b"\n") == 1, result.stderr
            assert b"Exception ignored" not in result.stderr and b"Traceback" not in result.stderr


@pytest.mark.parametrize(
    "args,status",
    [
        (["check", "--threshold", "2", PASS], 2),
        (["check", "--no-such-option", PASS], 2),
        (["check", PASS], 0),
        (["check", NAN], 3),
    ],
    ids=["bad-threshold", "usage", "pass", "invalid"],
)
def test_closed_stderr_keeps_every_status(args, status):
    result = _run(args, close=(2,), stderr=None)
    assert result.returncode == status
    if status in (0, 3):
        assert result.stdout.count(b"\n") == 1


def test_closed_stderr_and_an_existing_receipt_is_2(tmp_path):
    receipt = tmp_path / "r.json"
    receipt.write_bytes(b"kept")
    result = _run(["check", "--receipt", str(receipt), PASS], close=(2,), stderr=None)
    assert result.returncode == 2
    assert receipt.read_bytes() == b"kept"


def test_full_stderr_keeps_the_status():
    with open("/dev/full", "wb") as full:
        result = _run(["check", "--threshold", "2", PASS], stderr=full)
    assert result.returncode == 2


GUARD_PROBE = r"""
import os, sys
target, src, evidence = sys.argv[1:4]
os.close(2)  # as `2>&-` would, after Python made sys.stderr
sys.path.insert(0, src)
from scorecontract._cli import main

held = []
fstat = os.fstat
def broken(descriptor):
    # The standard three are checked at start; the evidence's is not one.
    if descriptor <= 2:
        return fstat(descriptor)
    # The lowest free descriptor: 2, unless main() filled it first.
    held.append(open(target, "w"))
    raise RuntimeError("a defect while a file is open")
os.fstat = broken
status = main(["check", evidence])
held[0].close()
print(status)
"""


def test_a_closed_stderr_never_writes_into_a_file_opened_in_its_place(tmp_path):
    target = tmp_path / "data"
    result = subprocess.run(
        [sys.executable, "-c", GUARD_PROBE, str(target), str(SRC), PASS],
        capture_output=True,
        timeout=120,
    )
    assert result.stdout.split() == [b"70"], result
    # The internal-error message went to /dev/null, not into the file.
    assert target.read_bytes() == b""
