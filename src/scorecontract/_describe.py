# SPDX-License-Identifier: MIT
"""Short, safe descriptions of evidence values for messages.

Messages quote evidence, and evidence is hostile: nothing here may raise,
and nothing may copy a megabyte of input into a message.
"""

from __future__ import annotations

import sys

__all__ = ["clip_text", "describe_value", "format_number", "json_kind"]


def format_number(number: object) -> str:
    """Format a number for a message, briefly and without ever raising.

    ``str()`` of an int over 4300 digits raises ``ValueError`` on Python
    3.11+, so huge ints are described by their size instead.
    """
    if type(number) is int and number.bit_length() > 256:
        return f"<an integer of {number.bit_length()} bits>"
    text = repr(number) if type(number) is float else str(number)
    return text if len(text) <= 40 else text[:20] + f"...({len(text)} characters)"


def describe_value(value: object) -> str:
    """Name *value*'s type in JSON terms where it has one, for messages."""
    if value is None:
        return "null"
    kind = type(value)
    if kind is bool:
        return f"a boolean ({'true' if value else 'false'})"
    if type(value) is str:
        return f"a string ({clip_text(ascii(value[:40]))})"
    if kind is int or kind is float:
        return f"the number {format_number(value)}"
    if kind is list:
        return "an array"
    if kind is dict:
        return "an object"
    try:
        return f"{kind.__module__}.{kind.__qualname__}"
    except Exception:  # a hostile metaclass; the message is not worth a crash
        return "an object of an unknown type"


def clip_text(text: str) -> str:
    """Shorten *text* to at most 40 characters."""
    return text if len(text) <= 40 else text[:37] + "..."


def json_kind(value: object) -> str:
    """Name the JSON type of a decoded value, without quoting it.

    For messages about a value of the wrong type where the value itself is
    not worth showing: "not an array".  *value* is what the strict decoder
    returns; anything else is named as ``describe_value`` names it.
    """
    if value is None:
        return "null"
    kind = type(value)
    if kind is bool:
        return "a boolean"
    if kind is str:
        return "a string"
    if kind is list:
        return "an array"
    if kind is dict:
        return "an object"
    if kind is int or kind is float:
        return "a number"
    decimal = sys.modules.get("decimal")
    if decimal is not None and kind is decimal.Decimal:
        return "a number"
    return describe_value(value)
