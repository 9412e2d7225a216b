# SPDX-License-Identifier: MIT
"""The canonical-record fast path and the full path agree on every input."""

from __future__ import annotations

import random

import pytest

import scorecontract._evaluate as evaluate_module
from scorecontract import Policy, evaluate
from support import fixture_bytes, manifest_cases
from test_fuzz import generated_inputs


def never(raw):
    return None


def full_path(raw, policy=None):
    saved = list(evaluate_module._fast_matchers)
    evaluate_module._fast_matchers[:] = [never, never]
    try:
        return evaluate(raw, policy=policy)
    finally:
        evaluate_module._fast_matchers[:] = saved


def fast_path_matches(raw):
    text_match, bytes_match = evaluate_module._compile_fast_matchers()
    return (bytes_match if type(raw) is bytes else text_match)(raw) is not None


def canonical_records(seed: int, count: int) -> list[bytes]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        sign = rng.choice(["", "-"])
        integer = rng.choice(["0", "1", "2", str(rng.randint(0, 10**30))])
        fraction = rng.choice(["", "." + str(rng.randint(0, 10 ** rng.randint(1, 25)))])
        exponent = rng.choice(["", f"e{rng.randint(-400, 400)}", f"E+{rng.randint(0, 3)}", f"e-{rng.randint(0, 3)}"])
        space = rng.choice(["", " ", "\n\t", "\r\n  "])
        out.append(
            f'{space}{{{space}"score"{space}:{space}{sign}{integer}{fraction}{exponent}{space}}}{space}'.encode()
        )
    return out


CORPUS = (
    [fixture_bytes(case["file"]) for case in manifest_cases()]
    + canonical_records(seed=1, count=3000)
    + generated_inputs(seed=2, count=2000)
)


def test_corpus_reaches_the_fast_path():
    hits = sum(fast_path_matches(raw) for raw in CORPUS)
    assert hits > 2000
    assert len(CORPUS) - hits > 2000  # and the full path


@pytest.mark.parametrize("as_text", [False, True], ids=["bytes", "str"])
@pytest.mark.parametrize("threshold", [0.8, 0, 1], ids=["t0.8", "t0", "t1"])
def test_fast_and_full_paths_agree(as_text, threshold):
    policy = Policy(threshold)
    for raw in CORPUS:
        evidence = raw.decode("utf-8", "surrogateescape") if as_text else raw
        fast = evaluate(evidence, policy=policy)
        full = full_path(evidence, policy)
        assert (fast.verdict, fast.code, fast.score) == (full.verdict, full.code, full.score), raw
        assert type(fast.score) is type(full.score), raw
