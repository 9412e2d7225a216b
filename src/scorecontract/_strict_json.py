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
"""

from __future__ import annotations

import json
import math
import re

from ._encoding import find_surrogate
from ._errors import InvalidEvidence, invalid_at
from ._score import exact_context

__all__ = [
    "MAX_DECIMAL_EXPONENT", "MAX_DEPTH", "MAX_NUMBER_LENGTH", "check_integer", "convert_number", "parse_json", "underflows",
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

# RFC 8259 section 2: insignificant whitespace is exactly these four.
_WHITESPACE = re.compile(r"[ \t\n\r]*")
# The depth pre-scan blanks every escape, then skips strings as '"' to the
# next '"'.  Matching strings with their escapes in one pattern instead
# costs quadratic time: each '\\"' of an unterminated string is a fresh
# start for a scan to the end of the text.
_ESCAPE = re.compile(r"\\.", re.DOTALL)
_STRING_OR_BRACKET = re.compile(r'"[^"]*"|[\[\]{}]')


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


def _parse_float(token: str) -> float:
    if len(token) > MAX_NUMBER_LENGTH:
        raise _number_too_long(token)
    value = float(token)
    if not math.isfinite(value):
        # Valid number syntax whose value overflows a double, like 1e400.
        # parse_constant never sees it (RFC 8259 section 6 warns of it).
        raise InvalidEvidence(
            "non-finite", f"number {token} overflows to {value!r}"
        )
    if value == 0.0 and underflows(token):
        # The other end of RFC 8259 section 6: 1e-400 is not zero, but a
        # double reads it as 0.0, which flips "score > 0" and turns a
        # threshold of 1e-400 into 0.  Exact mode keeps it as 1e-400.
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
                    f"member {name!a} appears more than once; JSON parsers "
                    "disagree on which value wins",
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


def _check_depth(text: str) -> None:
    # Quick bound: without MAX_DEPTH opening brackets there is nothing to do.
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
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
                raise invalid_at(
                    "too-deep", f"nesting deeper than {MAX_DEPTH} levels", text, match.start()
                )
        elif char == "]" or char == "}":
            depth -= 1


def _check_strings(value: object) -> None:
    # Only reached when the text holds a \u escape: lone surrogates can only
    # come from one (the text itself was checked in stage 1).  The depth
    # check bounds this recursion.
    kind = type(value)
    if kind is str:
        where = find_surrogate(value)  # type: ignore[arg-type]
        if where != -1:
            raise InvalidEvidence(
                "lone-surrogate",
                f"string {value!a} holds a lone surrogate, which is not Unicode text",
            )
    elif kind is dict:
        for name, member in value.items():  # type: ignore[attr-defined]
            _check_strings(name)
            _check_strings(member)
    elif kind is list:
        for item in value:  # type: ignore[attr-defined]
            _check_strings(item)


def _nul_hint(message: str, text: str, pos: int) -> str:
    # RFC 8259 allows NUL neither between tokens (section 2) nor unescaped in
    # a string (section 7), and in practice it comes from UTF-16 or UTF-32
    # text, which is only ASCII with NUL bytes between.
    if text[pos:pos + 1] == "\x00":
        return f"{message} (a NUL character: UTF-16 or UTF-32 text? Only UTF-8 is accepted)"
    return message


def parse_json(text: str, *, exact: bool = False) -> object:
    """Decode one RFC 8259 JSON text, strictly.

    Returns the value as ``json.loads`` would, with floats as ``float`` (or
    ``decimal.Decimal`` if *exact*), objects as ``dict`` and arrays as
    ``list``.  Raises ``InvalidEvidence`` for anything that is not strict
    JSON; no other exception escapes for any ``str``.
    """
    end = len(text)
    start = _WHITESPACE.match(text).end()  # type: ignore[union-attr]
    if start == end:
        raise InvalidEvidence("empty", "evidence is empty" if end == 0 else "evidence is only whitespace")
    _check_depth(text)
    try:
        value, stop = _decoder(exact).raw_decode(text, start)
    except json.JSONDecodeError as exc:
        raise invalid_at("syntax", _nul_hint(exc.msg, text, exc.pos), text, exc.pos) from None
    except RecursionError:
        # The depth check should make this unreachable; if the interpreter
        # has a lower limit still, this is still INVALID, not a crash.
        raise InvalidEvidence("too-deep", "nesting too deep for this interpreter") from None
    stop = _WHITESPACE.match(text, stop).end()  # type: ignore[union-attr]
    if stop != end:
        raise invalid_at("trailing-data", _nul_hint("data after the JSON value", text, stop), text, stop)
    if "\\u" in text:
        _check_strings(value)
    return value
