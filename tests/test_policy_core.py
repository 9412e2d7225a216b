# SPDX-License-Identifier: MIT
"""Policy construction: every field validated with the numeric contract."""

from __future__ import annotations

import io
import math
import sys

import pytest

from scorecontract import Policy, PolicyError
from scorecontract._cli import main

BAD_POLICIES = [
    ("nan-minimum", dict(minimum=math.nan), "bad-bounds"),
    ("inf-minimum", dict(minimum=-math.inf), "bad-bounds"),
    ("inf-maximum", dict(maximum=math.inf), "bad-bounds"),
    ("bool-maximum", dict(maximum=True), "bad-bounds"),
    ("string-minimum", dict(minimum="0"), "bad-bounds"),
    ("inverted", dict(minimum=1, maximum=0, threshold=0.5), "bad-bounds"),
    ("threshold-above", dict(threshold=2, maximum=1.5), "bad-threshold"),
    ("empty-version", dict(version=""), "bad-version"),
    ("blank-version", dict(version="  "), "bad-version"),
    ("non-string-version", dict(version=1), "bad-version"),
    ("exact-not-bool", dict(exact=1), "bad-policy"),
]


@pytest.mark.parametrize("kwargs, code", [b[1:] for b in BAD_POLICIES], ids=[b[0] for b in BAD_POLICIES])
def test_bad_policy(kwargs, code):
    with pytest.raises(PolicyError) as info:
        Policy(**kwargs)
    assert info.value.code == code


def test_wider_bounds():
    policy = Policy(50, minimum=0, maximum=100, version="pct-v1")
    assert (policy.threshold, policy.minimum, policy.maximum, policy.version) == (50, 0, 100, "pct-v1")


def test_policy_is_immutable_and_comparable():
    policy = Policy(0.5, version="v1")
    with pytest.raises(AttributeError):
        policy.threshold = 0.1
    assert policy == Policy(0.5, version="v1")
    assert policy != Policy(0.5, version="v2")
    assert hash(policy) == hash(Policy(0.5, version="v1"))
    assert policy.as_dict() == {"version": "v1", "threshold": 0.5, "min": 0, "max": 1, "exact": False}


def test_read_bounded_reads_at_most_one_byte_past_the_limit(monkeypatch, capsys):
    # `check -` reads standard input through the one bounded reader.
    stream = io.BytesIO(b"x" * 100)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stream))
    assert main(["check", "--max-bytes", "10", "-"]) == 3
    assert capsys.readouterr().out.startswith("INVALID too-large: ")
    assert stream.tell() == 11
    record = b'{"score": 0.9}'
    stream = io.BytesIO(record)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stream))
    assert main(["check", "--max-bytes", str(len(record)), "-"]) == 0
    assert capsys.readouterr().out.startswith("PASS ")
    assert stream.tell() == len(record)
