# SPDX-License-Identifier: MIT
"""I-Regexp (RFC 9485), for the JSONPath functions match() and search().

A pattern is checked against the RFC 9485 grammar and compiled into a small
automaton that this module runs itself.  It is not handed to ``re``:

- ``re`` backtracks, so an I-Regexp as plain as ``(a|aa)*c`` or ``(a+)+b``
  takes exponential time on a string of a few dozen characters, and
  ``a.*b.*c`` polynomial time; a gate that reads evidence must not hang on
  it.  The automaton here runs in time linear in the string, whatever the
  pattern: a Thompson NFA whose sets of positions are ints, one bit a
  position, so that a step is a few operations on ints (``_Machine``), and
  whose steps are cached as a lazy DFA (``_Automaton``);
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
silent "no match".  So one character of text costs at most:

- a look-up in the DFA's cache, which holds ``_MAX_STATES`` states and
  ``_MAX_TRANSITIONS`` transitions and, when full, is emptied and filled
  again (it keeps serving the text at hand, where a cache that stopped
  growing served only the text's first stretch);
- or, on a miss, a step of the bit-parallel NFA: a few operations on ints
  of P bits for a program of P <= ``MAX_PROGRAM`` instructions, and one
  table look-up per 8 of its positions that go on through a choice or a
  loop (at most P / 8, none for ``a[ab]{1900}c``);
- the first time a character is met (a cache of ``_MAX_CHARS``), one class
  test per distinct character class of the pattern.

That is O(P) per character, O(n * P) for a text of n characters: linear
in the text for a given pattern.  ``a[ab]{1900}c`` searched in random
``a``/``b`` text took 0.35 ms a character with sets of positions, and
takes about 1.5 microseconds with bits.
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
# Cached automaton states and transitions per pattern and mode: when one is
# full, both are emptied and filled again.
_MAX_STATES = 2000
_MAX_TRANSITIONS = 100_000
# Characters whose class masks are cached per pattern, and the bits the
# step tables may hold (2 MiB).
_MAX_CHARS = 4096
_MAX_TABLE_BITS = 1 << 24

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


class _Machine:
    """The bit-parallel form of one program, shared by fullmatch and search.

    A set of NFA positions is an int, bit *pc* for instruction *pc*; only
    the positions a closure keeps are ever set (_CHAR, _MATCH, and _EOL
    before the end).  One step on a character is a few operations on such
    ints, whatever the number of positions set:

    - ``char_mask(char)``: the _CHAR positions whose class holds *char*,
      computed once per distinct character (a cache of ``_MAX_CHARS``);
    - the program is built back to front, so most _CHAR positions go on to
      the position just below them, a kept one: for all of those at once
      the step is a shift by one (``regular``);
    - the others (before a choice, a loop or the end of a group) go on to
      the closure of their successor, looked up 8 positions at a time in
      tables built on first use (``_MAX_TABLE_BITS`` of them at most).

    So a step costs O(P) machine-word operations on a program of P
    instructions, and at most P / 8 table look-ups: linear in the text for
    a fixed pattern, whatever it is.
    """

    def __init__(self, code: list[_Instruction], start: int, match_pc: int) -> None:
        self.code = code
        self.start = start
        self.match_pc = match_pc
        self.match_bit = 1 << match_pc
        size = len(code)
        closures = _closures(code)
        literals: dict[int, int] = {}
        classes: dict[tuple[object, ...], tuple[_CharClass, int]] = {}
        regular = irregular = eol = 0
        # The closure after each irregular _CHAR position.
        self.post: dict[int, int] = {}
        for pc, instruction in enumerate(code):
            op = instruction.op
            if op == _EOL:
                eol |= 1 << pc
            char_class = instruction.char_class
            if op != _CHAR or char_class is None:
                continue
            bit = 1 << pc
            ranges = char_class.ranges
            if (
                len(ranges) == 1
                and ranges[0][0] == ranges[0][1]
                and not char_class.negated
                and not char_class.categories
                and not char_class.not_categories
            ):
                literals[ranges[0][0]] = literals.get(ranges[0][0], 0) | bit
            else:
                key = (ranges, char_class.categories, char_class.not_categories, char_class.negated)
                known = classes.get(key)
                classes[key] = (char_class, bit if known is None else known[1] | bit)
            following = instruction.then
            if following == pc - 1 and code[following].op in (_CHAR, _MATCH, _EOL):
                regular |= bit
            else:
                irregular |= bit
                self.post[pc] = closures[following]
        self.literals = literals
        self.classes = list(classes.values())
        self.regular = regular
        self.irregular = irregular
        self.eol = eol
        self.width = (size + 7) // 8
        # The bytes of an irregular set that can be nonzero.
        self.chunks = [index for index in range(self.width) if (irregular >> (8 * index)) & 0xFF]
        self.masks: dict[str, int] = {}
        self.table: dict[int, int] = {}
        self.table_size = max(256, _MAX_TABLE_BITS // max(size, 1))
        # search() may also start a match at any later position.
        self.restart = closures[start]
        self.initial = self.bits(self.closure([start], at_start=True, at_end=False))

    def bits(self, pcs: list[int]) -> int:
        result = 0
        for pc in pcs:
            result |= 1 << pc
        return result

    def closure(self, seeds: list[int], at_start: bool, at_end: bool) -> list[int]:
        # At the start and at the end of the text only, once a run: "^" and
        # "$" hold there.  Iterative, and each position is visited once: an
        # empty loop such as ()* or (a*)* cannot spin.
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
        return kept

    def char_mask(self, char: str) -> int:
        mask = self.masks.get(char)
        if mask is None:
            mask = self.literals.get(ord(char), 0)
            for char_class, bits in self.classes:
                if char_class.contains(char):
                    mask |= bits
            masks = self.masks
            if len(masks) >= _MAX_CHARS:
                # Full: start again, so that the characters of the text's
                # next stretch are cached in turn.
                masks = self.masks = {}
            masks[char] = mask
        return mask

    def step(self, bits: int, char: str) -> int:
        """Return the positions after reading *char* from *bits*, mid-text."""
        moving = bits & self.char_mask(char)
        if not moving:
            return 0
        following = (moving & self.regular) >> 1
        jumping = moving & self.irregular
        if jumping:
            data = jumping.to_bytes(self.width, "little")
            table = self.table
            for index in self.chunks:
                byte = data[index]
                if byte:
                    key = index << 8 | byte
                    closure = table.get(key)
                    if closure is None:
                        closure = 0
                        post = self.post
                        base = 8 * index
                        for offset in range(8):
                            if byte >> offset & 1:
                                closure |= post[base + offset]
                        if len(table) >= self.table_size:
                            table = self.table = {}
                        table[key] = closure
                    following |= closure
        return following

    def accepts_at_end(self, bits: int, empty: bool) -> bool:
        # At the end of the string "$" holds, and "^" too if it is empty.
        if bits & self.match_bit:
            return True
        pending = bits & self.eol
        if not pending:
            return False
        pcs = [pc for pc in range(pending.bit_length()) if pending >> pc & 1]
        return self.match_pc in self.closure(pcs, at_start=empty, at_end=True)


def _closures(code: list[_Instruction]) -> list[int]:
    """Return, for each instruction, the positions its closure keeps, mid-text.

    Mid-text "^" holds nowhere and "$" is kept, pending the end.  The
    closures of all instructions at once, in time linear in the program:
    strongly connected components of the empty moves (Tarjan's algorithm,
    iterative), as an empty loop such as ()* or (a*)* makes a cycle, each
    component's closure the union of its kept positions and of the
    closures of the components it moves to, which are complete by then.
    """
    size = len(code)
    closures = [0] * size
    successors: list[tuple[int, ...]] = []
    for instruction in code:
        if instruction.op == _SPLIT:
            successors.append((instruction.then, instruction.other))
        else:
            successors.append(())
    order = [-1] * size
    low = [0] * size
    on_stack = [False] * size
    stack: list[int] = []
    counter = 0
    for root in range(size):
        if order[root] != -1:
            continue
        work = [(root, 0)]
        while work:
            pc, edge = work[-1]
            if edge == 0:
                order[pc] = low[pc] = counter
                counter += 1
                stack.append(pc)
                on_stack[pc] = True
            if edge < len(successors[pc]):
                work[-1] = (pc, edge + 1)
                target = successors[pc][edge]
                if order[target] == -1:
                    work.append((target, 0))
                elif on_stack[target]:
                    low[pc] = min(low[pc], order[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[pc])
            if low[pc] != order[pc]:
                continue
            members = []
            while True:
                member = stack.pop()
                on_stack[member] = False
                members.append(member)
                if member == pc:
                    break
            closure = 0
            for member in members:
                op = code[member].op
                if op == _CHAR or op == _MATCH or op == _EOL:
                    closure |= 1 << member
                for target in successors[member]:
                    closure |= closures[target]  # 0 while inside this component
            for member in members:
                closures[member] = closure
    return closures


class _State:
    """A set of NFA positions, as bits: one state of the lazily built DFA."""

    __slots__ = ("accepting", "bits", "step")

    def __init__(self, bits: int, accepting: bool) -> None:
        self.bits = bits
        self.accepting = accepting
        self.step: dict[str, _State] = {}


class _Automaton:
    """The lazily built DFA of one program, for either fullmatch or search.

    States are interned in a dict and transitions cached in each state's own
    dict.  When either cache is full (``_MAX_STATES``, ``_MAX_TRANSITIONS``)
    it is emptied and filled again, so it keeps serving the stretch of text
    at hand rather than the first one.  Every cached transition is right
    whichever fill it belongs to, so concurrent threads at worst compute the
    same state twice; no lock is needed.
    """

    def __init__(self, machine: _Machine, search: bool) -> None:
        self.machine = machine
        self.search = search
        self.restart = machine.restart if search else 0
        self.states: dict[int, _State] = {}
        self.transitions = 0
        # How many times the caches were emptied.
        self.flushes = 0
        self.initial = self.intern(machine.initial)

    def intern(self, bits: int) -> _State:
        bits |= self.restart
        states = self.states
        state = states.get(bits)
        if state is None:
            if len(states) >= _MAX_STATES:
                states = self.flush()
            state = states.setdefault(bits, _State(bits, bits & self.machine.match_bit != 0))
        return state

    def flush(self) -> dict[int, _State]:
        old = self.states
        self.states = {}
        self.transitions = 0
        self.flushes += 1
        # Emptied, the old states' transitions no longer hold every state
        # reached so far alive (nor a reference cycle).
        for state in old.values():
            state.step.clear()
        self.initial = self.states[self.initial.bits] = _State(self.initial.bits, self.initial.accepting)
        return self.states

    def advance(self, state: _State, char: str) -> _State:
        following = self.intern(self.machine.step(state.bits, char))
        # A transition that ends the run (a match found by search(), no
        # match left for fullmatch()) is taken once per run: not cached, so
        # the loops below need not test for it.
        final = following.accepting if self.search else not following.bits
        if not final:
            if self.transitions >= _MAX_TRANSITIONS:
                self.flush()
            self.transitions += 1  # approximate under threads; only a bound
            state.step[char] = following
        return following

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
                    if not following.bits:
                        return False
                state = following
                step = following.step
        return state.accepting or self.machine.accepts_at_end(state.bits, not text)


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
        machine = _Machine(program.code, start, match_pc)
        self._full = _Automaton(machine, search=False)
        self._search = _Automaton(machine, search=True)

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
