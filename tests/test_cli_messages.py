# SPDX-License-Identifier: MIT
"""Messages: grammatical, naming the right file and the command line's own options."""

from __future__ import annotations

import os
import re

import pytest

from public_support import reason_codes
from scorecontract import InvalidEvidence, PolicyError, load_key, load_policy, report
from scorecontract._cli import main

# "a" before a vowel sound, "an" before a consonant: what "not a {what}"
# once printed as "not a evidence file".
_BAD_ARTICLE = re.compile(r"\b(?:a [aeiou]|an [^aeiou\s])", re.IGNORECASE)


def _failures(tmp_path, name):
    """Paths that make every reader fail: missing, a directory, over the limit."""
    directory = tmp_path / f"{name}-dir"
    directory.mkdir()
    big = tmp_path / f"{name}-big"
    big.write_bytes(b"x" * 70_000)
    os.chmod(big, 0o600)  # private, so a key file fails on its size
    return {"missing": str(tmp_path / f"{name}-absent"), "directory": str(directory), "too large": str(big)}


# Every reader of the package, by the noun its messages use.
READERS = {
    "evidence file": lambda path: _check_message("--max-bytes", "1000", path),
    "manifest": lambda path: report(b"", manifest=path),
    "trials file": lambda path: _report_message(path),
    "policy file": load_policy,
    "key file": load_key,
    "signature file": lambda path: _signature_message(path),
}


def _check_message(*argv):
    # What `scorecontract check` prints for evidence it cannot read:
    # "INVALID code: message (policy default)", exit 3.
    from support import run_main

    result = run_main("check", *argv)
    assert result.returncode == 3 and result.stderr == b"", result
    line = result.stdout.decode()
    assert line.startswith("INVALID ") and line.endswith(" (policy default)\n"), line
    code, message = line[len("INVALID ") : -len(" (policy default)\n")].split(": ", 1)
    raise InvalidEvidence(code, message)


def _signature_message(path):
    from pathlib import Path

    directory = Path(path).parent
    evidence, key = directory / "signed.json", directory / "signing-key"
    evidence.write_bytes(b'{"score": 0.9}')
    key.write_bytes(b"k" * 32)
    key.chmod(0o600)
    _check_message("--key-file", str(key), "--signature", path, str(evidence))


def _report_message(path):
    # A trials file that cannot be read is an INVALID report, not an error.
    result = report(path, scheduled=1, max_line_bytes=1000)
    raise InvalidEvidence(result.code, result.message)


@pytest.mark.parametrize("noun", READERS)
def test_every_reader_names_its_file_grammatically(tmp_path, noun):
    messages = []
    for case, path in _failures(tmp_path, noun.replace(" ", "-")).items():
        if noun == "trials file" and case == "too large":
            continue  # a trials file has no size limit, only its lines do
        with pytest.raises((InvalidEvidence, PolicyError)) as info:
            READERS[noun](path)
        messages.append((case, info.value.message))
    assert len(messages) >= 2
    for case, message in messages:
        assert noun in message, (case, message)
        if case == "missing":
            assert f"no {noun} at " in message, message
        assert _BAD_ARTICLE.search(message) is None, (case, message)
        # No reader borrows another's noun: a missing manifest is not
        # "no evidence file".
        for other in READERS:
            if other != noun and other not in noun:
                assert other not in message, (case, message)


def test_a_missing_manifest_is_not_a_missing_evidence_file(tmp_path, capsys):
    trials = tmp_path / "t.jsonl"
    trials.write_bytes(b'{"trial_id": "a", "score": 0.9}\n')
    absent = tmp_path / "absent.json"
    assert main(["report", "--manifest", str(absent), str(trials)]) == 2
    err = capsys.readouterr().err
    assert f"no manifest at {ascii(str(absent))}" in err
    assert "evidence" not in err


def test_candidate_required_names_the_option_not_the_argument(tmp_path, capsys):
    policy = tmp_path / "bound.json"
    policy.write_text('{"version": "bound-1", "threshold": 0.8, "exact": false, "require_candidate": true}')
    evidence = tmp_path / "e.json"
    evidence.write_bytes(b'{"score": 0.9}')
    trials = tmp_path / "t.jsonl"
    trials.write_bytes(b'{"trial_id": "a", "score": 0.9}\n')
    for argv in (
        ["check", "--policy", str(policy), str(evidence)],
        ["check", "--contract", "judgment", "--policy", str(policy), str(evidence)],
        ["report", "--scheduled", "1", "--policy", str(policy), str(trials)],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err == (
            "scorecontract: error: candidate-required: policy 'bound-1' requires the candidate "
            "the evidence is for: give --candidate ID\n"
        )
        assert "candidate=" not in err


# Every refusal the command line itself makes, by its code: none is the
# catch-all bad-policy any more.
CLI_CODES = ("bad-option", "missing-option", "option-conflict", "output-exists", "output-unwritable")


def test_the_command_lines_codes_are_documented():
    for code in CLI_CODES:
        assert code in reason_codes()


def test_no_command_line_refusal_is_coded_bad_policy():
    from support import SRC

    for path in sorted((SRC / "scorecontract" / "_cli").glob("*.py")):
        assert '"bad-policy"' not in path.read_text(encoding="utf-8"), path.name
    assert '"bad-policy"' not in (SRC / "scorecontract" / "_sign.py").read_text(encoding="utf-8")


@pytest.mark.skipif(os.name != "posix", reason="a parent that is a file")
@pytest.mark.parametrize(
    "argv, code",
    [
        (["check", "--receipt", "{file}/r.json", "{evidence}"], "output-unwritable"),
        (["check", "--receipt", "{evidence}", "{evidence}"], "output-exists"),
        (["check", "--keep-evidence", "{evidence}", "{evidence}"], "output-exists"),
        (["check", "--keep-evidence", "{file}/kept", "{evidence}"], "output-unwritable"),
        (["report", "--scheduled", "1", "--receipt", "{file}/r.json", "{trials}"], "output-unwritable"),
        (["report", "--scheduled", "1", "--junit-xml", "{file}/j.xml", "{trials}"], "output-unwritable"),
        (["sign", "--key-file", "{key}", "--output", "{file}/e.sig", "{evidence}"], "output-unwritable"),
    ],
    ids=[
        "check-receipt",
        "check-receipt-taken",
        "check-kept-taken",
        "check-kept",
        "report-receipt",
        "report-junit",
        "sign-output",
    ],
)
def test_output_files_that_cannot_be_written_have_their_own_codes(tmp_path, capsys, argv, code):
    names = {
        "file": tmp_path / "a-file",
        "evidence": tmp_path / "e.json",
        "trials": tmp_path / "t.jsonl",
        "key": tmp_path / "key",
    }
    names["file"].write_bytes(b"")
    names["evidence"].write_bytes(b'{"score": 0.9}')
    names["trials"].write_bytes(b'{"trial_id": "a", "score": 0.9}\n')
    names["key"].write_bytes(b"0123456789abcdef0123456789abcdef")
    os.chmod(names["key"], 0o600)
    status = main([part.format(**{k: str(v) for k, v in names.items()}) for part in argv])
    assert status == 2
    err = capsys.readouterr().err
    assert f"scorecontract: error: {code}: " in err
