# SPDX-License-Identifier: MIT
"""Authentication: HMAC-SHA256 signatures over the exact evidence bytes."""

from __future__ import annotations

import hashlib
import hmac
import json
import os

import pytest

import scorecontract
from scorecontract import InvalidEvidence, PolicyError, authenticate, load_key, sign
from scorecontract._cli import main
from support import run_fresh, run_main

KEY = b"k3y-" + bytes(range(32, 64))  # 36 bytes, printable
OTHER = b"another key of enough length"
EVIDENCE = b'{"candidate": "m-1", "run_id": "r-1", "score": 0.9}'
KEY_ID = hashlib.sha256(KEY).hexdigest()[:16]


def signature_of(data, key=KEY):
    return json.dumps(
        {
            "algorithm": "hmac-sha256",
            "key_id": hashlib.sha256(key).hexdigest()[:16],
            "kind": "signature",
            "receipt_version": 2,
            "scorecontract_version": scorecontract.__version__,
            "signature": hmac.new(key, data, hashlib.sha256).hexdigest(),
        }
    )


# -- the API -----------------------------------------------------------------


def test_sign_is_hmac_sha256_of_the_exact_bytes():
    document = json.loads(sign(EVIDENCE, key=KEY))
    assert document == json.loads(signature_of(EVIDENCE))
    # One line, sorted keys: the layout of every one-line receipt.
    assert sign(EVIDENCE, key=KEY) == json.dumps(document, sort_keys=True) + "\n"
    assert sign(EVIDENCE, key=KEY).endswith("}\n")
    assert sign(EVIDENCE, key=KEY) == sign(EVIDENCE, key=KEY)  # deterministic
    assert authenticate(EVIDENCE, signature=sign(EVIDENCE, key=KEY), key=KEY) == KEY_ID
    assert authenticate(EVIDENCE, signature=sign(EVIDENCE, key=KEY).encode(), key=KEY) == KEY_ID


def with_field(**changes):
    document = json.loads(signature_of(EVIDENCE))
    document.update(changes)
    return json.dumps(document)


GOOD_HEX = json.loads(signature_of(EVIDENCE))["signature"]

# (signature text, code)
BAD_SIGNATURES = {
    "empty": ("", "bad-signature"),
    "truncated-json": (signature_of(EVIDENCE)[:-30], "bad-signature"),
    "truncated-hex": (with_field(signature=GOOD_HEX[:-1]), "bad-signature"),
    "half-hex": (with_field(signature=GOOD_HEX[:32]), "bad-signature"),
    "padded-hex": (with_field(signature=GOOD_HEX + "0"), "bad-signature"),
    "uppercase-hex": (with_field(signature=GOOD_HEX.upper()), "bad-signature"),
    "not-hex": (with_field(signature="g" * 64), "bad-signature"),
    "newline-after-hex": (with_field(signature=GOOD_HEX + "\n"), "bad-signature"),
    "number": (with_field(signature=1), "bad-signature"),
    "wrong-algorithm": (with_field(algorithm="hmac-sha1"), "bad-signature"),
    "algorithm-case": (with_field(algorithm="HMAC-SHA256"), "bad-signature"),
    "algorithm-none": (with_field(algorithm="none"), "bad-signature"),
    "algorithm-null": (with_field(algorithm=None), "bad-signature"),
    "bad-key-id": (with_field(key_id="xyz"), "bad-signature"),
    "uppercase-key-id": (with_field(key_id=KEY_ID.upper()), "bad-signature"),
    "extra-member": (with_field(note="trust me"), "bad-signature"),
    "missing-member": (json.dumps({"algorithm": "hmac-sha256", "signature": GOOD_HEX}), "bad-signature"),
    "old-three-members": (
        json.dumps({"algorithm": "hmac-sha256", "key_id": KEY_ID, "signature": GOOD_HEX}),
        "bad-signature",
    ),
    "kind-receipt": (with_field(kind="check"), "bad-signature"),
    "kind-null": (with_field(kind=None), "bad-signature"),
    "receipt-version-1": (with_field(receipt_version=1), "bad-signature"),
    "receipt-version-3": (with_field(receipt_version=3), "bad-signature"),
    "receipt-version-string": (with_field(receipt_version="2"), "bad-signature"),
    "receipt-version-float": (with_field(receipt_version=2.0), "bad-signature"),
    "receipt-version-true": (with_field(receipt_version=True), "bad-signature"),
    "version-empty": (with_field(scorecontract_version=""), "bad-signature"),
    "version-number": (with_field(scorecontract_version=1), "bad-signature"),
    "version-with-space": (with_field(scorecontract_version="0.1 beta"), "bad-signature"),
    "version-with-newline": (with_field(scorecontract_version="0.1.0\n"), "bad-signature"),
    "version-too-long": (with_field(scorecontract_version="1" * 65), "bad-signature"),
    "array": (json.dumps([GOOD_HEX]), "bad-signature"),
    "bare-hex": (GOOD_HEX, "bad-signature"),
    "nan": (signature_of(EVIDENCE)[:-1] + ', "x": NaN}', "bad-signature"),
    "duplicate-signature": (signature_of(EVIDENCE)[:-1] + ', "signature": "' + "0" * 64 + '"}', "bad-signature"),
    "bom": ("\ufeff" + signature_of(EVIDENCE), "bad-signature"),
    "too-large": (signature_of(EVIDENCE) + " " * 5000, "bad-signature"),
    "other-key-id": (with_field(key_id="0" * 16), "key-id-mismatch"),
    "wrong-hmac": (with_field(signature="0" * 64), "signature-mismatch"),
    "other-key": (signature_of(EVIDENCE, OTHER), "key-id-mismatch"),
    "other-key-claiming-this-id": (
        json.dumps({**json.loads(signature_of(EVIDENCE, OTHER)), "key_id": KEY_ID}),
        "signature-mismatch",
    ),
    "other-bytes": (signature_of(EVIDENCE.replace(b": ", b":  ", 1)), "signature-mismatch"),
    "bytes-with-newline": (signature_of(EVIDENCE + b"\n"), "signature-mismatch"),
}


@pytest.mark.parametrize("signature, code", BAD_SIGNATURES.values(), ids=BAD_SIGNATURES.keys())
def test_bad_signatures(signature, code):
    with pytest.raises(InvalidEvidence) as info:
        authenticate(EVIDENCE, signature=signature, key=KEY)
    assert info.value.code == code
    assert KEY.decode() not in str(info.value)


@pytest.mark.parametrize(
    "changed",
    [
        EVIDENCE.replace(b'"score": 0.9', b'"score":  0.9'),  # one whitespace more
        EVIDENCE.replace(b"0.9", b"0.90"),
        EVIDENCE + b"\n",
        EVIDENCE[:-1],
        EVIDENCE.replace(b"m-1", b"m-2"),
        b"\xef\xbb\xbf" + EVIDENCE,
    ],
)
def test_any_change_to_the_bytes_fails(changed):
    signature = sign(EVIDENCE, key=KEY)
    with pytest.raises(InvalidEvidence) as info:
        authenticate(changed, signature=signature, key=KEY)
    assert info.value.code == "signature-mismatch"


def test_comparison_is_constant_time(monkeypatch):
    calls = []
    real = hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    authenticate(EVIDENCE, signature=sign(EVIDENCE, key=KEY), key=KEY)
    with pytest.raises(InvalidEvidence):
        authenticate(EVIDENCE + b" ", signature=sign(EVIDENCE, key=KEY), key=KEY)
    assert len(calls) == 2


@pytest.mark.parametrize("key", [b"", b"short", "a str key of enough length", bytearray(KEY), None])
def test_unusable_keys_in_the_api(key):
    with pytest.raises(PolicyError) as info:
        sign(EVIDENCE, key=key)
    assert info.value.code == "bad-key"
    with pytest.raises(PolicyError):
        authenticate(EVIDENCE, signature=sign(EVIDENCE, key=KEY), key=key)


@pytest.mark.parametrize("data", ["text", bytearray(b"{}"), memoryview(b"{}"), None])
def test_only_bytes_are_signed(data):
    with pytest.raises(InvalidEvidence) as info:
        sign(data, key=KEY)
    assert info.value.code == "input-type"
    with pytest.raises(InvalidEvidence) as info:
        authenticate(data, signature=sign(b"{}", key=KEY), key=KEY)
    assert info.value.code == "input-type"


# -- keys from files and the environment ---------------------------------------


def key_file(tmp_path, data=KEY + b"\n", mode=0o600, name="key"):
    path = tmp_path / name
    path.write_bytes(data)
    path.chmod(mode)
    return str(path)


@pytest.mark.parametrize("ending", [b"", b"\n", b"\r\n"], ids=["none", "lf", "crlf"])
def test_key_file_drops_one_line_ending(tmp_path, ending):
    assert load_key(key_file(tmp_path, KEY + ending)) == KEY


def test_a_lone_carriage_return_is_part_of_the_key(tmp_path):
    assert load_key(key_file(tmp_path, KEY + b"\r")) == KEY + b"\r"
    assert load_key(key_file(tmp_path, KEY + b"\r\r\n", name="k2")) == KEY + b"\r"
    assert sign(EVIDENCE, key=KEY + b"\r") != sign(EVIDENCE, key=KEY)


@pytest.mark.parametrize(
    "ending", [b"\n\n", b"\r\n\n", b"\n\r\n", b"\r\n\r\n"], ids=["lf-lf", "crlf-lf", "lf-crlf", "crlf-crlf"]
)
def test_a_key_ending_in_two_line_endings_is_refused(tmp_path, ending, monkeypatch):
    # Only one is dropped; what would remain ends in a newline, and would
    # give another key each time the rule was applied again.
    for refused in (
        lambda: load_key(key_file(tmp_path, KEY + ending)),
        lambda: sign(EVIDENCE, key=KEY + ending),
        lambda: authenticate(EVIDENCE, signature=sign(EVIDENCE, key=KEY), key=KEY + ending),
    ):
        with pytest.raises(PolicyError) as info:
            refused()
        assert info.value.code == "bad-key"
        assert "line ending" in info.value.message
    monkeypatch.setenv("SC_TEST_KEY", (KEY + ending).decode())
    assert key_from_env_refused("SC_TEST_KEY", tmp_path) == "bad-key"


@pytest.mark.parametrize("ending", [b"", b"\n", b"\r\n"], ids=["none", "lf", "crlf"])
def test_sign_and_authenticate_normalise_a_key_as_the_cli_does(tmp_path, ending, capsys):
    # The key file as openssl or secrets wrote it, read three ways: the
    # command line, load_key and the raw bytes.  All three are one key.
    path = key_file(tmp_path, KEY + ending)
    raw = open(path, "rb").read()
    assert load_key(path) == KEY
    assert sign(EVIDENCE, key=raw) == sign(EVIDENCE, key=load_key(path)) == sign(EVIDENCE, key=KEY)
    evidence = tmp_path / "e.json"
    evidence.write_bytes(EVIDENCE)
    assert main(["sign", "--key-file", path, str(evidence)]) == 0
    capsys.readouterr()
    cli_signature = (tmp_path / "e.json.sig").read_text()
    assert cli_signature == sign(EVIDENCE, key=raw)
    assert authenticate(EVIDENCE, signature=cli_signature, key=raw) == KEY_ID
    # And a Python signature made with the raw bytes passes the CLI gate.
    python_sig = tmp_path / "python.sig"
    python_sig.write_text(sign(EVIDENCE, key=raw))
    status = main(
        [
            "check",
            "--key-file",
            path,
            "--signature",
            str(python_sig),
            "--candidate",
            "m-1",
            "--run-id",
            "r-1",
            str(evidence),
        ]
    )
    assert status == 0, capsys.readouterr()


@pytest.mark.parametrize(
    "data, mode, code",
    [
        (b"", 0o600, "bad-key"),
        (b"\n", 0o600, "bad-key"),
        (b"secret\n", 0o600, "bad-key"),
        (b"x" * 5000, 0o600, "bad-key"),
        (KEY, 0o644, "key-too-open"),
        (KEY, 0o640, "key-too-open"),
        (KEY, 0o604, "key-too-open"),
        (KEY, 0o620, "key-too-open"),
        (KEY, 0o602, "key-too-open"),
        (KEY, 0o610, "key-too-open"),
    ],
    ids=["empty", "only-newline", "short", "huge", "644", "640", "604", "620", "602", "610"],
)
@pytest.mark.skipif(os.name != "posix", reason="POSIX modes")
def test_unusable_key_files(tmp_path, data, mode, code):
    with pytest.raises(PolicyError) as info:
        load_key(key_file(tmp_path, data, mode))
    assert info.value.code == code
    if data.strip():
        assert data.strip().decode() not in str(info.value)


@pytest.mark.skipif(os.name != "posix", reason="POSIX modes")
@pytest.mark.parametrize("mode", [0o600, 0o400, 0o700])
def test_private_key_files_are_accepted(tmp_path, mode):
    assert load_key(key_file(tmp_path, KEY, mode)) == KEY


def test_missing_directory_and_fifo_key_files(tmp_path):
    for path in (tmp_path / "absent", tmp_path):
        with pytest.raises(PolicyError) as info:
            load_key(str(path))
        assert info.value.code == "bad-key"
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo"
        os.mkfifo(fifo, 0o600)
        with pytest.raises(PolicyError) as info:  # and does not block
            load_key(str(fifo))
        assert info.value.code == "bad-key"


def sign_with_env(name, tmp_path):
    """``scorecontract sign --key-env NAME``: the signature it wrote, or its refusal."""
    evidence = tmp_path / "env-evidence.json"
    evidence.write_bytes(EVIDENCE)
    output = tmp_path / "env-evidence.sig"
    if output.exists():
        output.unlink()
    result = run_main("sign", "--key-env", name, "--output", str(output), str(evidence))
    return result, (output.read_text() if result.returncode == 0 else None)


def key_from_env_refused(name, tmp_path):
    """The reason code ``sign --key-env NAME`` exits 2 with (no file written)."""
    result, signature = sign_with_env(name, tmp_path)
    assert result.returncode == 2 and signature is None, result
    err = result.stderr.decode()
    assert err.startswith("scorecontract: error: ") and err.endswith("\n"), err
    return err.split(": ")[2]


def test_key_from_env(monkeypatch, tmp_path):
    # The key a --key-env signs with is KEY exactly: its signature is KEY's.
    monkeypatch.setenv("SC_TEST_KEY", KEY.decode())
    assert sign_with_env("SC_TEST_KEY", tmp_path)[1] == sign(EVIDENCE, key=KEY)
    monkeypatch.setenv("SC_TEST_KEY", KEY.decode() + "\n")
    assert sign_with_env("SC_TEST_KEY", tmp_path)[1] == sign(EVIDENCE, key=KEY)
    for value in ("", "short"):
        monkeypatch.setenv("SC_TEST_KEY", value)
        assert key_from_env_refused("SC_TEST_KEY", tmp_path) == "bad-key"
    monkeypatch.delenv("SC_TEST_KEY")
    for name in ("SC_TEST_KEY", "", "A=B"):
        assert key_from_env_refused(name, tmp_path) == "bad-key"


@pytest.fixture
def files(tmp_path):
    evidence = tmp_path / "e.json"
    evidence.write_bytes(EVIDENCE)
    return {"evidence": evidence, "key": key_file(tmp_path), "other": key_file(tmp_path, OTHER, name="other")}


def test_cli_sign_writes_path_sig_and_never_overwrites(files, capsys):
    assert main(["sign", "--key-file", files["key"], str(files["evidence"])]) == 0
    written = str(files["evidence"]) + ".sig"
    assert capsys.readouterr().out == written + "\n"
    before = open(written, "rb").read()
    assert before.decode() == sign(EVIDENCE, key=KEY)
    assert main(["sign", "--key-file", files["other"], str(files["evidence"])]) == 2
    assert "already exists" in capsys.readouterr().err
    assert open(written, "rb").read() == before


def test_cli_sign_output_and_stdin(files, tmp_path):
    out = tmp_path / "custom.sig"
    result = run_main("sign", "--key-file", files["key"], "--output", str(out), "-", stdin=EVIDENCE)
    assert result.returncode == 0, result.stderr
    assert out.read_text() == sign(EVIDENCE, key=KEY)
    result = run_main("sign", "--key-file", files["key"], "-", stdin=EVIDENCE)
    assert result.returncode == 2 and b"--output" in result.stderr


def test_cli_sign_signs_invalid_evidence_too(files, capsys):
    # Signing authenticates; it does not judge.  The gate judges.
    files["evidence"].write_bytes(b'{"score": NaN}')
    assert main(["sign", "--key-file", files["key"], str(files["evidence"])]) == 0


@pytest.mark.parametrize(
    "args, status, code",
    [
        ([], 2, "bad-key"),
        (["--key-env", "SC_UNSET_VARIABLE_FOR_TEST"], 2, "bad-key"),
        (["--key-file", "KEYFILE", "--key-env", "X"], 2, None),
    ],
    ids=["no-key", "unset-env", "both"],
)
def test_cli_sign_key_errors(files, capsys, args, status, code):
    args = [files["key"] if arg == "KEYFILE" else arg for arg in args]
    assert main(["sign", *args, str(files["evidence"])]) == status
    if code:
        assert code in capsys.readouterr().err
    assert not os.path.exists(str(files["evidence"]) + ".sig")


def test_cli_sign_missing_evidence_exits_3(files, tmp_path, capsys):
    assert main(["sign", "--key-file", files["key"], str(tmp_path / "absent.json")]) == 3
    assert "file-not-found" in capsys.readouterr().err


def check(files, *args, capsys):
    status = main(["check", "--format", "json", *args, str(files["evidence"])])
    out = capsys.readouterr()
    return status, json.loads(out.out) if out.out else None, out.err


def test_cli_check_authenticated_pass(files, capsys):
    main(["sign", "--key-file", files["key"], str(files["evidence"])])
    capsys.readouterr()
    status, receipt, _ = check(
        files, "--key-file", files["key"], "--candidate", "m-1", "--run-id", "r-1", capsys=capsys
    )
    assert status == 0
    assert receipt["provenance"]["authenticated"] is True
    assert receipt["provenance"]["key_id"] == KEY_ID
    assert receipt["provenance"]["signature"] == str(files["evidence"]) + ".sig"


@pytest.mark.parametrize(
    "make, code",
    [
        (lambda f: None, "missing-signature"),
        (lambda f: os.mkdir(str(f["evidence"]) + ".sig"), "signature-unreadable"),
        (lambda f: open(str(f["evidence"]) + ".sig", "w").write(signature_of(EVIDENCE)[:50]), "bad-signature"),
        (lambda f: open(str(f["evidence"]) + ".sig", "w").write(signature_of(EVIDENCE, OTHER)), "key-id-mismatch"),
        (lambda f: open(str(f["evidence"]) + ".sig", "w").write(signature_of(EVIDENCE + b" ")), "signature-mismatch"),
    ],
    ids=["missing", "directory", "truncated", "other-key", "other-bytes"],
)
def test_cli_check_signature_failures(files, capsys, make, code):
    make(files)
    status, receipt, _ = check(files, "--key-file", files["key"], capsys=capsys)
    assert status == 3
    assert receipt["code"] == code
    assert receipt["provenance"]["authenticated"] is False
    assert receipt["score"] is None


def test_cli_check_authentication_before_content(files, capsys):
    # Forged bytes are reported as forged, whatever else is wrong in them.
    files["evidence"].write_bytes(b'{"score": NaN}')
    open(str(files["evidence"]) + ".sig", "w").write(signature_of(b'{"score": 0.9}'))
    status, receipt, _ = check(files, "--key-file", files["key"], capsys=capsys)
    assert (status, receipt["code"]) == (3, "signature-mismatch")


def test_cli_check_signed_nan_is_still_invalid(files, capsys):
    files["evidence"].write_bytes(b'{"candidate": "m-1", "score": NaN}')
    main(["sign", "--key-file", files["key"], str(files["evidence"])])
    capsys.readouterr()
    status, receipt, _ = check(files, "--key-file", files["key"], "--candidate", "m-1", capsys=capsys)
    assert (status, receipt["code"]) == (3, "non-standard-constant")
    assert receipt["provenance"]["authenticated"] is True


def test_cli_check_explicit_signature_and_key_env(files, tmp_path, capsys, monkeypatch):
    other_place = tmp_path / "elsewhere.sig"
    other_place.write_text(sign(EVIDENCE, key=KEY))
    monkeypatch.setenv("SC_GATE_KEY", KEY.decode())
    status, receipt, _ = check(files, "--key-env", "SC_GATE_KEY", "--signature", str(other_place), capsys=capsys)
    assert status == 3  # an envelope without --candidate is an unexpected member
    assert receipt["code"] == "unexpected-member"
    assert receipt["provenance"]["authenticated"] is True


@pytest.mark.parametrize(
    "args, code",
    [
        (["--signature", "x.sig"], "missing-option"),  # a signature with no key
        (["--key-env", "SC_UNSET_VARIABLE_FOR_TEST"], "bad-key"),
        (["--key-file", "/nonexistent/key"], "bad-key"),
    ],
)
def test_cli_check_configuration_errors_exit_2_without_a_receipt(files, tmp_path, capsys, args, code):
    receipt = tmp_path / "r.json"
    assert main(["check", "--receipt", str(receipt), *args, str(files["evidence"])]) == 2
    assert code in capsys.readouterr().err
    assert not receipt.exists()


def test_cli_check_stdin_needs_an_explicit_signature(files, capsys):
    result = run_main("check", "--key-file", files["key"], "-", stdin=EVIDENCE)
    assert result.returncode == 2 and b"--signature" in result.stderr
    sig = str(files["evidence"]) + ".sig"
    open(sig, "w").write(sign(EVIDENCE, key=KEY))
    result = run_main(
        "check", "--key-file", files["key"], "--signature", sig, "--candidate", "m-1", "-", stdin=EVIDENCE
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.skipif(os.name != "posix", reason="POSIX modes")
def test_cli_check_key_others_can_read_exits_2(files, capsys):
    os.chmod(files["key"], 0o644)
    status, receipt, err = check(files, "--key-file", files["key"], capsys=capsys)
    assert (status, receipt) == (2, None)
    assert "key-too-open" in err


def test_the_key_appears_nowhere(files, tmp_path, monkeypatch):
    # Every outcome, in a real process: stdout, stderr and the receipt.
    # One fresh interpreter for all; run_fresh refuses any byte it writes
    # to its real stderr outside the calls (an exit-time message).
    monkeypatch.setenv("SC_GATE_KEY", KEY.decode())
    secrets = [KEY, KEY.hex().encode(), KEY[4:20]]
    outcomes = []
    sig = str(files["evidence"]) + ".sig"
    runs = [
        ("sign", "--key-file", files["key"], str(files["evidence"])),
        ("check", "--key-file", files["key"], "--candidate", "m-1", str(files["evidence"])),
        ("check", "--key-env", "SC_GATE_KEY", "--candidate", "m-2", "--format", "json", str(files["evidence"])),
        ("check", "--key-file", files["other"], "--format", "github", str(files["evidence"])),
        ("check", "--key-file", key_file(tmp_path, b"short", name="short"), str(files["evidence"])),
        ("check", "--key-file", key_file(tmp_path, KEY, 0o644, name="open"), str(files["evidence"])),
        ("sign", "--key-file", files["key"], str(files["evidence"])),  # exists
    ]
    receipts = [tmp_path / f"receipt-{number}.json" for number in range(len(runs))]
    calls = [
        ([args[0], *(("--receipt", str(receipt)) if args[0] == "check" else ()), *args[1:]], b"")
        for args, receipt in zip(runs, receipts)
    ]
    for args, receipt, result in zip(runs, receipts, run_fresh(calls)):
        outcomes.append(result.returncode)
        texts = [result.stdout, result.stderr] + ([receipt.read_bytes()] if receipt.exists() else [])
        for text in texts:
            for secret in secrets:
                assert secret not in text, (args, text)
    assert outcomes == [0, 0, 3, 3, 2, 2, 2]
    assert os.path.exists(sig)
