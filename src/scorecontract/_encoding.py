# SPDX-License-Identifier: MIT
"""Stage 1 of the pipeline: raw evidence to text.

Checks the byte limit and the encoding before anything is parsed.
"""

from __future__ import annotations

import functools

from ._constants import DEFAULT_MAX_BYTES
from ._errors import InvalidEvidence, invalid_at

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

__all__ = ["DEFAULT_MAX_BYTES", "decode_evidence", "find_surrogate"]

_UTF8_BOM = b"\xef\xbb\xbf"

# A str can carry lone surrogates that no UTF-8 byte sequence can: they only
# get in through Python code or the "surrogateescape" error handler.
_SURROGATE = "[\ud800-\udfff]"


@functools.cache
def _surrogates() -> re.Pattern[str]:
    # Compiled on first use, not at import: a plain check never needs it.
    import re

    return re.compile(_SURROGATE)


def find_surrogate(text: str) -> int:
    """Return the index of the first surrogate code point in *text*, or -1."""
    if text.isascii():
        return -1
    match = _surrogates().search(text)
    return -1 if match is None else match.start()


def decode_evidence(raw: object, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """Return the evidence *raw* (``bytes`` or ``str``) as text.

    Raises ``InvalidEvidence`` when *raw* is larger than *max_bytes* (a
    ``str`` counts as its UTF-8 length), is not UTF-8, starts with a
    byte-order mark, or is of another type.

    UTF-8 is the only encoding (RFC 8259 section 8.1).  ``json.loads(bytes)``
    would also guess UTF-16 and UTF-32 and strip a BOM; a release gate should
    not guess.
    """
    if isinstance(raw, (bytes, bytearray, memoryview)):
        data = bytes(raw)
        if len(data) > max_bytes:
            raise InvalidEvidence("too-large", f"evidence is {len(data)} bytes, over the limit of {max_bytes}")
        if data.startswith(_UTF8_BOM):
            # RFC 8259 section 8.1: implementations MUST NOT add a BOM.
            raise invalid_at("byte-order-mark", "evidence starts with a UTF-8 byte-order mark", data, 0)
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise invalid_at("not-utf8", "evidence starts with a UTF-16 byte-order mark", data, 0)
        # A NUL byte is valid UTF-8: it is refused by the decoder, with the
        # code the same text gets as a str (syntax, or trailing-data), and a
        # message that names UTF-16 and UTF-32, where NUL bytes come from.
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise invalid_at("not-utf8", f"evidence is not valid UTF-8 ({exc.reason})", data, exc.start) from None
    if isinstance(raw, str):
        text = str(raw)  # a plain str, whatever subclass came in
        # Cheap upper bound first: a UTF-8 character is at most 4 bytes.
        if len(text) * 4 > max_bytes:
            size = len(text.encode("utf-8", "surrogatepass"))
            if size > max_bytes:
                raise InvalidEvidence("too-large", f"evidence is {size} bytes as UTF-8, over the limit of {max_bytes}")
        if text.startswith("\ufeff"):
            raise invalid_at("byte-order-mark", "evidence starts with a byte-order mark", text, 0)
        if not text.isascii():
            where = find_surrogate(text)
            if where != -1:
                raise invalid_at("lone-surrogate", f"lone surrogate {text[where]!a} in the evidence", text, where)
        return text
    raise InvalidEvidence("input-type", f"evidence must be str or bytes, not {type(raw).__name__}")
