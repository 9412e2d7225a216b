# SPDX-License-Identifier: MIT
"""GitHub Actions workflow commands, escaped as the Actions toolkit does.

``::error file=F,title=T::message`` is parsed by the runner: an unescaped
newline in evidence would end the command and start a forged one, and an
unescaped ``,`` or ``:`` in a property would end the property.  The rules
are those of ``escapeData`` and ``escapeProperty`` in @actions/core
(src/command.ts).  The runner's log is also shown in a browser and in
terminals, where ESC or U+202E would still act, so whatever the toolkit's
rules leave is then passed through the one escaper.
"""

from __future__ import annotations

from ._escape import escape

__all__ = ["escape_data", "escape_property", "workflow_command"]


def escape_data(text: str) -> str:
    """Escape a command's message: ``%``, CR and LF, then ``escape()`` the rest.

    CR and LF are percent-encoded first, as the toolkit does, so the runner
    shows a line break in the message; every other control character,
    bidi control and lone surrogate becomes a visible ``\\xNN`` or
    ``\\uNNNN``.
    """
    return escape(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    """Escape a property value: as data, plus ``:`` and ``,``."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(command: str, message: str, **properties: str) -> str:
    """Return one workflow command line, for example ``::error title=x::msg``.

    The line holds no control character at all, and no lone surrogate
    (which a trial id may carry): it can always be printed as UTF-8.
    """
    parts = ",".join(f"{name}={escape_property(value)}" for name, value in properties.items() if value)
    return f"::{command} {parts}::{escape_data(message)}" if parts else f"::{command}::{escape_data(message)}"
