# SPDX-License-Identifier: MIT
"""The report's canonical-line fast path and the full path agree on every line.

White-box: the report's fast path (``_tally``) is switched off to compare it
with the full path line by line.

``_tally.stream_lines`` counts a canonical trial line,
``{"trial_id": "<printable ASCII>", "score": <number>}``, without the strict
pipeline.  Here a large seeded corpus -- canonical lines in both member
orders, and mutations of them: escapes, duplicates, NaN, 1e400, true, extra
members, non-ASCII ids, lone surrogates, invalid UTF-8, whitespace that JSON
does and does not allow, numbers at and past the grammar's bounds -- is read
line by line with the fast path on and off, and every observation must be
the same: validity, trial id, score and its type, reason code and message.
The whole corpus as one report must be identical too, in every output
format, and reading in blocks of any size must not change anything.
"""

from __future__ import annotations

import hashlib
import io
import random
from decimal import Decimal

import pytest

import scorecontract._tally as tally_module
from scorecontract import Policy, report
from scorecontract._cli._report_output import junit_xml_bytes, render
from scorecontract._constants import REPORT_FORMATS as FORMATS
from scorecontract._strict_json import MAX_DECIMAL_EXPONENT, underflows
from scorecontract._tally import Tally, stream_lines
from scorecontract._trials import canonical_trial_matchers, read_trial
from scorecontract._verdict import Verdict
from support import sample

IDS = ["t-000123", "t-1", "a", "x y", "~!#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}", "t-2", "t-3"]
NUMBERS = [
    "0",
    "1",
    "-0",
    "-0.0",
    "0.0",
    "0.8",
    "0.873",
    "0.79999999999999999999",
    "1.0",
    "1.0000000000000001",
    "0.1e1",
    "8E-1",
    "8e-01",
    "1e0",
    "1E+0",
    "0e999",
    "1e-400",
    "-1e-400",
    "5e-324",
    "2.5e-1",
    "0.12345678901234567890123456789012345678901",
    "0." + "1" * 40,
    "0." + "1" * 41,
    "1" + "0" * 19,
    "1" + "0" * 20,
    "1" * 21,
    "1e999",
    "1e1000",
    "1e-999",
    "1e-1000",
    "1.5",
    "2",
    "-1",
    "1e400",
    "-1e400",
    # Past the exact decoder's exponent bound, though the grammar admits them.
    "0." + "0" * 39 + "1e-999",
    "0.01e-999",
    "0.1e-999",
]
BAD_NUMBERS = [
    "NaN",
    "Infinity",
    "-Infinity",
    "true",
    "false",
    "null",
    '"0.9"',
    "01",
    "-",
    "1.",
    ".5",
    "+1",
    "1e",
    "0x1",
    "1_0",
    "[0.9]",
    "{}",
    "1" + "0" * 700,
    "0.9 0.9",
]
# Ids the grammar leaves to the full path, each for a reason.
OTHER_IDS = [
    "",
    "t\u00e9st",
    "\u8a66\u9a13",
    "\U0001f600",
    "\x7f",
    "\x00",
    "\t",
    "\x1f",
    "\\u0074-1",
    "\\ud800",
    "\\udc00x",
    '\\"',
    "\\\\",
    "\\/",
    "\\n",
]
SPACES = ["", " ", "  ", "\t", "\r", " \r", "\n", "\x0b", "\x0c", "\u00a0", "\u3000"]
ATOMS = [
    b'"trial_id"',
    b'"score"',
    b":",
    b",",
    b"{",
    b"}",
    b"[",
    b"]",
    b'"',
    b"\\",
    b" ",
    b"\t",
    b"\r",
    b"0.9",
    b"NaN",
    b"1e400",
    b"true",
    b"\xff",
    b"\xc3",
    b"\xed\xa0\x80",
    b"\xef\xbb\xbf",
    b"\x00",
    b'"\\u0073core"',
    b'"t-1"',
    b"\\u0000",
    b"\xc3\xa9",
]


def canonical_line(rng: random.Random, trial_id: str, number: str) -> str:
    def space() -> str:
        return rng.choice(["", "", " ", "  ", "\t", "\r", " \t\r "])

    members = [
        f'{space()}"trial_id"{space()}:{space()}"{trial_id}"{space()}',
        f'{space()}"score"{space()}:{space()}{number}{space()}',
    ]
    if rng.random() < 0.3:
        members.reverse()
    return f"{space()}{{{','.join(members)}}}{space()}"


def mutate(rng: random.Random, data: bytes) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        kind = rng.random()
        where = rng.randint(0, len(data))
        if kind < 0.3 and data:
            del data[min(where, len(data) - 1)]
        elif kind < 0.6:
            data[where:where] = rng.choice(ATOMS)
        elif data:
            data[min(where, len(data) - 1)] = rng.randrange(256)
    return bytes(data)


def generated_lines(seed: int, count: int) -> list[bytes]:
    """A seeded mix of canonical lines and near misses, none with a "\\n"."""
    rng = random.Random(seed)
    lines: list[bytes] = []
    for _ in range(count):
        kind = rng.random()
        trial_id = rng.choice(IDS) if rng.random() < 0.6 else f"t-{rng.randint(0, 40)}"
        number = rng.choice(NUMBERS) if rng.random() < 0.5 else repr(round(rng.random(), rng.randint(1, 17)))
        if kind < 0.45:
            line = canonical_line(rng, trial_id, number)
        elif kind < 0.55:
            line = canonical_line(rng, trial_id, rng.choice(BAD_NUMBERS))
        elif kind < 0.65:
            line = canonical_line(rng, rng.choice(OTHER_IDS), number)
        elif kind < 0.75:
            space = rng.choice(SPACES)
            line = rng.choice(
                [
                    f'{{"trial_id":{space}"{trial_id}", "score": {number}}}',
                    f'{{"trial_id": "{trial_id}", "score": {number}, "seed": 3}}',
                    f'{{"seed": [1, {{"a": null}}], "trial_id": "{trial_id}", "score": {number}}}',
                    f'{{"trial_id": "{trial_id}", "score": {number}, "score": {number}}}',
                    f'{{"trial_id": "{trial_id}", "trial_id": "{trial_id}", "score": {number}}}',
                    f'{{"trial_id": "{trial_id}", "\\u0073core": {number}}}',
                    f'{{"\\u0074rial_id": "{trial_id}", "score": {number}}}',
                    f'{{"trial_id": "{trial_id}", "score": {number}}} {{}}',
                    f'{{"trial_id": "{trial_id}", "score": {number},}}',
                    f'{{"trial_id": "{trial_id}" "score": {number}}}',
                    f'{{"trial_id": "{trial_id}"}}',
                    f'{{"score": {number}}}',
                    f'{{"trial_id": {number}, "score": "{trial_id}"}}',
                    f'["{trial_id}", {number}]',
                    f'{space}{{{space}"trial_id"{space}:{space}"{trial_id}"{space},{space}"score"{space}:{space}{number}{space}}}{space}',
                    "",
                    space,
                ]
            )
        else:
            line = ""
        encoded = line.encode("utf-8", "surrogatepass") if line else b""
        if kind >= 0.75:
            encoded = mutate(rng, canonical_line(rng, trial_id, number).encode("utf-8"))
        lines.append(encoded.replace(b"\n", b" ") if rng.random() < 0.9 else encoded.replace(b"\n", b"\r"))
    return lines


CORPUS = generated_lines(seed=20261201, count=8000)
POLICIES = {
    "default": Policy(),
    "t0": Policy(0),
    "t1": Policy(1),
    "wide": Policy(0.5, minimum=-1, maximum=2),
    "exact": Policy(exact=True),
}


def never(raw: bytes) -> None:
    return None


@pytest.fixture
def full_path(monkeypatch):
    """A context in which ``report()`` takes the full path for every line."""

    def disable() -> None:
        monkeypatch.setattr(tally_module, "canonical_trial_matchers", lambda: (never, never))

    return disable


def observe(line: bytes, policy: Policy, scheduled: int = 1) -> tuple[object, ...]:
    """Everything one line leaves in the report's state, types included."""
    tally = Tally(scheduled, None, policy, None)
    stream_lines(io.BytesIO(line), tally, 1 << 20, hashlib.sha256())
    return (
        tally.observed,
        tally.valid,
        tally.invalid,
        tally.ignored,
        tally.passed,
        dict(tally.trials),
        sorted((repr(score), type(score).__name__, count) for score, count in tally.counted()),
        {name: (type(score).__name__, repr(score)) for name, score in tally.failed_scores.items()},
        dict(tally.first_invalid),
        dict(tally.by_code),
        list(tally.invalid_list),
    )


def fast_path_takes(line: bytes, policy: Policy) -> bool:
    """Whether ``stream_lines`` would count *line* without ``read_trial``."""
    id_first, score_first = canonical_trial_matchers()
    match = id_first(line)
    if match is not None:
        _, number, fraction = match.groups()
    else:
        match = score_first(line)
        if match is None:
            return False
        number, fraction, _ = match.groups()
    if policy.exact:
        score: object = Decimal(number.decode()) if fraction else int(number)
        if type(score) is Decimal and abs(score.adjusted()) > MAX_DECIMAL_EXPONENT:
            return False  # the exact decoder refuses it: full path
    else:
        score = float(number) if fraction else int(number)
        if score == 0 and underflows(number):
            return False  # 1e-400 reads as 0.0: the decoder refuses it
    low, high, _ = policy.limits
    return bool(low <= score <= high)  # type: ignore[operator]


def test_corpus_reaches_both_paths():
    for policy in POLICIES.values():
        taken = sum(fast_path_takes(line, policy) for line in CORPUS)
        assert taken > 2500
        assert len(CORPUS) - taken > 3000
    # Each kind of near miss is in the corpus.
    for needle in (b"NaN", b"1e400", b"true", b"null", b"01", b" 1" + b"0" * 20):
        assert sum(needle in line for line in CORPUS) >= 5, needle
    # These can be nowhere in a canonical line, not even inside the id.
    for needle in (b"\\", b'"seed"', b"\xff", b"\xc3\xa9", b"\xed\xa0\x80", b"\x7f", b"\x0b", b"\x00"):
        hits = [line for line in CORPUS if needle in line]
        assert len(hits) >= 5, needle
        assert not any(fast_path_takes(line, policy) for line in hits for policy in POLICIES.values()), needle


@pytest.mark.exhaustive
@pytest.mark.parametrize("name", list(POLICIES))
def test_every_line_gives_the_same_observation(name, full_path):
    # 3000 of the corpus's lines, chosen by a fixed seed per policy (every
    # line under --exhaustive); the whole corpus is gated below, in one report.
    policy = POLICIES[name]
    lines = sample(CORPUS, 3000, f"observation {name}")
    assert sum(fast_path_takes(line, policy) for line in lines) > 800  # both paths, in the sample too
    fast = [observe(line, policy) for line in lines]
    full_path()
    for line, expected in zip(lines, fast):
        assert observe(line, policy) == expected, line


@pytest.mark.parametrize("name", list(POLICIES))
def test_a_line_the_fast_path_takes_is_what_read_trial_says(name):
    policy = POLICIES[name]
    checked = 0
    for line in CORPUS:
        if not fast_path_takes(line, policy):
            continue
        trial_id, verdict, code, _, score = read_trial(line, policy, 1 << 20)
        assert verdict is not Verdict.INVALID, line
        state = observe(line, policy)
        assert state[5] == {trial_id: 1 << 2 | (1 if verdict is Verdict.PASS else 2)}, line
        assert state[6] == [(repr(score), type(score).__name__, 1)], line
        checked += 1
    assert checked > 2500


def as_text(result) -> str:
    shown = [render(result, form, "corpus.jsonl") for form in FORMATS]
    return "\n".join(shown) + repr(list(result.trials())) + junit_xml_bytes(result).decode("utf-8")


REPORTS = [
    ({"scheduled": 45}, "default"),
    ({"scheduled": 45, "max_listed": None}, "wide"),
    ({"scheduled": 3, "max_listed": 2}, "t1"),
    ({"manifest": IDS + [f"t-{i}" for i in range(5, 40, 2)], "max_listed": 7}, "exact"),
    ({"manifest": ["t-1", "a"], "metric": "pass-rate", "min_pass_rate": 0.5}, "t0"),
]


@pytest.mark.parametrize("kwargs, name", REPORTS, ids=[f"{k}-{n}" for k, n in REPORTS])
def test_the_whole_corpus_gives_the_same_report(kwargs, name, full_path):
    data = b"\n".join(CORPUS) + b"\n"
    fast = report(data, policy=POLICIES[name], **kwargs)
    assert fast.valid > 0 and fast.invalid > 1000 and fast.ignored > 0
    full_path()
    full = report(data, policy=POLICIES[name], **kwargs)
    assert fast.as_dict() == full.as_dict()
    assert as_text(fast) == as_text(full)


def test_a_run_with_reruns_and_invalid_attempts_gives_the_same_report():
    # Reruns of a few trials, an invalid attempt before a valid one, a stray
    # id: the cases where the fast path hands a canonical line back.
    rng = random.Random(7)
    lines = []
    for index in range(3000):
        trial_id = f"t-{rng.randint(0, 30)}" if index % 97 else "stray"
        score = rng.choice(["0.9", "0.5", "1", "0", "NaN", "1.5", "0.8"])
        lines.append(canonical_line(rng, trial_id, score).encode())
    data = b"\n".join(lines)
    for max_listed in (0, 3, 100, None):
        fast = report(data, scheduled=32, max_listed=max_listed)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(tally_module, "canonical_trial_matchers", lambda: (never, never))
            full = report(data, scheduled=32, max_listed=max_listed)
        assert fast.ignored > 1000 and fast.invalid > 500
        assert fast.as_dict() == full.as_dict()
        assert as_text(fast) == as_text(full)
        # And the per-trial state behind trials() and JUnit, not just what
        # this file happens to show of it.
        assert (fast._trials, fast._first_invalid) == (full._trials, full._first_invalid)
        assert {k: repr(v) for k, v in fast._failed_scores.items()} == {
            k: repr(v) for k, v in full._failed_scores.items()
        }


def block_file() -> bytes:
    rng = random.Random(11)
    lines = [canonical_line(rng, f"t-{i % 9}", "0.9").encode() for i in range(40)]
    lines[3] = b'{"trial_id": "t-3", "score": 0.9, "pad": "' + b"x" * 300 + b'"}'  # over the limit
    lines[4] = b""
    lines[5] = b"  \r"
    lines[7] = canonical_line(rng, "t-7", "0.5").encode() + b"\r"
    lines[20] = b"y" * 121  # one byte over
    lines[21] = b"z" * 120  # at the limit: garbage, not too large
    return b"\n".join(lines)


@pytest.mark.parametrize(
    "ending",
    [b"", b"\n", b"\r\n", b"\n" + b"w" * 500, b"\n" + b"w" * 500 + b"\n"],
    ids=["bare", "newline", "crlf", "overlong-last", "overlong-last-newline"],
)
def test_reading_in_blocks_of_any_size_changes_nothing(ending, monkeypatch):
    data = block_file() + ending
    expected = report(data, scheduled=9, max_line_bytes=120, max_listed=None)
    assert expected.invalid_by_code["too-large"] == (3 if b"w" in ending else 2)
    assert expected.sha256 == hashlib.sha256(data).hexdigest() and expected.size == len(data)
    for size in (1, 2, 3, 7, 64, 121, 122, 500):
        monkeypatch.setattr(tally_module, "_CHUNK", size)
        got = report(
            io.BufferedReader(io.BytesIO(data), buffer_size=size), scheduled=9, max_line_bytes=120, max_listed=None
        )
        assert got.as_dict() == expected.as_dict(), size
        assert as_text(got) == as_text(expected), size


class EndlessLine(io.RawIOBase):
    """A stream holding one line of *size* bytes, made up as it is read."""

    def __init__(self, size: int) -> None:
        self.left = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        count = min(len(buffer), self.left)
        buffer[:count] = b"x" * count
        self.left -= count
        return count


def test_an_overlong_line_is_never_held_whole():
    import tracemalloc

    size = 48 * tally_module._CHUNK
    tracemalloc.start()
    try:
        result = report(EndlessLine(size), scheduled=1, max_line_bytes=1000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.invalid_by_code == {"too-large": 1} and result.size == size
    assert str(size) in result.invalid_observations[0].message
    # One block and one line's worth, not the line.
    assert peak < 8 * tally_module._CHUNK, peak
