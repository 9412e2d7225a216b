# SPDX-License-Identifier: MIT
"""Help and version exit 0 only standing alone; beside anything else, 2.

A file named ``-h`` passed as ``check --receipt R "$f"`` once printed help
and exited 0: a PASS for evidence nobody read, with no receipt.  Now
``-h``, ``--help`` and ``--version`` are obeyed only as the whole command
line (``scorecontract --help``, ``scorecontract check --help``); anywhere
else they exit 2 with a hint to put ``--`` before the path.  Prefix
abbreviation is off, so ``--he`` and ``--h`` are not ``--help`` either.
"""

from __future__ import annotations

import pytest

import scorecontract
from public_support import commands, long_options
from scorecontract._cli import main
from support import FIXTURES, run_main

HELP_LIKE = ["-h", "--help", "--he", "--h", "--hel", "-hh", "--version", "--vers", "-h=x", "--help=x"]


def test_the_command_list_is_real():
    assert {"check", "report", "sign", "demo"} <= set(commands())


@pytest.mark.parametrize(
    "argv", [["--help"], ["-h"], ["--version"]] + [[c, f] for c in commands() for f in ("-h", "--help")]
)
def test_help_and_version_standing_alone_exit_0(argv, capsys):
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    if argv == ["--version"]:
        assert out == f"scorecontract {scorecontract.__version__}\n"
    else:
        assert out.startswith("usage: scorecontract") and "exit status" in out


@pytest.mark.parametrize("flag", ["-h", "--help", "--he", "--h"])
@pytest.mark.parametrize(
    "before",
    [
        ["check", "--receipt", "RECEIPT"],
        ["check", "--contract", "judgment", "--receipt", "RECEIPT"],
        ["report", "--scheduled", "1", "--receipt", "RECEIPT"],
    ],
    ids=["check", "judgment", "report"],
)
def test_a_path_named_like_help_is_never_a_pass(flag, before, tmp_path, monkeypatch, capsys):
    # The evidence file really is named -h (and so on): with -- it is read.
    monkeypatch.chdir(tmp_path)
    (tmp_path / flag).write_bytes(b'{"trial_id": "t", "score": 0.9}\n' if before[0] == "report" else b'{"score": 0.9}')
    argv = [arg if arg != "RECEIPT" else str(tmp_path / "r.json") for arg in before]
    assert main([*argv, flag]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert not (tmp_path / "r.json").exists()
    assert "goes after --" in err and f"-- {flag}" in err
    # The hint works: after -- the same name is the evidence, and is judged.
    assert main([*argv, "--", flag]) == 0
    assert capsys.readouterr().out.startswith("PASS ")
    assert scorecontract.loads((tmp_path / "r.json").read_bytes())["verdict"] == "PASS"


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_sign_with_help_beside_a_key_signs_nothing(flag, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SC_TEST_KEY", "k" * 32)
    (tmp_path / flag).write_bytes(b'{"score": 0.9}')
    assert main(["sign", "--key-env", "SC_TEST_KEY", flag]) == 2
    assert capsys.readouterr().out == ""
    assert not (tmp_path / f"{flag}.sig").exists()
    assert main(["sign", "--key-env", "SC_TEST_KEY", "--", flag]) == 0
    assert (tmp_path / f"{flag}.sig").exists()


def _contexts(command):
    """Other arguments a help-like flag can stand beside, for *command*."""
    path = str(FIXTURES / "pass-0.9.json")
    if command == "demo":
        return [["demo", "extra"], ["demo"]]
    return [[command, path], [command, "--", path], [command]]


@pytest.mark.parametrize("command", commands())
@pytest.mark.parametrize("flag", HELP_LIKE)
def test_only_the_standing_alone_forms_exit_0_over_every_command(command, flag, capsys):
    for context in _contexts(command):
        for argv in ([*context, flag], [context[0], flag, *context[1:]], [flag, *context]):
            alone = argv in (["--help"], ["-h"], ["--version"], [command, "-h"], [command, "--help"])
            if "--" in argv and argv.index("--") < argv.index(flag):
                continue  # after -- it is a path, judged as one
            status = main(argv)
            out, err = capsys.readouterr()
            if alone:
                assert status == 0, argv
            else:
                assert status == 2, argv
                assert out == "", argv
                assert err.endswith("\n") and "error" in err, argv


def test_no_parser_matches_prefixes(capsys):
    # An unknown option is always argparse's usage error (the usage line
    # first); with prefix matching on, --exac, --threshol 0.5, --polic,
    # --versio ... would be obeyed instead, and reach a verdict or another
    # message.  The options are those each --help lists.
    tried = 0
    covered = set()
    for prefix_argv in [[], *([name] for name in commands())]:
        options = long_options(*prefix_argv)
        for option in options:
            prefix = option[:-1]
            if prefix in options:
                continue
            for rest in ([str(FIXTURES / "pass-0.9.json")], ["0.5", str(FIXTURES / "pass-0.9.json")]):
                status = main([*prefix_argv, prefix, *rest])
                err = capsys.readouterr().err
                assert status == 2 and err.startswith("usage: "), (prefix_argv, prefix, err)
                tried += 1
                covered.add(tuple(prefix_argv))
    assert tried > 20
    assert len(covered) == 1 + len(commands())  # the top level and every command


def test_the_hint_names_an_unknown_dash_argument(capsys):
    assert main(["check", "--receipt", "r.json", "--he"]) == 2
    err = capsys.readouterr().err
    assert "the following arguments are required: PATH" in err
    assert (
        err.splitlines()[-1]
        == "scorecontract: hint: a path that starts with - goes after --, as in: scorecontract check [OPTIONS] -- --he"
    )


def test_a_usage_error_without_a_dash_argument_gives_no_hint(capsys):
    assert main(["check", "a.json", "b.json"]) == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: b.json" in err and "hint" not in err


def test_help_beside_arguments_with_a_real_file_named_dash_h(tmp_path):
    (tmp_path / "-h").write_bytes(b'{"score": 0.9}')
    receipt = tmp_path / "r.json"
    result = run_main("check", "--receipt", str(receipt), "-h", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == b""
    assert b"goes after --" in result.stderr and b"Traceback" not in result.stderr
    assert not receipt.exists()
    assert run_main("check", "--help").returncode == 0


@pytest.mark.parametrize("command", ["check", "report"])
def test_each_verdict_command_lists_its_own_exit_statuses(command, capsys):
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    table = out.split("exit status:\n", 1)[1]
    for row in (
        "  0   PASS",
        "  1   FAIL",
        "  2   usage",
        "  3   INVALID",
        "  70  unexpected",
        "  74  the result could not be written",
    ):
        assert row in table, row
    assert ("  4   REVIEW" in table) is (command == "report")


@pytest.mark.parametrize("command", ["sign", "demo"])
def test_sign_and_demo_list_statuses_without_verdicts(command, capsys):
    assert main([command, "--help"]) == 0
    table = capsys.readouterr().out.split("exit status:\n", 1)[1]
    for verdict in ("PASS", "FAIL", "INVALID", "REVIEW"):
        assert verdict not in table
    assert "  0   " in table and "  74  " in table and "  70  " in table


def test_the_overall_table_names_every_status(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for status in (0, 1, 2, 3, 4, 70, 74, 130):
        assert f"  {status:<3} " in out, status
