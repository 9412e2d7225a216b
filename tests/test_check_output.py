# SPDX-License-Identifier: MIT
"""check's outputs: --format, --receipt, --keep-evidence, and output discipline."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest

import scorecontract
from public_support import EXIT_IOERR
from scorecontract._cli import main
from support import FIXTURES, SRC, manifest_cases, run_cli, run_fresh, run_main, run_streams

CASES = manifest_cases()
COMMANDS = {"PASS": "notice", "FAIL": "error", "INVALID": "error"}


def check(*args, capsys):
    status = main(["check", *args])
    out, err = capsys.readouterr()
    return status, out, err


# -- --format -----------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_json_format_is_one_object_with_the_decision(case, capsys):
    path = str(FIXTURES / case["file"])
    status, out, err = check("--format", "json", path, capsys=capsys)
    assert out.count("\n") == 1 and err == ""
    out.encode("ascii")
    record = json.loads(out)
    data = (FIXTURES / case["file"]).read_bytes()
    assert (record["verdict"], record["code"]) == (case["verdict"], case["code"])
    assert record["evidence"] == {"path": path, "sha256": hashlib.sha256(data).hexdigest(), "length": len(data)}
    assert record["scorecontract_version"] == scorecontract.__version__
    assert (record["kind"], record["receipt_version"]) == ("check", 2)
    assert "scorecontract" not in record
    assert record["policy"] == {"version": "default", "threshold": 0.8, "min": 0, "max": 1, "exact": False}
    assert status == {"PASS": 0, "FAIL": 1, "INVALID": 3}[case["verdict"]]


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_github_format_is_one_workflow_command(case, capsys):
    path = str(FIXTURES / case["file"])
    _, text, _ = check(path, capsys=capsys)
    status, out, err = check("--format", "github", path, capsys=capsys)
    command = COMMANDS[case["verdict"]]
    assert out.startswith(f"::{command} title=scorecontract {case['verdict']},file={path}")
    assert out.count("\n") == 1 and err == ""
    # The message is the text line, escaped as the Actions toolkit does.
    assert out.split("::", 2)[2] == text.replace("%", "%25")


def test_github_format_names_the_place(tmp_path, capsys):
    evidence = tmp_path / "trailing.json"
    evidence.write_bytes(b'{"score": 0.9}\n x')
    status, out, _ = check("--format", "github", str(evidence), capsys=capsys)
    assert status == 3
    assert out.startswith(f"::error title=scorecontract INVALID,file={evidence},line=2,col=2::INVALID trailing-data: ")
    assert out.endswith(" (line 2 column 2) (policy default)\n")


def test_github_format_on_stdin_has_no_file(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", _Stdin(b'{"score": NaN}'))
    status, out, _ = check("--format", "github", "-", capsys=capsys)
    assert status == 3
    # The place is named (the NaN literal), but there is no file to name.
    assert out.startswith("::error title=scorecontract INVALID,line=1,col=11::INVALID non-standard-constant")
    assert "file=" not in out


def test_unknown_format_is_a_usage_error():
    result = run_main("check", "--format", "xml", str(FIXTURES / "pass-0.9.json"))
    assert result.returncode == 2 and result.stdout == b""


class _Stdin:
    def __init__(self, data):
        import io

        self.buffer = io.BytesIO(data)


def _agree(fmt, path, from_file, from_stdin):
    if fmt == "text":
        assert from_file == from_stdin
    elif fmt == "json":
        a, b = json.loads(from_file), json.loads(from_stdin)
        assert (a["evidence"].pop("path"), b["evidence"].pop("path")) == (path, "-")
        assert a == b
    else:
        assert from_file.split("::", 2)[2] == from_stdin.split("::", 2)[2]


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_stdin_and_file_agree_in_every_format(case, fmt, capsys, monkeypatch):
    path = str(FIXTURES / case["file"])
    file_status, from_file, _ = check("--format", fmt, path, capsys=capsys)
    monkeypatch.setattr(sys, "stdin", _Stdin((FIXTURES / case["file"]).read_bytes()))
    stdin_status, from_stdin, _ = check("--format", fmt, "-", capsys=capsys)
    assert file_status == stdin_status
    _agree(fmt, path, from_file, from_stdin)


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_stdin_and_file_agree_in_a_fresh_interpreter(fmt):
    # Fresh interpreter: its standard input is a real pipe, read through
    # the interpreter's own sys.stdin.buffer.  The file side needs none.
    for name in ("nan.json", "pass-0.9.json", "utf16-le-bom.json"):
        path = str(FIXTURES / name)
        from_file = run_main("check", "--format", fmt, path)
        from_stdin = run_cli("check", "--format", fmt, "-", stdin=(FIXTURES / name).read_bytes())
        assert from_file.returncode == from_stdin.returncode
        _agree(fmt, path, from_file.stdout.decode("ascii"), from_stdin.stdout.decode("ascii"))


# -- --receipt ----------------------------------------------------------------


def test_receipt_is_the_json_output_pretty_printed(tmp_path, capsys):
    receipt = tmp_path / "receipt.json"
    status, out, _ = check(
        "--format", "json", "--receipt", str(receipt), str(FIXTURES / "overflow-1e400.json"), capsys=capsys
    )
    assert status == 3
    data = receipt.read_bytes()
    assert json.loads(data) == json.loads(out)
    assert data.endswith(b"}\n") and data.startswith(b"{\n  ")
    assert [p.name for p in tmp_path.iterdir()] == ["receipt.json"]  # no temporary left


def test_receipt_is_deterministic_across_processes(tmp_path):
    # Fresh interpreters, different hash seeds (PYTHONHASHSEED is read at
    # start-up only): still the same bytes.  One interpreter per seed.
    receipts = []
    for seed in ("1", "2"):
        target = tmp_path / f"receipt-{seed}.json"
        env = dict(os.environ, PYTHONHASHSEED=seed)
        missing, result = run_fresh(
            [
                (["check", "--threshold", "0.85", "--receipt", str(target), "fixture.json"], b""),
                (["check", "--receipt", str(tmp_path / f"pass-{seed}.json"), str(FIXTURES / "pass-0.9.json")], b""),
            ],
            cwd=FIXTURES.parent,
            env=env,
        )
        assert missing.returncode == 3  # fixture.json does not exist: INVALID, receipt all the same
        receipts.append(target.read_bytes())
        assert result.returncode == 0
        receipts.append((tmp_path / f"pass-{seed}.json").read_bytes())
    assert receipts[0] == receipts[2] and receipts[1] == receipts[3]
    assert b'"threshold": 0.85' in receipts[0]


def test_receipt_for_a_missing_file_claims_no_hash(tmp_path, capsys):
    receipt = tmp_path / "receipt.json"
    status, out, _ = check("--receipt", str(receipt), str(tmp_path / "absent.json"), capsys=capsys)
    assert status == 3 and out.startswith("INVALID file-not-found: ")
    record = json.loads(receipt.read_bytes())
    assert record["evidence"] == {"path": str(tmp_path / "absent.json"), "sha256": None, "length": None}
    assert (record["verdict"], record["code"], record["score"], record["location"]) == (
        "INVALID",
        "file-not-found",
        None,
        None,
    )


def test_receipt_for_oversize_evidence_claims_no_hash(tmp_path, capsys):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 100 + b'{"score": 0.9}')
    status, _, _ = check("--max-bytes", "50", "--receipt", str(tmp_path / "r.json"), str(big), capsys=capsys)
    assert status == 3
    record = json.loads((tmp_path / "r.json").read_bytes())
    assert (record["code"], record["evidence"]["sha256"], record["evidence"]["length"]) == ("too-large", None, None)


def test_receipt_of_an_empty_file_hashes_zero_bytes(tmp_path, capsys):
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    status, _, _ = check("--receipt", str(tmp_path / "r.json"), str(empty), capsys=capsys)
    assert status == 3
    record = json.loads((tmp_path / "r.json").read_bytes())
    assert record["evidence"]["sha256"] == hashlib.sha256(b"").hexdigest()
    assert record["evidence"]["length"] == 0 and record["code"] == "empty"


def test_receipt_carries_the_location(tmp_path, capsys):
    evidence = tmp_path / "trailing.json"
    evidence.write_bytes(b'{"score": 0.9}\n x')
    check("--receipt", str(tmp_path / "r.json"), str(evidence), capsys=capsys)
    assert json.loads((tmp_path / "r.json").read_bytes())["location"] == {"pos": 16, "line": 2, "column": 2}


@pytest.mark.parametrize("evidence, verdict", [("pass-0.9.json", "PASS"), ("nan.json", "INVALID")])
def test_existing_receipt_is_not_overwritten_and_exits_2(tmp_path, capsys, evidence, verdict):
    receipt = tmp_path / "receipt.json"
    receipt.write_bytes(b"an earlier receipt\n")
    status, out, err = check("--receipt", str(receipt), str(FIXTURES / evidence), capsys=capsys)
    assert status == 2  # never 0, whatever the verdict
    # Refused before the evidence is read: nothing is announced as a verdict
    # (a ::notice ... PASS before exit 2 once misled CI logs).
    assert out == ""
    assert err.count("\n") == 1 and "already exists" in err and err.startswith("scorecontract: error: ")
    assert receipt.read_bytes() == b"an earlier receipt\n"


@pytest.mark.parametrize("form", ["text", "github", "json"])
def test_an_existing_receipt_announces_no_verdict_in_any_format(tmp_path, capsys, form):
    receipt = tmp_path / "receipt.json"
    receipt.write_bytes(b"an earlier receipt\n")
    status, out, err = check(
        "--format", form, "--receipt", str(receipt), str(FIXTURES / "pass-0.9.json"), capsys=capsys
    )
    assert (status, out) == (2, "")
    assert "PASS" not in err and "output-exists" in err


def test_receipt_in_a_missing_directory_exits_2(tmp_path, capsys):
    status, out, err = check(
        "--receipt", str(tmp_path / "no" / "r.json"), str(FIXTURES / "pass-0.9.json"), capsys=capsys
    )
    assert status == 2 and out == ""
    assert "output-unwritable: cannot write receipt" in err and "Traceback" not in err
    assert "(PASS meets-threshold), but without its record the decision is not delivered" in err


def test_receipt_from_stdin_names_dash(tmp_path, monkeypatch, capsys):
    data = (FIXTURES / "true.json").read_bytes()
    monkeypatch.setattr(sys, "stdin", _Stdin(data))
    status, _, _ = check("--receipt", str(tmp_path / "r.json"), "-", capsys=capsys)
    assert status == 3
    record = json.loads((tmp_path / "r.json").read_bytes())
    assert record["evidence"] == {"path": "-", "sha256": hashlib.sha256(data).hexdigest(), "length": len(data)}


# -- --keep-evidence ----------------------------------------------------------


def test_kept_evidence_is_the_exact_bytes_under_their_hash(tmp_path, capsys):
    data = (FIXTURES / "utf16-le-bom.json").read_bytes()
    kept = tmp_path / "kept" / "deeper"  # created on demand
    status, _, _ = check("--keep-evidence", str(kept), str(FIXTURES / "utf16-le-bom.json"), capsys=capsys)
    assert status == 3
    digest = hashlib.sha256(data).hexdigest()
    assert [p.name for p in kept.iterdir()] == [digest]
    assert (kept / digest).read_bytes() == data


def test_keeping_the_same_evidence_twice_is_fine(tmp_path, capsys):
    kept = tmp_path / "kept"
    for _ in range(2):
        status, _, err = check("--keep-evidence", str(kept), str(FIXTURES / "pass-0.9.json"), capsys=capsys)
        assert status == 0 and err == ""
    assert len(list(kept.iterdir())) == 1


def test_a_different_file_under_the_hash_is_not_overwritten(tmp_path, capsys):
    data = (FIXTURES / "pass-0.9.json").read_bytes()
    kept = tmp_path / "kept"
    kept.mkdir()
    impostor = kept / hashlib.sha256(data).hexdigest()
    impostor.write_bytes(b"tampered")
    status, out, err = check("--keep-evidence", str(kept), str(FIXTURES / "pass-0.9.json"), capsys=capsys)
    assert status == 2 and out == ""
    assert "cannot keep the evidence" in err
    assert impostor.read_bytes() == b"tampered"


def test_nothing_is_kept_for_a_missing_file_and_it_says_so(tmp_path, capsys):
    # Not silently: the option was stated, and there were no bytes to keep.
    status, _, err = check("--keep-evidence", str(tmp_path / "kept"), str(tmp_path / "absent"), capsys=capsys)
    assert status == 3
    assert (
        err
        == f"scorecontract: note: nothing kept in {ascii(str(tmp_path / 'kept'))}: no evidence bytes were read (file-not-found)\n"
    )
    assert not (tmp_path / "kept").exists() or list((tmp_path / "kept").iterdir()) == []


def test_keep_evidence_where_a_file_is_exits_2(tmp_path, capsys):
    (tmp_path / "kept").write_bytes(b"")
    status, _, err = check("--keep-evidence", str(tmp_path / "kept"), str(FIXTURES / "nan.json"), capsys=capsys)
    assert status == 2 and "output-exists: cannot keep the evidence" in err


# -- output discipline ----------------------------------------------------------

HOSTILE = {
    "non-ascii-member": '{"scöre": 1}'.encode(),
    "non-ascii-string": '{"score": "café ☃ 😀"}'.encode(),
    "lone-surrogate-escape": b'{"score": "\\ud800"}',
    "lone-surrogate-member": b'{"\\udfff": 1, "score": 0.9}',
    "raw-surrogate-bytes": b'{"score": "\xed\xa0\x80"}',
    "newline-forgery": b'{"score": 0.9, "\\n::notice::released": 1}',
    "latin-1": b'{"score": "caf\xe9"}',
}


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_text_never_crashes_printing(tmp_path, name, fmt, capsys):
    evidence = tmp_path / "évidence-☃.json"
    evidence.write_bytes(HOSTILE[name])
    status, line, err = check("--format", fmt, "--receipt", str(tmp_path / "r.json"), str(evidence), capsys=capsys)
    assert status == 3 and err == ""
    assert line.count("\n") == 1
    line.encode("utf-8")  # no lone surrogate reaches the stream
    if fmt == "github":
        assert line.startswith("::error ")
    if fmt == "json":
        assert json.loads(line)["evidence"]["path"] == str(evidence)
    json.loads((tmp_path / "r.json").read_bytes().decode("ascii"))


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_hostile_text_on_an_ascii_stdout(tmp_path, fmt):
    # A fresh interpreter: the real streams, at their most restrictive
    # (PYTHONIOENCODING is read at start-up): every case, one after another.
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    calls = []
    for name in sorted(HOSTILE):
        evidence = tmp_path / f"{name}-évidence-☃.json"
        evidence.write_bytes(HOSTILE[name])
        calls.append(["check", "--format", fmt, str(evidence)])
    results = run_streams(calls, env=env)
    assert len(results) == len(HOSTILE)
    for result in results:
        assert result.returncode == 3, result.stderr
        assert result.stderr == b""
        assert result.stdout.count(b"\n") == 1
        result.stdout.decode("ascii")


@pytest.mark.parametrize("exists", [True, False], ids=["file", "missing"])
def test_a_newline_in_the_path_cannot_forge_a_workflow_command(tmp_path, capsys, exists):
    evidence = tmp_path / "x\n::notice title=ok::released,\r%0A.json"
    if exists:
        evidence.write_bytes(b'{"score": NaN}')
    status, out, _ = check("--format", "github", str(evidence), capsys=capsys)
    assert status == 3
    assert out.count("\n") == 1 and "\r" not in out
    assert out.startswith("::error title=scorecontract INVALID,file=")
    assert "%0A%3A%3Anotice title=ok%3A%3Areleased%2C%0D%250A.json" in out


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS file names must be UTF-8")
@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_undecodable_path_never_crashes_printing(tmp_path, fmt):
    # A file name that is not UTF-8 reaches Python as a lone surrogate:
    # sys.argv is os.fsdecode() of the bytes, as given here.
    directory = os.fsencode(tmp_path)
    name = directory + b"/caf\xff.json"
    with open(name, "wb") as stream:
        stream.write(b'{"score": NaN}')
    receipt = directory + b"/r.json"
    arguments = [
        b"check",
        b"--format",
        fmt.encode(),
        b"--receipt",
        receipt,
        b"--keep-evidence",
        directory + b"/kept",
        name,
    ]
    result = run_main(*map(os.fsdecode, arguments))
    assert result.returncode == 3, result.stderr
    assert result.stderr == b"" and result.stdout.count(b"\n") == 1
    # The receipt loads with the library's own strict loader: the name's
    # undecodable byte is shown as the one escaper shows it.
    record = scorecontract.loads(open(receipt, "rb").read())
    assert record["evidence"]["path"] == os.fsdecode(directory) + "/caf\\udcff.json"


def test_a_reader_that_left_is_exit_74_not_a_traceback():
    # Fresh interpreters: a real pipe whose reader is gone before the first
    # write (EPIPE on every platform), and the interpreter's own flush at exit.
    for args in (
        ["demo"],
        ["check", str(FIXTURES / "pass-0.9.json")],
        ["check", "--format", "json", str(FIXTURES / "nan.json")],
    ):
        process = subprocess.Popen(
            [sys.executable, "-m", "scorecontract", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(os.environ, PYTHONPATH=str(SRC)),
        )
        process.stdout.close()
        err = process.stderr.read()
        status = process.wait(timeout=120)
        assert b"Traceback" not in err and b"Exception" not in err, err
        # A PASS nobody received must not release: 74, whatever the verdict.
        assert status == EXIT_IOERR, err
        assert err.count(b"\n") == 1 and b"could not be written" in err


def test_help_documents_the_options_and_exit_codes():
    helped = run_main("check", "--help")
    assert helped.returncode == 0
    for text in (
        b"--format FORMAT",
        b"text (default: the result line), json",
        b"markdown (a summary",
        b"--junit-xml FILE",
        b"--receipt FILE",
        b"--keep-evidence DIR",
        b"3   INVALID",
        b"70  unexpected",
    ):
        assert text in helped.stdout, text


# -- the README shows what the program does -----------------------------------


def readme_block(page, heading, language):
    from support import ROOT

    section = (ROOT / "docs" / page).read_text(encoding="utf-8").split(heading + "\n", 1)[1]
    return section.split(f"```{language}\n", 1)[1].split("```\n", 1)[0]


def test_readme_receipt_is_a_real_receipt(tmp_path):
    (tmp_path / "result.json").write_bytes(b'{"score": 1e400}')
    result = run_main("check", "--receipt", "receipt.json", "result.json", cwd=tmp_path)
    assert result.returncode == 3
    # The page shows the receipt as `cat receipt.json` prints it.
    shown = readme_block("receipts.md", "## The receipt of `check`", "console").split("$ cat receipt.json\n", 1)[1]
    assert (tmp_path / "receipt.json").read_text(encoding="ascii") == shown


def test_readme_demo_rows_are_real(capsys):
    assert main(["demo"]) == 0
    output = capsys.readouterr().out.splitlines()
    shown = [line for line in readme_block("cli.md", "## Demo", "console").splitlines() if not line.startswith("$ ")]
    assert len(shown) >= 5
    for line in shown:
        assert line in output
