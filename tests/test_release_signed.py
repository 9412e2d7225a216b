# SPDX-License-Identifier: MIT
"""End to end: examples/release_signed.sh with forged, replayed and foreign evidence.

The evaluation job signs its envelope with ``scorecontract sign`` (in
this interpreter: tests/test_sign.py runs it in a fresh one); the
release job runs examples/release_signed.sh, exactly as a release would,
with the candidate and the run it was started for.  Each case substitutes
one kind of bad provenance into a throw-away candidate: nothing may be
released, the exit status must be 3 (or 2 for a bad key), and the receipt
must say why.  The key must appear nowhere.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess

import pytest

from shims import shim_environment
from support import ROOT, run_main, sample

SCRIPT = ROOT / "examples" / "release_signed.sh"
CANDIDATE = "model-a@sha256:0f3c"
RUN_ID = "run-0042"
GOOD = json.dumps({"candidate": CANDIDATE, "run_id": RUN_ID, "score": 0.93}).encode()
KEY = hashlib.sha256(b"the evaluation job's key").hexdigest().encode() + b"\n"
OTHER_KEY = hashlib.sha256(b"someone else's key").hexdigest().encode() + b"\n"


def write_key(path, key, mode=0o600):
    path.write_bytes(key)
    path.chmod(mode)
    return path


@pytest.fixture
def job(tmp_path):
    """A disposable candidate, a key, and the shimmed environment."""
    root = tmp_path / "candidate"
    root.mkdir()
    (root / "model.bin").write_bytes(b"weights of a candidate that must not ship\n")
    env = shim_environment(tmp_path / "bin")
    return {"root": root, "key": write_key(tmp_path / "key", KEY), "env": env, "tmp": tmp_path}


def sign(job, evidence_path, key_path):
    """The evaluation job's side: ``scorecontract sign``, in this interpreter.

    Only the release job's side is under test here, so the signature is
    made by run_main, not a fresh interpreter (tests/test_sign.py runs the
    command itself).
    """
    result = run_main("sign", f"--key-file={key_path}", str(evidence_path))
    if result.returncode != 0:
        raise AssertionError(f"sign failed: {result.stderr.decode()}")
    return evidence_path.with_name(evidence_path.name + ".sig")


def release(job, run_id=RUN_ID):
    published = job["tmp"] / "published"
    record = job["tmp"] / "record"
    result = subprocess.run(
        [
            "sh",
            str(SCRIPT),
            str(job["key"]),
            CANDIDATE,
            run_id,
            str(job["root"] / "result.json"),
            str(record),
            "cp",
            "-R",
            str(job["root"]),
            str(published),
        ],
        capture_output=True,
        env=job["env"],
        timeout=120,
    )
    return result, published, record


def assert_key_nowhere(result, record):
    texts = [result.stdout, result.stderr]
    if (record / "receipt.json").exists():
        texts.append((record / "receipt.json").read_bytes())
    for secret in (KEY, KEY.strip(), OTHER_KEY.strip()):
        for text in texts:
            assert secret not in text


# Each case writes result.json and result.json.sig the way one failure
# happens in practice.


def whitespace_changed(job, evidence):
    evidence.write_bytes(GOOD)
    sign(job, evidence, job["key"])
    evidence.write_bytes(GOOD.replace(b'"score": ', b'"score":  '))  # one space more


def truncated_signature(job, evidence):
    evidence.write_bytes(GOOD)
    signature = sign(job, evidence, job["key"])
    signature.write_bytes(signature.read_bytes()[:-20])


def hex_truncated(job, evidence):
    evidence.write_bytes(GOOD)
    signature = sign(job, evidence, job["key"])
    document = json.loads(signature.read_bytes())
    document["signature"] = document["signature"][:-2]
    signature.write_text(json.dumps(document))


def wrong_key(job, evidence):
    evidence.write_bytes(GOOD)
    sign(job, evidence, write_key(job["tmp"] / "other-key", OTHER_KEY))


def wrong_key_claiming_the_right_id(job, evidence):
    # A forger who knows the public key id but not the key.
    evidence.write_bytes(GOOD)
    signature = sign(job, evidence, write_key(job["tmp"] / "other-key", OTHER_KEY))
    document = json.loads(signature.read_bytes())
    document["key_id"] = hashlib.sha256(KEY.strip()).hexdigest()[:16]
    signature.write_text(json.dumps(document))


def nan_inside(job, evidence):
    evidence.write_bytes(GOOD.replace(b"0.93", b"NaN"))
    sign(job, evidence, job["key"])


def another_candidate(job, evidence):
    evidence.write_bytes(GOOD.replace(CANDIDATE.encode(), b"model-b@sha256:9e1d"))
    sign(job, evidence, job["key"])


def candidate_differs_in_case(job, evidence):
    evidence.write_bytes(GOOD.replace(b"model-a", b"Model-A"))
    sign(job, evidence, job["key"])


def replayed_older_run(job, evidence):
    # A genuine, signed, passing file for this candidate, from an older run.
    evidence.write_bytes(GOOD.replace(RUN_ID.encode(), b"run-0041"))
    sign(job, evidence, job["key"])


def plain_record(job, evidence):
    # Signed, valid, passing, but bound to no candidate at all.
    evidence.write_bytes(b'{"score": 0.99}')
    sign(job, evidence, job["key"])


def unsigned(job, evidence):
    evidence.write_bytes(GOOD)


CASES = [
    (whitespace_changed, "signature-mismatch", False),
    (truncated_signature, "bad-signature", False),
    (hex_truncated, "bad-signature", False),
    (wrong_key, "key-id-mismatch", False),
    (wrong_key_claiming_the_right_id, "signature-mismatch", False),
    (nan_inside, "non-standard-constant", True),
    (another_candidate, "candidate-mismatch", True),
    (candidate_differs_in_case, "candidate-mismatch", True),
    (replayed_older_run, "run-id-mismatch", True),
    (plain_record, "missing-candidate", True),
    (unsigned, "missing-signature", False),
]


# Each case runs the script in sh, which starts an interpreter: five of
# the eleven, chosen by a fixed seed, and all with --exhaustive (marker
# exhaustive).  Each code is also the command line's, tested in-process
# (tests/test_provenance.py, tests/test_sign.py).
SAMPLED = sample(CASES, 5, "release_signed.sh provenance")


@pytest.mark.exhaustive
@pytest.mark.parametrize("make, code, authenticated", SAMPLED, ids=[case[0].__name__ for case in SAMPLED])
def test_bad_provenance_blocks_the_release(job, make, code, authenticated):
    evidence = job["root"] / "result.json"
    make(job, evidence)

    result, published, record = release(job)

    assert result.returncode == 3, result.stderr.decode()
    assert not published.exists(), "the release action ran"
    assert b"Traceback" not in result.stderr
    assert b"release blocked: INVALID evidence" in result.stderr
    assert result.stdout.startswith(f"INVALID {code}: ".encode()), result.stdout
    receipt = json.loads((record / "receipt.json").read_bytes())
    assert (receipt["verdict"], receipt["code"]) == ("INVALID", code)
    provenance = receipt["provenance"]
    # Authentication is recorded as it happened: a correctly signed file
    # with NaN inside is authenticated and still INVALID.
    assert provenance["authenticated"] is authenticated
    assert provenance["key_id"] == hashlib.sha256(KEY.strip()).hexdigest()[:16]
    assert provenance["candidate"]["required"] == CANDIDATE
    assert provenance["run_id"]["required"] == RUN_ID
    digest = hashlib.sha256(evidence.read_bytes()).hexdigest()
    assert receipt["evidence"]["sha256"] == digest
    assert (record / "evidence" / digest).read_bytes() == evidence.read_bytes()
    assert_key_nowhere(result, record)


def test_found_ids_are_in_the_receipt(job):
    evidence = job["root"] / "result.json"
    replayed_older_run(job, evidence)
    _, _, record = release(job)
    provenance = json.loads((record / "receipt.json").read_bytes())["provenance"]
    assert provenance["candidate"] == {"required": CANDIDATE, "found": CANDIDATE}
    assert provenance["run_id"] == {"required": RUN_ID, "found": "run-0041"}


def test_signed_matching_valid_passing_evidence_releases(job):
    evidence = job["root"] / "result.json"
    evidence.write_bytes(GOOD)
    signature = sign(job, evidence, job["key"])

    result, published, record = release(job)

    assert result.returncode == 0, result.stderr.decode()
    assert (published / "model.bin").exists()
    receipt = json.loads((record / "receipt.json").read_bytes())
    assert (receipt["verdict"], receipt["code"], receipt["score"]) == ("PASS", "meets-threshold", 0.93)
    assert receipt["provenance"] == {
        "authenticated": True,
        "algorithm": "hmac-sha256",
        "key_id": hashlib.sha256(KEY.strip()).hexdigest()[:16],
        "signature": str(signature),
        "candidate": {"required": CANDIDATE, "found": CANDIDATE},
        "run_id": {"required": RUN_ID, "found": RUN_ID},
    }
    assert (record / "evidence.sig").read_bytes() == signature.read_bytes()
    assert_key_nowhere(result, record)


def test_signed_matching_failing_evidence_blocks(job):
    evidence = job["root"] / "result.json"
    evidence.write_bytes(GOOD.replace(b"0.93", b"0.5"))
    sign(job, evidence, job["key"])
    result, published, record = release(job)
    assert result.returncode == 1
    assert not published.exists()
    assert json.loads((record / "receipt.json").read_bytes())["provenance"]["authenticated"] is True


@pytest.mark.skipif(os.name != "posix", reason="group and others bits are POSIX")
def test_a_key_others_can_read_blocks_as_configuration(job):
    evidence = job["root"] / "result.json"
    evidence.write_bytes(GOOD)
    sign(job, evidence, job["key"])
    job["key"].chmod(0o644)

    result, published, record = release(job)

    assert result.returncode == 2
    assert not published.exists()
    assert b"key-too-open" in result.stderr
    assert not (record / "receipt.json").exists()  # nothing was judged
    assert_key_nowhere(result, record)


def test_usage_error_blocks(job):
    result = subprocess.run(["sh", str(SCRIPT), "too", "few"], capture_output=True, env=job["env"], timeout=120)
    assert result.returncode == 2
    assert result.stderr.startswith(b"usage: ")
