# SPDX-License-Identifier: MIT
"""The harness adapters: one module per harness, loaded by name (docs/harnesses.md).

Each module (``_lm_eval``, ``_inspect``, ...) holds everything the project
knows about one harness: where its headline is, how its per-sample file
reads, the counts it states about its run, the options it takes and the
releases it follows.  Each is a ``_base.Harness``.  The machinery they
share is ``_base``; the one list of them is ``_source.REGISTRY``, read
here.  A module is imported when its harness is first used, never before.

A copy of scorecontract without this package still gates score records
and trial reports; ``--from`` then says that harness support is not in
the copy (``_source.REGISTRY`` keeps the names, for that message).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._base import Harness

__all__ = ["load", "load_all"]


def load(name: str) -> Harness:
    """Return the module of the harness *name*, one of ``_source.REGISTRY``.

    Raises ``PolicyError`` (``bad-option``) for a name that is not there.
    """
    import importlib

    from .._errors import PolicyError
    from .._source import REGISTRY

    module = REGISTRY.get(name) if type(name) is str else None
    if module is None:
        raise PolicyError("bad-option", f"unknown harness {name!r}; known: {', '.join(REGISTRY)}")
    # The one dynamic import of the package: the registry's names are its
    # own modules, relative to this package (a vendored copy under another
    # name finds its own).
    loaded: Harness = importlib.import_module(f".{module}", __name__)
    return loaded


def load_all() -> list[Harness]:
    """Every registered harness's module, in the registry's order (help, docs, refusals)."""
    from .._source import REGISTRY

    return [load(name) for name in REGISTRY]
