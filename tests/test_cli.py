# SPDX-License-Identifier: MIT
"""The command line: exit codes, streams, and no tracebacks."""

from __future__ import annotations

import pytest

from public_support import EXIT_INTERNAL_ERROR, inject_defect
from scorecontract import Verdict
from scorecontract._cli import main
from support import FIXTURES, manifest_cases, run_cli, run_main

EXIT = {"PASS": 0, "FAIL": 1, "INVALID": 3}
CASES = manifest_cases()


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_check_exit_code_for_every_fixture(case, capsys):
    status = main(["check", str(FIXTURES / case["file"])])
    out, err = capsys.readouterr()
    assert status == EXIT[case["verdict"]]
    assert out.startswith(f"{case['verdict']} {case['code']}: ")
    assert out.count("\n") == 1
    assert "Traceback" not in out + err


@pytest.mark.parametrize("optimize", [0, 1], ids=["plain", "O"])
@pytest.mark.parametrize(
    "name, status", [("nan.json", 3), ("pass-0.9.json", 0), ("fail-0.7.json", 1), ("duplicate-escaped.json", 3)]
)
def test_python_dash_m_in_a_fresh_interpreter(name, status, optimize):
    # Fresh interpreter: the ``python -m scorecontract`` entry point itself,
    # with and without -O.
    result = run_cli("check", str(FIXTURES / name), optimize=optimize)
    assert result.returncode == status
    assert b"Traceback" not in result.stderr


def test_stdin_and_file_agree():
    data = (FIXTURES / "nan.json").read_bytes()
    from_stdin = run_main("check", "-", stdin=data)
    from_file = run_main("check", str(FIXTURES / "nan.json"))
    assert (from_stdin.returncode, from_stdin.stdout) == (from_file.returncode, from_file.stdout)
    assert from_stdin.returncode == 3


@pytest.mark.parametrize(
    "threshold, status",
    [("0.9", 0), ("0.95", 1), ("0", 0), ("1", 1), ("0.9e0", 0)],
)
def test_threshold_option(threshold, status, capsys):
    assert main(["check", "--threshold", threshold, str(FIXTURES / "pass-0.9.json")]) == status


@pytest.mark.parametrize(
    "threshold",
    ["nan", "NaN", "inf", "Infinity", "-Infinity", "1e400", "1.5", "-0.1", "true", '"0.8"', "0.8x", "", "null"],
)
def test_bad_threshold_exits_2_with_one_line(threshold, capsys):
    status = main(["check", f"--threshold={threshold}", str(FIXTURES / "pass-0.9.json")])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("scorecontract: error: ")


def test_missing_file_is_invalid(tmp_path, capsys):
    assert main(["check", str(tmp_path / "absent.json")]) == 3
    assert capsys.readouterr().out.startswith("INVALID file-not-found: ")


def test_directory_is_invalid(tmp_path, capsys):
    assert main(["check", str(tmp_path)]) == 3
    assert capsys.readouterr().out.startswith("INVALID file-unreadable: ")


def test_oversize_file_is_invalid_without_reading_it_all(tmp_path, capsys):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2000 + b'{"score": 0.9}')
    assert main(["check", "--max-bytes", "1000", str(big)]) == 3
    assert capsys.readouterr().out.startswith("INVALID too-large: ")


def test_usage_errors_exit_2():
    assert run_main().returncode == 2
    assert run_main("check").returncode == 2
    assert run_main("frobnicate").returncode == 2
    assert run_main("check", "--no-such-option", "x").returncode == 2


def test_version_and_help_exit_0():
    result = run_main("--version")
    assert result.returncode == 0 and result.stdout.startswith(b"scorecontract ")
    helped = run_main("check", "--help")
    assert helped.returncode == 0
    for line in (b"0   PASS", b"1   FAIL", b"2   usage", b"3   INVALID", b"70  unexpected"):
        assert line in helped.stdout


def test_internal_error_has_its_own_exit_code(monkeypatch, capsys):
    with monkeypatch.context() as patched:
        inject_defect(patched)
        status = main(["check", str(FIXTURES / "pass-0.9.json")])
    out, err = capsys.readouterr()
    assert status == EXIT_INTERNAL_ERROR
    assert status not in (0, 1, 2, 3, 4)
    assert out == "" and "internal error" in err


def test_exit_code_comes_from_the_verdict():
    assert {v.value: v.exit_code for v in Verdict if v.value in EXIT} == EXIT


def help_usage(columns):
    result = run_main("check", "--help", env={**__import__("os").environ, "COLUMNS": columns})
    assert result.returncode == 0
    # Raw description and epilog text keep their lines; the usage wraps.
    usage = result.stdout.decode().split("\n\n")[0].splitlines()
    assert len(usage) > 1
    return usage


def test_help_width_follows_columns_like_argparse():
    # argparse's rule: $COLUMNS minus 2, so 60 columns wrap at 58 ...
    assert 50 < max(len(line) for line in help_usage("60")) <= 58
    # ... and a wider $COLUMNS is followed, not capped.
    assert max(len(line) for line in help_usage("120")) > 60
    # A $COLUMNS that is not a number falls back (terminal, else 80).
    assert max(len(line) for line in help_usage("nonsense")) >= 16


def test_check_does_not_import_shutil():
    # argparse's formatter would import shutil (and bz2, lzma) on every
    # add_argument; the parser avoids it, which is most of its start-up.
    code = (
        "import sys; from scorecontract._cli import main; "
        "status = main(['check', sys.argv[1]]); "
        "print('shutil' in sys.modules, status)"
    )
    import subprocess
    import sys as _sys

    from support import SRC

    env = {**__import__("os").environ, "PYTHONPATH": str(SRC)}
    result = subprocess.run(
        [_sys.executable, "-S", "-c", code, str(FIXTURES / "pass-0.9.json")],
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert result.stdout.decode().split()[-2:] == ["False", "0"]
