# SPDX-License-Identifier: MIT
"""Seeded property tests: nothing raises, and PASS only for a conforming record.

Standard library ``random`` only, with fixed seeds, so a failure reproduces.
"""

from __future__ import annotations

import json
import math
import random

import pytest

from scorecontract import InvalidEvidence, Policy, Verdict, decide, evaluate, loads
from support import fixture_bytes, manifest_cases

ATOMS = [
    b"{",
    b"}",
    b"[",
    b"]",
    b":",
    b",",
    b'"',
    b"\\",
    b"\\u",
    b"0",
    b"1",
    b"9",
    b".",
    b"e",
    b"E",
    b"-",
    b"+",
    b" ",
    b"\t",
    b"\n",
    b"\r",
    b"\x00",
    b"\xff",
    b"\xef\xbb\xbf",
    b"\xed\xa0\x80",
    b"NaN",
    b"Infinity",
    b"true",
    b"false",
    b"null",
    b"score",
    b'"score"',
    b"0.8",
    b"1e400",
    b"d800",
    b"0073",
    b"\xc3\xa9",
    b"\xe2\x82",
]


def conforming_score(raw: bytes) -> object:
    """An independent oracle: the score if *raw* is a conforming record."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if text.startswith("\ufeff") or "\x00" in text:
        return None
    pairs_seen = []

    def hook(pairs):
        names = [name for name, _ in pairs]
        if len(set(names)) != len(names):
            raise ValueError("duplicate")
        pairs_seen.append(pairs)
        return dict(pairs)

    def refuse(token):
        raise ValueError(token)

    def strict_float(token):
        value = float(token)
        mantissa = token.lower().split("e")[0]
        if value == 0 and any(digit in mantissa for digit in "123456789"):
            raise ValueError("underflow")  # 1e-400 is not zero
        return value

    try:
        value = json.loads(text, object_pairs_hook=hook, parse_constant=refuse, parse_float=strict_float)
    except (ValueError, RecursionError):
        return None
    if type(value) is not dict or list(value) != ["score"]:
        return None
    score = value["score"]
    if type(score) not in (int, float):
        return None
    if type(score) is float and not math.isfinite(score):
        return None
    if not 0 <= score <= 1:
        return None
    return score


def mutate(rng: random.Random, data: bytes) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        choice = rng.random()
        position = rng.randint(0, len(data))
        if choice < 0.4:
            data[position:position] = rng.choice(ATOMS)
        elif choice < 0.7 and data:
            del data[position : position + rng.randint(1, 3)]
        elif data:
            index = min(position, len(data) - 1)
            data[index] = rng.randrange(256)
    return bytes(data)


def generated_inputs(seed: int, count: int) -> list[bytes]:
    rng = random.Random(seed)
    seeds = [fixture_bytes(case["file"]) for case in manifest_cases()]
    numbers = ["0", "1", "0.8", "0.79999999999999999", "-0.0", "1e-5", "8e-1", "1E0", "0.80"]
    inputs = []
    for _ in range(count):
        kind = rng.random()
        if kind < 0.5:
            inputs.append(mutate(rng, rng.choice(seeds)))
        elif kind < 0.8:
            inputs.append(b"".join(rng.choice(ATOMS) for _ in range(rng.randint(0, 12))))
        else:
            spaces = lambda: rng.choice(["", " ", "\n", "\t\r\n"])  # noqa: E731
            number = rng.choice(numbers) if rng.random() < 0.7 else repr(rng.random())
            inputs.append(f'{spaces()}{{{spaces()}"score"{spaces()}:{spaces()}{number}{spaces()}}}{spaces()}'.encode())
    return inputs


INPUTS = generated_inputs(seed=20261130, count=4000)


def test_generator_produced_inputs():
    assert len(INPUTS) == 4000
    assert len(set(INPUTS)) > 2000


def test_evaluate_never_raises_and_passes_only_conforming_records():
    passes = invalids = 0
    for raw in INPUTS:
        for evidence in (raw, raw.decode("utf-8", "surrogateescape")):
            decision = evaluate(evidence)
            assert decision.code != "internal-error", (evidence, decision)
            if decision.verdict is Verdict.PASS:
                passes += 1
                score = conforming_score(raw)
                assert score is not None, evidence
                assert score >= 0.8, evidence
                assert decision.score == score
            elif decision.verdict is Verdict.INVALID:
                invalids += 1
    # The corpus exercises both sides, or the property proves little.
    assert passes > 100
    assert invalids > 1000


def test_evaluate_agrees_with_the_oracle():
    for raw in INPUTS:
        score = conforming_score(raw)
        decision = evaluate(raw)
        if score is None:
            assert decision.verdict is Verdict.INVALID, raw
        else:
            expected = Verdict.PASS if score >= 0.8 else Verdict.FAIL
            assert decision.verdict is expected, raw


def test_loads_raises_only_invalid_evidence():
    for raw in INPUTS:
        try:
            loads(raw)
        except InvalidEvidence:
            pass


@pytest.mark.parametrize("exact", [False, True], ids=["float", "exact"])
def test_decide_is_total_over_random_values(exact):
    rng = random.Random(7)
    policy = Policy(exact=exact)
    values = [
        rng.choice(
            [
                rng.random(),
                -rng.random(),
                rng.random() * 1e308 * 10,
                float("nan"),
                rng.randint(-5, 5),
                10 ** rng.randint(0, 6000),
                rng.choice([True, False]),
                str(rng.random()),
                None,
                [rng.random()],
                {"score": 0.9},
                object(),
                b"\x00",
            ]
        )
        for _ in range(3000)
    ]
    for value in values:
        verdict = decide(value, policy=policy)
        if verdict is Verdict.PASS:
            assert type(value) in (int, float)
            assert 0.8 <= value <= 1
