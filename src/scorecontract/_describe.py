# SPDX-License-Identifier: MIT
"""Short, safe descriptions of evidence values for messages.

Messages quote evidence, and evidence is hostile: nothing here may raise,
and nothing may copy a megabyte of input into a message.
"""

from __future__ import annotations

__all__ = ["clip_text", "describe_value", "format_number"]


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
    if kind is str:
        text: str = value  # type: ignore[assignment]
        return f"a string ({clip_text(ascii(text[:40]))})"
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
