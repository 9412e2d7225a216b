# SPDX-License-Identifier: MIT
"""Stage 2 of the pipeline: text to a JSON value, strictly.

Python's ``json`` module is lenient where a release gate must not be.  This
module closes each gap with the decoder's own hooks:

- ``NaN``, ``Infinity`` and ``-Infinity`` are a Python extension, not JSON
  (RFC 8259 section 6): ``parse_constant`` refuses them;
- ``1e400`` is valid number syntax that Python decodes to ``inf``: the float
  hook refuses any non-finite result;
- a duplicated member name silently keeps the last value (RFC 8259 section 4
  says names SHOULD be unique): ``object_pairs_hook`` refuses duplicates,
  comparing names after unescaping;
- a number literal with absurdly many digits costs quadratic time in
  ``int()`` on old Pythons and a ``ValueError`` on new ones: the hooks refuse
  it before converting;
- ``"\\ud800"`` decodes to a lone surrogate that cannot be encoded again;
- deep nesting raises ``RecursionError`` at a depth that depends on the
  Python version: it is refused at a fixed depth before decoding;
- trailing data after the value is refused (whitespace is fine).

Two readers apply those rules: ``parse_json()`` refuses a text at its first
fault; ``load_document()``, for selection, records each NaN, infinity and
out-of-range number with its normalized path instead, and refuses the text
for anything else.

A refusal names the place to blame (``pos``, ``lineno``, ``colno``) where
there is one.  The hooks get no positions, so the place of a NaN or of a
duplicated member is found after a hook has refused, by a scan that reads
the text as the decoder does; a valid text never pays for it.

Large texts (``FAST_MIN_LENGTH`` characters and more) first take a fast
path: the decoder runs without the member and integer hooks, which cost
more than the decoding itself on a harness log of many small objects, and
the text is checked around it by passes that run in C (``bytes.translate``,
``bytes.replace``, ``re``):

- the nesting depth is measured before decoding, on the text's brackets
  outside strings, exactly as the precise scan counts them;
- duplicated names are detected by counting: the text's colons outside
  strings are its members, and a duplicate makes the decoded objects hold
  fewer;
- the integer hook is needed only for long literals, and none is there
  when no run of 200 digits is (a literal over 640 characters holds one);
- lone surrogate escapes are found by pairing ``\\u`` escapes as the
  decoder does.

Any doubt (a fault, a mismatch, a digit run, dense escapes) sends the text
to the precise path, which reads it again with every hook, so each text
gets the very value, or code, message and position, the precise path
gives.
"""

from __future__ import annotations

import json
import math
import re

from ._encoding import find_surrogate
from ._errors import InvalidEvidence, invalid_at
from ._score import exact_context

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Optional, Union

    _Key = Union[str, int]
    _Keys = tuple[_Key, ...]
    # One recorded number: (dicts completed before it, code, literal,
    # the float the decoder put in its place).
    _Event = tuple[int, str, str, float]
    _Step = Optional[tuple[dict[str, object], _Keys, int]]

__all__ = [
    "FAST_MIN_LENGTH",
    "MAX_DECIMAL_EXPONENT",
    "MAX_DEPTH",
    "MAX_NUMBER_LENGTH",
    "Nonfinite",
    "check_integer",
    "convert_number",
    "load_document",
    "parse_json",
    "underflows",
]

# 640 is the smallest limit sys.set_int_max_str_digits() accepts, so no
# literal we convert can trip the interpreter's own limit (Python 3.11+),
# and 10**400 still reaches the range check as an integer.
MAX_NUMBER_LENGTH = 640
# Exact mode keeps a number's whole decimal expansion, and arithmetic on it
# (a report's exact sum) costs time and memory in proportion to the
# exponent: 1e-999999999 is a short literal with a billion-digit sum.  No
# score needs more than this many places either side of the point.
MAX_DECIMAL_EXPONENT = 1000
MAX_DEPTH = 128
# Texts at least this long take the fast path; below it the hooks cost
# less than the passes around the fast decoder.
FAST_MIN_LENGTH = 1 << 15

# RFC 8259 section 2: insignificant whitespace is exactly these four.
_WHITESPACE = re.compile(r"[ \t\n\r]*")
# The precise depth scan blanks every escape, then skips strings as '"' to
# the next '"'.  Matching strings with their escapes in one pattern instead
# costs quadratic time: each '\\"' of an unterminated string is a fresh
# start for a scan to the end of the text.
_ESCAPE = re.compile(r"\\.", re.DOTALL)
_STRING_OR_BRACKET = re.compile(r'"[^"]*"|[\[\]{}]')
# A run of backslashes that ends at a quote; the lookbehind makes each run
# one match, so a long run costs one pass, not one per backslash.
_BACKSLASHES_QUOTE = re.compile(r'(?<!\\)(\\+)"')
# Where the duplicate locator stops: a string, a bracket or a comma.
_TOKEN = re.compile(r'[\[\]{},"]')

# The structural scan works on bytes of the text in which every ASCII
# character is itself (see _structure).  It keeps quotes, brackets and
# colons.
_STRUCTURAL = b'"[]{}:'
# An escape that hides a structural character, or a surrogate \u escape;
# a low surrogate escape.
_ESCAPE_TO_SCAN = re.compile(rb'\\(?:[\\"\[\]{}:]|u[dD][89a-fA-F])')
_LOW_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][c-fC-F]")
_HIGH_SECOND = frozenset(b"89abAB")  # \uD800-\uDBFF
_ASCII_DIGITS = b"0123456789"
# Translation tables, built on first use (_tables()).
_TABLES: list[tuple[bytes, bytes, bytes, bytes]] = []
# Characters the structural scan reads at a time.
_CHUNK = 1 << 16
# One backslash in this many characters is dense (see _fast).
_DENSE_ESCAPES = 16
# Elements a bottom-up search for a recorded number's container may read
# before the top-down walk takes over.
_SEARCH_BUDGET = 256
# Children the first top-down walk may read per level, and in all.
_LEVEL_BUDGET = 1 << 13
_WALK_BUDGET = 1 << 15


class Nonfinite:
    """A number ``load_document()`` recorded instead of refusing the text.

    - ``path``: the value's normalized path (RFC 9535 section 2.7), as
      ``"$['samples'][3]['scores']['choice']['value']"``;
    - ``code``: ``"non-standard-constant"`` for ``NaN``, ``Infinity`` or
      ``-Infinity``, ``"non-finite"`` for a number that overflows a double
      (``1e400``), ``"underflow"`` for a nonzero number that a double reads
      as 0.0 (``1e-400``);
    - ``literal``: the number as the text writes it;
    - ``value``: the float the document holds in its place, an object of
      its own (``record.value is document[...]`` tells which record a value
      is): NaN for ``NaN``, infinite for ``Infinity``, ``-Infinity`` and an
      overflow (with its sign), and NaN for an underflow, whose sign and
      size are both lost.  Each is NaN or infinite, so a JSONPath filter or
      requirement that reads one raises ``NonFiniteRead``.

    Records compare equal when path, code and literal are equal.
    """

    __slots__ = ("code", "literal", "path", "value")

    code: str
    literal: str
    path: str
    value: float

    def __init__(self, path: str, code: str, literal: str, value: float) -> None:
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "literal", literal)
        object.__setattr__(self, "value", value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Nonfinite is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Nonfinite is immutable: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not Nonfinite:
            return NotImplemented
        return (self.path, self.code, self.literal) == (other.path, other.code, other.literal)

    def __hash__(self) -> int:
        return hash((self.path, self.code, self.literal))

    def __repr__(self) -> str:
        return f"Nonfinite(path={self.path!r}, code={self.code!r}, literal={self.literal!r})"

    def __reduce__(self) -> tuple[type[Nonfinite], tuple[str, str, str, float]]:
        return (Nonfinite, (self.path, self.code, self.literal, self.value))


def _tables() -> tuple[bytes, bytes, bytes, bytes]:
    """Return the tables: to delete all but structure, braces as brackets,
    brackets as +1 and -1, and ASCII digits as "1" (all else "0")."""
    if not _TABLES:
        _TABLES.append(
            (
                bytes(c for c in range(256) if c not in _STRUCTURAL),
                bytes.maketrans(b"{}", b"[]"),
                bytes.maketrans(b"[]", b"\x01\xff"),
                bytes(0x31 if c in _ASCII_DIGITS else 0x30 for c in range(256)),
            )
        )
    return _TABLES[0]


# -- numbers -----------------------------------------------------------------


def _reject_constant(token: str) -> object:
    raise InvalidEvidence(
        "non-standard-constant",
        f"{token} is not JSON (RFC 8259 section 6 has no NaN or Infinity)",
    )


def _number_too_long(token: str) -> InvalidEvidence:
    return InvalidEvidence(
        "too-many-digits",
        f"number literal of {len(token)} characters, over the limit of {MAX_NUMBER_LENGTH}",
    )


def _parse_int(token: str) -> int:
    if len(token) > MAX_NUMBER_LENGTH:
        raise _number_too_long(token)
    try:
        return int(token)
    except ValueError:
        # sys.set_int_max_str_digits() may have been set lower still.
        raise _number_too_long(token) from None


def _float_problem(token: str, value: float) -> str | None:
    """Return the code of what is wrong with the double *value* of *token*."""
    if not math.isfinite(value):
        # Valid number syntax whose value overflows a double, like 1e400.
        # parse_constant never sees it (RFC 8259 section 6 warns of it).
        return "non-finite"
    if value == 0.0 and underflows(token):
        # The other end of RFC 8259 section 6: 1e-400 is not zero, but a
        # double reads it as 0.0, which flips "score > 0" and turns a
        # threshold of 1e-400 into 0.  Exact mode keeps it as 1e-400.
        return "underflow"
    return None


def _parse_float(token: str) -> float:
    if len(token) > MAX_NUMBER_LENGTH:
        raise _number_too_long(token)
    value = float(token)
    problem = _float_problem(token, value)
    if problem == "non-finite":
        raise InvalidEvidence("non-finite", f"number {token} overflows to {value!r}")
    if problem == "underflow":
        raise InvalidEvidence(
            "underflow", f"number {token[:40]} is not zero but too small for a double, which reads it as 0.0"
        )
    return value


def underflows(token: str | bytes) -> bool:
    """Return True if the JSON number *token* is not zero.

    Called only when the token converted to 0.0: any nonzero digit in the
    mantissa then means the value underflowed.
    """
    text = token.decode("ascii") if isinstance(token, bytes) else token
    mantissa = text.lower().partition("e")[0]
    return mantissa.strip("-0.") != ""


def _parse_decimal(token: str) -> object:
    if len(token) > MAX_NUMBER_LENGTH:
        raise _number_too_long(token)
    from decimal import Decimal

    # The constructor never rounds, whatever the context's precision.  It
    # does refuse an exponent beyond the implementation's limit (about
    # 10**18) with InvalidOperation, signalled in the private context, which
    # traps it, so the thread's context cannot turn it into a NaN or raise
    # something else.
    try:
        value = Decimal(token, exact_context())
    except ArithmeticError:
        value = None
    if value is None or not value.is_finite() or abs(value.adjusted()) > MAX_DECIMAL_EXPONENT:
        raise InvalidEvidence(
            "too-many-digits",
            f"number {token[:40]} has an exponent beyond +-{MAX_DECIMAL_EXPONENT}, "
            "too large for exact decimal comparison",
        )
    return value


def convert_number(token: str, *, exact: bool) -> object:
    """Convert the RFC 8259 number literal *token* as the strict decoder does.

    For numbers read by another parser (a TOML policy file), so they meet
    the very checks, and reason codes, of a JSON number: the digit cap,
    overflow to infinity, underflow to 0.0 and, if *exact*, the exponent
    bound.  Returns an ``int`` for a literal without fraction or exponent,
    else a ``float`` (a ``decimal.Decimal`` if *exact*).  Raises
    ``InvalidEvidence``.
    """
    if "." in token or "e" in token or "E" in token:
        return _parse_decimal(token) if exact else _parse_float(token)
    return _parse_int(token)


def check_integer(value: int) -> None:
    """Apply the decoder's digit cap to an ``int`` another parser converted.

    The cap is on the decimal literal JSON would need for *value*; raises
    ``InvalidEvidence`` (``too-many-digits``) as the decoder would for it.
    """
    # str() of an int raises ValueError past the interpreter's digit limit:
    # at 4 bits a digit, over 2560 bits is over the cap anyway.
    if value.bit_length() <= 4 * MAX_NUMBER_LENGTH:
        try:
            text = str(value)
        except ValueError:  # sys.set_int_max_str_digits() set lower still
            pass
        else:
            _parse_int(text)
            return
    raise InvalidEvidence(
        "too-many-digits",
        f"an integer of {value.bit_length()} bits, over the limit of {MAX_NUMBER_LENGTH} digits",
    )


def _unique_members(pairs: list[tuple[str, object]]) -> dict[str, object]:
    members = dict(pairs)
    if len(members) != len(pairs):
        seen: set[str] = set()
        for name, _ in pairs:
            if name in seen:
                raise InvalidEvidence(
                    "duplicate-member",
                    f"member {name!a} appears more than once; JSON parsers disagree on which value wins",
                )
            seen.add(name)
    return members


_decoders: dict[bool, json.JSONDecoder] = {}


def _decoder(exact: bool) -> json.JSONDecoder:
    # Built once, on first use: building a decoder per call costs more than
    # the decoding itself.
    decoder = _decoders.get(exact)
    if decoder is None:
        decoder = json.JSONDecoder(
            parse_float=_parse_decimal if exact else _parse_float,
            parse_int=_parse_int,
            parse_constant=_reject_constant,
            object_pairs_hook=_unique_members,
            strict=True,  # control characters inside strings are errors
        )
        _decoders[exact] = decoder
    return decoder


def _recording_decoder(completed: list[dict[str, object]], events: list[_Event], exact: bool) -> json.JSONDecoder:
    """The precise decoder, recording non-finite numbers instead of refusing them.

    Every object, once decoded, is appended to *completed* (so in the order
    objects end), and each recorded number to *events* (in document order)
    with the count of objects completed before it; the document holds a
    fresh float in its place, found again by identity (``_Finder``).
    """
    add_object = completed.append
    add_event = events.append

    def members(pairs: list[tuple[str, object]]) -> dict[str, object]:
        value = _unique_members(pairs)
        add_object(value)
        return value

    def constant(token: str) -> object:
        value = float(token)
        add_event((len(completed), "non-standard-constant", token, value))
        return value

    def number(token: str) -> object:
        if len(token) > MAX_NUMBER_LENGTH:
            raise _number_too_long(token)
        value = float(token)
        problem = _float_problem(token, value)
        if problem is None:
            return value
        if problem == "underflow":
            value = float("nan")
        add_event((len(completed), problem, token, value))
        return value

    return json.JSONDecoder(
        parse_float=_parse_decimal if exact else number,
        parse_int=_parse_int,
        parse_constant=constant,
        object_pairs_hook=members,
        strict=True,
    )


def _fast_decode(
    text: str, start: int, exact: bool, record: bool
) -> tuple[object, int, int, list[dict[str, object]], list[_Event]]:
    """Decode *text* from *start* with the fast path's decoder.

    Objects and integers are built in C: objects are only counted, not
    checked for duplicates, and integers need no hook once no long digit run
    is in the text.  A number the precise decoder would refuse raises
    ValueError, unless *record*, where it is recorded as by
    ``_recording_decoder``.  Objects are kept in *completed* only from the
    first recorded number on: the search for a number's container starts
    after it.

    Returns the value, where it ends, the count of members, the objects
    kept and the numbers recorded.
    """
    completed: list[dict[str, object]] = []
    events: list[_Event] = []
    add_object = completed.append
    add_event = events.append
    members = [0]

    # Called for every object: what it needs is bound as defaults, which
    # are read faster than the enclosing function's variables.
    def object_hook(
        value: dict[str, object],
        members: list[int] = members,
        events: list[_Event] = events,
        add: Callable[[dict[str, object]], None] = add_object,
    ) -> dict[str, object]:
        members[0] += len(value)
        if events:
            add(value)
        return value

    def constant(token: str) -> object:
        if not record:
            raise ValueError(token)  # the precise path refuses it, with its message
        value = float(token)
        add_event((len(completed), "non-standard-constant", token, value))
        return value

    def number(token: str) -> object:
        value = float(token)
        if value and value - value == 0.0:  # finite and not zero: the usual
            return value
        if not value and not token.strip("-0."):  # 0.0, -0.00: a zero
            return value
        problem = _float_problem(token, value)
        if problem is None:
            return value
        if not record:
            raise ValueError(token)  # the precise path refuses it, with its message
        if problem == "underflow":
            value = float("nan")
        add_event((len(completed), problem, token, value))
        return value

    decoder = json.JSONDecoder(
        object_hook=object_hook,
        parse_float=_parse_decimal if exact else number,
        parse_constant=constant,
        strict=True,
    )
    value, stop = decoder.raw_decode(text, start)
    return value, stop, members[0], completed, events


# -- the structural scan ---------------------------------------------------------


def _unescaped(data: bytes) -> tuple[bytes, bool]:
    """Remove from *data* each escape that hides a structural character.

    Pairs backslashes as the decoder does, left to right, each with the
    character after it: an escaped quote, backslash, bracket or colon is
    text, not structure.  Also returns whether a ``\\u`` escape is a lone
    surrogate as the decoder pairs them: a high surrogate escape followed at
    once by a low one is one character, any other surrogate escape is lone.
    (In a text that is not JSON the answer means nothing; the decoder
    refuses such a text anyway.)
    """
    low_half = -1
    lone = False

    def replace(match: re.Match[bytes]) -> bytes:
        nonlocal low_half, lone
        at = match.start()
        if match.end() - at == 2:
            return b""  # an escaped structural character
        if at != low_half:
            # The backslash 6 characters on starts an escape: the one
            # before it is the last of four hexadecimal digits.
            if data[at + 3] in _HIGH_SECOND and _LOW_SURROGATE_ESCAPE.match(data, at + 6):
                low_half = at + 6
            else:
                lone = True
        return match.group()

    # Where the pattern does not match at a backslash, the character after
    # it is no backslash either, so each match starts where the decoder's
    # pairing starts an escape.
    return _ESCAPE_TO_SCAN.sub(replace, data), lone


def _outside_strings(kept: bytes) -> bytes:
    """Return the brackets and colons of *kept* outside strings, in order.

    In *kept*, quotes, brackets and colons only, a string is '"' to the
    next '"'.  An unmatched last quote leaves the rest outside, as for the
    precise depth scan.
    """
    # Two quotes with nothing kept between them are a string with no
    # brackets or colons, or the gap between two strings with none: either
    # way removing them leaves every other quote paired as before.
    kept = kept.replace(b'""', b"")
    if b'"' not in kept:
        return kept
    parts = kept.split(b'"')
    outside = parts[0::2]
    if len(parts) % 2 == 0:
        outside.append(parts[-1])
    return b"".join(outside)


def _structure(text: str) -> tuple[bytes, bool, bool]:
    """Scan *text* for the fast path.

    Returns the brackets and colons outside strings; whether a ``\\u``
    escape is a lone surrogate, or the text holds a raw surrogate where the
    precise path's string check would see it; and whether the text may hold
    a long digit run (``_long_digit_run``).
    """
    not_structural = _tables()[0]
    # In pieces of about _CHUNK characters, each ending just after a quote,
    # which no escape, surrogate pair or number holds, so no piece splits
    # one.  Small buffers are also reused where large ones cost fresh pages.
    pieces = []
    lone = long_digits = raw_surrogate = False
    end = len(text)
    begin = 0
    while begin < end:
        stop = end
        if begin + _CHUNK < end:
            quote = text.find('"', begin + _CHUNK)
            if quote != -1:
                stop = quote + 1
        chunk = text[begin:stop]
        # Latin-1 copies a narrow str as it is.  A wider one goes to UTF-8,
        # whose bytes for a non-ASCII character are all 0x80 and above, so
        # never structural; it refuses a raw surrogate.
        try:
            data = chunk.encode("latin-1")
        except UnicodeEncodeError:
            try:
                data = chunk.encode("utf-8")
            except UnicodeEncodeError:
                data = chunk.encode("utf-8", "surrogatepass")
                raw_surrogate = True
        long_digits = long_digits or _long_digit_run(data)
        if b"\\" in data:
            data, has_lone = _unescaped(data)
            lone = lone or has_lone
        # Two quotes side by side go here already, where the buffer is
        # small (see _outside_strings).
        pieces.append(data.translate(None, not_structural).replace(b'""', b""))
        begin = stop
    # A raw surrogate (only a str from Python code has one) makes the
    # precise path's string check refuse the text when it holds a \u.
    if raw_surrogate and "\\u" in text:
        lone = True
    return _outside_strings(b"".join(pieces)), lone, long_digits


def _too_deep(outside: bytes) -> bool:
    """Whether the brackets of *outside* nest deeper than MAX_DEPTH.

    Depth counts as the precise scan counts it: up at each opening bracket,
    down at each closing one, even below zero in a text that is not JSON.
    """
    _, as_brackets, as_steps, _ = _tables()
    brackets = outside.translate(as_brackets, b":")
    if brackets.count(b"[") <= MAX_DEPTH:
        return False
    # Removing the adjacent pairs "[]" lowers the deepest point by at most
    # one; a few passes usually leave nothing, which proves the bound.  A
    # pass that removes little shows deep nesting: count exactly instead.
    rest = brackets
    for passes in range(1, MAX_DEPTH + 1):
        shorter = rest.replace(b"[]", b"")
        if len(shorter) > len(rest) - len(rest) // 8:
            break
        rest = shorter
        if rest.count(b"[") + passes <= MAX_DEPTH:
            return False
    from itertools import accumulate

    return max(accumulate(memoryview(brackets.translate(as_steps)).cast("b"))) > MAX_DEPTH


def _long_digit_run(data: bytes) -> bool:
    """Whether *data* may hold a run of 200 or more ASCII digits.

    Such a run is in any number literal over MAX_NUMBER_LENGTH characters
    (a literal has at most three digit runs and four other characters).
    Reads every 50th byte: a run of 200 covers four in a row of them.
    """
    flags = data[::50].translate(_tables()[3])
    at = flags.find(b"1111")
    while at != -1:
        if not data[at * 50 : at * 50 + 151].translate(None, _ASCII_DIGITS):
            return True
        at = flags.find(b"1111", at + 1)
    return False


def _check_depth(text: str, outside: bytes | None = None) -> None:
    # Quick bound: without MAX_DEPTH opening brackets there is nothing to do.
    if outside is None:
        if text.count("[") + text.count("{") <= MAX_DEPTH:
            return
        outside = _structure(text)[0]
    if _too_deep(outside):
        _locate_too_deep(text)
        # The scans disagree: refuse rather than guess.
        raise InvalidEvidence("too-deep", f"nesting deeper than {MAX_DEPTH} levels")


def _locate_too_deep(text: str) -> None:
    # Escapes are blanked first, each backslash and the character after it
    # (left to right, as the decoder pairs them inside a string), so a
    # string is then '"' to the next '"'.  The blanks keep every position.
    # Outside a string a backslash is a syntax error: the decoder stops
    # there, before any bracket the blanking could hide from the count.
    scan = _ESCAPE.sub("  ", text) if "\\" in text else text
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(scan):
        char = match.group()
        if char == "[" or char == "{":
            depth += 1
            if depth > MAX_DEPTH:
                raise invalid_at("too-deep", f"nesting deeper than {MAX_DEPTH} levels", text, match.start())
        elif char == "]" or char == "}":
            depth -= 1


def _check_strings(value: object) -> None:
    # Only reached when the text holds a \u escape: lone surrogates can only
    # come from one (the text itself was checked in stage 1).  The depth
    # check bounds this recursion.
    if type(value) is str:
        where = find_surrogate(value)
        if where != -1:
            raise InvalidEvidence(
                "lone-surrogate",
                f"string {value!a} holds a lone surrogate, which is not Unicode text",
            )
    elif type(value) is dict:
        for name, member in value.items():
            _check_strings(name)
            _check_strings(member)
    elif type(value) is list:
        for item in value:
            _check_strings(item)


def _nul_hint(message: str, text: str, pos: int) -> str:
    # RFC 8259 allows NUL neither between tokens (section 2) nor unescaped in
    # a string (section 7), and in practice it comes from UTF-16 or UTF-32
    # text, which is only ASCII with NUL bytes between.
    if text[pos : pos + 1] == "\x00":
        return f"{message} (a NUL character: UTF-16 or UTF-32 text? Only UTF-8 is accepted)"
    return message


# -- locating a refusal ------------------------------------------------------------


def _unescaped_quotes(text: str, start: int, stop: int) -> int:
    # A quote is escaped when an odd run of backslashes precedes it.  The
    # run of a quote in [start, stop) lies inside it: text[start] is never a
    # backslash (see _constant_position).
    quotes = text.count('"', start, stop)
    for match in _BACKSLASHES_QUOTE.finditer(text, start, stop):
        quotes -= len(match.group(1)) % 2
    return quotes


def _constant_position(text: str, start: int) -> int | None:
    """Return where the first NaN, Infinity or -Infinity outside a string starts.

    Called once the decoder has refused one: the text before it is then
    valid JSON, in which a quote that is not escaped opens or closes a
    string, so a match is outside strings when an even number of them
    precede it.  "NaN" inside a string comes before the literal as often as
    not.
    """
    quotes = 0
    counted = start
    nan = text.find("NaN", start)
    infinity = text.find("Infinity", start)
    while nan != -1 or infinity != -1:
        at = nan if infinity == -1 or (nan != -1 and nan < infinity) else infinity
        # text[counted] is "N" or "I" (or the first character of the value),
        # so no run of backslashes crosses it.
        quotes += _unescaped_quotes(text, counted, at)
        counted = at
        if quotes % 2 == 0:
            return at - 1 if at == infinity and text[at - 1 : at] == "-" else at
        if at == nan:
            nan = text.find("NaN", at + 1)
        else:
            infinity = text.find("Infinity", at + 1)
    return None


class _Frame:
    __slots__ = ("names", "repeat", "wants_name")

    def __init__(self, names: set[str] | None) -> None:
        self.names = names  # None for an array
        self.repeat = -1  # where a name repeats one before it in this object
        self.wants_name = names is not None


def _duplicate_position(text: str, start: int) -> int | None:
    """Return where the repeated member name starts that the decoder refused.

    The decoder checks each object when it ends, so the one it refused is
    the first object to end that names a member twice; the place to blame
    is the first name in it that repeats an earlier one (compared after
    unescaping, as the decoder compares them).  Reads the text as the
    decoder does, strings through its own ``scanstring``.
    """
    import json.decoder

    # The decoder's own string reader, (text, end, strict) -> (string, end);
    # typeshed leaves it out, so it is named by getattr and typed here.
    scanstring: Callable[[str, int, bool], tuple[str, int]] = getattr(json.decoder, "scanstring")

    frames: list[_Frame] = []
    search = _TOKEN.search
    at = start
    while True:
        match = search(text, at)
        if match is None:
            return None
        where = match.start()
        char = text[where]
        if char == '"':
            try:
                name, at = scanstring(text, where + 1, True)
            except ValueError:
                return None
            if frames and frames[-1].wants_name:
                frame = frames[-1]
                frame.wants_name = False
                names = frame.names
                if names is not None:
                    if name not in names:
                        names.add(name)
                    elif frame.repeat == -1:
                        frame.repeat = where
            continue
        at = where + 1
        if char == "{":
            frames.append(_Frame(set()))
        elif char == "[":
            frames.append(_Frame(None))
        elif char == ",":
            if frames and frames[-1].names is not None:
                frames[-1].wants_name = True
        else:
            if not frames:
                return None
            frame = frames.pop()
            if frame.repeat != -1:
                return frame.repeat


def _after_whitespace(text: str, pos: int) -> int:
    """Return where the whitespace that starts at *pos* in *text* ends."""
    match = _WHITESPACE.match(text, pos)
    # [ \t\n\r]* matches everywhere, if only the empty string.
    return pos if match is None else match.end()


def _located(error: InvalidEvidence, text: str, start: int) -> InvalidEvidence:
    """Return *error* with the position of its token, when one is to blame."""
    if error.pos is not None:
        return error
    if error.code == "non-standard-constant":
        pos = _constant_position(text, start)
    elif error.code == "duplicate-member":
        pos = _duplicate_position(text, start)
    else:
        return error
    if pos is None:
        return error
    return invalid_at(error.code, error.message, text, pos)


# -- the two paths -------------------------------------------------------------------


def _fast(
    text: str, start: int, exact: bool, record: bool
) -> tuple[tuple[object, list[dict[str, object]], list[_Event]] | None, bytes | None]:
    """Decode *text* on the fast path, or return None for the precise path.

    Also returns the structural scan, which the precise path reuses.
    """
    # Where escapes are dense (a text of escaped quotes), taking them out
    # for the scan costs more than the hooks would: a sample of every 251st
    # character tells (a prime step, which escapes two characters long
    # cannot all slip past).
    sample = text[start::251]
    if sample.count("\\") * _DENSE_ESCAPES > len(sample):
        return None, None
    outside, lone, long_digits = _structure(text)
    if _too_deep(outside):
        # The precise path's first check, so its refusal.
        _locate_too_deep(text)
        raise InvalidEvidence("too-deep", f"nesting deeper than {MAX_DEPTH} levels")
    if lone or long_digits:
        return None, outside
    try:
        value, stop, members, completed, events = _fast_decode(text, start, exact, record)
    except (ValueError, RecursionError):  # JSONDecodeError, InvalidEvidence, a hook's refusal
        return None, outside
    if _after_whitespace(text, stop) != len(text):
        return None, outside
    # Every colon outside strings names one member: fewer decoded members
    # means a name was given twice.
    if members != outside.count(b":"):
        return None, outside
    return (value, completed, events), outside


def _precise(
    text: str, start: int, exact: bool, record: bool, outside: bytes | None
) -> tuple[object, list[dict[str, object]], list[_Event]]:
    _check_depth(text, outside)
    completed: list[dict[str, object]] = []
    events: list[_Event] = []
    decoder = _recording_decoder(completed, events, exact) if record else _decoder(exact)
    try:
        value, stop = decoder.raw_decode(text, start)
    except json.JSONDecodeError as exc:
        raise invalid_at("syntax", _nul_hint(exc.msg, text, exc.pos), text, exc.pos) from None
    except RecursionError:
        # The depth check should make this unreachable; if the interpreter
        # has a lower limit still, this is still INVALID, not a crash.
        raise InvalidEvidence("too-deep", "nesting too deep for this interpreter") from None
    except InvalidEvidence as exc:
        raise _located(exc, text, start) from None
    stop = _after_whitespace(text, stop)
    if stop != len(text):
        raise invalid_at("trailing-data", _nul_hint("data after the JSON value", text, stop), text, stop)
    if "\\u" in text:
        _check_strings(value)
    return value, completed, events


def _decode(text: str, exact: bool, record: bool) -> tuple[object, list[dict[str, object]], list[_Event]]:
    end = len(text)
    start = _after_whitespace(text, 0)
    if start == end:
        raise InvalidEvidence("empty", "evidence is empty" if end == 0 else "evidence is only whitespace")
    outside = None
    if end - start >= FAST_MIN_LENGTH:
        result, outside = _fast(text, start, exact, record)
        if result is not None:
            return result
    return _precise(text, start, exact, record, outside)


def parse_json(text: str, *, exact: bool = False) -> object:
    """Decode one RFC 8259 JSON text, strictly.

    Returns the value as ``json.loads`` would, with floats as ``float`` (or
    ``decimal.Decimal`` if *exact*), objects as ``dict`` and arrays as
    ``list``.  Raises ``InvalidEvidence`` for anything that is not strict
    JSON; no other exception escapes for any ``str``.  The error names the
    place to blame where there is one: the NaN or Infinity literal, the
    repeated member name, the bracket too deep, the syntax error.
    """
    return _decode(text, exact, False)[0]


def load_document(text: str, *, exact: bool = False) -> tuple[object, tuple[Nonfinite, ...]]:
    """Decode one RFC 8259 JSON text for selection, listing its non-finite numbers.

    Every rule of ``parse_json()`` holds, and refuses the whole text with
    ``InvalidEvidence`` wherever it is broken (syntax, a duplicated member,
    nesting depth, a lone surrogate, trailing data, a digit cap), except
    that each ``NaN``, ``Infinity`` or ``-Infinity`` literal, and each
    number that overflows a double (``1e400``) or underflows to 0.0
    (``1e-400``), is recorded rather than refused.  (In exact mode numbers
    are decimals, which neither overflow nor underflow.)

    Returns the document and the records (``Nonfinite``), in document
    order.  In the document each recorded number is a NaN or infinite
    float of its own, the record's ``value``, so a JSONPath filter that
    reads one raises ``NonFiniteRead``.  Whether a recorded number matters
    is the caller's decision: at or inside the selected value it does.

        >>> document, found = load_document('{"score": 0.9, "stderr": NaN}')
        >>> document["score"], found
        (0.9, (Nonfinite(path="$['stderr']", code='non-standard-constant', literal='NaN'),))
        >>> document["stderr"] is found[0].value
        True
    """
    value, completed, events = _decode(text, exact, True)
    if not events:
        return value, ()
    from ._normalized_path import normalized_path

    finder = _Finder(value, completed, [event[3] for event in events])
    return value, tuple(
        Nonfinite(normalized_path(finder.locate(number, mark)), code, literal, number)
        for mark, code, literal, number in events
    )


# -- finding the recorded numbers ------------------------------------------------------


class _Finder:
    """Where each recorded float is, from the order in which objects ended.

    The hooks do not know where a number is, only how many objects had
    ended before it; the document holds a float object of its own for each,
    found again by identity.  An object ends after everything inside it, so
    the innermost object that holds a value (directly, or through arrays
    only) is the first to end after it that does: the objects that end in
    between are inside that one, after the value, and hold other things.
    That finds the containers from a value up, cheaply while they end soon
    after it.  A first walk from the top maps the shallow containers, where
    an array of many samples would make such a search long; a search that
    runs over its budget lets that walk go on down instead.  Either way
    every value is found, in time linear in the document.
    """

    def __init__(self, document: object, completed: list[dict[str, object]], targets: list[float]) -> None:
        self.completed = completed
        self.targets = {id(target): target for target in targets}
        # id -> keys from the root, for what the top-down walk has reached.
        self.paths: dict[int, _Keys] = {id(document): ()}
        # Memo of _up() for objects: several numbers share their ancestors.
        self.steps: dict[int, _Step] = {}
        self.level: list[tuple[dict[str, object] | list[object], _Keys]] = []
        if type(document) is dict or type(document) is list:
            self.level = [(document, ())]
        spent = 0
        while self.level:
            width = sum(len(node) for node, _ in self.level)
            if width > _LEVEL_BUDGET or spent + width > _WALK_BUDGET:
                break
            spent += width
            self._walk_level()

    def _walk_level(self) -> None:
        paths = self.paths
        targets = self.targets
        below: list[tuple[dict[str, object] | list[object], _Keys]] = []
        for node, keys in self.level:
            items = node.items() if type(node) is dict else enumerate(node)
            for key, member in items:
                if type(member) is dict or type(member) is list:
                    member_keys = keys + (key,)
                    paths[id(member)] = member_keys
                    below.append((member, member_keys))
                elif type(member) is float and targets.get(id(member)) is member:
                    paths[id(member)] = keys + (key,)
        self.level = below

    def _up(self, node: object, begin: int) -> _Step:
        """The innermost object holding *node*, searched from index *begin*."""
        completed = self.completed
        budget = _SEARCH_BUDGET
        for index in range(begin, len(completed)):
            candidate = completed[index]
            for name, member in candidate.items():
                budget -= 1
                if member is node:
                    return candidate, (name,), index
                if type(member) is list:
                    found, budget = _in_arrays(member, node, budget)
                    if found is not None:
                        return candidate, (name,) + found, index
                if budget <= 0:
                    return None
        return None

    def locate(self, target: float, mark: int) -> _Keys:
        """Return the keys from the root to *target*, recorded after *mark* objects ended."""
        paths = self.paths
        below: list[_Keys] = []
        node: object = target
        begin = mark
        while id(node) not in paths:
            if node is target:
                step = self._up(node, begin)
            elif id(node) in self.steps:
                step = self.steps[id(node)]
            else:
                step = self.steps[id(node)] = self._up(node, begin)
            if step is None:
                while id(node) not in paths:
                    if not self.level:
                        raise InvalidEvidence("internal-error", "a recorded number is not in the document")
                    self._walk_level()
                break
            holder, keys, index = step
            below.append(keys)
            node, begin = holder, index + 1
        path = paths[id(node)]
        for keys in reversed(below):
            path += keys
        return path


def _in_arrays(array: list[object], node: object, budget: int) -> tuple[_Keys | None, int]:
    """Find *node* in *array* or the arrays nested in it, not in objects."""
    stack: list[tuple[list[object], _Keys]] = [(array, ())]
    while stack:
        items, keys = stack.pop()
        for index, item in enumerate(items):
            budget -= 1
            if item is node:
                return keys + (index,), budget
            if type(item) is list:
                stack.append((item, keys + (index,)))
        if budget <= 0:
            return None, budget
    return None, budget
