# SPDX-License-Identifier: MIT
"""Which harness wrote the evidence, and what to take from it (docs/harnesses.md).

A ``Source`` names a harness and the options its adapter needs, for
example ``Source("lm-eval", task="mmlu", metric="acc,none")``.  It is a
plain value: ``evaluate(..., source=...)`` (the headline of a results
file) and ``report(..., source=...)`` (one trial per sample) each check
that the options are the ones their adapter for that harness takes, and
refuse any other with ``PolicyError`` (``bad-option``): an option that
would be silently ignored is a gate the user believes in and does not get.

``REGISTRY`` is the one list of harnesses: each name, and the module of
the ``_harnesses`` package that holds everything known about it.  It is a
table of names, not of modules: a harness module is imported only when
that harness is used (``_harnesses.load``), so naming the harnesses (the
command line's help, this value) costs nothing.  ``OPTIONS`` is the one
vocabulary of adapter options, the same keyword in Python and on the
command line; which harness takes which, and what each means there, that
harness's module says.
"""

from __future__ import annotations

from ._errors import PolicyError
from ._value import Value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["OPTIONS", "REGISTRY", "Source"]

# The harnesses with an adapter, by the name --from takes, and the module
# of scorecontract._harnesses that knows each.  Adding a harness is one
# line here and one module there (docs/harnesses.md, "Adding a harness").
REGISTRY = {
    "lm-eval": "_lm_eval",
    "inspect": "_inspect",
    "promptfoo": "_promptfoo",
    "helm": "_helm",
    "deepeval": "_deepeval",
    "openai-evals": "_openai_evals",
    "simple-evals": "_simple_evals",
}

# Every option any adapter takes, by its Source keyword: its command-line
# flag is --KEYWORD with "-" for "_", the same in check and report, METAVAR names its
# argument (None: a switch without one), KIND says what it holds ("text" a
# non-empty string, "switch" true or false, "path" a file's path, "labels"
# a closed map of letter grades to scores), and COMMANDS which commands have
# the flag (a test keeps them equal to what the adapters take).
# (keyword: (metavar, kind, commands, what it is))
OPTIONS = {
    "task": ("T", "text", ("check", "report"), "the task or group the harness ran"),
    "metric": ("M", "text", ("check", "report"), "the metric, as the harness names it (lm-eval: acc,none)"),
    "scorer": ("S", "text", ("check", "report"), "the scorer, as the harness names it"),
    "reducer": ("R", "text", ("check",), "the epoch reducer of a score (Inspect: mean, max, ...)"),
    "provider": ("LABEL", "text", ("check",), "the provider whose prompt is gated"),
    "split": ("SPLIT", "text", ("check", "report"), "the split of the stat (test, valid)"),
    "results": ("FILE", "path", ("report",), "the results file beside the per-sample file"),
    "labels": ("MAP", "labels", ("report",), "the closed map of letter grades to scores, e.g. C=1,P=0.5,I=0,N=0"),
    "allow_partial": (None, "switch", ("check", "report"), "gate a run that covered part of its population"),
    "allow_errors": (None, "switch", ("check",), "gate a run with errors, counting each as not passed"),
}


def _frozen(value: object) -> object:
    """*value* made immutable: a mapping becomes sorted pairs, a list a tuple."""
    if isinstance(value, dict):
        return tuple(sorted((key, _frozen(item)) for key, item in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(item) for item in value)
    return value


class Source(Value):
    """A harness name and its adapter's options.

    - ``harness``: one of the names in ``REGISTRY``;
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
        if type(harness) is not str or harness not in REGISTRY:
            known = ", ".join(REGISTRY)
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
