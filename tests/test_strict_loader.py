# SPDX-License-Identifier: MIT
"""The strict loader: where a refusal points, load_document(), and the fast path.

White-box: the loader's own functions (``_strict_json``, ``_encoding``,
``_jsonpath``'s non-finite reads) and its fast path are checked directly,
positions included.

- A NaN, an Infinity or a duplicated member name is refused with the
  position of the token to blame, as a syntax error is.
- load_document() applies every strict rule but records each non-finite
  number with its normalized path: checked against an oracle written here
  (json.loads with permissive settings and a walk by hand) on generated
  documents.
- Texts from FAST_MIN_LENGTH characters take a fast path; every test that
  reads a text runs on both paths, and a differential test holds the fast
  path to the precise one on the JSONTestSuite corpus and on fuzzed text:
  the same value, or the same code, message and position.

The oracle's generated documents come from 30 seeds (4 for the large
texts); a run tries a fixed sample of 10 (2), and every seed with
``--exhaustive`` (marker ``exhaustive``; ``.ci/run`` runs them once).
"""

from __future__ import annotations

import functools
import json
import math
import pickle
import random

import pytest

from scorecontract import InvalidEvidence, _strict_json, loads
from scorecontract._encoding import decode_evidence
from scorecontract._jsonpath import NonFiniteRead, compile_query, compile_requirement
from scorecontract._strict_json import MAX_DEPTH, MAX_NUMBER_LENGTH, Nonfinite, load_document, parse_json
from support import ROOT, sample

CORPUS = sorted((ROOT / "tests" / "data" / "jsontestsuite" / "test_parsing").glob("*.json"))


@pytest.fixture(params=["precise", "fast"])
def path(request, monkeypatch):
    """Run the test on the precise path, then with every text on the fast path."""
    monkeypatch.setattr(_strict_json, "FAST_MIN_LENGTH", 0 if request.param == "fast" else 1 << 62)
    return request.param


@pytest.fixture(params=["walk-first", "search-first", "search-then-walk"])
def budgets(request, monkeypatch):
    """How the recorded numbers are found: by the first walk from the top (the
    default for a small text), by the search up from each number, or by that
    search running out of budget and the walk going on down."""
    if request.param != "walk-first":
        monkeypatch.setattr(_strict_json, "_LEVEL_BUDGET", 0)
    if request.param == "search-then-walk":
        monkeypatch.setattr(_strict_json, "_SEARCH_BUDGET", 2)
    return request.param


def on_path(fast: bool):
    """A context that sends every text to the fast path, or none."""
    patch = pytest.MonkeyPatch()
    patch.setattr(_strict_json, "FAST_MIN_LENGTH", 0 if fast else 1 << 62)
    return patch


# -- where a refusal points ----------------------------------------------------------

LOCATED = [
    # (id, text, code, the token the position must point at)
    ("nan", '{"score": NaN}', "non-standard-constant", "NaN"),
    ("infinity", "[0.5, Infinity]", "non-standard-constant", "Infinity"),
    ("negative-infinity", '{"a": [1, -Infinity]}', "non-standard-constant", "-Infinity"),
    ("nan-at-root", "  NaN", "non-standard-constant", "NaN"),
    ("nan-in-a-string-first", '{"note": "NaN here", "score": NaN}', "non-standard-constant", "NaN}"),
    ("infinity-in-a-string-first", '["-Infinity", "Infinity", -Infinity]', "non-standard-constant", "-Infinity]"),
    ("nan-after-escaped-quotes", '["say \\"NaN\\"", "a\\\\", NaN]', "non-standard-constant", "NaN]"),
    ("nan-after-a-key-named-nan", '{"NaN": 1, "Infinity": [NaN]}', "non-standard-constant", "NaN]"),
    ("nan-after-long-backslash-run", '["' + "\\\\" * 500 + '", NaN]', "non-standard-constant", "NaN]"),
    ("duplicate", '{"a": 1, "a": 2}', "duplicate-member", '"a": 2'),
    ("duplicate-at-depth", '{"x": [{"y": {"b": 1, "c": 2, "b": 3}}]}', "duplicate-member", '"b": 3'),
    ("duplicate-spelled-with-an-escape", '{"score": 1, "\\u0073core": 2}', "duplicate-member", '"\\u0073core"'),
    ("duplicate-with-escaped-quote", '{"a\\"b": 1, "c": [], "a\\"b": 2}', "duplicate-member", '"a\\"b": 2'),
    # The decoder checks an object when it ends: the inner one ends first.
    ("inner-object-ends-first", '{"a": 1, "a": 2, "b": {"c": 1, "c": 2}}', "duplicate-member", '"c": 2'),
    ("third-name-repeats", '{"a": 1, "b": 2, "b": 3, "a": 4}', "duplicate-member", '"b": 3'),
    ("name-equals-a-value", '{"a": "b", "b": 1, "a": 2}', "duplicate-member", '"a": 2'),
]


@pytest.mark.parametrize("text, code, token", [c[1:] for c in LOCATED], ids=[c[0] for c in LOCATED])
def test_a_refusal_points_at_its_token(text, code, token, path):
    with pytest.raises(InvalidEvidence) as info:
        parse_json(text)
    error = info.value
    assert error.code == code
    assert error.pos is not None and text.startswith(token, error.pos)
    assert (error.lineno, error.colno) == (1, error.pos + 1)
    assert f"line 1 column {error.pos + 1} (char {error.pos})" in str(error)


def test_the_position_counts_lines_and_columns():
    text = '{\n  "note": "NaN",\n  "scores": [\n    0.5,\n    NaN\n  ]\n}'
    with pytest.raises(InvalidEvidence) as info:
        loads(text.encode("utf-8"))
    assert (info.value.pos, info.value.lineno, info.value.colno) == (text.index("NaN\n"), 5, 5)
    text = '{"caf\u00e9": 1,\n "caf\\u00e9": 2}'
    with pytest.raises(InvalidEvidence) as info:
        loads(text.encode("utf-8"))  # pos counts characters, not bytes
    assert (info.value.code, info.value.pos, info.value.lineno, info.value.colno) == ("duplicate-member", 13, 2, 2)


def test_the_message_and_code_are_unchanged_by_the_position():
    with pytest.raises(InvalidEvidence) as info:
        loads('{"score": NaN}')
    assert info.value.message == "NaN is not JSON (RFC 8259 section 6 has no NaN or Infinity)"
    with pytest.raises(InvalidEvidence) as info:
        loads('{"a": 1, "a": 2}')
    assert info.value.message == "member 'a' appears more than once; JSON parsers disagree on which value wins"
    copy = pickle.loads(pickle.dumps(info.value))
    assert (copy.code, copy.pos, copy.lineno, copy.colno) == ("duplicate-member", 9, 1, 10)


# -- load_document ----------------------------------------------------------------------


def test_load_document_records_instead_of_refusing(path):
    text = '{"score": 0.9, "stderr": NaN, "runs": [Infinity, {"x": -Infinity}], "big": 1e400, "tiny": -1e-400}'
    document, found = load_document(text)
    assert [(r.path, r.code, r.literal) for r in found] == [
        ("$['stderr']", "non-standard-constant", "NaN"),
        ("$['runs'][0]", "non-standard-constant", "Infinity"),
        ("$['runs'][1]['x']", "non-standard-constant", "-Infinity"),
        ("$['big']", "non-finite", "1e400"),
        ("$['tiny']", "underflow", "-1e-400"),
    ]
    assert document["score"] == 0.9
    assert document["stderr"] is found[0].value and math.isnan(found[0].value)
    assert document["runs"][0] is found[1].value and found[1].value == math.inf
    assert document["runs"][1]["x"] is found[2].value and found[2].value == -math.inf
    assert document["big"] is found[3].value and found[3].value == math.inf
    assert document["tiny"] is found[4].value and math.isnan(found[4].value)
    # Each is a float of its own: an overflow is not the literal Infinity.
    assert len({id(record.value) for record in found}) == len(found)


def test_load_document_of_a_clean_text_is_parse_json(path):
    text = '{"a": [1, 2.5, "NaN", {"b": null}], "c": "Infinity", "zero": 0e-400}'
    assert load_document(text) == (parse_json(text), ())


@pytest.mark.parametrize(
    "text, code",
    [
        ('{"a": NaN, "a": 1}', "duplicate-member"),
        ('{"a": NaN} x', "trailing-data"),
        ('[NaN, "\\ud800"]', "lone-surrogate"),
        ("[NaN, " + "1" * (MAX_NUMBER_LENGTH + 1) + "]", "too-many-digits"),
        ("[NaN, 0." + "1" * MAX_NUMBER_LENGTH + "]", "too-many-digits"),
        ("[" * (MAX_DEPTH + 1) + "NaN" + "]" * (MAX_DEPTH + 1), "too-deep"),
        ("[NaN, nan]", "syntax"),
        ("", "empty"),
    ],
)
def test_load_document_still_refuses_the_whole_text(text, code, path):
    with pytest.raises(InvalidEvidence) as info:
        load_document(text)
    assert info.value.code == code


def test_load_document_exact_mode_reads_decimals():
    from decimal import Decimal

    document, found = load_document('{"a": 1e400, "b": 1e-400, "c": NaN}', exact=True)
    assert document["a"] == Decimal("1e400") and document["b"] == Decimal("1e-400")
    assert [(r.path, r.code) for r in found] == [("$['c']", "non-standard-constant")]
    with pytest.raises(InvalidEvidence) as info:
        load_document('{"a": NaN, "b": 1e-1001}', exact=True)
    assert info.value.code == "too-many-digits"


@pytest.mark.parametrize(
    "text, path_",
    [
        ("NaN", "$"),
        ("[[[NaN]]]", "$[0][0][0]"),
        ('{"it\'s": {"\\n": [0, NaN]}}', "$['it\\'s']['\\n'][1]"),
        ('{"a\\\\b": NaN}', "$['a\\\\b']"),
    ],
)
def test_the_recorded_path_is_normalized(text, path_):
    [record] = load_document(text)[1]
    assert record.path == path_
    [(selected, value)] = compile_query(path_).select(load_document(text)[0]) if path_ != "$" else [("$", 0)]
    assert selected == path_


def test_a_filter_that_reads_a_recorded_number_raises():
    document, found = load_document('{"samples": [{"v": 0.5}, {"v": NaN}]}')
    with pytest.raises(NonFiniteRead) as info:
        compile_query("$.samples[?@.v < 0.7]").select(document)
    assert info.value.path == found[0].path == "$['samples'][1]['v']"
    with pytest.raises(NonFiniteRead):
        compile_requirement("$.samples[1].v == 0").holds(document)


def test_nonfinite_is_an_immutable_value():
    record = load_document("[NaN]")[1][0]
    assert record == Nonfinite("$[0]", "non-standard-constant", "NaN", float("nan"))
    assert hash(record) == hash(Nonfinite("$[0]", "non-standard-constant", "NaN", 0.0))
    assert record != Nonfinite("$[1]", "non-standard-constant", "NaN", 0.0)
    assert repr(record) == "Nonfinite(path='$[0]', code='non-standard-constant', literal='NaN')"
    with pytest.raises(AttributeError):
        record.path = "$"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del record.code
    assert pickle.loads(pickle.dumps(record)) == record


# -- load_document against an oracle ------------------------------------------------------


class Mark:
    """What the oracle decodes a recorded number to."""

    def __init__(self, code: str, literal: str) -> None:
        self.code, self.literal = code, literal


def oracle_path(keys: list) -> str:
    """RFC 9535 section 2.7 normalized path, written here independently."""
    short = {"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "'": "\\'", "\\": "\\\\"}
    out = "$"
    for key in keys:
        if type(key) is int:
            out += f"[{key}]"
        else:
            out += "['" + "".join(short.get(c) or (f"\\u{ord(c):04x}" if ord(c) < 0x20 else c) for c in key) + "']"
    return out


def oracle(text: str):
    """json.loads with permissive hooks, then a walk by hand, in document order."""

    def pairs(members):
        names = [name for name, _ in members]
        if len(set(names)) != len(names):
            raise ValueError("duplicate")
        return dict(members)

    def number(token: str):
        value = float(token)
        if math.isinf(value):
            return Mark("non-finite", token)
        mantissa = token.lower().split("e")[0]
        if value == 0 and any(c in "123456789" for c in mantissa):
            return Mark("underflow", token)
        return value

    document = json.loads(
        text, object_pairs_hook=pairs, parse_float=number, parse_constant=lambda t: Mark("non-standard-constant", t)
    )
    found = []

    def walk(value, keys):
        if type(value) is Mark:
            found.append((oracle_path(keys), value.code, value.literal))
        elif type(value) is dict:
            for name, member in value.items():
                walk(member, keys + [name])
        elif type(value) is list:
            for index, item in enumerate(value):
                walk(item, keys + [index])

    walk(document, [])
    return document, found


def same_document(mine, theirs) -> bool:
    """Equal as JSON, a recorded number standing where the oracle has a Mark."""
    if type(theirs) is Mark:
        if type(mine) is not float:
            return False
        if theirs.code == "underflow" or theirs.literal == "NaN":
            return math.isnan(mine)
        return mine == (-math.inf if theirs.literal.startswith("-") else math.inf)
    if type(mine) is not type(theirs):
        return False
    if type(mine) is dict:
        return list(mine) == list(theirs) and all(same_document(mine[k], theirs[k]) for k in mine)
    if type(mine) is list:
        return len(mine) == len(theirs) and all(map(same_document, mine, theirs))
    return mine == theirs


SPECIALS = ["NaN", "Infinity", "-Infinity", "1e400", "-1E+400", "1e-400", "-2.5e-999", "0.0000000001e-330"]
PLAIN_NUMBERS = ["0", "-0", "7", "0.25", "-3.5e2", "0e-400", "0.0", "-0.0", "1E-5", "12345678901234567890"]
NAMES = [
    "a",
    "value",
    "it's",
    "a\\b",
    "x\ny",
    "\u00e9t\u00e9",
    "NaN",
    "Infinity",
    "k:v",
    "[0]",
    '"q"',
    "\U0001f600",
    "samples",
]
TEXTS = [
    "",
    "NaN",
    "-Infinity",
    "12:00:01",
    "a [b] {c}",
    'say "hi"',
    "back\\slash",
    "caf\u00e9",
    "\u2014",
    "\U0001f600",
    "tab\there",
]


def generated(rng: random.Random, depth: int = 0, specials: float = 0.08) -> str:
    """A JSON text of objects, arrays, strings and numbers, a few non-finite."""
    roll = rng.random()
    if depth > 5 or roll < 0.35:
        pick = rng.random()
        if pick < specials:
            return rng.choice(SPECIALS)
        if pick < 0.5:
            return rng.choice(PLAIN_NUMBERS)
        if pick < 0.55:
            return rng.choice(["true", "false", "null"])
        return json.dumps(rng.choice(TEXTS), ensure_ascii=rng.random() < 0.5)
    if roll < 0.7:
        names = rng.sample(NAMES, rng.randrange(min(6, len(NAMES))))
        members = [
            json.dumps(name, ensure_ascii=rng.random() < 0.5) + ": " + generated(rng, depth + 1, specials)
            for name in names
        ]
        return "{" + ", ".join(members) + "}"
    return "[" + ", ".join(generated(rng, depth + 1, specials) for _ in range(rng.randrange(7))) + "]"


def test_the_oracle_sees_what_it_must():
    document, found = oracle('{"a": [NaN, 1e400, -1e-400, 0e-400], "it\'s": Infinity}')
    assert [f[1:] for f in found] == [
        ("non-standard-constant", "NaN"),
        ("non-finite", "1e400"),
        ("underflow", "-1e-400"),
        ("non-standard-constant", "Infinity"),
    ]
    assert found[3][0] == "$['it\\'s']" and document["a"][3] == 0.0
    with pytest.raises(ValueError):
        oracle('{"a": 1, "a": 2}')


@functools.cache
def oracle_cases(seed: int) -> list[tuple[str, object, list]]:
    """Seed *seed*'s 25 texts, each with the oracle's document and records.

    Built once per run: the six path and budget variants of a seed read
    the same texts, and no test changes what the oracle returned.
    """
    rng = random.Random(seed)
    return [(text, *oracle(text)) for text in (generated(rng) for _ in range(25))]


@functools.cache
def large_oracle_cases(seed: int) -> list[tuple[str, object, list]]:
    """The four large shapes of *seed*, with the oracle's answers; built once per run."""
    rng = random.Random(1000 + seed)
    parts = [generated(rng, 2, specials=0.02) for _ in range(700)]
    shapes = [
        "[" + ", ".join(parts) + "]",
        '{"head": NaN, "rows": [' + ", ".join(parts) + '], "tail": [[1e400]]}',
        '{"samples": [' + ", ".join('{"i": %d, "v": %s}' % (i, p) for i, p in enumerate(parts)) + "]}",
        "[[" + ", ".join(parts) + '], {"deep": [[[[' + ", ".join(parts[:50]) + "]]]]}]",
    ]
    return [(text, *oracle(text)) for text in shapes]


@pytest.mark.exhaustive
@pytest.mark.parametrize("seed", sample(range(30), 10, "oracle seeds"))
def test_load_document_agrees_with_the_oracle(seed, path, budgets):
    recorded = 0
    for text, expected_document, expected in oracle_cases(seed):
        document, found = load_document(text)
        assert [(r.path, r.code, r.literal) for r in found] == expected, text
        assert same_document(document, expected_document), text
        for record in found:
            [(selected, value)] = (
                compile_query(record.path).select(document) if record.path != "$" else [("$", document)]
            )
            assert value is record.value
        recorded += len(found)
    assert recorded > 0  # the generator plants some


@pytest.mark.exhaustive
@pytest.mark.parametrize("seed", sample(range(4), 2, "large oracle seeds"))
def test_load_document_agrees_with_the_oracle_on_large_texts(seed, budgets):
    # Over FAST_MIN_LENGTH, with numbers deep under big arrays and objects,
    # so the search for containers runs over its budget and the walk from
    # the top goes down instead.
    for text, expected_document, expected in large_oracle_cases(seed):
        assert len(text) >= _strict_json.FAST_MIN_LENGTH
        document, found = load_document(text)
        assert [(r.path, r.code, r.literal) for r in found] == expected
        assert same_document(document, expected_document)
        assert len(found) > 3


def test_a_large_text_takes_the_fast_path():
    rng = random.Random(7)
    text = "[" + ", ".join(generated(rng, 1, specials=0.01) for _ in range(2000)) + "]"
    start = len(text) - len(text.lstrip())
    result, outside = _strict_json._fast(text, start, False, True)
    assert result is not None and len(text) >= _strict_json.FAST_MIN_LENGTH
    assert load_document(text)[0] == result[0] or oracle(text)[1]  # NaN makes == fail; the oracle checks values


# -- the fast path is the precise path, faster ---------------------------------------------


def outcome(text: str, fast: bool, record: bool, exact: bool):
    patch = on_path(fast)
    try:
        if record:
            document, found = load_document(text, exact=exact)
            return "ok", repr(document), found
        return "ok", repr(parse_json(text, exact=exact))
    except InvalidEvidence as exc:
        return "refused", exc.code, exc.message, exc.pos, exc.lineno, exc.colno
    finally:
        patch.undo()


def test_the_corpus_is_there():
    assert len(CORPUS) == 293


@pytest.mark.parametrize("file", CORPUS, ids=[p.name for p in CORPUS])
def test_both_paths_agree_on_the_corpus(file):
    raw = file.read_bytes()
    try:
        text = decode_evidence(raw, len(raw) + 1)
    except InvalidEvidence:
        pytest.skip("refused before the loader: encoding")
    for record in (False, True):
        for exact in (False, True):
            assert outcome(text, False, record, exact) == outcome(text, True, record, exact)


STRING_PIECES = [
    "a",
    "NaN",
    "Infinity",
    ":",
    "[",
    "]",
    "{",
    "}",
    ",",
    " ",
    '\\"',
    "\\\\",
    "\\n",
    "\\u00e9",
    "\\ud83d\\ude00",
    "\\ud800",
    "\\udc00",
    "\\ud800\\ud800\\udc00",
    "\\u0022",
    "\\u005c",
    "\u00e9",
    "\u2014",
    "\\/",
    "12:00",
    "\\\\u0041",
    "\\u003a",
]
NUMBER_PIECES = [
    "0",
    "-0",
    "1",
    "0.5",
    "-2.5e3",
    "1e400",
    "-1e400",
    "1e-400",
    "0e-400",
    "0.0",
    "NaN",
    "Infinity",
    "-Infinity",
    "1" * 250,
    "0." + "0" * 300 + "1",
    "1E+2",
]


def fuzzed(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if depth > 4 or roll < 0.3:
        if rng.random() < 0.5:
            return rng.choice(NUMBER_PIECES + ["true", "false", "null"])
        return '"' + "".join(rng.choice(STRING_PIECES) for _ in range(rng.randrange(4))) + '"'
    if roll < 0.65:
        names = [
            '"' + "".join(rng.choice(STRING_PIECES) for _ in range(rng.randrange(3))) + '"'
            for _ in range(rng.randrange(4))
        ]
        if names and rng.random() < 0.15:
            names.append(rng.choice(names))
        return "{" + ", ".join(f"{name}: {fuzzed(rng, depth + 1)}" for name in names) + "}"
    return "[" + ",".join(fuzzed(rng, depth + 1) for _ in range(rng.randrange(4))) + "]"


def mutated(rng: random.Random, text: str) -> str:
    if not text or rng.random() < 0.5:
        return text
    at = rng.randrange(len(text))
    if rng.random() < 0.4:
        return text[:at] + text[at + 1 :]
    return text[:at] + rng.choice('"\\[]{}:,N0 u\x00') + text[at:]


@pytest.mark.parametrize("seed", range(20))
def test_both_paths_agree_on_fuzzed_text(seed):
    rng = random.Random(seed)
    for _ in range(150):
        text = mutated(rng, fuzzed(rng))
        if rng.random() < 0.1:
            text = "[" * rng.randrange(120, 140) + text + "]" * rng.randrange(120, 140)
        for record in (False, True):
            exact = rng.random() < 0.2
            assert outcome(text, False, record, exact) == outcome(text, True, record, exact), text


@pytest.mark.parametrize(
    "text",
    [
        '["\\ud83d\\ude00"]',
        '["\\ud800"]',
        '["\\udc00"]',
        '["\\udc00\\ud800"]',
        '["\\ud800\\ud800\\udc00"]',
        '["\\ud800x"]',
        '["\\\\ud800"]',
        '["\\\\\\ud800"]',
        '{"\\udbff": 1}',
        '["ok", "\\ud812\\u0041"]',
        '["\\uD83D\\uDE00", "\\uDFFF"]',
        '"\\ud800"',
        '["\\ud800\\\\udc00"]',
    ],
)
def test_lone_surrogate_escapes_are_found_as_the_decoder_pairs_them(text):
    for record in (False, True):
        assert outcome(text, False, record, False) == outcome(text, True, record, False)


def test_a_raw_surrogate_in_a_str_is_treated_as_before():
    # Only a str from Python code can hold one; the string check refuses it
    # when the text holds a \u escape, as the precise path always did.
    for text in ['["\ud800", "\\u00e9"]', '["\ud800", "x\u2014"]', '["\\u00e9 \u2014", "\udc00"]']:
        assert outcome(text, False, False, False) == outcome(text, True, False, False)


def test_a_long_digit_run_sends_a_text_to_the_precise_path():
    for text in ["[" + "7" * 641 + "]", '["' + "7" * 900 + '", 1]', "[1." + "0" * 700 + "1]", "[" + "9" * 199 + "]"]:
        for record in (False, True):
            assert outcome(text, False, record, False) == outcome(text, True, record, False)


def test_the_depth_check_agrees_with_the_precise_scan():
    rng = random.Random(3)
    pieces = ["[", "]", "{", "}", '"', "\\", "\\\\", '\\"', "x", ":"]
    for _ in range(300):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(100, 600)))
        text = "[" * rng.randrange(100, 140) + text
        try:
            _strict_json._locate_too_deep(text)
            expected = None
        except InvalidEvidence as exc:
            expected = exc.pos
        try:
            _strict_json._check_depth(text)
            got = None
        except InvalidEvidence as exc:
            got = exc.pos
        assert got == expected, text
