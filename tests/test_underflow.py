# SPDX-License-Identifier: MIT
"""A nonzero number that a double reads as 0.0 is refused, as config and as evidence."""

from __future__ import annotations

import pytest

from scorecontract import InvalidEvidence, judge, loads
from scorecontract._cli import main


@pytest.mark.parametrize(
    "token, expected",
    [
        ("1e-400", True),
        ("-1e-400", True),
        ("0.0001e-400", True),
        ("10e-400", True),
        ("0", False),
        ("-0", False),
        ("0.0", False),
        ("-0.000", False),
        ("0e-400", False),
        ("0.000E+5", False),
        (b"1e-400", True),
        (b"0.0e-9", False),
    ],
)
def test_underflows(token, expected):
    # As a score, str or bytes: refused as underflow exactly when expected.
    record = b'{"score": ' + token + b"}" if type(token) is bytes else '{"score": ' + token + "}"
    try:
        loads(record)
    except InvalidEvidence as exc:
        assert exc.code == "underflow" and expected, (token, exc.code)
    else:
        assert not expected, token


@pytest.fixture
def evidence(tmp_path):
    def write(data: bytes) -> str:
        path = tmp_path / "evidence.json"
        path.write_bytes(data)
        return str(path)

    return write


def test_threshold_that_underflows_is_a_configuration_error(evidence, capsys):
    # It used to become 0.0 and pass a score of 0.
    assert main(["check", "--threshold", "1e-400", evidence(b'{"score": 0}')]) == 2
    assert "underflow" in capsys.readouterr().err
    assert main(["check", "--exact", "--threshold", "1e-400", evidence(b'{"score": 0}')]) == 1


def test_min_pass_rate_is_exact_under_exact(evidence, capsys):
    line = b'{"trial_id": "a", "score": 0.1}\n'
    args = ["report", "--scheduled", "1", "--statistic", "pass-rate", "--min-pass-rate", "1e-400"]
    assert main([*args, evidence(line)]) == 2
    assert main([*args, "--exact", evidence(line)]) == 1


@pytest.mark.parametrize("negate", [False, True])
def test_judgment_score_that_underflows_is_a_grader_error(negate):
    for raw in ('{"score": "1e-400"}', '{"score": 1e-400}'):
        assert judge(raw, negate=negate).outcome.name == "GRADER_ERROR"


@pytest.mark.parametrize("path", ["a\x00b.jsonl", "\ud800.jsonl"])
def test_report_on_an_unusable_path_is_invalid_not_an_exception(path):
    from scorecontract import Verdict, report

    result = report(path, scheduled=1)
    assert result.verdict is Verdict.INVALID
    assert result.code == "file-unreadable"


def test_closed_standard_input_is_invalid_evidence():
    import subprocess
    import sys as _sys

    from support import SRC

    env = {**__import__("os").environ, "PYTHONPATH": str(SRC)}
    for args in (["check", "-"], ["check", "--contract", "judgment", "-"], ["report", "--scheduled", "1", "-"]):
        result = subprocess.run(
            [_sys.executable, "-m", "scorecontract", *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=env,
            timeout=60,
            close_fds=True,
            preexec_fn=lambda: __import__("os").close(0),
        )
        assert result.returncode == 3, (args, result.stderr)
        assert b"Traceback" not in result.stderr


def test_max_bytes_zero_is_a_configuration_error(evidence, capsys):
    assert main(["check", "--max-bytes", "0", evidence(b'{"score": 0.9}')]) == 2
    assert main(["check", "--max-bytes", "-1", evidence(b'{"score": 0.9}')]) == 2


def test_messages_name_the_value_not_the_type():
    from scorecontract import PolicyError, evaluate

    with pytest.raises(PolicyError) as info:
        evaluate(b'{"score": 0.9}', max_bytes=0)
    assert "builtins" not in str(info.value) and "0" in str(info.value)


def test_unusable_evidence_path_is_invalid(capsys):
    # main() in-process takes what no real argv can hold: NUL, a lone surrogate.
    for path in ("a\x00b.json", "\ud800.json"):
        assert main(["check", "--max-bytes", "100", "--", path]) == 3
        assert capsys.readouterr().out.startswith("INVALID file-unreadable: "), path
