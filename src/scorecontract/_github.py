# SPDX-License-Identifier: MIT
"""GitHub Actions workflow commands, escaped as the Actions toolkit does.

``::error file=F,title=T::message`` is parsed by the runner: an unescaped
newline in evidence would end the command and start a forged one, and an
unescaped ``,`` or ``:`` in a property would end the property.  The rules
are those of ``escapeData`` and ``escapeProperty`` in @actions/core
(src/command.ts).
"""

from __future__ import annotations

__all__ = ["escape_data", "escape_property", "workflow_command"]


def escape_data(text: str) -> str:
    """Escape a command's message: ``%``, CR and LF."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value: as data, plus ``:`` and ``,``."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(command: str, message: str, **properties: str) -> str:
    """Return one workflow command line, for example ``::error title=x::msg``.

    Lone surrogates (which a trial id may carry) are replaced by their
    ``\\udXXX`` escapes so the line can always be encoded as UTF-8.
    """
    parts = ",".join(
        f"{name}={escape_property(value)}" for name, value in properties.items() if value
    )
    line = f"::{command} {parts}::{escape_data(message)}" if parts else f"::{command}::{escape_data(message)}"
    return line.encode("utf-8", "backslashreplace").decode("utf-8")
