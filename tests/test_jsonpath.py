# SPDX-License-Identifier: MIT
"""Selection: JSONPath (RFC 9535) and JSON Pointer (RFC 6901), rule by rule.

White-box: the engine's compiled queries and requirements, its non-finite
reads, misses, normalized paths and caches (``_jsonpath``) are checked on
the engine; the public ``query`` is held to the compliance suite in
tests/test_jsonpath_cts.py.

The compliance suite (test_jsonpath_cts.py) covers the grammar and the
standard's own examples; these tests cover what Python gets wrong on its
own -- true is 1, NaN compares false, int() reads any script's digits --
the messages a gate prints, and a differential test against a hand walk.
"""

from __future__ import annotations

import json
import math
import pickle
import random
import sys
from collections import OrderedDict
from decimal import Decimal
from fractions import Fraction

import pytest

from scorecontract import InvalidEvidence, PolicyError, _jsonpath, loads
from scorecontract._jsonpath import (
    MAX_NESTING,
    Miss,
    NonFiniteRead,
    Query,
    compile_query,
    compile_requirement,
    normalized_path,
    query,
)

NAN = float("nan")
INF = float("inf")


def values(document, path):
    return [value for _, value in query(document, path)]


def paths(document, path):
    return [where for where, _ in query(document, path)]


def bad_selector(path):
    with pytest.raises(PolicyError) as info:
        compile_query(path)
    assert info.value.code == "bad-selector"
    return info.value.message


# -- true is not 1, 1 is 1.0 ---------------------------------------------------

MIXED = [True, 1, 1.0, "1", [1], False, 0, 0.0, -0.0, None, {"a": 1}]

EQUALITY = [
    # (id, filter, the indexes of MIXED it keeps)
    ("one-is-not-true", "@ == 1", [1, 2]),
    ("true-is-not-one", "@ == true", [0]),
    ("zero-is-not-false", "@ == 0", [6, 7, 8]),
    ("false-is-not-zero", "@ == false", [5]),
    ("null-is-not-false", "@ == null", [9]),
    ("float-literal-equals-int", "@ == 1.0", [1, 2]),
    ("exponent-literal", "@ == 1e0", [1, 2]),
    ("negative-zero-literal", "@ == -0", [6, 7, 8]),
    ("string-is-not-number", "@ == '1'", [3]),
    ("array-of-one", "@ == $[4]", [4]),
    ("object", "@ == $[10]", [10]),
    ("not-equal-keeps-true", "@ != 1", [0, 3, 4, 5, 6, 7, 8, 9, 10]),
    ("true-is-not-greater-than-zero", "@ > 0", [1, 2]),
    ("true-is-not-below-two", "@ < 2", [1, 2, 6, 7, 8]),
]


@pytest.mark.parametrize("expression, kept", [c[1:] for c in EQUALITY], ids=[c[0] for c in EQUALITY])
def test_json_values_are_compared_as_json(expression, kept):
    assert paths(MIXED, f"$[?{expression}]") == [f"$[{i}]" for i in kept]


def test_deep_equality_keeps_types():
    document = {"a": [[True, {"x": 1}]], "b": [[1, {"x": 1.0}]], "c": [[1.0, {"x": 1}]]}
    assert values(document, "$[?@ == $.c]") == [[[1, {"x": 1.0}]], [[1.0, {"x": 1}]]]
    assert values(document, "$[?@ == $.a]") == [[[True, {"x": 1}]]]
    # Same keys, other order: still equal (objects are unordered).
    assert values({"p": {"a": 1, "b": 2}, "q": {"b": 2, "a": 1}}, "$[?@ == $.p]") == [{"a": 1, "b": 2}] * 2


def test_hash_collisions_do_not_merge_values():
    # hash(True) == hash(1) == hash(1.0): a set or dict of values would merge
    # them.  Each is its own node.
    assert values({"t": True, "o": 1, "f": 1.0}, "$.*") == [True, 1, 1.0]
    assert [type(v) for v in values([True, 1, 1.0], "$[*]")] == [bool, int, float]


def test_big_integers_compare_exactly():
    big = 2**80
    document = [big, big + 1, float(big), 2**1000]
    assert paths(document, f"$[?@ == {big}]") == ["$[0]", "$[2]"]
    assert paths(document, f"$[?@ > {big}]") == ["$[1]", "$[3]"]
    # Through float, 2**80 + 1 would equal 2**80.
    assert paths(document, f"$[?@ == {big + 1}]") == ["$[1]"]
    assert paths(document, "$[?@ > 1.2089258196146292e+24]") == ["$[1]", "$[3]"]
    assert paths([2**53 + 1], "$[?@ == 9007199254740992.0]") == []


def test_decimal_documents_meet_float_literals_by_their_text():
    document = loads("[0.1, 0.30000000000000004, 1.0, 1e-7]", exact=True)
    assert all(type(v) is Decimal for v in document)
    assert paths(document, "$[?@ == 0.1]") == ["$[0]"]
    assert paths(document, "$[?@ == 1]") == ["$[2]"]
    assert paths(document, "$[?@ < 0.3]") == ["$[0]", "$[3]"]
    assert paths(document, "$[?@ == 1e-7]") == ["$[3]"]


def test_dict_order_is_document_order():
    document = loads('{"z": 1, "a": 2, "m": {"y": 3, "b": 4}}')
    assert paths(document, "$..*") == ["$['z']", "$['a']", "$['m']", "$['m']['y']", "$['m']['b']"]


# -- non-finite values ---------------------------------------------------------

NON_FINITE_READS = [
    # (id, document, query or requirement, path of the value read)
    ("compared", {"a": [{"s": NAN}]}, "$.a[?@.s < 0.5]", "$['a'][0]['s']"),
    ("compared-negated", {"a": [{"s": NAN}]}, "$.a[?!(@.s < 0.5)]", "$['a'][0]['s']"),
    ("compared-infinity", {"a": [INF]}, "$.a[?@ >= 1]", "$['a'][0]"),
    ("compared-minus-infinity", {"a": [-INF]}, "$.a[?@ == 0]", "$['a'][0]"),
    ("inside-a-compared-array", {"a": [[1, NAN]], "b": [1, 2]}, "$.a[?@ == $.b]", "$['a'][0][1]"),
    ("inside-a-compared-object", {"a": [{"x": {"y": INF}}]}, "$.a[?@.x == 1]", "$['a'][0]['x']['y']"),
    ("existence-test", {"a": [{"s": NAN}]}, "$.a[?@.s]", "$['a'][0]['s']"),
    ("length", {"a": [{"s": NAN}]}, "$.a[?length(@.s) == 1]", "$['a'][0]['s']"),
    ("count", {"a": [{"s": [1, NAN]}]}, "$.a[?count(@.s[*]) == 2]", "$['a'][0]['s'][1]"),
    ("value", {"a": [{"s": NAN}]}, "$.a[?value(@..s) == 1]", "$['a'][0]['s']"),
    ("match", {"a": [{"s": NAN}]}, "$.a[?match(@.s, 'x')]", "$['a'][0]['s']"),
    ("current-node", [NAN], "$[?@ == @]", "$[0]"),
    ("absolute", {"t": NAN, "a": [1]}, "$.a[?@ < $.t]", "$['t']"),
]


@pytest.mark.parametrize(
    "document, path, where", [c[1:] for c in NON_FINITE_READS], ids=[c[0] for c in NON_FINITE_READS]
)
def test_a_non_finite_read_raises_with_its_path(document, path, where):
    with pytest.raises(NonFiniteRead) as info:
        query(document, path)
    assert info.value.path == where
    assert info.value.code == "non-finite"
    assert isinstance(info.value, InvalidEvidence)
    assert where in info.value.message


def test_decimal_nan_is_non_finite_too():
    document = [Decimal("NaN"), Decimal("sNaN"), Decimal("-Infinity")]
    for index in range(3):
        with pytest.raises(NonFiniteRead) as info:
            query(document, f"$[?@ == $[{index}]]")
        assert info.value.path == "$[0]"  # the first element read


def test_selecting_a_non_finite_value_is_not_a_read():
    document = {"acc": NAN, "m": [INF]}
    [(where, value)] = query(document, "$.acc")
    assert where == "$['acc']" and math.isnan(value)
    assert query(document, "/m/0") == [("$['m'][0]", INF)]
    assert len(query(document, "$..*")) == 3


def test_non_finite_values_elsewhere_are_not_read():
    document = {"scores": [{"name": "choice", "value": 0.7, "stderr": NAN}, {"name": "x", "value": NAN}]}
    assert values(document, "$.scores[?@.name == 'choice'].value") == [0.7]
    assert paths(document, "$.scores[?@.name == 'x'].name") == ["$['scores'][1]['name']"]


def test_non_finite_read_pickles():
    error = NonFiniteRead("$['a']", NAN)
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is NonFiniteRead and copy.path == "$['a']" and math.isnan(copy.value)
    assert (copy.code, copy.message) == (error.code, error.message)


# -- requirements ------------------------------------------------------------------

INSPECT = {
    "status": "success",
    "invalidated": False,
    "results": {
        "total_samples": 100,
        "completed_samples": 100,
        "scores": [
            {"name": "exact", "metrics": {"accuracy": {"value": 0.5}}},
            {"name": "choice", "metrics": {"accuracy": {"value": 0.71}, "stderr": {"value": NAN}}},
        ],
    },
}

REQUIREMENTS = [
    ("$.status == 'success'", True),
    ('$.status == "error"', False),
    ("$.results.completed_samples == $.results.total_samples", True),
    ("$.results.completed_samples < $.results.total_samples", False),
    # A bare query tests existence, not truth: invalidated is present.
    ("!$.invalidated", False),
    ("$.invalidated != true", True),
    ("$.invalidated == false", True),
    ("!$.withdrawn", True),
    ("$.withdrawn == false", False),  # Nothing is not false
    ("$.withdrawn != true", True),
    ("count($.results.scores[*]) >= 1 && $.status == 'success'", True),
    ("length($.results.scores) == 2", True),
    ("$.results.scores[?@.name == 'choice'].metrics.accuracy", True),
    ("$.results.scores[?@.name == 'none']", False),
    ("value($.results.scores[?@.name == 'choice'].metrics.accuracy.value) >= 0.7", True),
    ("  $.status == 'success'  ", True),
    ("($.status == 'error') || !($.results.total_samples > 100)", True),
]


@pytest.mark.parametrize("expression, expected", REQUIREMENTS)
def test_requirements(expression, expected):
    requirement = compile_requirement(expression)
    assert requirement.holds(INSPECT) is expected
    assert requirement.text == expression


def test_a_requirement_that_reads_nan_raises():
    requirement = compile_requirement("$.results.scores[1].metrics.stderr.value < 0.1")
    with pytest.raises(NonFiniteRead) as info:
        requirement.holds(INSPECT)
    assert info.value.path == "$['results']['scores'][1]['metrics']['stderr']['value']"


BAD_REQUIREMENTS = [
    ("@.status == 'success'", 0, "no current node"),
    ("$.a == @.b", 7, "no current node"),
    ("length($.a)", 0, "returns a value"),
    ("'success'", 0, "literal"),
    ("$.a ==", 6, "expected a query"),
    ("", 0, "empty"),
    ("$.a = 1", 4, "unexpected"),
    ("$.a == 1 $.b", 9, "unexpected"),
]


@pytest.mark.parametrize("expression, position, words", BAD_REQUIREMENTS)
def test_bad_requirements(expression, position, words):
    with pytest.raises(PolicyError) as info:
        compile_requirement(expression)
    assert info.value.code == "bad-selector"
    assert f"at position {position} " in info.value.message
    assert words in info.value.message


def test_current_node_is_fine_inside_a_requirement_filter():
    assert compile_requirement("count($.results.scores[?@.name == 'choice']) == 1").holds(INSPECT)


# -- the filter real users write ---------------------------------------------------


def test_inspect_headline_by_scorer_name():
    assert query(INSPECT, "$.results.scores[?@.name=='choice'].metrics.accuracy.value") == [
        ("$['results']['scores'][1]['metrics']['accuracy']['value']", 0.71)
    ]


def test_lm_eval_headline_by_jsonpath_and_by_pointer():
    document = loads('{"results": {"mmlu": {"acc,none": 0.61, "acc_stderr,none": "N/A"}}}')
    expected = [("$['results']['mmlu']['acc,none']", 0.61)]
    assert query(document, '$.results.mmlu["acc,none"]') == expected
    assert query(document, "$['results']['mmlu']['acc,none']") == expected
    assert query(document, "/results/mmlu/acc,none") == expected


def test_mlflow_keys_with_slashes():
    document = {"toxicity/v1/mean": 0.1, "a~b": 2}
    assert query(document, "/toxicity~1v1~1mean") == [("$['toxicity/v1/mean']", 0.1)]
    assert query(document, "$['toxicity/v1/mean']") == [("$['toxicity/v1/mean']", 0.1)]
    assert query(document, "/a~0b") == [("$['a~b']", 2)]


# -- normalized paths ------------------------------------------------------------

NAMES = [
    # (name, as it appears in a normalized path)
    ("plain", "['plain']"),
    ("acc,none", "['acc,none']"),
    ("it's", "['it\\'s']"),
    ("back\\slash", "['back\\\\slash']"),
    ('double"quote', "['double\"quote']"),
    ("line\nfeed", "['line\\nfeed']"),
    ("\b\f\r\t", "['\\b\\f\\r\\t']"),
    ("\x00\x01\x1f", "['\\u0000\\u0001\\u001f']"),
    ("\x0b", "['\\u000b']"),
    ("\x7f", "['\x7f']"),
    ("é\u2028😀", "['é\u2028😀']"),
    ("", "['']"),
]


@pytest.mark.parametrize("name, part", NAMES)
def test_normalized_path_escaping(name, part):
    document = {name: [0, {name: 1}]}
    assert paths(document, "$.*") == ["$" + part]
    assert paths(document, "$.*[1].*") == ["$" + part + "[1]" + part]
    assert normalized_path([name, 1, name]) == "$" + part + "[1]" + part
    # RFC 9535 section 2.7: a normalized path is itself a query for its node.
    where = "$" + part + "[1]" + part
    assert query(document, where) == [(where, 1)]


def test_normalized_path_refuses_non_keys():
    with pytest.raises(TypeError):
        normalized_path(["a", True])
    with pytest.raises(TypeError):
        normalized_path([1.0])


def test_negative_indexes_normalize():
    assert query([10, 20, 30], "$[-1]") == [("$[2]", 30)]
    assert paths([10, 20, 30], "$[::-1]") == ["$[2]", "$[1]", "$[0]"]


# -- JSON Pointer ------------------------------------------------------------------

POINTER_DOCUMENT = {
    "a": [10, 20, {"b": 1}],
    "": {"": "empty"},
    "01": "a name, not an index",
    "~1": "tilde one",
    "/": "slash",
    "a/b": "a slash b",
}

POINTERS = [
    ("", [("$", POINTER_DOCUMENT)]),
    ("/a/0", [("$['a'][0]", 10)]),
    ("/a/2/b", [("$['a'][2]['b']", 1)]),
    ("/", [("$['']", {"": "empty"})]),
    ("//", [("$['']['']", "empty")]),
    ("/01", [("$['01']", "a name, not an index")]),
    ("/~01", [("$['~1']", "tilde one")]),  # ~1 is undone before ~0
    ("/~1", [("$['/']", "slash")]),
    ("/a~1b", [("$['a/b']", "a slash b")]),
    ("/a/-", []),  # the element after the last: never there
    ("/a/01", []),  # leading zero
    ("/a/00", []),
    ("/a/ 1", []),  # int() would read these
    ("/a/+1", []),
    ("/a/1_0", []),
    ("/a/\u0661", []),  # ARABIC-INDIC DIGIT ONE
    ("/a/-1", []),
    ("/a/3", []),
    ("/a/99999999999999999999999", []),
    ("/a/0/x", []),
    ("/missing", []),
    ("/a/b", []),
]


@pytest.mark.parametrize("pointer, expected", POINTERS)
def test_pointers(pointer, expected):
    compiled = compile_query(pointer)
    assert compiled.is_pointer and compiled.singular
    assert compiled.select(POINTER_DOCUMENT) == expected


@pytest.mark.parametrize("pointer, position", [("/a~", 2), ("/a~2", 2), ("/~/x", 1), ("/x/~a~0", 3)])
def test_bad_pointer_escapes(pointer, position):
    assert f"at position {position} " in bad_selector(pointer)


# -- bad selectors -----------------------------------------------------------------

BAD_SELECTORS = [
    # (query, position of the fault, words in the message)
    ("results.mmlu", 0, "not a query"),
    ("#/results", 0, "not a query"),
    (" $.a", 0, "not a query"),
    ("$.a ", 3, "blank space after the query"),
    ("$.", 2, "after '.'"),
    ("$. a", 2, "after '.'"),
    ("$.1a", 2, "after '.'"),
    ("$...a", 3, "after '..'"),
    ("$.a[", 4, "expected a selector"),
    ("$.a[0", 5, "expected ',' or ']'"),
    ("$[01]", 2, "leading zeros"),
    ("$[-0]", 2, "leading zeros"),
    ("$[9007199254740992]", 2, "I-JSON"),
    ("$['a]", 2, "unterminated"),
    ("$['\\x']", 3, "invalid escape"),
    ("$['\\\"']", 3, "invalid escape"),
    ("$['\\uD800']", 3, "surrogate"),
    ("$['\n']", 3, "control character"),
    ("$[?@.a ==]", 9, "expected a query"),
    ("$[?@.a = 1]", 7, "expected ',' or ']'"),
    ("$[?!@.a == 1]", 3, "negates only the test"),
    ("$[?@.* == 1]", 3, "singular"),
    ("$[?@[ 'a' ] == 1]", 3, "singular"),
    ("$[?length(@)]", 3, "returns a value"),
    ("$[?match(@, 'a') == true]", 3, "logical value"),
    ("$[?count(1) == 1]", 9, "takes a query"),
    ("$[?length(@.*) == 1]", 10, "singular"),
    ("$[?length(@, @) == 1]", 3, "takes 1 argument"),
    ("$[?nope(@)]", 3, "unknown function"),
    ("$[?True]", 3, "expected a query"),
    ("$[?truex]", 3, "unknown name"),
    ("$[?'a']", 3, "literal on its own"),
    ("$[?@ == 1e400]", 8, "overflows"),
    ("$[?@ == 1e-400]", 8, "too small"),
    ("$[?@ == 01]", 8, "leading zero"),
    ("$[?@ == 1.]", 10, "after '.'"),
    ("$[?match(@, '\\\\d')]", 12, "not an I-Regexp"),
    ("$[?search(@, '(a{100}){100}')]", 13, "automaton states"),
]


@pytest.mark.parametrize("path, position, words", BAD_SELECTORS)
def test_bad_selectors_name_the_position(path, position, words):
    message = bad_selector(path)
    assert f"at position {position} " in message or (position == 0 and "not a query" in message)
    assert words in message
    assert "\n" not in message  # one line on the command line


def test_bad_selector_messages_show_where():
    message = bad_selector("$.results[?@.name == 'x' &&]")
    assert """at position 27 of "$.results[?@.name == 'x' &&]" (at ']')""" in message


def test_a_query_is_a_str():
    for value in (None, b"$", 5):
        with pytest.raises(PolicyError) as info:
            compile_query(value)
        assert info.value.code == "bad-selector"


def test_deep_query_nesting_is_a_clean_refusal():
    for depth in (MAX_NESTING + 1, 10_000):
        parens = "$[?" + "(" * depth + "@" + ")" * depth + "]"
        filters = "$" + "[?@" * depth + "]" * depth
        calls = "$[?" + "length(" * depth + "@" + ")" * depth + " == 1]"
        for path in (parens, filters, calls):
            assert "nested deeper than" in bad_selector(path)
    # The filter is one level, each parenthesis another.
    compile_query("$[?" + "(" * (MAX_NESTING - 1) + "@" + ")" * (MAX_NESTING - 1) + "]")


# -- no match: the deepest prefix ------------------------------------------------

MISSES = [
    # (document, query, prefix, message)
    (
        INSPECT,
        "$.results.scores[?@.name=='nope'].metrics",
        "$.results.scores",
        "'$.results.scores' selects $['results']['scores'], an array of 2 elements, "
        "from which \"[?@.name=='nope']\" selects nothing",
    ),
    (
        {"results": {"mmlu": {}}},
        '$.results.mmlu["acc,none"]',
        "$.results.mmlu",
        "'$.results.mmlu' selects $['results']['mmlu'], an object without the member 'acc,none'",
    ),
    (
        {"results": {}},
        "$.results.mmlu['acc,none']",
        "$.results",
        "'$.results' selects $['results'], an object without the member 'mmlu'",
    ),
    ([], "$.results", "$", "'$' selects the root, an array, which has no members"),
    ({"a": [1, 2]}, "$.a[5]", "$.a", "'$.a' selects $['a'], an array of 2 elements, so it has no element 5"),
    ({"a": "text"}, "$.a[0]", "$.a", "'$.a' selects $['a'], a string ('text'), not an array"),
    (
        {"a": [{"b": 1}, {"b": 2}]},
        "$.a[*].c",
        "$.a[*]",
        "'$.a[*]' selects 2 nodes (the first at $['a'][0]), from which '.c' selects nothing",
    ),
    (
        {"a": [1]},
        "/a/-",
        "/a",
        "'/a' selects $['a'], an array, and '-' names the element after its last (RFC 6901), which never exists",
    ),
    (
        {"a": [1]},
        "/a/01",
        "/a",
        "'/a' selects $['a'], an array, and '01' is not an array index (RFC 6901: ASCII digits, no leading zeros)",
    ),
    ({"a": [1]}, "/a/3", "/a", "'/a' selects $['a'], an array of 1 element, so it has no element 3"),
    ({}, "/x", "", "the empty pointer selects the root, an object without the member 'x'"),
]


@pytest.mark.parametrize("document, path, prefix, message", MISSES)
def test_a_miss_names_the_deepest_prefix(document, path, prefix, message):
    compiled = compile_query(path)
    assert compiled.select(document) == []
    miss = compiled.miss(document)
    assert isinstance(miss, Miss)
    assert miss.prefix == prefix
    assert miss.message == message
    # The prefix really does select what the miss says.
    if prefix not in ("", "$") or compiled.is_pointer:
        found = query(document, prefix)
        assert found and found[0][0] == miss.path and len(found) == miss.count


def test_no_miss_when_something_is_selected():
    assert compile_query("$.status").miss(INSPECT) is None
    assert compile_query("/status").miss(INSPECT) is None
    assert compile_query("$..value").miss(INSPECT) is None


# -- documents that are not JSON, deep documents -------------------------------------------


@pytest.mark.parametrize("path", ["$.a.b", "$.a[0]", "$..x", "$.*.*", "/a/b", "$[?@.b == 1]"])
def test_values_that_are_not_json_are_refused_not_skipped(path):
    with pytest.raises(TypeError):
        query({"a": OrderedDict(b=1)} if "[0]" not in path else {"a": (1,)}, path)


def test_deep_documents_need_no_recursion():
    depth = sys.getrecursionlimit() + 100
    document: object = "leaf"
    other: object = "leaf"
    for _ in range(depth):
        document = [document]
        other = [other]
    found = query(document, "$..*")
    assert len(found) == depth
    assert found[-1] == ("$" + "[0]" * depth, "leaf")
    assert values({"a": document, "b": [other]}, "$[?@ == $.a]") == [document]
    deep_nan: object = NAN
    for _ in range(depth):
        deep_nan = {"k": deep_nan}
    with pytest.raises(NonFiniteRead):
        query({"a": deep_nan, "b": 1}, "$[?@ == $.a]")


def test_a_query_that_multiplies_nodes_is_refused(monkeypatch):
    import scorecontract._jsonpath as jsonpath

    monkeypatch.setattr(jsonpath, "MAX_NODES", 50)
    document = [[[0] * 4] * 4] * 4
    for path in ("$[*,*][*,*][*,*]", "$..*..*", "$..[*,*,*]"):
        with pytest.raises(PolicyError) as info:
            query(document, path)
        assert info.value.code == "bad-selector" and "more than 50 nodes" in info.value.message
    assert len(query(document, "$[0][*][*]")) == 16


# -- compiled queries --------------------------------------------------------------------


def test_compiled_queries_are_reused():
    first = compile_query("$.a.b")
    assert compile_query("$.a.b") is first
    assert first.select({"a": {"b": 1}}) == [("$['a']['b']", 1)]
    assert first.text == "$.a.b" and first.singular and not first.is_pointer
    assert not compile_query("$.a[*]").singular
    assert not compile_query("$.a[ 0 ]").singular  # blank in the brackets
    assert isinstance(first, Query)


def test_a_document_regex_that_is_not_an_i_regexp_is_false():
    document = {"pattern": "\\d", "values": ["1", "d"]}
    assert values(document, "$.values[?match(@, $.pattern)]") == []
    assert values(document, "$.values[?!match(@, $.pattern)]") == ["1", "d"]


def test_a_document_regex_too_costly_to_run_is_refused_not_false():
    document = {"pattern": "(a{100}){100}", "values": ["a"]}
    with pytest.raises(PolicyError) as info:
        query(document, "$.values[?!search(@, $.pattern)]")
    assert info.value.code == "bad-selector" and "$['pattern']" in info.value.message


# -- a differential test against a hand walk ------------------------------------------


def _random_document(rng, depth=0):
    roll = rng.random()
    if depth > 3 or roll < 0.3:
        return rng.choice([0, 1, 1.0, -2.5, 2**70, True, False, None, "a", "b", "it's", "", NAN])
    if roll < 0.65:
        return [_random_document(rng, depth + 1) for _ in range(rng.randrange(4))]
    names = ["a", "b", "c d", "é", "~/", "0", "it's"]
    return {name: _random_document(rng, depth + 1) for name in rng.sample(names, rng.randrange(4))}


def _walk(document, keys):
    """The oracle's walk: None when a key is missing."""
    value = document
    for key in keys:
        if isinstance(key, str) and type(value) is dict and key in value:
            value = value[key]
        elif isinstance(key, int) and type(value) is list and -len(value) <= key < len(value):
            value = value[key]
        else:
            return None
    return (value,)


def _pointer(keys):
    return "".join("/" + str(key).replace("~", "~0").replace("/", "~1") for key in keys)


def _bracketed(keys):
    return "$" + "".join(f"[{key}]" if isinstance(key, int) else "[" + json.dumps(key) + "]" for key in keys)


def _oracle_key_paths(document):
    """Every (keys, value) in pre-order, by recursion: the hand-written list."""
    found = []

    def visit(value, keys):
        found.append((keys, value))
        if type(value) is dict:
            for name, member in value.items():
                visit(member, keys + [name])
        elif type(value) is list:
            for index, element in enumerate(value):
                visit(element, keys + [index])

    visit(document, [])
    return found


def _canonical(value):
    """A JSON value as something == compares the JSONPath way (or None for NaN)."""
    kind = type(value)
    if kind is bool:
        return ("bool", value)
    if kind in (int, float):
        return ("number", Fraction(value)) if math.isfinite(value) else None
    if kind is list:
        items = [_canonical(v) for v in value]
        return None if None in items else ("array", tuple(items))
    if kind is dict:
        members = {k: _canonical(v) for k, v in value.items()}
        return None if None in members.values() else ("object", frozenset(members.items()))
    return (kind.__name__, value)


def test_differential_against_a_hand_walk():
    rng = random.Random(12)
    checked = 0
    for _ in range(250):
        document = _random_document(rng)
        every = _oracle_key_paths(document)
        # Singular queries: existing paths, and paths one step past them.
        for keys, _ in every:
            for probe in (keys, keys + ["zz"], keys + [7], keys + [-1]):
                found = _walk(document, probe)
                expected = (
                    []
                    if found is None
                    else [
                        (
                            normalized_path(
                                [
                                    k if not isinstance(k, int) or k >= 0 else k + len(_walk(document, probe[:-1])[0])
                                    for k in probe
                                ]
                            ),
                            found[0],
                        )
                    ]
                )
                for path in (
                    _bracketed(probe),
                    _pointer(probe) if all(not isinstance(k, int) or k >= 0 for k in probe) else None,
                ):
                    if path is None:
                        continue
                    got = query(document, path)
                    assert len(got) == len(expected), (document, path)
                    for (got_path, got_value), (want_path, want_value) in zip(got, expected):
                        assert got_path == want_path
                        assert got_value is want_value
                    checked += 1
        # Descendants: RFC 9535 section 2.5.2.2, $..* is the children of
        # each node, the nodes visited in pre-order.
        children = [
            (keys + [k], v)
            for keys, node in every
            for k, v in (node.items() if type(node) is dict else enumerate(node) if type(node) is list else ())
        ]
        got = query(document, "$..*")
        assert [p for p, _ in got] == [normalized_path(keys) for keys, _ in children]
        assert all(g is w for (_, g), (_, w) in zip(got, children))
        # A filter on equality with each scalar found, against a strict oracle.
        for _, target in every:
            canonical = _canonical(target)
            if canonical is None or type(target) in (list, dict):
                continue
            literal = json.dumps(target)
            kept = [
                keys
                for keys, value in every[1:]
                if type(_walk(document, keys[:-1])[0]) in (list, dict) and _canonical(value) == canonical
            ]
            # Every node below the root is compared; one that is or holds a
            # NaN makes the comparison unanswerable.
            unanswerable = any(_canonical(value) is None for _, value in every[1:])
            try:
                got_paths = paths(document, f"$..[?@ == {literal}]")
            except NonFiniteRead:
                assert unanswerable, (document, literal)
                continue
            assert not unanswerable, (document, literal)
            assert sorted(got_paths) == sorted(normalized_path(keys) for keys in kept), (document, literal)
            checked += 1
    assert checked > 1000


# -- constant parts of a filter: once per evaluation --------------------------
#
# White-box on purpose: _folded is compared with a parse that skips it, and
# the engine's own function calls are counted, so no test is timed.


def _unfolded(monkeypatch, text):
    monkeypatch.setattr(_jsonpath, "_folded", lambda expression: expression)
    try:
        return Query(text)
    finally:
        monkeypatch.undo()


def _outcome(compiled, document):
    try:
        return ("nodes", [(where, json.dumps(value)) for where, value in compiled.select(document)])
    except (InvalidEvidence, PolicyError, TypeError) as exc:
        return ("error", type(exc).__name__, str(exc))


def _engine_calls(compiled, document):
    """How many Python functions of the engine one select() calls."""
    engine = _jsonpath.__file__
    calls = [0]

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_filename == engine:
            calls[0] += 1

    sys.setprofile(profile)
    try:
        compiled.select(document)
    finally:
        sys.setprofile(None)
    return calls[0]


@pytest.mark.parametrize(
    ("text", "was_quadratic"),
    [
        ("$.a[?count($.a[*]) > 0]", True),
        ("$.a[?@ > count($.a[*])]", True),
        ("$.a[?$.a[?@ > 2]]", True),
        ("$..[?count($..*) > 0]", True),
        ("$.a[?@ == $.a[-1] || @ == $.a]", True),  # checking $.a reads all of it
        ("$.a[?@ == $.a[3]]", False),
        ("$.a[?$.a]", False),
        ("$.a[?@ < length($.a) && $.flag == true]", False),
        ("$.a[?!($.flag == true) || @ >= 0]", False),
        ("$.a[?value($.b[*]) == @]", False),
        ("$.a[?search($.s, 'x') || match(@.s, $.p)]", False),
    ],
)
def test_a_constant_part_is_evaluated_once_per_query(monkeypatch, text, was_quadratic):
    folded = compile_query(text)
    unfolded = _unfolded(monkeypatch, text)
    documents = [{"a": list(range(n)), "b": [1], "flag": True, "s": "x", "p": "y"} for n in (40, 160)]
    for document in documents:
        assert _outcome(folded, document) == _outcome(unfolded, document)
    small, large = (_engine_calls(folded, document) for document in documents)
    # Linear: 4x the candidates is about 4x the calls, where evaluating the
    # constant part for every candidate made it about 16x.
    assert large <= 4.5 * small, (small, large)
    before_small, before_large = (_engine_calls(unfolded, document) for document in documents)
    assert (before_large > 8 * before_small) is was_quadratic, (before_small, before_large)


def test_a_constant_operand_is_checked_after_the_other_is_evaluated():
    # The order of a comparison is: evaluate both, then check both.  With a
    # constant left side that is NaN and a right side whose evaluation
    # refuses a NaN of its own, the right side's refusal comes first, as it
    # did when the left side was evaluated for every candidate.
    document = {"nan": NAN, "a": [{"x": NAN}]}
    with pytest.raises(NonFiniteRead) as info:
        query(document, "$.a[?$.nan == value(@.x)]")
    assert info.value.path == "$['a'][0]['x']"
    with pytest.raises(NonFiniteRead) as info:
        query(document, "$.a[?$.nan == 1]")
    assert info.value.path == "$['nan']"
    with pytest.raises(NonFiniteRead) as info:
        query({"nan": NAN, "a": [1, 2]}, "$.a[?$.nan == @]")
    assert info.value.path == "$['nan']"


def test_constant_parts_are_not_kept_between_documents():
    compiled = compile_query("$.a[?@ == count($.a[*])]")
    assert values({"a": [9, 3, 1]}, compiled.text) == [3]
    assert values({"a": [9, 3, 1, 4]}, compiled.text) == [4]
    assert compiled.select({"a": [2, 0]}) == [("$['a'][0]", 2)]
    requirement = compile_requirement("count($.a[?@ > count($.b[*])]) == 1")
    assert requirement.holds({"a": [1, 5], "b": [0, 0]})
    assert not requirement.holds({"a": [1, 5], "b": [0] * 6})


def _random_filter(rng, depth=0):
    roll = rng.random()
    if depth < 2 and roll < 0.15:
        return "!(" + _random_filter(rng, depth + 1) + ")"
    if depth < 2 and roll < 0.35:
        return _random_filter(rng, depth + 1) + rng.choice([" && ", " || "]) + _random_filter(rng, depth + 1)
    if roll < 0.5:
        return rng.choice(["@.x", "$.k", "$.a[?@.x > 1]", "@.y[*]", "$..x", "match($.s, 'a.*')", "search(@.s, $.p)"])
    operands = [
        "@.x",
        "@.y",
        "@",
        "$.k",
        "$.a[0].x",
        "count($.a[*])",
        "count(@.*)",
        "length($.s)",
        "length(@.s)",
        "value($..k)",
        "value(@.y[*])",
        "1",
        "'a'",
        "true",
        "null",
    ]
    return rng.choice(operands) + rng.choice([" == ", " != ", " < ", " >= "]) + rng.choice(operands)


def _random_element(rng):
    roll = rng.random()
    if roll < 0.1:
        return NAN
    if roll < 0.5:
        return rng.choice([0, 1, 2, 2.0, "a", True, None])
    return {
        key: rng.choice([0, 1, 2, "a", "ab", [1, 2], {"x": 1}, NAN if rng.random() < 0.05 else 3])
        for key in rng.sample(["x", "y", "s", "k"], rng.randrange(4))
    }


def test_differential_folded_against_unfolded(monkeypatch):
    rng = random.Random(2535)
    compared = errors = 0
    for _ in range(300):
        text = "$.a[?" + _random_filter(rng) + "]"
        folded = Query(text)
        unfolded = _unfolded(monkeypatch, text)
        for _ in range(4):
            document = {
                "a": [_random_element(rng) for _ in range(rng.randrange(6))],
                "k": rng.choice([1, "a", [1], NAN]),
                "s": rng.choice(["a", "ab", "b"]),
                "p": rng.choice(["a", "b+", "("]),
            }
            expected = _outcome(unfolded, document)
            assert _outcome(folded, document) == expected, (text, document)
            compared += 1
            errors += expected[0] == "error"
    assert compared == 1200
    assert 50 < errors < 1100  # both outcomes are exercised
