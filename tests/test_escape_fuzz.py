# SPDX-License-Identifier: MIT
"""No raw control character reaches stdout or stderr, from any command.

File names, trial ids, candidates and option values are chosen by whoever
wrote the evidence.  A file named ``"\\n::error title=forged::release
approved\\n"`` once made ``sign`` print a forged GitHub Actions command,
and an ESC byte reached the terminal through ``sign``, the ``key-too-open``
message and argparse's "unrecognized arguments".  Every character printed
now passes through ``_escape.escape``.

The fuzz below puts every C0 control but NUL (which no file name or
argument can hold), DEL, every C1 control, U+2028, U+2029, bidi controls
and ``%`` into file names, ids and option values, over every command and
format, and checks what was printed against a definition of "unsafe" made
here from ``unicodedata``, not from the escaper's own table.  The escaper's
own unit tests are in test_files.py, with the other shared output
primitives.
"""

from __future__ import annotations

import json
import os
import sys
import unicodedata

import pytest

import scorecontract
from public_support import EXIT_INTERNAL_ERROR
from scorecontract._cli import main
from support import run_streams

# Bidi_Control in Unicode's PropList.txt.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def unsafe(character: str) -> bool:
    """Must *character* never be printed raw?  Cc (C0, DEL, C1), Cs
    (surrogates), Zl and Zp (U+2028, U+2029) and the bidi controls."""
    return unicodedata.category(character) in ("Cc", "Cs", "Zl", "Zp") or character in BIDI_CONTROLS


def raw_unsafe(text: str) -> list[str]:
    """The unsafe characters in *text*, the newline ending each line apart."""
    if text and not text.endswith("\n"):
        raise AssertionError(f"output does not end with a newline: {text[-40:]!r}")
    return sorted({c for line in text.split("\n") for c in line if unsafe(c)})


HOSTILE = (
    [chr(code) for code in range(1, 0x20)]
    + ["\x7f"]
    + [chr(code) for code in range(0x80, 0xA0)]
    + ["\u2028", "\u2029", "\u202e", "\u2066", "\u200f", "\u061c", "%"]
)
# Chunks of eight, so each test is one command over a name holding several
# hostile characters at once; every character is in every command's fuzz.
CHUNKS = ["".join(HOSTILE[i : i + 8]) for i in range(0, len(HOSTILE), 8)]
TAG = "TAG"


def test_the_fuzz_covers_what_it_claims():
    covered = set("".join(CHUNKS))
    assert covered == set(HOSTILE)
    assert {chr(c) for c in range(1, 0x20)} <= covered and "\x7f" in covered
    assert {chr(c) for c in range(0x80, 0xA0)} <= covered
    assert {"\u2028", "\u202e", "%", "\n", "\r", "\x1b", "\x01"} <= covered
    assert all(unsafe(c) for c in HOSTILE if c != "%")


# -- every command and format, in-process ---------------------------------------


@pytest.fixture
def key(tmp_path):
    path = tmp_path / "key"
    path.write_bytes(b"k" * 32)
    path.chmod(0o600)
    return str(path)


def _write(path: str, data: bytes) -> str:
    with open(path, "wb") as stream:
        stream.write(data)
    return path


def _cases(tmp: str, hostile: str, key: str):
    """(name, argv, is the hostile text printed) for one hostile chunk."""
    name = f"{TAG}{hostile}{TAG}"
    path = os.path.join(tmp, name + ".json")
    _write(path, b'{"score": 0.5}')
    judgment = _write(
        os.path.join(tmp, name + ".judgment"), json.dumps({"pass": True, "reason": name}, ensure_ascii=False).encode()
    )
    lines = [
        {"trial_id": f"ok{name}", "score": 0.9},
        {"trial_id": f"bad{name}", "score": "0.9"},
        {"trial_id": f"ok{name}", "score": 0.9},  # a rerun, ignored
    ]
    trials = _write(
        os.path.join(tmp, name + ".jsonl"),
        b"".join(json.dumps(line, ensure_ascii=False).encode() + b"\n" for line in lines)
        + b"{not json "
        + name.encode()
        + b"\n",
    )
    manifest = _write(
        os.path.join(tmp, name + ".manifest"),
        json.dumps([f"ok{name}", f"bad{name}", f"missing{name}"], ensure_ascii=False).encode(),
    )
    open_key = _write(os.path.join(tmp, name + ".key"), b"k" * 32)
    os.chmod(open_key, 0o644)
    existing = _write(os.path.join(tmp, name + ".exists"), b"kept")
    missing = os.path.join(tmp, name + ".absent")
    cases = []
    for form in ("text", "json", "github"):
        cases += [
            (f"check {form}", ["check", "--format", form, path], form != "text"),
            (f"check {form} missing", ["check", "--format", form, missing], True),
            (f"judgment {form}", ["check", "--contract", "judgment", "--format", form, judgment], form != "text"),
            (
                f"check {form} receipt",
                ["check", "--format", form, "--receipt", os.path.join(tmp, name + f".{form}.receipt"), path],
                form != "text",
            ),
            (f"check {form} candidate", ["check", "--format", form, "--candidate", name, path], False),
        ]
    for form in ("text", "json", "markdown", "github"):
        cases += [
            (f"report {form}", ["report", "--format", form, "--manifest", manifest, trials], True),
            (
                f"report {form} review",
                ["report", "--format", form, "--scheduled", "5", "--review-owner", name, trials],
                False,
            ),
        ]
    cases += [
        ("sign", ["sign", "--key-file", key, path], True),
        ("sign key-too-open", ["sign", "--key-file", open_key, path], True),
        ("sign existing output", ["sign", "--key-file", key, "--output", existing, path], True),
        ("check existing receipt", ["check", "--receipt", existing, path], True),
        ("check missing policy", ["check", "--policy", missing, path], True),
        ("check bad threshold", ["check", "--threshold", name, path], True),
        ("check bad format", ["check", "--format", name, path], True),
        ("report bad scheduled", ["report", "--scheduled", name, trials], True),
        ("report missing manifest", ["report", "--manifest", missing, trials], True),
        ("unrecognized", ["check", path, f"--{name}"], True),
        ("unknown command", [name], True),
        ("help beside a path", ["check", "--receipt", existing, "-h", name], False),
        ("key file missing", ["check", "--key-file", missing, path], True),
        ("key env", ["check", "--key-env", name, path], True),
    ]
    return cases


@pytest.mark.parametrize("chunk", range(len(CHUNKS)))
def test_no_command_prints_a_raw_control_character(chunk, tmp_path, key, capsys):
    hostile = CHUNKS[chunk]
    cases = _cases(str(tmp_path), hostile, key)
    assert len(cases) > 30
    for name, argv, printed in cases:
        status = main(argv)
        out, err = capsys.readouterr()
        assert status != EXIT_INTERNAL_ERROR, (name, err)
        assert raw_unsafe(out) == [], (name, out)
        assert raw_unsafe(err) == [], (name, err)
        if printed:
            # The hostile text was printed (escaped), so the check above saw it.
            assert TAG in out + err, (name, out, err)


def test_demo_prints_nothing_raw(capsys):
    assert main(["demo"]) == 0
    out, err = capsys.readouterr()
    assert out.count("\n") > 10 and err == ""
    assert raw_unsafe(out) == []


def test_the_forged_annotation_is_shown_not_obeyed(tmp_path, key, capsys):
    evidence = _write(str(tmp_path / "ev\n::error title=forged::release approved\n\x1b[31m.json"), b'{"score": 0.9}')
    assert main(["sign", "--key-file", key, evidence]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "\x1b" not in out
    assert out.endswith("ev\\x0a::error title=forged::release approved\\x0a\\x1b[31m.json.sig\n")
    assert os.path.exists(evidence + ".sig")


# -- the real streams: a few processes, bytes checked ------------------------


def _raw_bytes_problems(data: bytes) -> list[str]:
    bad = sorted({byte for byte in data if (byte < 0x20 and byte != 0x0A) or byte == 0x7F})
    text = data.decode("utf-8")  # strict: a lone surrogate could not be here
    return [hex(b) for b in bad] + [hex(ord(c)) for c in sorted(set(raw_unsafe(text)))]


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS file names must be UTF-8")
def test_real_streams_carry_no_raw_control_byte(tmp_path):
    hostile = "".join(HOSTILE).encode("utf-8") + b"\xff"
    directory = os.fsencode(tmp_path)
    evidence = directory + b"/" + hostile + b".json"
    with open(evidence, "wb") as stream:
        stream.write(b'{"score": 0.9}')
    key = directory + b"/key"
    with open(key, "wb") as stream:
        stream.write(b"k" * 32)
    os.chmod(key, 0o600)
    trials = directory + b"/" + hostile + b".jsonl"
    with open(trials, "wb") as stream:
        stream.write(json.dumps({"trial_id": "".join(HOSTILE), "score": "x"}, ensure_ascii=False).encode() + b"\n")
    runs = [
        [b"sign", b"--key-file", key, evidence],
        [b"check", b"--format", b"github", evidence],
        [b"check", evidence, b"--x" + hostile],
        [b"report", b"--scheduled", b"2", b"--format", b"github", trials],
        [b"report", b"--scheduled", b"2", b"--format", b"markdown", trials],
    ]
    # A fresh interpreter: its real streams, and non-UTF-8 arguments as
    # sys.argv gets them.  One interpreter for every run.
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    results = run_streams(runs, env=env)
    assert len(results) == len(runs)
    for args, result in zip(runs, results):
        assert result.returncode in (0, 2, 3), (args, result.stderr)
        assert b"Traceback" not in result.stderr
        assert result.stdout or result.stderr
        assert _raw_bytes_problems(result.stdout) == [], (args, result.stdout)
        assert _raw_bytes_problems(result.stderr) == [], (args, result.stderr)


# -- receipts from non-UTF-8 file names load with the strict loader ------------


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS file names must be UTF-8")
@pytest.mark.parametrize("form", ["text", "json", "github"])
def test_a_check_receipt_of_a_non_utf8_name_loads_strictly(form, tmp_path, key, capsys):
    # os.fsdecode gives the byte 0xFF as U+DCFF, which strict JSON refuses.
    name = os.fsdecode(os.fsencode(tmp_path) + b"/\xff.json")
    _write(name, b'{"score": 0.9}')
    assert main(["sign", "--key-file", key, name]) == 0
    capsys.readouterr()
    receipt = tmp_path / "r.json"
    assert main(["check", "--format", form, "--receipt", str(receipt), "--key-file", key, name]) == 0
    out = capsys.readouterr().out
    record = scorecontract.loads(receipt.read_bytes())
    assert record["evidence"]["path"] == os.fsdecode(tmp_path) + "/\\udcff.json"
    assert record["provenance"]["signature"] == os.fsdecode(tmp_path) + "/\\udcff.json.sig"
    assert record["provenance"]["authenticated"] is True
    if form == "json":
        assert scorecontract.loads(out) == record


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS file names must be UTF-8")
def test_a_report_receipt_of_a_non_utf8_name_loads_strictly(tmp_path, capsys):
    name = os.fsdecode(os.fsencode(tmp_path) + b"/\xff.json")
    # A trial id holding a lone surrogate escape: the line is invalid, and
    # its id is still listed in the receipt.
    _write(name, b'{"trial_id": "t-1", "score": 0.9}\n{"trial_id": "\\udcff", "score": 0.9}\n')
    receipt = tmp_path / "r.json"
    assert main(["report", "--scheduled", "2", "--receipt", str(receipt), name]) == 3
    record = scorecontract.loads(receipt.read_bytes())
    assert [item["trial_id"] for item in record["invalid_observations"]] == ["\\udcff"]
    out = capsys.readouterr().out
    assert "\\udcff.json" in out and raw_unsafe(out) == []


def test_receipt_strings_without_a_surrogate_are_kept_exactly(tmp_path, capsys):
    # JSON's own escapes hold control characters losslessly: only a string
    # the strict loader would refuse is changed.
    name = str(tmp_path / "a\x1b\u202e%.json")
    _write(name, b'{"score": 0.9}')
    receipt = tmp_path / "r.json"
    assert main(["check", "--receipt", str(receipt), name]) == 0
    assert scorecontract.loads(receipt.read_bytes())["evidence"]["path"] == name
