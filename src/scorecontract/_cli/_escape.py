# SPDX-License-Identifier: MIT
"""The one escaper: what the command line prints is shown, never obeyed.

File names, trial ids, candidates and messages quoting them are chosen by
whoever wrote the evidence.  Printed raw, an ESC byte drives the terminal
(ECMA-48 control sequences), a newline starts a line the GitHub Actions
runner parses as a workflow command, U+202E reverses the text after it
(the "Trojan Source" attack, CVE-2021-42574), and a lone surrogate cannot be
encoded at all.  ``escape`` replaces each such character by a visible
escape; every byte the command line writes to stdout or stderr passes
through it, and the printer alone adds the newline that ends a line.
"""

from __future__ import annotations

import functools

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

__all__ = ["escape", "loadable"]

# Escaped, each for its own reason:
# - C0 controls U+0000-U+001F, TAB and LF included (a line break inside a
#   field would forge a line), and DEL U+007F;
# - C1 controls U+0080-U+009F (U+009B is a one-character CSI on terminals
#   that honour 8-bit controls, U+0085 is NEL, a line break);
# - U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR (line breaks to
#   Unicode-aware readers);
# - the Unicode Bidi_Control characters: U+061C, U+200E, U+200F,
#   U+202A-U+202E, U+2066-U+2069 (they reorder what is displayed);
# - lone surrogates U+D800-U+DFFF (an undecodable byte of a file name, as
#   os.fsdecode gives it, or a "\\udcff" escape in evidence): not Unicode
#   text, so no encoder can write them.
_UNSAFE = r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]"


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    # Compiled on first use: the class above costs half a millisecond, a
    # tenth of a plain check's own start-up, and printable ASCII (every
    # verdict line about an ordinary file) never needs it.
    import re

    return re.compile(pattern)


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape(text: str, /) -> str:
    """Return *text* with every unsafe character shown as an escape.

    An unsafe character below U+0100 becomes ``\\xNN`` (ESC is ``\\x1b``,
    LF is ``\\x0a``); any other becomes ``\\uNNNN`` (``\\u2028``,
    ``\\u202e``, ``\\udcff``).  Everything else, backslashes included, is
    kept, so escaping twice changes nothing and text already escaped by
    ``ascii()`` or ``repr()`` is shown as it was.  The result is for people
    and terminals, not a reversible encoding.
    """
    if text.isascii() and text.isprintable():
        return text  # U+0020-U+007E: none is unsafe
    unsafe = _compiled(_UNSAFE)
    if unsafe.search(text) is None:
        return text
    return unsafe.sub(_shown, text)


_SURROGATE = r"[\ud800-\udfff]"


def loadable(receipt: dict[str, object], /) -> dict[str, object]:
    """Return a copy of the JSON-ready *receipt* that strict JSON can hold.

    A string holding a lone surrogate (only an undecodable file name or
    argument can put one there) is replaced by its ``escape``; JSON would
    write it as ``"\\udcff"``, which RFC 8259 section 8.2 leaves undefined
    and scorecontract's own loader refuses (``lone-surrogate``).  Every
    other string is kept exactly: JSON's own escapes hold control
    characters without loss.  Keys are strings too.
    """
    result = _loadable(receipt)
    if not isinstance(result, dict):
        raise TypeError("a receipt is a dict")
    return result


def _loadable(value: object) -> object:
    if isinstance(value, str):
        return escape(value) if not value.isascii() and _compiled(_SURROGATE).search(value) else value
    if isinstance(value, dict):
        result = {_loadable(key): _loadable(item) for key, item in value.items()}
        if len(result) != len(value):
            # Two keys that escape alike would silently merge two members.
            raise ValueError("two keys of a receipt object escape to the same text")
        return result
    if isinstance(value, (list, tuple)):
        return [_loadable(item) for item in value]
    return value
