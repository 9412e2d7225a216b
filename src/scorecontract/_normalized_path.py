# SPDX-License-Identifier: MIT
"""RFC 9535 section 2.7 normalized paths: the one spelling of a node's place.

The query engine (``_jsonpath``) names the nodes it selects with them, and
the strict loader (``_strict_json``) names the non-finite numbers it
records; both build them here, so a NaN's path and a selected node's path
compare equal as strings (``_select.inside``).
"""

from __future__ import annotations

import re

from ._describe import describe_value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["name_selector", "normalized_path"]

# RFC 9535 section 2.7: in a normalized path a name escapes these, and only
# these.  Lone surrogates have no normalized form at all; they cannot come
# from the strict loader, and are written as \u escapes if they come from
# elsewhere.
_ESCAPED_IN_NAME = re.compile("[\x00-\x1f'\\\\\ud800-\udfff]")
_SHORT_ESCAPES = {
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "'": "\\'",
    "\\": "\\\\",
}


def _escape_char(match: re.Match[str]) -> str:
    char = match.group()
    short = _SHORT_ESCAPES.get(char)
    return short if short is not None else f"\\u{ord(char):04x}"


def name_selector(name: str) -> str:
    """Return the normalized name selector of the member *name*: ``['name']``.

    >>> name_selector("it's")
    "['it\\\\'s']"
    """
    if _ESCAPED_IN_NAME.search(name) is None:
        return "['" + name + "']"
    return "['" + _ESCAPED_IN_NAME.sub(_escape_char, name) + "']"


def normalized_path(keys: Iterable[str | int]) -> str:
    """Return the RFC 9535 normalized path of the member names and indexes *keys*.

    >>> normalized_path(["results", "mmlu", "acc,none"])
    "$['results']['mmlu']['acc,none']"
    >>> normalized_path(["samples", 0, "it's"])
    "$['samples'][0]['it\\\\'s']"
    """
    parts = ["$"]
    for key in keys:
        if type(key) is int and key >= 0:
            parts.append(f"[{key}]")
        elif type(key) is str:
            parts.append(name_selector(key))
        else:
            # bool is an int, and a negative index is not normalized.
            raise TypeError(f"a path key is a str or an int >= 0, not {describe_value(key)}")
    return "".join(parts)
