# SPDX-License-Identifier: MIT
"""Finding the JSON object in a grader's answer (opt-in, docs/judgments.md).

LLM judges answer in prose: ``Looks right. {"pass": true}`` or a fenced
```` ```json ```` block after some reasoning.  This module finds the one
JSON text to decode, by a fixed rule, and nothing more: it never repairs
text, and the span it finds goes through the same strict loader as any
other evidence, so ``NaN`` and duplicate members are still refused.

The rule, in order:

1. If a line opens a fenced code block labelled ``json`` (up to three
   spaces, three or more backticks, the info string ``json`` in any case),
   the content of the first such block is the JSON text, whole: from the
   line after the opening fence to the line before the closing fence (a
   line of at least as many backticks).  A block that is never closed
   is an extraction failure: the answer was cut off.
2. Otherwise the JSON text is the first JSON object in the text: it starts
   at the first ``{`` whose next character, after JSON whitespace, is
   ``"`` or ``}`` (so prose such as ``{x}`` is passed over), and ends at
   the matching ``}``.  The scan for the match skips JSON strings,
   backslash escapes included, so braces inside strings do not count.
3. If neither finds anything, the extraction fails.

The search never moves on to a later object when the first one does not
decode: a broken first answer must not be replaced by a later one that
happens to pass.
"""

from __future__ import annotations

import re

from ._encoding import DEFAULT_MAX_BYTES, decode_evidence
from ._errors import InvalidEvidence, invalid_at
from ._policy import check_limit

__all__ = ["extract_json", "find_json_text"]

# CommonMark fenced code blocks: up to three spaces of indent, a run of
# three or more backticks, then the info string.  "\r?" keeps CRLF answers.
_OPENING_FENCE = re.compile(r"^ {0,3}(`{3,})[ \t]*json[ \t]*\r?$", re.MULTILINE | re.IGNORECASE)
# An object start: "{" then optional RFC 8259 whitespace, then a member name
# or the end of an empty object.  Each whitespace run is scanned from at
# most one "{", so the search is linear.
_OBJECT_START = re.compile(r'\{[ \t\n\r]*["}]')
_BRACE_OR_QUOTE = re.compile(r'[{}"]')
# The rest of a string after its opening quote, as an unrolled loop: one
# pass, no backtracking, so an unterminated string costs linear time.
_STRING_REST = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)


def _closing_fence(ticks: int) -> re.Pattern[str]:
    return re.compile(r"^ {0,3}`{%d,}[ \t]*\r?$" % ticks, re.MULTILINE)


def find_json_text(text: str) -> tuple[int, int]:
    """Return ``(start, end)``: where the JSON text in *text* is.

    Applies the rule in this module's docstring.  Raises
    ``InvalidEvidence`` with the code ``"extraction-failed"`` when there is
    nothing to extract.  The span is not decoded here.
    """
    fence = _OPENING_FENCE.search(text)
    if fence is not None:
        newline = text.find("\n", fence.end())
        if newline == -1:
            raise invalid_at(
                "extraction-failed",
                "the ```json block is not closed (the answer may be cut off)",
                text,
                fence.start(),
            )
        start = newline + 1
        closing = _closing_fence(len(fence.group(1))).search(text, start)
        if closing is None:
            raise invalid_at(
                "extraction-failed",
                "the ```json block is not closed (the answer may be cut off)",
                text,
                fence.start(),
            )
        return (start, closing.start())
    first = _OBJECT_START.search(text)
    if first is None:
        raise InvalidEvidence("extraction-failed", "no JSON object in the text")
    start = first.start()
    depth = 0
    pos = start
    while True:
        match = _BRACE_OR_QUOTE.search(text, pos)
        if match is None:
            break
        pos = match.end()
        char = match.group()
        if char == '"':
            rest = _STRING_REST.match(text, pos)
            if rest is None:
                break
            pos = rest.end()
        elif char == "{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return (start, pos)
    raise invalid_at(
        "extraction-failed",
        "the first JSON object in the text is not closed (the answer may be cut off)",
        text,
        start,
    )


def extract_json(raw: str | bytes, /, *, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """Return the JSON text inside a grader's answer *raw*.

    *raw* is the answer as ``bytes`` (UTF-8 only, as all evidence) or
    ``str``.  The JSON text is the content of the first fenced code block
    labelled ``json`` if there is one, else the first JSON object, found by
    a scan that skips over JSON strings: see the module documentation for
    the exact rule.  The result is not decoded; pass it to ``loads()`` or
    ``judge()``, which decode it strictly.

    Raises ``InvalidEvidence``: ``"extraction-failed"`` when the answer
    holds no JSON object or a fenced block or object that is never closed,
    and the encoding codes of ``loads()`` for bad bytes.

        >>> extract_json('Looks right. {"pass": true, "reason": "a {brace}"} Done.')
        '{"pass": true, "reason": "a {brace}"}'
        >>> extract_json('Reasoning...\\n```json\\n{"score": 0.9}\\n```\\n')
        '{"score": 0.9}\\n'
    """
    text = decode_evidence(raw, check_limit("max_bytes", max_bytes))
    start, end = find_json_text(text)
    return text[start:end]
