# SPDX-License-Identifier: MIT
"""I-Regexp (RFC 9485): what is refused, what matches, and in linear time.

White-box: the I-Regexp matcher, ``_iregexp``, is checked on its own: its
refusals and costs, its automaton against ``re`` and a plain simulation, and
its caches, which no query shows.

The matcher is an automaton of its own, not ``re``; a differential test
runs it against ``re`` on random patterns small enough for ``re``'s
backtracking, with ``.`` translated as RFC 9485 section 5.3 says.
"""

from __future__ import annotations

import random
import re
import threading
import unicodedata

import pytest

from scorecontract import PolicyError, _iregexp
from scorecontract._iregexp import (
    _MAX_STATES,
    MAX_GROUP_DEPTH,
    NotIRegexp,
    Pattern,
    PatternTooCostly,
    compile_pattern,
)

VALID = [
    "",
    "a",
    "abc",
    "a|b",
    "a|",
    "|",
    "()",
    "(a)(b)",
    "((a|b)c)*",
    "a*",
    "a+",
    "a?",
    "a{0}",
    "a{2}",
    "a{2,}",
    "a{2,5}",
    "a{007}",
    ".",
    "a.b",
    "[a]",
    "[^a]",
    "[a-z]",
    "[-a]",
    "[a-]",
    "[--]",
    "[-]",
    "[a-z0-9_]",
    "[.]",
    "[\\]]",
    "[\\[]",
    "[\\-a]",
    "[\\--a]",
    "[^-]",
    "[$]",
    "[\\^]",
    "[^^]",
    "\\p{L}",
    "\\P{Lu}",
    "[\\p{L}\\p{Nd}]",
    "[^\\P{L}]",
    "\\n\\r\\t",
    "\\(\\)\\*\\+\\-\\.\\?\\[\\\\\\]\\^\\{\\|\\}",
    "^ab",
    "ab$",
    "a^b",
    "$",
    "^",
    ",",
    "/",
    "'\"",
    "é",
    "😀",
    "\x00",
    "\n",
    "!#%&:;<=>@_`~",
]

INVALID = [
    # Python (or PCRE) syntax that is not I-Regexp: each must be refused, so
    # none can change meaning silently.
    "\\d",
    "\\D",
    "\\w",
    "\\W",
    "\\s",
    "\\S",
    "\\b",
    "\\B",
    "\\A",
    "\\Z",
    "\\z",
    "\\G",
    "\\1",
    "(a)\\1",
    "\\x41",
    "\\u0041",
    "\\U00000041",
    "\\N{BULLET}",
    "\\0",
    "\\$",
    "\\/",
    "\\'",
    "\\a",
    "\\f",
    "\\v",
    "\\e",
    "\\k<n>",
    "(?:a)",
    "(?i)a",
    "(?P<n>a)",
    "(?<n>a)",
    "(?=a)",
    "(?!a)",
    "(?<=a)",
    "(?<!a)",
    "(?#c)",
    "(?>a)",
    "(?(1)a|b)",
    "a*?",
    "a+?",
    "a??",
    "a{2}?",
    "a*+",
    "a++",
    "a**",
    "a{2}{3}",
    "a{,3}",
    "a{}",
    "a{x}",
    "a{3,2}",
    "a{",
    "a{2",
    "a{2,",
    "{2}",
    "*",
    "+a",
    "?",
    "[]",
    "[^]",
    "[",
    "[a",
    "[a-b-c]",
    "[z-a]",
    "[[:alpha:]]",
    "[a-z-[aeiou]]",
    "[[]",
    "[a]]",
    "]",
    "}",
    "{",
    "(",
    ")",
    "a)",
    "(a",
    "((a)",
    "\\p{IsBasicLatin}",
    "\\p{Cs}",
    "\\p{Latin}",
    "\\p{l}",
    "\\p{LU}",
    "\\p{L",
    "\\pL",
    "\\p",
    "[\\p{L}-z]",
    "[a-\\p{L}]",
    "[\\d]",
    "[\\w-z]",
    "\\",
    "a\\",
    "\ud800",
    "[\udc00]",
]


@pytest.mark.parametrize("pattern", VALID)
def test_valid_i_regexps_compile(pattern):
    assert isinstance(compile_pattern(pattern), Pattern)


@pytest.mark.parametrize("pattern", INVALID)
def test_what_rfc_9485_does_not_allow_is_refused(pattern):
    with pytest.raises(NotIRegexp) as info:
        compile_pattern(pattern)
    assert isinstance(info.value, PolicyError) and info.value.code == "bad-selector"
    assert "not an I-Regexp" in info.value.message and "pattern index" in info.value.message


MATCHES = [
    # (pattern, text, fullmatch, search)
    ("a.*", "ab", True, True),
    ("a.*", "ba", False, True),
    (".", "\n", False, False),
    (".", "\r", False, False),
    (".", "\u2028", True, True),
    (".", "\u2029", True, True),
    (".", "😀", True, True),  # one code point, not two UTF-16 halves
    ("a.b", "a😀b", True, True),
    ("", "", True, True),
    ("", "x", False, True),
    ("a|b", "b", True, True),
    ("a|", "", True, True),
    ("ab|cd", "xcdx", False, True),
    ("a{2,3}", "aaaa", False, True),
    ("a{2,3}", "a", False, False),
    ("a{0}", "", True, True),
    ("(ab)+", "ababab", True, True),
    ("(ab)+", "aba", False, True),
    ("[^a]", "b", True, True),
    ("[^a]", "\n", True, True),  # a negated class does match newlines
    ("[a-c]+", "abcd", False, True),
    ("[.]", "x", False, False),
    ("[-a]+", "-a-", True, True),
    ("\\.", "a", False, False),
    ("\\n", "\n", True, True),
    ("\\p{Lu}", "Ж", True, True),
    ("\\p{Lu}", "ж", False, False),
    ("\\P{Lu}", "ж", True, True),
    ("\\p{L}+", "Жa", True, True),
    ("\\p{Nd}", "\u0663", True, True),  # XSD's \d would be this; [0-9] is ASCII
    ("[0-9]", "\u0663", False, False),
    ("\\p{Zs}", "\u00a0", True, True),
    ("[\\p{Lu}\\P{L}]", "a", False, False),
    ("[\\p{Lu}\\P{L}]", "1", True, True),
    ("[^\\p{Lu}]", "a", True, True),
    # "^" and "$" anchor (RFC 9485 section 5.3 mapping, the compliance suite).
    ("^ab.*", "abc", True, True),
    ("^ab", "xab", False, False),
    (".*bc$", "abc", True, True),
    ("bc$", "abcx", False, False),
    ("a$", "a\n", False, False),  # unlike Python's $, not before a final newline
    ("a^b", "a^b", False, False),
    ("[$^]+", "$^", True, True),
    ("\\^", "^", True, True),
    ("$^", "", True, True),
    ("()*", "", True, True),
    ("(a*)*b", "aab", True, True),
]


@pytest.mark.parametrize("pattern, text, full, anywhere", MATCHES)
def test_matching(pattern, text, full, anywhere):
    compiled = compile_pattern(pattern)
    assert compiled.fullmatch(text) is full
    assert compiled.search(text) is anywhere
    # Run again: the second run goes through the cached transitions.
    assert compiled.fullmatch(text) is full
    assert compiled.search(text) is anywhere


@pytest.mark.parametrize(
    "pattern, text",
    [
        ("(a|aa)*c", "a" * 5000),
        ("(a+)+b", "a" * 5000),
        ("(a*)*b", "a" * 5000),
        ("(.*a){20}", "a" * 19 + "b" * 5000),
        ("a.*b.*c.*d.*e", "abcd" * 2000),
        ("(\\p{L}|\\p{Ll})*1", "x" * 5000),
    ],
)
def test_patterns_that_make_re_backtrack_for_ever_finish(pattern, text):
    # With re each of these takes exponential or high polynomial time on
    # this text; here it is one pass.
    compiled = compile_pattern(pattern)
    assert compiled.fullmatch(text) is False
    assert compiled.search(text) is False


def test_too_costly_patterns_are_refused_not_run():
    for pattern in ("(a{100}){100}", "a{5000}", "(((a{20}){20}){20})", "a{9999999}"):
        with pytest.raises(PatternTooCostly) as info:
            compile_pattern(pattern)
        assert info.value.code == "bad-selector"
    deep = "(" * (MAX_GROUP_DEPTH + 1) + ")" * (MAX_GROUP_DEPTH + 1)
    with pytest.raises(PatternTooCostly):
        compile_pattern(deep)
    assert compile_pattern("(" * MAX_GROUP_DEPTH + "a" + ")" * MAX_GROUP_DEPTH).fullmatch("a")


def test_compiled_patterns_are_cached_and_so_are_refusals():
    assert compile_pattern("[a-z]+") is compile_pattern("[a-z]+")
    for _ in range(2):
        with pytest.raises(NotIRegexp):
            compile_pattern("\\d")


CATEGORIES = [
    "L",
    "Lu",
    "Ll",
    "Lt",
    "Lm",
    "Lo",
    "M",
    "Mn",
    "Mc",
    "Me",
    "N",
    "Nd",
    "Nl",
    "No",
    "P",
    "Pc",
    "Pd",
    "Ps",
    "Pe",
    "Pi",
    "Pf",
    "Po",
    "Z",
    "Zs",
    "Zl",
    "Zp",
    "S",
    "Sm",
    "Sc",
    "Sk",
    "So",
    "C",
    "Cc",
    "Cf",
    "Cn",
    "Co",
]


@pytest.mark.parametrize("category", CATEGORIES)
def test_every_category_rfc_9485_names(category):
    positive = compile_pattern("\\p{%s}" % category)
    negative = compile_pattern("\\P{%s}" % category)
    in_class = compile_pattern("[^\\p{%s}]" % category)
    rng = random.Random(category)
    seen = False
    for code in [rng.randrange(0x110000) for _ in range(300)] + list(range(0x100)):
        if 0xD800 <= code <= 0xDFFF:
            continue
        char = chr(code)
        actual = unicodedata.category(char)
        expected = actual == category or actual[0] == category
        seen = seen or expected
        assert positive.fullmatch(char) is expected, (category, hex(code))
        assert negative.fullmatch(char) is not expected, (category, hex(code))
        assert in_class.fullmatch(char) is not expected, (category, hex(code))
    examples = {
        "Lt": "\u01c5",
        "Me": "\u20dd",
        "Zl": "\u2028",
        "Zp": "\u2029",
        "Pi": "\u00ab",
        "Pf": "\u00bb",
        "Co": "\ue000",
        "Cn": "\U000e0fff",
        "Cf": "\u200b",
        "Mc": "\u0903",
        "Nl": "\u2160",
        "Pc": "_",
        "Pd": "-",
        "Ps": "(",
        "Pe": ")",
        "Sk": "^",
        "Sc": "$",
        "Lm": "\u02b0",
    }
    if category in examples:
        assert positive.fullmatch(examples[category])
    else:
        assert seen, category


# -- a differential test against re -------------------------------------------


def _random_pattern(rng, depth=0):
    """(I-Regexp, the same in Python re syntax)."""
    pieces = []
    for _ in range(rng.randrange(1, 4)):
        roll = rng.random()
        if roll < 0.3:
            atom = rng.choice([("a", "a"), ("b", "b"), ("\\.", "\\."), ("\\n", "\\n")])
        elif roll < 0.45:
            atom = (".", "[^\\n\\r]")  # RFC 9485 section 5.3
        elif roll < 0.65:
            atom = rng.choice(
                [
                    ("[ab]", "[ab]"),
                    ("[^a]", "[^a]"),
                    ("[a-c]", "[a-c]"),
                    ("[.\\n]", "[.\\n]"),
                    ("[^\\n\\r]", "[^\\n\\r]"),
                ]
            )
        elif depth < 2:
            inner = [_random_pattern(rng, depth + 1) for _ in range(rng.randrange(1, 3))]
            atom = ("(" + "|".join(i for i, _ in inner) + ")", "(?:" + "|".join(p for _, p in inner) + ")")
        else:
            atom = ("a", "a")
        quantifier = rng.choice(["", "", "", "*", "+", "?", "{2}", "{0,2}", "{1,}"])
        pieces.append((atom[0] + quantifier, atom[1] + quantifier))
    if rng.random() < 0.2:
        return ("".join(i for i, _ in pieces) + "|b", "(?:" + "".join(p for _, p in pieces) + "|b)")
    return ("".join(i for i, _ in pieces), "(?:" + "".join(p for _, p in pieces) + ")")


def test_differential_against_re():
    rng = random.Random(9485)
    compared = 0
    for _ in range(300):
        pattern, translated = _random_pattern(rng)
        mine = compile_pattern(pattern)
        theirs = re.compile(translated, re.DOTALL)
        for _ in range(20):
            text = "".join(rng.choice("ab.\n\rc") for _ in range(rng.randrange(9)))
            assert mine.fullmatch(text) is (theirs.fullmatch(text) is not None), (pattern, text)
            assert mine.search(text) is (theirs.search(text) is not None), (pattern, text)
            compared += 1
    assert compared == 6000


def test_a_pattern_with_more_states_than_the_cache_holds():
    # (a|b)*a(a|b){12} needs thousands of DFA states: a full cache is
    # emptied and filled again, with the same answers.
    pattern = "(a|b)*a(a|b){12}"
    mine = compile_pattern(pattern)
    theirs = re.compile(pattern)
    rng = random.Random(5)
    for _ in range(60):
        text = "".join(rng.choice("ab") for _ in range(rng.randrange(10, 300)))
        assert mine.fullmatch(text) is (theirs.fullmatch(text) is not None)
        assert mine.search(text) is (theirs.search(text) is not None)
    assert mine._full.flushes >= 1  # the cache did fill up
    assert 0 < len(mine._full.states) <= _MAX_STATES


def test_threads_share_compiled_patterns_safely():
    pattern = "(a|b)*a(a|b){6}c"
    texts = ["".join(random.Random(n).choice("abc") for _ in range(200)) for n in range(40)]
    oracle = re.compile(pattern)
    expected = [(oracle.fullmatch(t) is not None, oracle.search(t) is not None) for t in texts]
    compiled = compile_pattern(pattern)
    results: dict[int, list[tuple[bool, bool]]] = {}

    def work(worker: int) -> None:
        results[worker] = [(compiled.fullmatch(t), compiled.search(t)) for t in texts]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 8
    assert all(result == expected for result in results.values())


# -- the bit-parallel automaton: anchors, empty loops, large programs, caches --


def _anchored_pattern(rng, depth=0, max_depth=2):
    """(I-Regexp, the same in Python re syntax), with anchors and empty loops.

    Nested quantified groups make re backtrack for minutes on a few
    characters: *max_depth* 1 keeps it to patterns re runs at once.
    """
    pieces = []
    for _ in range(rng.randrange(1, 4)):
        roll = rng.random()
        if roll < 0.25:
            atom = rng.choice([("a", "a"), ("b", "b"), ("[$]", "\\$"), ("\\^", "\\^")])
        elif roll < 0.35:
            atom = (".", "[^\\n\\r]")
        elif roll < 0.45:
            # RFC 9485 "^" and "$" are the start and the end of the string.
            atom = rng.choice([("^", "(?:\\A)"), ("$", "(?:\\Z)")])
        elif roll < 0.55:
            atom = rng.choice([("()", "()"), ("(|a)", "(?:|a)"), ("(a*)", "(?:a*)"), ("[^b]", "[^b]")])
        elif depth < max_depth:
            inner = [_anchored_pattern(rng, depth + 1, max_depth) for _ in range(rng.randrange(1, 3))]
            atom = ("(" + "|".join(i for i, _ in inner) + ")", "(?:" + "|".join(p for _, p in inner) + ")")
        else:
            atom = ("b", "b")
        if atom[0] in ("^", "$"):
            quantifier = rng.choice(["", "", "?", "*"])
        else:
            quantifier = rng.choice(["", "", "*", "+", "?", "{2}", "{0,3}", "{1,}"])
        pieces.append((atom[0] + quantifier, atom[1] + quantifier))
    if rng.random() < 0.2:
        return ("".join(i for i, _ in pieces) + "|a", "(?:" + "".join(p for _, p in pieces) + "|a)")
    return ("".join(i for i, _ in pieces), "(?:" + "".join(p for _, p in pieces) + ")")


def test_differential_with_anchors_and_empty_loops_against_re():
    rng = random.Random(9535)
    compared = matched = 0
    for _ in range(300):
        pattern, translated = _anchored_pattern(rng, max_depth=1)
        mine = Pattern(pattern)
        theirs = re.compile(translated, re.DOTALL)
        for _ in range(12):
            text = "".join(rng.choice("ab$^\n") for _ in range(rng.randrange(7)))
            full = theirs.fullmatch(text) is not None
            assert mine.fullmatch(text) is full, (pattern, text)
            assert mine.search(text) is (theirs.search(text) is not None), (pattern, text)
            compared += 1
            matched += full
    assert compared == 3600
    assert 300 < matched < 3300


def _ab(rng, low, high):
    return "".join(rng.choice("ab") for _ in range(rng.randrange(low, high + 1)))


LARGE_PROGRAMS = {
    # Every position goes on to the one below: shifts only.
    "a[ab]{300}c": lambda rng: "a" + _ab(rng, 299, 301) + "c",
    # Every position goes on through a choice: tables only.
    "(a|b){150}": lambda rng: _ab(rng, 149, 151),
    # A chain of optional positions.
    "[ab]{0,200}c": lambda rng: _ab(rng, 0, 201) + "c",
    "(a[ab]?){60}b": lambda rng: "".join("a" + _ab(rng, 0, 1) for _ in range(rng.randrange(59, 62))) + "b",
    "((ab|a){0,3}b){12}": lambda rng: "".join(
        "".join(rng.choice(["ab", "a"]) for _ in range(rng.randrange(4))) + "b" for _ in range(rng.randrange(11, 14))
    ),
    "(a{2,5}b?){30}": lambda rng: "".join(
        "a" * rng.randrange(2, 6) + rng.choice(["", "b"]) for _ in range(rng.randrange(29, 32))
    ),
}


def _simulate(pattern, text, search):
    """Run *pattern*'s program on *text* one set of positions at a time.

    The plain Thompson simulation, no bits, no tables, no caches: what the
    automaton must agree with, also where re would backtrack for ever.
    """
    machine = pattern._full.machine
    code = machine.code

    def closure(seeds, at_start, at_end):
        seen, kept, stack = set(), set(), list(seeds)
        while stack:
            pc = stack.pop()
            if pc in seen:
                continue
            seen.add(pc)
            op = code[pc].op
            if op == _iregexp._SPLIT:
                stack += [code[pc].then, code[pc].other]
            elif op == _iregexp._BOL:
                if at_start:
                    stack.append(code[pc].then)
            elif op == _iregexp._EOL and at_end:
                stack.append(code[pc].then)
            else:
                kept.add(pc)
        return kept

    current = closure([machine.start], True, False)
    for char in text:
        if search and machine.match_pc in current:
            return True
        following = [
            code[pc].then for pc in current if code[pc].op == _iregexp._CHAR and code[pc].char_class.contains(char)
        ]
        current = closure(following + ([machine.start] if search else []), False, False)
    # At the end "$" holds, and "^" too if the text is empty.
    return machine.match_pc in closure(current, not text, True)


@pytest.mark.parametrize("pattern", sorted(LARGE_PROGRAMS))
def test_large_programs_against_a_plain_simulation(pattern):
    # Programs of hundreds of positions, so that a step spans many bytes of
    # the step tables; the texts are built to match, then some are spoilt.
    rng = random.Random(len(pattern))
    mine = Pattern(pattern)
    outcomes = set()
    for number in range(12):
        text = LARGE_PROGRAMS[pattern](rng)
        if number % 3 == 0:
            spot = rng.randrange(len(text) + 1)
            text = text[:spot] + rng.choice(["a", "b", "c", ""]) + text[spot + 1 :]
        full = _simulate(mine, text, search=False)
        anywhere = _simulate(mine, text, search=True)
        assert (mine.fullmatch(text), mine.search(text)) == (full, anywhere), (pattern, text)
        outcomes.add(full)
    assert outcomes == {True, False}


def test_the_plain_simulation_agrees_with_re():
    rng = random.Random(6)
    for _ in range(100):
        pattern, translated = _anchored_pattern(rng, max_depth=1)
        mine, theirs = Pattern(pattern), re.compile(translated, re.DOTALL)
        for _ in range(5):
            text = "".join(rng.choice("ab$^\n") for _ in range(rng.randrange(6)))
            assert _simulate(mine, text, search=False) is (theirs.fullmatch(text) is not None), (pattern, text)
            assert _simulate(mine, text, search=True) is (theirs.search(text) is not None), (pattern, text)


def test_nested_groups_against_the_plain_simulation():
    # Groups in groups, quantified, with anchors: where re backtracks for
    # minutes, the plain simulation is the oracle.
    rng = random.Random(9485)
    compared = matched = 0
    for _ in range(150):
        pattern, _ = _anchored_pattern(rng)
        mine = Pattern(pattern)
        for _ in range(8):
            text = "".join(rng.choice("ab$^\n") for _ in range(rng.randrange(9)))
            full = _simulate(mine, text, search=False)
            assert mine.fullmatch(text) is full, (pattern, text)
            assert mine.search(text) is _simulate(mine, text, search=True), (pattern, text)
            compared += 1
            matched += full
    assert compared == 1200
    assert 100 < matched < 1100


def test_caches_that_fill_at_once_give_the_same_answers(monkeypatch):
    # Every cache of the automaton emptied almost at every step: the answers
    # are those of an automaton whose caches never fill.
    rng = random.Random(2026)
    patterns = ["(a|b)*a(a|b){5}", "[\\p{Lu}x][^a]{3}b", "a[ab]{20}c", "(^a|b$|.)*c", "(é|[α-ω]){2,4}"]
    texts = ["".join(rng.choice("abcxAÉéαω\n") for _ in range(rng.randrange(40))) for _ in range(150)]
    roomy = [Pattern(pattern) for pattern in patterns]
    monkeypatch.setattr(_iregexp, "_MAX_STATES", 2)
    monkeypatch.setattr(_iregexp, "_MAX_TRANSITIONS", 3)
    monkeypatch.setattr(_iregexp, "_MAX_CHARS", 1)
    cramped = [Pattern(pattern) for pattern in patterns]
    for compiled in cramped:
        compiled._full.machine.table_size = 1
    for text in texts:
        for big, small in zip(roomy, cramped):
            assert (small.fullmatch(text), small.search(text)) == (big.fullmatch(text), big.search(text)), (
                big.pattern,
                text,
            )
    assert all(compiled._full.flushes > 10 and compiled._search.flushes > 10 for compiled in cramped)
