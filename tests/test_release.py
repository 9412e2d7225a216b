# SPDX-License-Identifier: MIT
"""End to end: the real release script, a disposable candidate, bad evidence.

Unit tests of the validator prove nothing about whether a release job
blocks on INVALID.  Here examples/release.sh runs as a subprocess, exactly
as a release job would run it, with invalid evidence substituted into a
throw-away candidate; no release may happen, and the receipt and the exact
evidence bytes must be there afterwards for a reviewer.
"""

from __future__ import annotations

import hashlib
import json
import subprocess

import pytest

from shims import shim_environment
from support import ROOT, sample

SCRIPT = ROOT / "examples" / "release.sh"

INVALID = [
    ("nan", b'{"score": NaN}', "non-standard-constant"),
    ("overflow-1e400", b'{"score": 1e400}', "non-finite"),
    ("true", b'{"score": true}', "wrong-type"),
    ("duplicate-member", b'{"score": 0.1, "score": 0.9}', "duplicate-member"),
    ("empty-file", b"", "empty"),
    ("missing-file", None, "file-not-found"),
]


@pytest.fixture
def candidate(tmp_path):
    """A disposable candidate: an artefact to publish and its evidence path."""
    root = tmp_path / "candidate"
    root.mkdir()
    (root / "model.bin").write_bytes(b"weights of a candidate that must not ship\n")
    return root


def release(tmp_path, candidate, record):
    """Run release.sh; its release action copies the candidate to published/."""
    published = tmp_path / "published"
    env = shim_environment(tmp_path / "bin")
    result = subprocess.run(
        ["sh", str(SCRIPT), str(candidate / "result.json"), str(record), "cp", "-R", str(candidate), str(published)],
        capture_output=True,
        env=env,
        timeout=120,
    )
    return result, published


# Each case runs the script in sh, which starts an interpreter: three of
# the six, chosen by a fixed seed, and all with --exhaustive (marker
# exhaustive).  The codes themselves are the command line's, tested in-process.
SAMPLED = sample(INVALID, 3, "release.sh invalid")


@pytest.mark.exhaustive
@pytest.mark.parametrize("name, evidence, code", SAMPLED, ids=[case[0] for case in SAMPLED])
def test_invalid_evidence_blocks_the_release_and_is_kept(tmp_path, candidate, name, evidence, code):
    if evidence is not None:
        (candidate / "result.json").write_bytes(evidence)
    record = tmp_path / "record"

    result, published = release(tmp_path, candidate, record)

    assert result.returncode == 3, result.stderr.decode()
    assert not published.exists(), "the release action ran on invalid evidence"
    assert b"Traceback" not in result.stderr
    assert b"release blocked: INVALID evidence" in result.stderr
    assert result.stdout.startswith(f"INVALID {code}: ".encode())

    receipt = json.loads((record / "receipt.json").read_bytes())
    assert receipt["verdict"] == "INVALID"
    assert receipt["code"] == code
    kept = sorted((record / "evidence").iterdir()) if (record / "evidence").exists() else []
    if evidence is None:
        # Nothing was read, so nothing is kept and no hash is claimed.
        assert receipt["evidence"]["sha256"] is None
        assert kept == []
    else:
        digest = hashlib.sha256(evidence).hexdigest()
        assert receipt["evidence"]["sha256"] == digest
        assert receipt["evidence"]["length"] == len(evidence)
        assert [path.name for path in kept] == [digest]
        assert hashlib.sha256(kept[0].read_bytes()).hexdigest() == receipt["evidence"]["sha256"]
        assert kept[0].read_bytes() == evidence


def test_valid_passing_evidence_releases(tmp_path, candidate):
    (candidate / "result.json").write_bytes(b'{"score": 0.93}\n')
    record = tmp_path / "record"

    result, published = release(tmp_path, candidate, record)

    assert result.returncode == 0, result.stderr.decode()
    assert (published / "model.bin").read_bytes() == (candidate / "model.bin").read_bytes()
    receipt = json.loads((record / "receipt.json").read_bytes())
    assert (receipt["verdict"], receipt["code"], receipt["score"]) == ("PASS", "meets-threshold", 0.93)
    digest = hashlib.sha256(b'{"score": 0.93}\n').hexdigest()
    assert (record / "evidence" / digest).read_bytes() == b'{"score": 0.93}\n'


def test_valid_failing_evidence_blocks(tmp_path, candidate):
    (candidate / "result.json").write_bytes(b'{"score": 0.79}')
    result, published = release(tmp_path, candidate, tmp_path / "record")
    assert result.returncode == 1
    assert not published.exists()
    assert json.loads((tmp_path / "record" / "receipt.json").read_bytes())["verdict"] == "FAIL"


def test_a_reused_record_blocks_even_a_pass(tmp_path, candidate):
    # The first run's receipt must survive; the second run must not release
    # without leaving its own record.
    (candidate / "result.json").write_bytes(b'{"score": 0.1}')
    record = tmp_path / "record"
    first, published = release(tmp_path, candidate, record)
    assert first.returncode == 1
    before = (record / "receipt.json").read_bytes()

    (candidate / "result.json").write_bytes(b'{"score": 0.99}')
    second, published = release(tmp_path, candidate, record)

    assert second.returncode == 2
    assert not published.exists()
    assert (record / "receipt.json").read_bytes() == before
    assert b"already exists" in second.stderr


def test_evidence_named_like_an_option_is_a_path(tmp_path):
    # release.sh passes `--` before the path.
    (tmp_path / "--threshold").write_bytes(b'{"score": 0.9}')
    env = shim_environment(tmp_path / "bin")
    result = subprocess.run(
        ["sh", str(SCRIPT), "--threshold", str(tmp_path / "record"), "touch", str(tmp_path / "released")],
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr.decode()
    assert (tmp_path / "released").exists()


def test_usage_error_blocks(tmp_path):
    env = shim_environment(tmp_path / "bin")
    result = subprocess.run(["sh", str(SCRIPT), "only-one-argument"], capture_output=True, env=env, timeout=120)
    assert result.returncode == 2
    assert result.stderr.startswith(b"usage: ")
