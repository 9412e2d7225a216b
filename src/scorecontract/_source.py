# SPDX-License-Identifier: MIT
"""Which harness wrote the evidence, and what to take from it (docs/harnesses.md).

A ``Source`` names a harness and the options its adapter needs, for
example ``Source("lm-eval", task="mmlu", metric="acc,none")``.  It is a
plain value: ``evaluate(..., source=...)`` (the headline of a results
file) and ``report(..., source=...)`` (one trial per sample) each check
that the options are the ones their adapter for that harness takes, and
refuse any other with ``PolicyError`` (``bad-option``): an option that
would be silently ignored is a gate the user believes in and does not get.
"""

from __future__ import annotations

from ._errors import PolicyError
from ._value import Value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["HARNESSES", "Source"]

# The harnesses with an adapter, by the name the command line takes after
# --from.  Not every harness has both a headline and a per-sample adapter.
HARNESSES = ("lm-eval", "inspect", "promptfoo", "helm", "deepeval", "openai-evals", "simple-evals")


def _frozen(value: object) -> object:
    """*value* made immutable: a mapping becomes sorted pairs, a list a tuple."""
    if isinstance(value, dict):
        return tuple(sorted((key, _frozen(item)) for key, item in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(item) for item in value)
    return value


class Source(Value):
    """A harness name and its adapter's options.

    - ``harness``: one of ``HARNESSES``;
    - ``options``: the keyword options, as sorted ``(name, value)`` pairs;
      a mapping value (Inspect's ``labels``) is kept as sorted pairs too.

    ``Source("inspect", scorer="match", metric="accuracy")`` reads an
    Inspect log's headline; which options a harness takes is listed in
    docs/harnesses.md and checked by the function that receives it.
    """

    __slots__ = ("harness", "options")
    _shown = ("harness", "options")

    harness: str
    options: tuple[tuple[str, object], ...]

    def __init__(self, harness: str, /, **options: object) -> None:
        if type(harness) is not str or harness not in HARNESSES:
            known = ", ".join(HARNESSES)
            raise PolicyError("bad-option", f"unknown harness {harness!r}; known: {known}")
        self._fill(harness=harness, options=tuple(sorted((name, _frozen(value)) for name, value in options.items())))

    def get(self, name: str, default: object = None) -> object:
        """Return the option *name*, or *default* when it was not given."""
        for key, value in self.options:
            if key == name:
                return value
        return default

    def as_dict(self) -> Mapping[str, object]:
        """Return the options as a new dict, for receipts."""
        return dict(self.options)

    def refuse_options_beyond(self, allowed: tuple[str, ...], what: str) -> None:
        """Raise ``PolicyError`` (``bad-option``) for an option not in *allowed*.

        *what* names the adapter in the message, e.g. ``"check --from lm-eval"``.
        """
        extra = [name for name, _ in self.options if name not in allowed]
        if extra:
            takes = ", ".join(allowed) if allowed else "no options"
            raise PolicyError("bad-option", f"{what} does not take {', '.join(extra)}; it takes {takes}")
