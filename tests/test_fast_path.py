# SPDX-License-Identifier: MIT
"""The canonical-record fast path and the full path agree on every input.

docs/performance.md: a grammar-exact expression decides the canonical
``{"score": <number>}`` record without the full decoder, and anything else
-- escapes included -- takes the full strict path.  So the full path's
answer for a canonical record is ``evaluate()`` of the same JSON with its
member name written with an escape, ``{"\\u0073core": <number>}``.
"""

from __future__ import annotations

import random
import re

import pytest

from scorecontract import Policy, evaluate
from support import fixture_bytes, manifest_cases
from test_fuzz import generated_inputs

# The canonical record as docs/performance.md names it, any JSON number
# (a superset of the fast path's bounded one), JSON's four blanks around.
_CANONICAL = (
    r"[ \t\n\r]*\{[ \t\n\r]*\"score\"[ \t\n\r]*:[ \t\n\r]*"
    r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?[ \t\n\r]*\}[ \t\n\r]*"
)
_CANONICAL_TEXT = re.compile(_CANONICAL)
_CANONICAL_BYTES = re.compile(_CANONICAL.encode("ascii"))


def fast_path_matches(raw):
    """Whether *raw* is a canonical record, which the fast path may decide."""
    return (_CANONICAL_BYTES if type(raw) is bytes else _CANONICAL_TEXT).fullmatch(raw) is not None


def full_path(raw, policy=None):
    """``evaluate()``'s answer on the full path: the same JSON, spelled so no fast path reads it."""
    if fast_path_matches(raw):
        # "\u0073" is "s": the same member name, through the full decoder.
        if type(raw) is bytes:
            raw = raw.replace(b'"score"', b'"\\u0073core"', 1)
        else:
            raw = raw.replace('"score"', '"\\u0073core"', 1)
    return evaluate(raw, policy=policy)


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
    # Counted by the documented grammar, which admits numbers of any length
    # (the fast path's own stops at 20 digits): 3425 canonical, 1622 other.
    hits = sum(fast_path_matches(raw) for raw in CORPUS)
    assert hits > 2000
    assert len(CORPUS) - hits > 1500  # and the full path alone


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
