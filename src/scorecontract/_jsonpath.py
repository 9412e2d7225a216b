# SPDX-License-Identifier: MIT
"""Selection: RFC 9535 JSONPath and RFC 6901 JSON Pointer, strictly.

A query that starts with ``$`` is JSONPath; one that is empty or starts
with ``/`` is a JSON Pointer.  Both run over a decoded JSON value (``dict``,
``list``, ``str``, ``int``, ``float``, ``bool``, ``None``, and ``Decimal``
from an exact parse) and yield nodes as (normalized path, value) pairs in
document order, the RFC 9535 nodelist order.  A malformed query is a
``PolicyError`` with code ``"bad-selector"`` naming the position of the
fault.

Python makes JSON's values easy to confuse; each of these is defended
against where it matters, with a comment:

- ``True == 1``, ``1 in (True, False)`` and ``hash(True) == hash(1)``:
  JSON's true is not the number 1, so types are compared with ``type(x) is``
  (``bool`` subclasses ``int``), and no JSON value is ever hashed or looked
  up with ``in`` among other values;
- JSON's 1 and 1.0 are the same number (RFC 9535 section 2.3.5.2.2) and do
  compare equal; big ints are compared exactly as ints, never through
  ``float``; ``int`` and ``float`` compare exactly in Python already, and a
  ``Decimal`` meets a ``float`` through the float's ``repr``, as the numeric
  contract does everywhere else;
- NaN and infinity: a comparison, a test or a function that reads one
  raises ``NonFiniteRead`` with the value's normalized path, instead of
  answering false (NaN compares false with everything, so ``!(@.x < 0.5)``
  would be true).  Selecting such a node is not an error here: the caller
  checks the selected value;
- ``dict`` order is insertion order, which the decoder makes document order:
  members are visited in it and never sorted;
- ``str.isdigit()``, ``str.isalpha()``, ``int()`` and ``re``'s ``\\d``
  accept non-ASCII digits and letters (``int("١")`` is 1): the grammar is
  checked character by character against its ASCII ranges;
- ``re`` backtracks: ``match()`` and ``search()`` run I-Regexps (RFC 9485)
  on an automaton of their own (``_iregexp``), linear in the string.  A
  pattern written in the query that is not an I-Regexp is a
  ``bad-selector`` (RFC 9535 would make it quietly false, and
  ``!match(...)`` true); one read from the document is false, as RFC 9535
  section 2.4.6 says;
- recursion: filters, parentheses and function calls nest at most
  ``MAX_NESTING`` deep in a query (a clean ``bad-selector`` beyond), and
  descendant segments, deep equality and path building are iterative, so
  neither a deep document nor a deep query reaches the interpreter's
  recursion limit;
- cost: a filter is evaluated once per candidate node, but a part of it
  that reads no ``@`` (``count($.a[*])``, ``$.status == 'ok'``) has the same
  value for every candidate, and is evaluated once per query evaluation
  (``_Scope``), so that ``$.a[?count($.a[*]) > 0]`` is linear in the array.
"""

from __future__ import annotations

import functools
import math
import sys

from ._describe import describe_value
from ._errors import InvalidEvidence, PolicyError
from ._iregexp import NotIRegexp, Pattern, PatternTooCostly, compile_pattern
from ._normalized_path import name_selector, normalized_path
from ._score import to_decimal
from ._strict_json import MAX_NUMBER_LENGTH, underflows

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from decimal import Decimal
    from typing import Optional, TypeGuard, Union

    from ._errors import Reduced

    # A node's location: None for the root, else (parent location, key).
    _Loc = Optional[tuple["_Loc", Union[str, int]]]
    _Node = tuple[object, _Loc]
    _Selector = Union["_Name", "_Wildcard", "_Index", "_Slice", "_Filter"]
    _Logical = Union["_Or", "_And", "_Not", "_Exists", "_FunctionTest", "_Comparison", "_ConstantTest"]
    # What the parser reads as an operand; what a comparison or a function
    # evaluates, once constant parts are folded (_folded).
    _Operand = Union["_Literal", "_QueryExpr", "_Call"]
    _Evaluable = Union[_Operand, "_ConstantValue"]
    # What the parser's logical() returns: a bare operand only as a
    # function argument.
    _Expression = Union[_Logical, _Operand]
    # Any part of a filter, folded or not.
    _Part = Union[_Logical, _Evaluable]
    _Number = Union[int, float, Decimal]

__all__ = [
    "MAX_NESTING",
    "MAX_NODES",
    "Miss",
    "NonFiniteRead",
    "Query",
    "Requirement",
    "compile_query",
    "compile_requirement",
    "query",
]

MAX_NESTING = 32
# The most nodes one segment may select (each costs about 100 bytes).
MAX_NODES = 1 << 22
# RFC 9535 section 2.1: indexes and slice bounds are I-JSON integers.
_MAX_INDEX = 2**53 - 1
_BLANK = " \t\n\r"  # RFC 9535 section 2.1: B, and nothing else
_DIGITS = "0123456789"

_STRING_ESCAPES = {
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "/": "/",
    "\\": "\\",
}
_COMPARISONS = ("==", "!=", "<=", ">=", "<", ">")


class NonFiniteRead(InvalidEvidence):
    """A filter or requirement read NaN, Infinity or -Infinity.

    ``path`` is the normalized path of the value and ``value`` the float (or
    Decimal).  The code is ``"non-finite"``: such a comparison has no answer,
    and answering false would let ``!(@.score < 0.5)`` hold for NaN.
    """

    def __init__(self, path: str, value: object) -> None:
        InvalidEvidence.__init__(
            self,
            "non-finite",
            f"{_clip(path)} is {_constant_name(value)}, which a filter or requirement cannot compare or test",
        )
        self.path = path
        self.value = value

    # Rebuilt from its own two arguments, not InvalidEvidence's five.
    def __reduce__(self) -> Reduced:
        return (type(self), (self.path, self.value))


def _constant_name(value: object) -> str:
    if type(value) is float:
        if math.isnan(value):
            return "NaN"
        return "Infinity" if value > 0 else "-Infinity"
    return f"Decimal {value!s}"


def _clip(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- values ------------------------------------------------------------------


# RFC 9535 section 2.4.1: Nothing, the value of an empty nodelist.
_NOTHING = object()
_NOTHING_NODE: _Node = (_NOTHING, None)
_MISSING = object()


def _decimal_type() -> type[Decimal] | None:
    # A Decimal can only be in the document if decimal was imported; looking
    # in sys.modules keeps this module from importing it.
    module = sys.modules.get("decimal")
    return None if module is None else module.Decimal


def _is_number(value: object) -> TypeGuard[_Number]:
    kind = type(value)
    # type() and not isinstance(): bool subclasses int, and true is not 1.
    return kind is int or kind is float or kind is _decimal_type()


def _not_finite(value: object) -> bool:
    if type(value) is float:
        return not math.isfinite(value)
    kind = type(value)
    if kind is int or kind is str or kind is bool or value is None:
        return False
    decimal = _decimal_type()
    if decimal is not None and type(value) is decimal:
        return not value.is_finite()
    return False


def _is_json_scalar(value: object) -> bool:
    kind = type(value)
    return kind is str or kind is int or kind is float or kind is bool or value is None or kind is _decimal_type()


def _not_json(value: object) -> TypeError:
    # An OrderedDict, a tuple or a NumPy float is not what the decoder makes;
    # treating it as a leaf would silently select nothing under it.
    return TypeError(f"{describe_value(value)} is not a decoded JSON value")


def _check_node(value: object, loc: _Loc) -> None:
    """Refuse a node that is itself non-finite, for tests and functions."""
    if _not_finite(value):
        raise NonFiniteRead(_path_of(loc), value)


def _check_operand(value: object, loc: _Loc) -> None:
    """Refuse a compared value that is or holds a non-finite number.

    Equality of arrays and objects reads every member, so a NaN anywhere
    inside makes the comparison unanswerable.  Also refuses values that are
    not JSON.  Iterative: documents may be deep.
    """
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None or value is _NOTHING:
        return
    if kind is not dict and kind is not list:
        if not _is_json_scalar(value):
            raise _not_json(value)
        if _not_finite(value):
            raise NonFiniteRead(_path_of(loc), value)
        return
    stack: list[_Node] = [(value, loc)]
    while stack:
        item, where = stack.pop()
        if type(item) is dict:
            for key, member in item.items():
                stack.append((member, (where, key)))
        elif type(item) is list:
            for index, element in enumerate(item):
                stack.append((element, (where, index)))
        elif not _is_json_scalar(item):
            raise _not_json(item)
        elif _not_finite(item):
            raise NonFiniteRead(_path_of(where), item)


def _numbers(left: _Number, right: _Number) -> tuple[_Number, _Number]:
    # A Decimal (exact mode) meets a float (a query literal) through the
    # float's repr, the decimal text that was written: Decimal(0.1) would be
    # the binary value 0.1000000000000000055...
    if type(left) is float and type(right) is not float and type(right) is not int:
        return to_decimal(left), right
    if type(right) is float and type(left) is not float and type(left) is not int:
        return left, to_decimal(right)
    return left, right


def _equal(left: object, right: object) -> bool:
    """RFC 9535 section 2.3.5.2.2 equality, iterative."""
    if left is _NOTHING or right is _NOTHING:
        return left is right
    stack = [(left, right)]
    while stack:
        a, b = stack.pop()
        if _is_number(a):
            if not _is_number(b):
                return False
            a, b = _numbers(a, b)
            if a != b:
                return False
            continue
        if type(a) is not type(b):
            return False  # true vs 1, "1" vs 1, [] vs {}
        # Both types are the same from here: testing both narrows both.
        if type(a) is dict and type(b) is dict:
            # Both key sets are sets of str: no bool/int conflation.
            if a.keys() != b.keys():
                return False
            for key, member in a.items():
                stack.append((member, b[key]))
        elif type(a) is list and type(b) is list:
            if len(a) != len(b):
                return False
            stack.extend(zip(a, b))
        elif a != b:  # str, bool, None
            return False
    return True


def _less(left: object, right: object) -> bool:
    if _is_number(left) and _is_number(right):
        low, high = _numbers(left, right)
        return low < high
    if type(left) is str and type(right) is str:
        # Python compares code points, which RFC 9535 asks for (Unicode
        # scalar values), unlike a UTF-16 comparison.
        return left < right
    return False


# -- paths -------------------------------------------------------------------


def _path_of(loc: _Loc) -> str:
    keys: list[str | int] = []
    while loc is not None:
        loc, key = loc
        keys.append(key)
    keys.reverse()
    return normalized_path(keys)


def _with_paths(nodes: list[_Node]) -> list[tuple[str, object]]:
    """Return (normalized path, value) for each node."""
    # Member names repeat from node to node (every sample has "scores"):
    # each is escaped once per call.  Keyed by str only, never by a JSON
    # value, so no true/1 conflation.
    parts: dict[str, str] = {}
    found = []
    for value, loc in nodes:
        keys: list[str | int] = []
        while loc is not None:
            loc, key = loc
            keys.append(key)
        pieces = ["$"]
        for key in reversed(keys):
            if type(key) is int:
                pieces.append(f"[{key}]")
            elif isinstance(key, str):
                part = parts.get(key)
                if part is None:
                    part = parts[key] = name_selector(key)
                pieces.append(part)
            else:
                # A caller's dict with a key that is not a str (true, 1.5).
                raise TypeError(f"a member name is a str, not {describe_value(key)}")
        found.append(("".join(pieces), value))
    return found


# -- selectors -----------------------------------------------------------------


def _children(value: object, loc: _Loc) -> Iterable[_Node]:
    if type(value) is dict:
        return [(member, (loc, key)) for key, member in value.items()]
    if type(value) is list:
        return [(element, (loc, index)) for index, element in enumerate(value)]
    if not _is_json_scalar(value):
        raise _not_json(value)
    return ()


class _Name:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def select(self, value: object, loc: _Loc, scope: _Scope, out: list[_Node]) -> None:
        if type(value) is dict:
            member = value.get(self.name, _MISSING)
            if member is not _MISSING:
                out.append((member, (loc, self.name)))
        elif type(value) is not list and not _is_json_scalar(value):
            raise _not_json(value)


class _Wildcard:
    __slots__ = ()

    def select(self, value: object, loc: _Loc, scope: _Scope, out: list[_Node]) -> None:
        out.extend(_children(value, loc))


class _Index:
    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    def select(self, value: object, loc: _Loc, scope: _Scope, out: list[_Node]) -> None:
        if type(value) is list:
            size = len(value)
            index = self.index if self.index >= 0 else size + self.index
            if 0 <= index < size:
                out.append((value[index], (loc, index)))
        elif type(value) is not dict and not _is_json_scalar(value):
            raise _not_json(value)


class _Slice:
    """RFC 9535 section 2.3.4.2.2, to the letter."""

    __slots__ = ("end", "start", "step")

    def __init__(self, start: int | None, end: int | None, step: int | None) -> None:
        self.start = start
        self.end = end
        self.step = step

    def select(self, value: object, loc: _Loc, scope: _Scope, out: list[_Node]) -> None:
        if type(value) is not list:
            if type(value) is not dict and not _is_json_scalar(value):
                raise _not_json(value)
            return
        size = len(value)
        step = 1 if self.step is None else self.step
        if step == 0:
            return
        if step > 0:
            start = 0 if self.start is None else self.start
            end = size if self.end is None else self.end
        else:
            start = size - 1 if self.start is None else self.start
            end = -size - 1 if self.end is None else self.end
        start = start if start >= 0 else size + start
        end = end if end >= 0 else size + end
        if step > 0:
            indexes = range(min(max(start, 0), size), min(max(end, 0), size), step)
        else:
            indexes = range(min(max(start, -1), size - 1), min(max(end, -1), size - 1), step)
        for index in indexes:
            out.append((value[index], (loc, index)))


class _Filter:
    __slots__ = ("expression",)

    def __init__(self, expression: _Logical) -> None:
        self.expression = expression

    def select(self, value: object, loc: _Loc, scope: _Scope, out: list[_Node]) -> None:
        test = self.expression.test
        for child in _children(value, loc):
            if test(child, scope):
                out.append(child)


class _Segment:
    """One segment, with where it is in the query text."""

    __slots__ = ("descendant", "end", "key", "selectors", "start")

    def __init__(self, selectors: tuple[_Selector, ...], descendant: bool, key: object, start: int, end: int) -> None:
        self.selectors = selectors
        self.descendant = descendant
        # The member name or index of a singular segment, else _MISSING.
        self.key = key
        self.start = start
        self.end = end

    def apply(self, nodes: list[_Node], scope: _Scope) -> list[_Node]:
        out: list[_Node] = []
        selectors = self.selectors
        if not self.descendant:
            for value, loc in nodes:
                for selector in selectors:
                    selector.select(value, loc, scope, out)
                if len(out) > MAX_NODES:
                    raise _too_many(self)
            return out
        for node in nodes:
            # Pre-order, children in document order: RFC 9535 section
            # 2.5.2.2 allows any order in which a node precedes its
            # descendants and array elements keep theirs.  An explicit stack,
            # not recursion: a document may be as deep as the decoder allows.
            stack = [node]
            while stack:
                value, loc = stack.pop()
                for selector in selectors:
                    selector.select(value, loc, scope, out)
                if type(value) is dict:
                    if value:
                        stack.extend([(member, (loc, key)) for key, member in reversed(value.items())])
                elif type(value) is list:
                    if value:
                        stack.extend([(value[index], (loc, index)) for index in range(len(value) - 1, -1, -1)])
                elif not _is_json_scalar(value):
                    raise _not_json(value)
                if len(out) > MAX_NODES:
                    raise _too_many(self)
        return out


def _too_many(segment: _Segment) -> PolicyError:
    # $[*,*][*,*]... doubles the nodelist at each segment, and $..*..*
    # multiplies it by the depth: memory, not the document, runs out.
    return PolicyError(
        "bad-selector",
        f"the segment at position {segment.start} of the query selects more than {MAX_NODES} nodes",
    )


def _apply(segments: Sequence[_Segment], nodes: list[_Node], scope: _Scope) -> list[_Node]:
    for segment in segments:
        if not nodes:
            break
        nodes = segment.apply(nodes, scope)
    return nodes


def _walk(keys: Sequence[object], value: object, loc: _Loc, pointer: bool = False) -> _Node:
    """Follow *keys* from a node: str member names and int indexes, or the
    str tokens of a JSON Pointer if *pointer*.  Returns _NOTHING_NODE when
    a key leads nowhere."""
    for key in keys:
        if type(value) is dict:
            if type(key) is str:
                value = value.get(key, _MISSING)
                if value is not _MISSING:
                    loc = (loc, key)
                    continue
        elif type(value) is list:
            index: int | None = None
            if type(key) is int:
                index = key
            elif pointer and type(key) is str:
                index = _array_index(key)
            if index is not None:
                if index < 0:
                    index += len(value)
                if 0 <= index < len(value):
                    value = value[index]
                    loc = (loc, index)
                    continue
        elif not _is_json_scalar(value):
            raise _not_json(value)
        return _NOTHING_NODE
    return value, loc


# -- filter expressions -----------------------------------------------------------


class _Scope:
    """One evaluation of a query or a requirement on one document.

    ``root`` is the document's node.  The rest holds what the constant parts
    of its filters came to: a part that reads no ``@`` (an absolute query,
    a function or a test of absolute queries only) has one value for the
    whole evaluation (RFC 9535 section 2.3.5: it is evaluated against the
    root, whatever the candidate), so it is evaluated once, at the first
    candidate that reaches it, not once per candidate, which made
    ``$.a[?count($.a[*]) > 0]`` quadratic in the array.  Nothing is kept
    from one evaluation to the next, and the first evaluation happens
    exactly where it did before, so an error is raised at the same node
    with the same message; an error ends the evaluation, so everything kept
    here was computed without one.
    """

    __slots__ = ("checked", "root", "tests", "values")

    def __init__(self, root: _Node) -> None:
        self.root = root
        self.values: dict[_ConstantValue, _Node] = {}
        self.tests: dict[_ConstantTest, bool] = {}
        # The constant operands whose values a comparison has checked.
        self.checked: set[object] = set()


class _Literal:
    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def evaluate(self, current: _Node, scope: _Scope) -> _Node:
        return self.value, None


class _QueryExpr:
    """A query inside a filter: absolute ($) or relative to the current node (@)."""

    __slots__ = ("absolute", "keys", "segments")

    def __init__(self, absolute: bool, segments: list[_Segment]) -> None:
        self.absolute = absolute
        self.segments = segments
        # RFC 9535 section 2.3.5.1: a singular query, only name and index
        # segments, selects at most one node and may be compared.
        keys = [segment.key for segment in segments]
        self.keys: list[object] | None = None if any(key is _MISSING for key in keys) else keys

    def nodes(self, current: _Node, scope: _Scope) -> list[_Node]:
        start = scope.root if self.absolute else current
        if self.keys is not None:
            node = _walk(self.keys, *start)
            return [] if node is _NOTHING_NODE else [node]
        return _apply(self.segments, [start], scope)

    def evaluate(self, current: _Node, scope: _Scope) -> _Node:
        keys = self.keys
        if keys is None:
            # The parser lets only a singular query be compared or passed
            # as a value.
            raise TypeError("a query that can select several nodes has no single value")
        return _walk(keys, *(scope.root if self.absolute else current))


class _Call:
    """A function expression.  Subclasses implement one RFC 9535 function each."""

    __slots__ = ("args",)
    name = ""
    params: tuple[str, ...] = ()  # "value" or "nodes"
    result = "value"  # or "logical"

    def __init__(self, args: list[_Evaluable]) -> None:
        self.args = args

    def evaluate(self, current: _Node, scope: _Scope) -> _Node:
        raise NotImplementedError  # only value-returning functions have it

    def test(self, current: _Node, scope: _Scope) -> bool:
        raise NotImplementedError  # only logical functions have it


class _ConstantValue:
    """An operand or argument that reads no ``@``: evaluated once per scope."""

    __slots__ = ("operand",)

    def __init__(self, operand: _Operand) -> None:
        self.operand = operand

    def evaluate(self, current: _Node, scope: _Scope) -> _Node:
        node = scope.values.get(self)
        if node is None:
            node = scope.values[self] = self.operand.evaluate(current, scope)
        return node


class _ConstantTest:
    """A test that reads no ``@``: evaluated once per scope."""

    __slots__ = ("item",)

    def __init__(self, item: _Logical) -> None:
        self.item = item

    def test(self, current: _Node, scope: _Scope) -> bool:
        result = scope.tests.get(self)
        if result is None:
            result = scope.tests[self] = self.item.test(current, scope)
        return result


def _value_argument(argument: _Evaluable, current: _Node, scope: _Scope) -> _Node:
    node = argument.evaluate(current, scope)
    _check_node(*node)
    return node


def _nodes_argument(query: _QueryExpr, current: _Node, scope: _Scope) -> list[_Node]:
    nodes = query.nodes(current, scope)
    for node in nodes:
        _check_node(*node)
    return nodes


def _query_parameter(argument: _Evaluable) -> _QueryExpr:
    # The parser checks that a nodes parameter gets a query.
    if not isinstance(argument, _QueryExpr):
        raise TypeError("a function that takes a nodelist takes a query")
    return argument


class _Length(_Call):
    __slots__ = ()
    name = "length"
    params = ("value",)

    def evaluate(self, current: _Node, scope: _Scope) -> _Node:
        value, _ = _value_argument(self.args[0], current, scope)
        if type(value) is str or type(value) is list or type(value) is dict:
            # len() of a str counts code points: RFC 9535's Unicode scalar
            # values, where a UTF-16 language would count surrogate halves.
            return len(value), None
        return _NOTHING_NODE


class _Count(_Call):
    __slots__ = ("query",)
    name = "count"
    params = ("nodes",)

    def __init__(self, args: list[_Evaluable]) -> None:
        _Call.__init__(self, args)
        self.query = _query_parameter(args[0])

    def evaluate(self, current: _Node, scope: _Scope) -> _Node:
        return len(_nodes_argument(self.query, current, scope)), None


class _Value(_Call):
    __slots__ = ("query",)
    name = "value"
    params = ("nodes",)

    def __init__(self, args: list[_Evaluable]) -> None:
        _Call.__init__(self, args)
        self.query = _query_parameter(args[0])

    def evaluate(self, current: _Node, scope: _Scope) -> _Node:
        nodes = _nodes_argument(self.query, current, scope)
        return nodes[0] if len(nodes) == 1 else _NOTHING_NODE


class _Match(_Call):
    """match() and search(); *pattern* is set when the pattern is a literal."""

    __slots__ = ("pattern",)
    name = "match"
    params = ("value", "value")
    result = "logical"

    def __init__(self, args: list[_Evaluable], pattern: Pattern | None = None) -> None:
        _Call.__init__(self, args)
        self.pattern = pattern

    def test(self, current: _Node, scope: _Scope) -> bool:
        text, _ = _value_argument(self.args[0], current, scope)
        pattern = self.pattern
        if pattern is None:
            source, where = _value_argument(self.args[1], current, scope)
            if type(source) is not str:
                return False
            try:
                pattern = compile_pattern(source)
            except NotIRegexp:
                # RFC 9535 section 2.4.6: a string that is not an I-Regexp
                # makes the result LogicalFalse.
                return False
            except PatternTooCostly as exc:
                # A valid I-Regexp this implementation refuses to run: no
                # answer, which must not be read as "no match".
                raise PolicyError("bad-selector", f"the pattern at {_clip(_path_of(where))}: {exc.message}") from None
        if type(text) is not str:
            return False
        return self.matches(pattern, text)

    def matches(self, pattern: Pattern, text: str) -> bool:
        return pattern.fullmatch(text)


class _Search(_Match):
    __slots__ = ()
    name = "search"

    def matches(self, pattern: Pattern, text: str) -> bool:
        return pattern.search(text)


_FUNCTIONS: dict[str, type[_Call]] = {
    "length": _Length,
    "count": _Count,
    "value": _Value,
    "match": _Match,
    "search": _Search,
}


class _Or:
    __slots__ = ("items",)

    def __init__(self, items: list[_Logical]) -> None:
        self.items = items

    def test(self, current: _Node, scope: _Scope) -> bool:
        for item in self.items:
            if item.test(current, scope):
                return True
        return False


class _And:
    __slots__ = ("items",)

    def __init__(self, items: list[_Logical]) -> None:
        self.items = items

    def test(self, current: _Node, scope: _Scope) -> bool:
        for item in self.items:
            if not item.test(current, scope):
                return False
        return True


class _Not:
    __slots__ = ("item",)

    def __init__(self, item: _Logical) -> None:
        self.item = item

    def test(self, current: _Node, scope: _Scope) -> bool:
        return not self.item.test(current, scope)


class _Exists:
    """A test expression on a query: does it select any node?"""

    __slots__ = ("query",)

    def __init__(self, query: _QueryExpr) -> None:
        self.query = query

    def test(self, current: _Node, scope: _Scope) -> bool:
        # Existence does not depend on the value, but a NaN node tested for
        # presence is still a NaN the filter touched: refused, so that
        # [?@.score] cannot quietly keep an unscored sample.
        nodes = _nodes_argument(self.query, current, scope)
        return bool(nodes)


class _FunctionTest:
    __slots__ = ("call",)

    def __init__(self, call: _Call) -> None:
        self.call = call

    def test(self, current: _Node, scope: _Scope) -> bool:
        return self.call.test(current, scope)


class _Comparison:
    __slots__ = ("left", "once", "op", "right")

    def __init__(self, op: str, left: _Evaluable, right: _Evaluable) -> None:
        self.op = op
        self.left = left
        self.right = right
        # Whether an operand is a _ConstantValue (see _folded), whose value
        # is the same for every candidate and needs checking once per scope.
        self.once = False

    def test(self, current: _Node, scope: _Scope) -> bool:
        left, left_loc = self.left.evaluate(current, scope)
        right, right_loc = self.right.evaluate(current, scope)
        # Both are evaluated before either is checked, as always: which
        # error a broken document raises does not depend on the folding.
        if self.once:
            self.check_once(left, left_loc, right, right_loc, scope)
        else:
            _check_operand(left, left_loc)
            _check_operand(right, right_loc)
        op = self.op
        if op == "==":
            return _equal(left, right)
        if op == "!=":
            return not _equal(left, right)
        if op == "<":
            return _less(left, right)
        if op == ">":
            return _less(right, left)
        if op == "<=":
            return _less(left, right) or _equal(left, right)
        return _less(right, left) or _equal(left, right)

    def check_once(self, left: object, left_loc: _Loc, right: object, right_loc: _Loc, scope: _Scope) -> None:
        checked = scope.checked
        if not isinstance(self.left, _ConstantValue):
            _check_operand(left, left_loc)
        elif self.left not in checked:
            _check_operand(left, left_loc)
            checked.add(self.left)
        if not isinstance(self.right, _ConstantValue):
            _check_operand(right, right_loc)
        elif self.right not in checked:
            _check_operand(right, right_loc)
            checked.add(self.right)


# -- constant parts ---------------------------------------------------------------


def _constant(expression: _Part) -> bool:
    """Whether *expression* reads no ``@`` of the filter it is in.

    The queries inside an absolute query are its own business: ``$.a[?@.b]``
    is constant, its ``@`` being the candidates of its own filter.
    """
    if isinstance(expression, (_Literal, _ConstantValue, _ConstantTest)):
        return True
    if isinstance(expression, _QueryExpr):
        return expression.absolute
    if isinstance(expression, (_Exists, _Count, _Value)):
        return expression.query.absolute
    if isinstance(expression, _Call):
        return all(_constant(argument) for argument in expression.args)
    if isinstance(expression, _FunctionTest):
        return _constant(expression.call)
    if isinstance(expression, _Not):
        return _constant(expression.item)
    if isinstance(expression, _Comparison):
        return _constant(expression.left) and _constant(expression.right)
    return all(_constant(item) for item in expression.items)


def _folded(expression: _Logical) -> _Logical:
    """Return the test of a filter, its constant parts evaluated once per scope."""
    if _constant(expression):
        return _ConstantTest(expression)
    if isinstance(expression, (_And, _Or)):
        expression.items = [_folded(item) for item in expression.items]
    elif isinstance(expression, _Not):
        expression.item = _folded(expression.item)
    elif isinstance(expression, _Comparison):
        expression.left = _folded_operand(expression.left)
        expression.right = _folded_operand(expression.right)
        expression.once = isinstance(expression.left, _ConstantValue) or isinstance(expression.right, _ConstantValue)
    elif isinstance(expression, _FunctionTest):
        _fold_arguments(expression.call)
    return expression


def _folded_operand(operand: _Evaluable) -> _Evaluable:
    if isinstance(operand, (_Literal, _ConstantValue)):
        return operand  # a literal costs less than looking it up
    if _constant(operand):
        return _ConstantValue(operand)
    if isinstance(operand, _Call):
        _fold_arguments(operand)
    return operand


def _fold_arguments(call: _Call) -> None:
    # The nodelist argument of count() and value() is a query, relative
    # here (the call would be constant otherwise): nothing to fold.
    if not isinstance(call, (_Count, _Value)):
        call.args = [_folded_operand(argument) for argument in call.args]


# -- the parser ---------------------------------------------------------------


def _name_first(char: str) -> bool:
    # RFC 9535 name-first: ALPHA / "_" / %x80-D7FF / %xE000-10FFFF.  ALPHA
    # is ASCII, and every character from U+0080 up counts, letter or not
    # ("€", emoji): str.isalpha() and str.isidentifier() would refuse some.
    return (
        "a" <= char <= "z" or "A" <= char <= "Z" or char == "_" or ("\x80" <= char and not "\ud800" <= char <= "\udfff")
    )


def _excerpt(text: str, pos: int) -> str:
    start = max(0, pos - 30)
    end = min(len(text), pos + 30)
    shown = ascii(text[start:end])
    return ("..." if start else "") + shown + ("..." if end < len(text) else "")


def _bad_selector(text: str, pos: int, problem: str) -> PolicyError:
    # One line, whatever the query holds: ascii() escapes newlines.
    where = "at the end" if pos >= len(text) else f"at {ascii(text[pos : pos + 12])}"
    return PolicyError("bad-selector", f"{problem} at position {pos} of {_excerpt(text, pos)} ({where})")


class _Parser:
    """Recursive descent over the RFC 9535 ABNF, nesting-bounded."""

    def __init__(self, text: str, requirement: bool = False) -> None:
        self.text = text
        self.pos = 0
        self.depth = 0
        # A requirement is a logical expression with no current node: "@"
        # is refused outside the filters nested in it.
        self.requirement = requirement
        self.filters = 0

    # -- helpers

    def error(self, problem: str, pos: int | None = None) -> PolicyError:
        return _bad_selector(self.text, self.pos if pos is None else pos, problem)

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def blank(self) -> None:
        text = self.text
        while self.pos < len(text) and text[self.pos] in _BLANK:
            self.pos += 1

    def enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.error(f"filters, parentheses and function calls nested deeper than {MAX_NESTING}", pos)

    def found(self) -> str:
        char = self.peek()
        return "the end of the query" if not char else ascii(char)

    # -- queries and segments

    def query(self) -> _QueryExpr:
        """jsonpath-query or rel-query; self.pos is at "$" or "@"."""
        absolute = self.peek() == "$"
        if not absolute and self.requirement and self.filters == 0:
            raise self.error("a requirement has no current node '@'; its queries start with '$'")
        self.pos += 1
        segments = []
        text = self.text
        while True:
            before = self.pos
            self.blank()
            if self.pos >= len(text):
                self.pos = before
                break
            char = text[self.pos]
            if char == "[":
                segments.append(self.bracketed(self.pos, descendant=False))
            elif char == ".":
                segments.append(self.dotted())
            else:
                # The blank, if any, belongs to what follows the query.
                self.pos = before
                break
        return _QueryExpr(absolute, segments)

    def dotted(self) -> _Segment:
        text = self.text
        start = self.pos
        descendant = text.startswith("..", start)
        self.pos += 2 if descendant else 1
        char = self.peek()
        if descendant and char == "[":
            return self.bracketed(start, descendant=True)
        if char == "*":
            self.pos += 1
            return _Segment((_Wildcard(),), descendant, _MISSING, start, self.pos)
        if char and _name_first(char):
            name_start = self.pos
            while self.pos < len(text) and (_name_first(text[self.pos]) or text[self.pos] in _DIGITS):
                self.pos += 1
            name = text[name_start : self.pos]
            return _Segment((_Name(name),), descendant, _MISSING if descendant else name, start, self.pos)
        after = "'..'" if descendant else "'.'"
        choices = "a name, '*' or '['" if descendant else "a name or '*'"
        raise self.error(f"expected {choices} after {after}, found {self.found()}")

    def bracketed(self, start: int, descendant: bool) -> _Segment:
        text = self.text
        self.pos += 1  # "["
        self.blank()
        selectors = [self.selector()]
        while True:
            self.blank()
            char = self.peek()
            if char == "]":
                self.pos += 1
                break
            if char != ",":
                raise self.error(f"expected ',' or ']', found {self.found()}")
            self.pos += 1
            self.blank()
            selectors.append(self.selector())
        key: object = _MISSING
        # RFC 9535 section 2.3.5.1: name-segment and index-segment have no
        # blank inside the brackets, so @[ 'a' ] is a query but not a
        # singular one.
        if (
            not descendant
            and len(selectors) == 1
            and text[start + 1] not in _BLANK
            and text[self.pos - 2] not in _BLANK
        ):
            only = selectors[0]
            if isinstance(only, _Name):
                key = only.name
            elif isinstance(only, _Index):
                key = only.index
        return _Segment(tuple(selectors), descendant, key, start, self.pos)

    def selector(self) -> _Selector:
        char = self.peek()
        if char == "'" or char == '"':
            return _Name(self.string())
        if char == "*":
            self.pos += 1
            return _Wildcard()
        if char == "?":
            start = self.pos
            self.enter(start)
            self.pos += 1
            self.blank()
            self.filters += 1
            expression = self.as_test(self.logical(argument=False), start)
            self.filters -= 1
            self.depth -= 1
            return _Filter(_folded(expression))
        if char == "-" or char == ":" or (char and char in _DIGITS):
            return self.index_or_slice()
        raise self.error(f"expected a selector (a quoted name, '*', an index, a slice or '?'), found {self.found()}")

    def integer(self) -> int | None:
        """An RFC 9535 int, or None if there is none here."""
        text = self.text
        start = self.pos
        if self.peek() == "-":
            self.pos += 1
        digits = self.pos
        while self.pos < len(text) and text[self.pos] in _DIGITS:
            self.pos += 1
        if self.pos == digits:
            if self.pos == start:
                return None
            raise self.error("expected a digit after '-'")
        token = text[start : self.pos]
        if text[digits] == "0" and (self.pos - digits > 1 or token == "-0"):
            # int = "0" / (["-"] DIGIT1 *DIGIT): no 01, no -0.
            raise self.error(f"{ascii(token)} is not an index (no leading zeros, no -0)", start)
        if self.pos - digits > 16 or abs(int(token)) > _MAX_INDEX:
            raise self.error(f"{ascii(token[:30])} is outside the I-JSON range of indexes", start)
        return int(token)

    def index_or_slice(self) -> _Selector:
        start = self.integer()
        before = self.pos
        self.blank()
        if self.peek() != ":":
            self.pos = before
            if start is None:
                raise self.error(f"expected an index, found {self.found()}")
            return _Index(start)
        self.pos += 1
        self.blank()
        end = self.integer()
        self.blank()
        step = None
        if self.peek() == ":":
            self.pos += 1
            self.blank()
            step = self.integer()
        return _Slice(start, end, step)

    def string(self) -> str:
        """A string literal; self.pos is at its opening quote."""
        text = self.text
        quote = text[self.pos]
        start = self.pos
        self.pos += 1
        parts = []
        while True:
            run = self.pos
            while self.pos < len(text) and text[self.pos] not in (quote, "\\") and " " <= text[self.pos]:
                if "\ud800" <= text[self.pos] <= "\udfff":
                    raise self.error("a lone surrogate in a string literal")
                self.pos += 1
            parts.append(text[run : self.pos])
            if self.pos >= len(text):
                raise self.error("unterminated string literal", start)
            char = text[self.pos]
            if char == quote:
                self.pos += 1
                return "".join(parts)
            if char != "\\":
                raise self.error(f"control character {ascii(char)} in a string literal; escape it")
            escape = text[self.pos + 1 : self.pos + 2]
            if escape == quote:
                parts.append(quote)
                self.pos += 2
            elif escape in _STRING_ESCAPES and escape:
                parts.append(_STRING_ESCAPES[escape])
                self.pos += 2
            elif escape == "u":
                parts.append(self.unicode_escape())
            else:
                # Includes \' inside "..." and \" inside '...': RFC 9535
                # escapes only the quote that delimits the string.
                raise self.error(f"invalid escape {ascii(text[self.pos : self.pos + 2])} in a string literal")

    def hex4(self, pos: int) -> int:
        digits = self.text[pos : pos + 4]
        if len(digits) != 4 or any(c not in "0123456789abcdefABCDEF" for c in digits):
            raise self.error("expected four hexadecimal digits after '\\u'", pos)
        return int(digits, 16)

    def unicode_escape(self) -> str:
        start = self.pos
        code = self.hex4(start + 2)
        self.pos += 6
        if 0xDC00 <= code <= 0xDFFF:
            raise self.error("a lone low surrogate escape", start)
        if 0xD800 <= code <= 0xDBFF:
            if self.text[self.pos : self.pos + 2] != "\\u":
                raise self.error("a high surrogate escape without its low surrogate", start)
            low = self.hex4(self.pos + 2)
            if not 0xDC00 <= low <= 0xDFFF:
                raise self.error("a high surrogate escape without its low surrogate", start)
            self.pos += 6
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        return chr(code)

    def number(self) -> object:
        text = self.text
        start = self.pos
        if self.peek() == "-":
            self.pos += 1
        digits = self.pos
        while self.pos < len(text) and text[self.pos] in _DIGITS:
            self.pos += 1
        if self.pos == digits:
            raise self.error("expected a digit")
        if text[digits] == "0" and self.pos - digits > 1:
            raise self.error("a number with a leading zero", start)
        exact = True
        if self.peek() == ".":
            self.pos += 1
            fraction = self.pos
            while self.pos < len(text) and text[self.pos] in _DIGITS:
                self.pos += 1
            if self.pos == fraction:
                raise self.error("expected a digit after '.'")
            exact = False
        if self.peek() in ("e", "E"):
            self.pos += 1
            if self.peek() in ("+", "-"):
                self.pos += 1
            exponent = self.pos
            while self.pos < len(text) and text[self.pos] in _DIGITS:
                self.pos += 1
            if self.pos == exponent:
                raise self.error("expected a digit in the exponent")
            exact = False
        token = text[start : self.pos]
        if len(token) > MAX_NUMBER_LENGTH:
            raise self.error(f"a number literal over {MAX_NUMBER_LENGTH} characters", start)
        if exact:
            return int(token)  # exact, however large: never through float
        value = float(token)
        # The decoder's number contract, for literals too: 1e400 is not
        # infinity and 1e-400 is not zero.
        if not math.isfinite(value):
            raise self.error(f"number {ascii(token[:40])} overflows a double", start)
        if value == 0.0 and underflows(token):
            raise self.error(f"number {ascii(token[:40])} is too small for a double, which reads it as 0", start)
        return value

    # -- logical expressions

    def logical(self, argument: bool) -> _Expression:
        """logical-or-expr.  With *argument*, a lone literal, query or
        function call is returned as it is, for a function argument;
        without, the result is a logical expression (``as_test`` of it
        returns it unchanged)."""
        first = self.conjunction(argument)
        items: list[_Logical] = []
        while True:
            before = self.pos
            self.blank()
            if not self.text.startswith("||", self.pos):
                self.pos = before
                break
            if not items:
                items.append(self.as_test(first, before))
            self.pos += 2
            self.blank()
            items.append(self.as_test(self.conjunction(False), self.pos))
        return _Or(items) if items else first

    def conjunction(self, argument: bool) -> _Expression:
        start = self.pos
        first = self.basic(argument)
        items: list[_Logical] = []
        while True:
            before = self.pos
            self.blank()
            if not self.text.startswith("&&", self.pos):
                self.pos = before
                break
            if not items:
                items.append(self.as_test(first, start))
            self.pos += 2
            self.blank()
            items.append(self.as_test(self.basic(False), self.pos))
        return _And(items) if items else first

    def comparison_op(self) -> str:
        for op in _COMPARISONS:
            if self.text.startswith(op, self.pos):
                return op
        return ""

    def basic(self, argument: bool) -> _Expression:
        start = self.pos
        char = self.peek()
        if char == "!" and not self.text.startswith("!=", start):
            self.pos += 1
            self.blank()
            if self.peek() == "(":
                return _Not(self.parenthesized())
            operand_start = self.pos
            test = self.as_test(self.primary(), operand_start)
            before = self.pos
            self.blank()
            if self.comparison_op():
                raise self.error(
                    "'!' negates only the test right after it; write "
                    f"!(... {self.comparison_op()} ...) to negate a comparison",
                    start,
                )
            self.pos = before
            return _Not(test)
        if char == "(":
            return self.parenthesized()
        primary = self.primary()
        before = self.pos
        self.blank()
        op = self.comparison_op()
        if not op:
            self.pos = before
            return primary if argument else self.as_test(primary, start)
        left = self.as_comparable(primary, start)
        self.pos += len(op)
        self.blank()
        right_start = self.pos
        right = self.as_comparable(self.primary(), right_start)
        return _Comparison(op, left, right)

    def parenthesized(self) -> _Logical:
        start = self.pos
        self.enter(start)
        self.pos += 1
        self.blank()
        inner = self.as_test(self.logical(argument=False), start)
        self.blank()
        if self.peek() != ")":
            raise self.error(f"expected ')' to close the '(' at position {start}, found {self.found()}")
        self.pos += 1
        self.depth -= 1
        return inner

    def primary(self) -> _Operand:
        char = self.peek()
        start = self.pos
        if char == "$" or char == "@":
            return self.query()
        if char == "'" or char == '"':
            return _Literal(self.string())
        if char == "-" or (char and char in _DIGITS):
            return _Literal(self.number())
        if "a" <= char <= "z":
            text = self.text
            while self.pos < len(text) and (
                "a" <= text[self.pos] <= "z" or text[self.pos] in _DIGITS or text[self.pos] == "_"
            ):
                self.pos += 1
            name = text[start : self.pos]
            if self.peek() == "(":
                return self.call(name, start)
            literal = {"true": True, "false": False, "null": None}.get(name, _MISSING)
            if literal is not _MISSING:
                return _Literal(literal)
            raise self.error(f"unknown name {ascii(name)}: not true, false, null or a function call", start)
        raise self.error(f"expected a query, a literal or a function call, found {self.found()}")

    def call(self, name: str, start: int) -> _Call:
        function = _FUNCTIONS.get(name)
        if function is None:
            raise self.error(
                f"unknown function {name}(): RFC 9535 defines length, count, match, search and value",
                start,
            )
        self.enter(start)
        self.pos += 1  # "("
        self.blank()
        arguments: list[tuple[_Expression, int]] = []
        if self.peek() != ")":
            while True:
                where = self.pos
                arguments.append((self.logical(argument=True), where))
                self.blank()
                if self.peek() != ",":
                    break
                self.pos += 1
                self.blank()
        if self.peek() != ")":
            raise self.error(f"expected ',' or ')' in the arguments of {name}(), found {self.found()}")
        self.pos += 1
        self.depth -= 1
        params = function.params
        if len(arguments) != len(params):
            raise self.error(
                f"{name}() takes {len(params)} argument{'s' if len(params) > 1 else ''}, not {len(arguments)}",
                start,
            )
        values: list[_Evaluable] = []
        for (argument, where), kind in zip(arguments, params):
            if kind == "nodes":
                if not isinstance(argument, _QueryExpr):
                    raise self.error(f"{name}() takes a query (a nodelist) here", where)
            elif isinstance(argument, _QueryExpr):
                if argument.keys is None:
                    raise self.error(
                        f"{name}() takes a value here, and a query that can select several nodes is not one "
                        "(only name and index segments make a singular query)",
                        where,
                    )
            elif isinstance(argument, _Call):
                if argument.result != "value":
                    raise self.error(f"{argument.name}() returns a logical value; {name}() takes a value here", where)
            elif not isinstance(argument, _Literal):
                raise self.error(f"a logical expression where {name}() takes a value", where)
            values.append(argument)
        if function is _Match or function is _Search:
            return function(values, self.literal_pattern(arguments[1]))
        return function(values)

    def literal_pattern(self, argument: tuple[_Expression, int]) -> Pattern | None:
        literal, where = argument
        if not isinstance(literal, _Literal) or type(literal.value) is not str:
            return None
        try:
            return compile_pattern(literal.value)
        except PolicyError as exc:
            # RFC 9535 would make a non-I-Regexp literal quietly false; a gate
            # refuses it instead, as a malformed query.
            raise self.error(exc.message, where) from None

    def as_test(self, primary: _Expression, pos: int) -> _Logical:
        if isinstance(primary, _QueryExpr):
            return _Exists(primary)
        if isinstance(primary, _Call):
            if primary.result == "logical":
                return _FunctionTest(primary)
            raise self.error(f"{primary.name}() returns a value, not a logical one: compare it with something", pos)
        if isinstance(primary, _Literal):
            raise self.error("a literal on its own is not a test: compare it with something", pos)
        return primary  # already a logical expression

    def as_comparable(self, primary: _Operand, pos: int) -> _Operand:
        if isinstance(primary, _QueryExpr) and primary.keys is None:
            raise self.error(
                "only a singular query (name and index segments) can be compared; this one can select several nodes",
                pos,
            )
        if isinstance(primary, _Call) and primary.result != "value":
            raise self.error(f"{primary.name}() returns a logical value, which cannot be compared", pos)
        return primary


# -- JSON Pointer --------------------------------------------------------------


def _pointer_tokens(text: str) -> list[str]:
    # RFC 6901 section 3: "~" is always followed by "0" or "1".
    for pos, char in enumerate(text):
        if char == "~" and text[pos + 1 : pos + 2] not in ("0", "1"):
            raise _bad_selector(text, pos, "'~' must be followed by 0 or 1 (RFC 6901: ~0 is '~', ~1 is '/')")
    # Section 4: ~1 before ~0, so that "~01" is "~1" and not "/".
    return [raw.replace("~1", "/").replace("~0", "~") for raw in text[1:].split("/")]


def _array_index(token: str) -> int | None:
    # RFC 6901 section 4: an array index is "0" or digits without a leading
    # zero, in ASCII (int() would also take " 1", "+1", "1_0" and "١").
    # "-" names the element after the last, which never exists.
    if token == "0":
        return 0
    if not token or token[0] == "0" or len(token) > 16 or any(c not in _DIGITS for c in token):
        return None
    return int(token)


# -- compiled queries ------------------------------------------------------------


class Miss:
    """Why a query selected nothing: the deepest prefix that did select.

    - ``prefix``: that prefix of the query text (``"$"`` or ``""`` for the
      whole document);
    - ``path``: the normalized path of the first node it selected;
    - ``count``: how many nodes it selected;
    - ``segment``: the text of the next segment (or pointer token), which
      selected nothing from them;
    - ``message``: all that as a sentence.
    """

    __slots__ = ("count", "message", "path", "prefix", "segment")

    def __init__(self, prefix: str, path: str, count: int, segment: str, message: str) -> None:
        self.prefix = prefix
        self.path = path
        self.count = count
        self.segment = segment
        self.message = message

    def __repr__(self) -> str:
        return f"Miss({self.message!r})"


def _what_is_missing(value: object, key: object, pointer: bool) -> str | None:
    kind = type(value)
    if type(key) is str:
        if kind is dict:
            return f"an object without the member {_clip(ascii(key))}"
        if kind is list and pointer:
            if key == "-":
                return "an array, and '-' names the element after its last (RFC 6901), which never exists"
            index = _array_index(key)
            if index is None:
                return (
                    f"an array, and {_clip(ascii(key))} is not an array index "
                    "(RFC 6901: ASCII digits, no leading zeros)"
                )
            return f"{_describe_node(value)}, so it has no element {index}"
        return f"{describe_value(value)}, which has no members"
    if type(key) is int:
        if kind is list:
            return f"{_describe_node(value)}, so it has no element {key}"
        return f"{describe_value(value)}, not an array"
    return None


def _describe_node(value: object) -> str:
    if type(value) is dict:
        return f"an object of {len(value)} member{'s' if len(value) != 1 else ''}"
    if type(value) is list:
        return f"an array of {len(value)} element{'s' if len(value) != 1 else ''}"
    return describe_value(value)


class Query:
    """A compiled query: ``compile_query(text)``.

    - ``text``: the query as given;
    - ``is_pointer``: whether it is a JSON Pointer rather than JSONPath;
    - ``singular``: whether it can select at most one node (a pointer, or
      JSONPath of name and index segments only);
    - ``select(document)``: the (normalized path, value) pairs it selects,
      in document order;
    - ``miss(document)``: ``None`` if it selects something, else a ``Miss``
      naming the deepest prefix that does.
    """

    __slots__ = ("_keys", "_segments", "_tokens", "is_pointer", "singular", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._segments: list[_Segment] = []
        # Member names and indexes to follow directly: a singular query
        # needs no nodelists at all.
        self._keys: list[object] | None = None
        self._tokens: list[str] = []
        if text == "" or text.startswith("/"):
            self.is_pointer = True
            self._tokens = _pointer_tokens(text) if text else []
            self._keys = list(self._tokens)
        elif text.startswith("$"):
            self.is_pointer = False
            parser = _Parser(text)
            parsed = parser.query()
            if parser.pos != len(text):
                if text[parser.pos] in _BLANK:
                    raise parser.error("blank space after the query")
                raise parser.error(f"unexpected {parser.found()}")
            self._segments = parsed.segments
            self._keys = parsed.keys
        else:
            raise _bad_selector(
                text,
                0,
                "not a query: JSONPath (RFC 9535) starts with '$', "
                "a JSON Pointer (RFC 6901) with '/' or is empty (the whole document)",
            )
        self.singular = self._keys is not None

    def select(self, document: object, /) -> list[tuple[str, object]]:
        """Return the nodes this query selects, as (normalized path, value)."""
        keys = self._keys
        if keys is not None:
            # Names and indexes only: one walk, one path string.
            value, loc = _walk(keys, document, None, self.is_pointer)
            return [] if value is _NOTHING else [(_path_of(loc), value)]
        root: _Node = (document, None)
        return _with_paths(_apply(self._segments, [root], _Scope(root)))

    def miss(self, document: object, /) -> Miss | None:
        """Return ``None`` if this query selects a node, else a ``Miss``."""
        root: _Node = (document, None)
        scope = _Scope(root)
        nodes: list[_Node] = [root]
        if self.is_pointer:
            raws = self.text[1:].split("/") if self.text else []
            for number, token in enumerate(self._tokens):
                child = _walk([token], *nodes[0], pointer=True)
                if child is _NOTHING_NODE:
                    prefix = "".join("/" + raw for raw in raws[:number])
                    label = ascii(prefix) if prefix else "the empty pointer"
                    return self._miss(nodes, prefix, label, "/" + raws[number], token, True)
                nodes = [child]
            return None
        text = self.text
        for segment in self._segments:
            following = segment.apply(nodes, scope)
            if not following:
                prefix = text[: segment.start].rstrip(_BLANK)
                key = segment.key if segment.key is not _MISSING else None
                return self._miss(nodes, prefix, _clip(ascii(prefix)), text[segment.start : segment.end], key, False)
            nodes = following
        return None

    def _miss(self, nodes: list[_Node], prefix: str, label: str, segment: str, key: object, pointer: bool) -> Miss:
        value, loc = nodes[0]
        path = _path_of(loc)
        shown = "the root" if loc is None else _clip(path)
        what = _what_is_missing(value, key, pointer) if len(nodes) == 1 else None
        if what is not None:
            message = f"{label} selects {shown}, {what}"
        elif len(nodes) == 1:
            message = (
                f"{label} selects {shown}, {_describe_node(value)}, from which {_clip(ascii(segment))} selects nothing"
            )
        else:
            count = f"{len(nodes)} node{'s' if len(nodes) != 1 else ''}"
            message = (
                f"{label} selects {count} (the first at {shown}), from which {_clip(ascii(segment))} selects nothing"
            )
        return Miss(prefix, path, len(nodes), segment, message)

    def __repr__(self) -> str:
        return f"Query({self.text!r})"


class Requirement:
    """A compiled requirement: ``compile_requirement(text)``.

    - ``text``: the expression as given;
    - ``holds(document)``: whether it is true of *document*.  Raises
      ``NonFiniteRead`` when it reads NaN or an infinity.
    """

    __slots__ = ("_expression", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        parser = _Parser(text, requirement=True)
        parser.blank()
        if parser.pos == len(text):
            raise parser.error("an empty requirement")
        self._expression = parser.as_test(parser.logical(argument=False), parser.pos)
        parser.blank()
        if parser.pos != len(text):
            raise parser.error(f"unexpected {parser.found()}")

    def holds(self, document: object, /) -> bool:
        """Return whether the requirement is true of *document*."""
        root: _Node = (document, None)
        return self._expression.test(root, _Scope(root))

    def __repr__(self) -> str:
        return f"Requirement({self.text!r})"


def _text(value: object, what: str) -> str:
    if type(value) is not str:
        raise PolicyError("bad-selector", f"{what} is a str, not {describe_value(value)}")
    return value


@functools.lru_cache(maxsize=128)
def _compiled_query(text: str) -> Query:
    return Query(text)


@functools.lru_cache(maxsize=128)
def _compiled_requirement(text: str) -> Requirement:
    return Requirement(text)


def compile_query(path: str, /) -> Query:
    """Parse *path*, a JSONPath query or a JSON Pointer, once.

    Raises ``PolicyError`` with code ``"bad-selector"``, naming the position
    of the fault, if it is neither.  Compiled queries are cached.

    >>> compile_query("$.results.mmlu['acc,none']").select(
    ...     {"results": {"mmlu": {"acc,none": 0.61}}})
    [("$['results']['mmlu']['acc,none']", 0.61)]
    """
    return _compiled_query(_text(path, "a query"))


def compile_requirement(expression: str, /) -> Requirement:
    """Parse *expression*, an RFC 9535 logical expression on ``$``, once.

    It is the grammar of a filter, ``[?...]``, with absolute queries:
    ``$.status == 'success'``, ``$.results.completed_samples ==
    $.results.total_samples``, ``!$.invalidated``.  A bare query is an
    existence test (``!$.invalidated`` holds when there is no such member,
    whatever its value); to test a value, compare it
    (``$.invalidated != true``).
    """
    return _compiled_requirement(_text(expression, "a requirement"))


def query(document: object, path: str, /) -> list[tuple[str, object]]:
    """Return the nodes *path* selects in *document*, in document order.

    *document* is a decoded JSON value; *path* a JSONPath query (RFC 9535,
    starting with ``$``) or a JSON Pointer (RFC 6901: empty, or starting
    with ``/``).  Each node is a (normalized path, value) pair.

    >>> query({"results": {"mmlu": {"acc,none": 0.61}}}, "/results/mmlu/acc,none")
    [("$['results']['mmlu']['acc,none']", 0.61)]
    >>> query({"a": [1, 2, 3]}, "$.a[?@ > 1]")
    [("$['a'][1]", 2), ("$['a'][2]", 3)]
    """
    return compile_query(path).select(document)
