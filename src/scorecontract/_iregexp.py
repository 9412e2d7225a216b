# SPDX-License-Identifier: MIT
"""I-Regexp (RFC 9485), for the JSONPath functions match() and search().

A pattern is checked against the RFC 9485 grammar and compiled into a small
automaton that this module runs itself.  It is not handed to ``re``:

- ``re`` backtracks, so an I-Regexp as plain as ``(a|aa)*c`` or ``(a+)+b``
  takes exponential time on a string of a few dozen characters, and
  ``a.*b.*c`` polynomial time; a gate that reads evidence must not hang on
  it.  The automaton here runs in time linear in the string, times at most
  the size of the pattern (a Thompson NFA, its state sets cached as a lazy
  DFA), whatever the pattern;
- ``re`` has no ``\\p{..}``: here a category is tested with
  ``unicodedata.category``, so every category RFC 9485 names works, as the
  running Python's Unicode database defines it;
- the grammar below refuses everything that is ``re`` syntax but not
  I-Regexp -- ``\\d``, ``\\w``, ``\\s``, ``\\b``, back-references, ``(?:``,
  ``(?i)``, look-around, lazy and possessive quantifiers, ``{,n}`` -- so
  none of it can change meaning silently.

Semantics, following RFC 9485 and its section 5 guidance:

- ``.`` matches any character except ``\\n`` and ``\\r`` (XSD's ``.``), so
  it does match U+2028 and U+2029;
- ``match()`` must match the whole string (``fullmatch``), ``search()`` any
  substring;
- ``^`` and ``$`` anchor at the start and the end of the string, as the
  RFC 9485 section 5.3 mapping to other dialects leaves them and the JSONPath
  Compliance Test Suite expects ("functions, match, explicit caret").  XSD
  itself reads them as literal characters; ``[$]`` and ``\\^`` match them
  literally here.  Unlike Python's ``$``, ours never matches before a final
  newline.

Bounds: a pattern is refused when its automaton would exceed
``MAX_PROGRAM`` instructions (``(x{100}){100}``) or its groups nest deeper
than ``MAX_GROUP_DEPTH``; the refusal is ``PatternTooCostly``, never a
silent "no match".
"""

from __future__ import annotations

import functools

from ._errors import PolicyError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Union

    # Inclusive (low, high) code point ranges of a character class.
    _Ranges = tuple[tuple[int, int], ...]
    _Node = Union["_Alternation", "_Sequence", "_Repeat", "_Anchor", "_CharClass"]

__all__ = [
    "MAX_GROUP_DEPTH",
    "MAX_PROGRAM",
    "NotIRegexp",
    "Pattern",
    "PatternTooCostly",
    "compile_pattern",
]

MAX_PROGRAM = 4000
MAX_GROUP_DEPTH = 32
# Cached automaton states and transitions per pattern.  Past these the
# automaton keeps working, computing each step afresh instead of caching it.
_MAX_STATES = 2000
_MAX_TRANSITIONS = 100_000

# RFC 9485 section 3, the ABNF: SingleCharEsc = "\" ( %x28-2B / "-" / "." /
# "?" / %x5B-5E / %s"n" / %s"r" / %s"t" / %x7B-7D ).
_SINGLE_ESCAPES = {
    "(": "(",
    ")": ")",
    "*": "*",
    "+": "+",
    "-": "-",
    ".": ".",
    "?": "?",
    "[": "[",
    "\\": "\\",
    "]": "]",
    "^": "^",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "{": "{",
    "|": "|",
    "}": "}",
}
# IsCategory: the general categories RFC 9485 allows after \p and \P.  Cs
# (surrogates) is not among them.
_CATEGORIES = frozenset(
    {
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
    }
)
# Characters NormalChar excludes (besides the surrogates): each has a
# meaning of its own.  "^" and "$" are NormalChar in the ABNF; see above.
_META = frozenset("()*+.?[\\]{|}")

# Instruction opcodes.
_CHAR, _SPLIT, _BOL, _EOL, _MATCH = range(5)


class NotIRegexp(PolicyError):
    """The pattern is not an I-Regexp (RFC 9485 section 3)."""


class PatternTooCostly(PolicyError):
    """The pattern is an I-Regexp, but too large for this implementation."""


class _CharClass:
    """One character class: a literal, ``.``, ``[...]``, ``\\p{..}``."""

    __slots__ = ("categories", "negated", "not_categories", "ranges")

    def __init__(
        self,
        ranges: _Ranges,
        categories: tuple[str, ...] = (),
        not_categories: tuple[str, ...] = (),
        negated: bool = False,
    ) -> None:
        self.ranges = ranges
        self.categories = categories
        self.not_categories = not_categories
        self.negated = negated

    def contains(self, char: str) -> bool:
        code = ord(char)
        hit = False
        for low, high in self.ranges:
            if low <= code <= high:
                hit = True
                break
        if not hit and (self.categories or self.not_categories):
            import unicodedata

            category = unicodedata.category(char)
            for name in self.categories:
                if category == name or category[0] == name:
                    hit = True
                    break
            else:
                for name in self.not_categories:
                    if category != name and category[0] != name:
                        hit = True
                        break
        return hit is not self.negated


class _Alternation:
    __slots__ = ("items",)

    def __init__(self, items: list[_Node]) -> None:
        self.items = items


class _Sequence:
    __slots__ = ("items",)

    def __init__(self, items: list[_Node]) -> None:
        self.items = items


class _Repeat:
    """*atom* repeated *low* to *high* times; *high* -1 is unbounded."""

    __slots__ = ("atom", "high", "low")

    def __init__(self, atom: _Node, low: int, high: int) -> None:
        self.atom = atom
        self.low = low
        self.high = high


class _Anchor:
    """``^`` or ``$``: *op* is _BOL or _EOL."""

    __slots__ = ("op",)

    def __init__(self, op: int) -> None:
        self.op = op


# "." is [^\n\r]: RFC 9485 section 5.3.
_NEWLINES = ((0x0A, 0x0A), (0x0D, 0x0D))


def _fail(pattern: str, pos: int, problem: str) -> NotIRegexp:
    return NotIRegexp(
        "bad-selector",
        f"{ascii(pattern)} is not an I-Regexp (RFC 9485): {problem} (pattern index {pos})",
    )


class _Parser:
    """Recursive descent over the RFC 9485 ABNF, groups depth-bounded."""

    def __init__(self, pattern: str) -> None:
        self.text = pattern
        self.pos = 0

    def fail(self, problem: str, pos: int | None = None) -> NotIRegexp:
        return _fail(self.text, self.pos if pos is None else pos, problem)

    def parse(self) -> _Node:
        tree = self.alternation(0)
        if self.pos != len(self.text):
            # Only an unmatched ")" stops an alternation early.
            raise self.fail("unbalanced ')'")
        return tree

    def alternation(self, depth: int) -> _Node:
        branches = [self.branch(depth)]
        text = self.text
        while self.pos < len(text) and text[self.pos] == "|":
            self.pos += 1
            branches.append(self.branch(depth))
        return _Alternation(branches)

    def branch(self, depth: int) -> _Node:
        pieces: list[_Node] = []
        text = self.text
        while self.pos < len(text) and text[self.pos] not in "|)":
            pieces.append(self.piece(depth))
        return _Sequence(pieces)

    def piece(self, depth: int) -> _Node:
        atom = self.atom(depth)
        low, high = 1, 1
        text = self.text
        if self.pos < len(text):
            char = text[self.pos]
            if char in "*+?":
                low, high = {"*": (0, -1), "+": (1, -1), "?": (0, 1)}[char]
                self.pos += 1
            elif char == "{":
                low, high = self.range_quantifier()
            else:
                return atom
            if self.pos < len(text) and text[self.pos] in "*+?{":
                # a*? (lazy), a*+ (possessive), a{2}{3}: one quantifier per
                # atom in RFC 9485.
                raise self.fail("a quantifier after a quantifier")
        return _Repeat(atom, low, high)

    def range_quantifier(self) -> tuple[int, int]:
        text = self.text
        start = self.pos
        self.pos += 1
        low = self.digits()
        if low is None:
            # {,3} is Python syntax, not RFC 9485 (QuantExact comes first).
            raise self.fail("'{' without a count", start)
        high: int | None = low
        if self.pos < len(text) and text[self.pos] == ",":
            self.pos += 1
            high = self.digits()
        if self.pos >= len(text) or text[self.pos] != "}":
            raise self.fail("unterminated quantifier", start)
        self.pos += 1
        if high is None:
            return low, -1
        if high < low:
            raise self.fail(f"quantifier {{{low},{high}}} has its maximum below its minimum", start)
        return low, high

    def digits(self) -> int | None:
        # QuantExact = 1*%x30-39: ASCII digits only (str.isdigit() would take
        # any Unicode digit, and int() would then read it).
        text = self.text
        start = self.pos
        while self.pos < len(text) and "0" <= text[self.pos] <= "9":
            self.pos += 1
        if self.pos == start:
            return None
        if self.pos - start > 6:
            # Beyond any program size we accept; int() of a huge digit run is
            # also slow, and refused past 4300 digits on Python 3.11+.
            raise PatternTooCostly(
                "bad-selector",
                f"{ascii(self.text)}: the count at pattern index {start} is too large",
            )
        return int(text[start : self.pos])

    def atom(self, depth: int) -> _Node:
        text = self.text
        if self.pos >= len(text):
            raise self.fail("a pattern ends where an atom is expected")
        char = text[self.pos]
        if char == "(":
            if depth >= MAX_GROUP_DEPTH:
                raise PatternTooCostly(
                    "bad-selector",
                    f"{ascii(text)}: groups nested deeper than {MAX_GROUP_DEPTH}",
                )
            start = self.pos
            self.pos += 1
            inner = self.alternation(depth + 1)
            if self.pos >= len(text):
                raise self.fail("unbalanced '('", start)
            self.pos += 1  # the ")" that stopped the alternation
            return inner
        if char == ".":
            self.pos += 1
            return _CharClass(_NEWLINES, negated=True)
        if char == "[":
            return self.char_class_expr()
        if char == "\\":
            return self.escape()
        if char == "^":
            self.pos += 1
            return _Anchor(_BOL)
        if char == "$":
            self.pos += 1
            return _Anchor(_EOL)
        if char in "*+?{":
            raise self.fail(f"{char!r} with nothing to repeat")
        if char in _META:
            raise self.fail(f"unescaped {char!r}")
        if "\ud800" <= char <= "\udfff":
            raise self.fail("a surrogate code point")
        self.pos += 1
        code = ord(char)
        return _CharClass(((code, code),))

    def escape(self) -> _CharClass:
        text = self.text
        start = self.pos
        if self.pos + 1 >= len(text):
            raise self.fail("a pattern ends with '\\'")
        char = text[self.pos + 1]
        if char in "pP":
            return self.category(char == "P")
        literal = _SINGLE_ESCAPES.get(char)
        if literal is None:
            # \d \w \s \b \A \Z \1 \x41 \u0041 \$ ...: Python or PCRE, not
            # RFC 9485 (section 5.1 gives [0-9] for \d, and so on).
            raise self.fail(f"'\\{char}' is not an I-Regexp escape", start)
        self.pos += 2
        code = ord(literal)
        return _CharClass(((code, code),))

    def category(self, complement: bool) -> _CharClass:
        text = self.text
        start = self.pos
        if self.pos + 2 >= len(text) or text[self.pos + 2] != "{":
            raise self.fail("\\p or \\P without '{'", start)
        end = text.find("}", self.pos + 3)
        name = text[self.pos + 3 : end] if end != -1 else ""
        if end == -1 or name not in _CATEGORIES:
            # \p{IsBasicLatin} (a block), \p{Cs}, \p{Greek}: not IsCategory.
            raise self.fail("not a Unicode general category that RFC 9485 allows", start)
        self.pos = end + 1
        if complement:
            return _CharClass((), not_categories=(name,))
        return _CharClass((), categories=(name,))

    def char_class_expr(self) -> _CharClass:
        # charClassExpr = "[" [ "^" ] ( "-" / CCE1 ) *CCE1 [ "-" ] "]"
        text = self.text
        start = self.pos
        self.pos += 1
        negated = False
        if self.pos < len(text) and text[self.pos] == "^":
            negated = True
            self.pos += 1
        ranges: list[tuple[int, int]] = []
        categories: list[str] = []
        not_categories: list[str] = []
        first = True
        while True:
            if self.pos >= len(text):
                raise self.fail("unterminated character class", start)
            char = text[self.pos]
            if char == "]":
                if first:
                    # [] is not in the grammar, and RFC 9485 rules out [^].
                    raise self.fail("empty character class", start)
                self.pos += 1
                break
            if char == "-":
                at_end = self.pos + 1 < len(text) and text[self.pos + 1] == "]"
                if not (first or at_end):
                    raise self.fail("'-' inside a character class must come first, last, or in a range")
                self.pos += 1
                ranges.append((0x2D, 0x2D))
                first = False
                continue
            first = False
            if char == "\\" and self.pos + 1 < len(text) and text[self.pos + 1] in "pP":
                item = self.category(text[self.pos + 1] == "P")
                categories += item.categories
                not_categories += item.not_categories
                continue
            low = self.class_char()
            high = low
            if self.pos + 1 < len(text) and text[self.pos] == "-" and text[self.pos + 1] != "]":
                self.pos += 1
                if text[self.pos] == "\\" and self.pos + 1 < len(text) and text[self.pos + 1] in "pP":
                    raise self.fail("a category cannot end a range")
                range_start = self.pos
                high = self.class_char()
                if high < low:
                    raise self.fail("a range whose end is before its start", range_start)
            ranges.append((low, high))
        return _CharClass(tuple(ranges), tuple(categories), tuple(not_categories), negated)

    def class_char(self) -> int:
        # CCchar = ( %x00-2C / %x2E-5A / %x5E-D7FF / %xE000-10FFFF ) / SingleCharEsc
        char = self.text[self.pos]
        if char == "\\":
            item = self.escape()
            return item.ranges[0][0]
        if char in "[]-":
            # "[" opens nothing in I-Regexp: no nested classes, no XSD
            # subtraction [a-z-[aeiou]], no POSIX [[:alpha:]].
            raise self.fail(f"unescaped {char!r} inside a character class")
        if "\ud800" <= char <= "\udfff":
            raise self.fail("a surrogate code point")
        self.pos += 1
        return ord(char)


class _Instruction:
    """One NFA instruction; *then* and *other* are instruction indexes."""

    __slots__ = ("char_class", "op", "other", "then")

    def __init__(self, op: int, then: int = -1, other: int = -1, char_class: _CharClass | None = None) -> None:
        self.op = op
        self.then = then
        self.other = other
        self.char_class = char_class


class _Program:
    """A Thompson NFA, built back to front: each piece knows what follows."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.code: list[_Instruction] = []

    def emit(self, instruction: _Instruction) -> int:
        if len(self.code) >= MAX_PROGRAM:
            raise PatternTooCostly(
                "bad-selector",
                f"{ascii(self.pattern[:60])}: the pattern needs more than {MAX_PROGRAM} "
                "automaton states (a large {n,m} count?)",
            )
        self.code.append(instruction)
        return len(self.code) - 1

    def compile(self, node: _Node, follow: int) -> int:
        """Emit code for *node* that continues at *follow*; return its start."""
        if isinstance(node, _CharClass):
            return self.emit(_Instruction(_CHAR, follow, char_class=node))
        if isinstance(node, _Anchor):
            return self.emit(_Instruction(node.op, follow))
        if isinstance(node, _Sequence):
            for piece in reversed(node.items):
                follow = self.compile(piece, follow)
            return follow
        if isinstance(node, _Alternation):
            start = self.compile(node.items[-1], follow)
            for branch in reversed(node.items[:-1]):
                start = self.emit(_Instruction(_SPLIT, self.compile(branch, follow), start))
            return start
        if node.high == -1:
            loop = self.emit(_Instruction(_SPLIT, -1, follow))
            self.code[loop].then = self.compile(node.atom, loop)
            follow = loop
        else:
            for _ in range(node.high - node.low):
                follow = self.emit(_Instruction(_SPLIT, self.compile(node.atom, follow), follow))
        for _ in range(node.low):
            follow = self.compile(node.atom, follow)
        return follow


class _State:
    """A set of NFA positions: one state of the lazily built DFA."""

    __slots__ = ("accepting", "pcs", "step")

    def __init__(self, pcs: frozenset[int], accepting: bool) -> None:
        self.pcs = pcs
        self.accepting = accepting
        self.step: dict[str, _State] = {}


class _Automaton:
    """The DFA of one program, for either fullmatch or search.

    States are interned in a dict and transitions cached in each state's own
    dict, both only ever added to, so concurrent threads at worst compute
    the same state twice and keep one; no lock is needed.
    """

    def __init__(self, code: list[_Instruction], start: int, match_pc: int, search: bool) -> None:
        self.code = code
        self.match_pc = match_pc
        self.search = search
        self.states: dict[frozenset[int], _State] = {}
        self.transitions = 0
        # search() may also start a match at any later position.
        self.restart = self.closure([start], at_start=False, at_end=False)
        self.initial = self.intern(self.closure([start], at_start=True, at_end=False))

    def closure(self, seeds: list[int], at_start: bool, at_end: bool) -> frozenset[int]:
        # Iterative, and each position is visited once: an empty loop such
        # as ()* or (a*)* cannot spin.
        code = self.code
        seen: set[int] = set()
        kept = []
        stack = list(seeds)
        while stack:
            pc = stack.pop()
            if pc in seen:
                continue
            seen.add(pc)
            instruction = code[pc]
            op = instruction.op
            if op == _SPLIT:
                stack.append(instruction.other)
                stack.append(instruction.then)
            elif op == _BOL:
                if at_start:
                    stack.append(instruction.then)
            elif op == _EOL and at_end:
                stack.append(instruction.then)
            else:
                kept.append(pc)  # _CHAR, _MATCH, and _EOL before the end
        return frozenset(kept)

    def intern(self, pcs: frozenset[int]) -> _State:
        if self.search:
            pcs |= self.restart
        state = self.states.get(pcs)
        if state is None:
            state = _State(pcs, self.match_pc in pcs)
            if len(self.states) < _MAX_STATES:
                state = self.states.setdefault(pcs, state)
        return state

    def advance(self, state: _State, char: str) -> _State:
        code = self.code
        targets = []
        for pc in state.pcs:
            instruction = code[pc]
            char_class = instruction.char_class
            if char_class is not None and char_class.contains(char):
                targets.append(instruction.then)
        following = self.intern(self.closure(targets, at_start=False, at_end=False))
        # A transition that ends the run (a match found by search(), no
        # match left for fullmatch()) is taken once per run: not cached, so
        # the loops below need not test for it.
        final = following.accepting if self.search else not following.pcs
        if not final and self.transitions < _MAX_TRANSITIONS:
            self.transitions += 1  # approximate under threads; only a bound
            state.step[char] = following
        return following

    def accepts_at_end(self, state: _State, empty: bool) -> bool:
        # At the end of the string "$" holds, and "^" too if it is empty.
        if state.accepting:
            return True
        pending = [pc for pc in state.pcs if self.code[pc].op == _EOL]
        if not pending:
            return False
        return self.match_pc in self.closure(pending, at_start=empty, at_end=True)

    def run(self, text: str) -> bool:
        state = self.initial
        step = state.step
        if self.search:
            if state.accepting:
                return True
            for char in text:
                following = step.get(char)
                if following is None:
                    following = self.advance(state, char)
                    if following.accepting:
                        return True
                state = following
                step = following.step
        else:
            for char in text:
                following = step.get(char)
                if following is None:
                    following = self.advance(state, char)
                    if not following.pcs:
                        return False
                state = following
                step = following.step
        return self.accepts_at_end(state, not text)


class Pattern:
    """A compiled I-Regexp.

    ``fullmatch(text)`` is the JSONPath ``match()`` test and ``search(text)``
    the ``search()`` test; both return a bool, in time linear in the text.
    """

    __slots__ = ("_full", "_search", "pattern")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        tree = _Parser(pattern).parse()
        program = _Program(pattern)
        match_pc = program.emit(_Instruction(_MATCH))
        start = program.compile(tree, match_pc)
        self._full = _Automaton(program.code, start, match_pc, search=False)
        self._search = _Automaton(program.code, start, match_pc, search=True)

    def fullmatch(self, text: str) -> bool:
        return self._full.run(text)

    def search(self, text: str) -> bool:
        return self._search.run(text)

    def __repr__(self) -> str:
        return f"Pattern({self.pattern!r})"


@functools.lru_cache(maxsize=256)
def _compiled(pattern: str) -> Union[Pattern, PolicyError]:
    # Failures are cached too: a pattern taken from the document may be
    # tried against thousands of strings.
    try:
        return Pattern(pattern)
    except PolicyError as exc:
        return exc


def compile_pattern(pattern: str) -> Pattern:
    """Return *pattern*, an I-Regexp, compiled; cached.

    Raises ``NotIRegexp`` if it is not an I-Regexp (RFC 9485 section 3) and
    ``PatternTooCostly`` if it is one this implementation will not run.
    Both are ``PolicyError`` with code ``"bad-selector"``.
    """
    result = _compiled(pattern)
    if isinstance(result, Pattern):
        return result
    raise type(result)(result.code, result.message)
