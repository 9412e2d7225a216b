# SPDX-License-Identifier: MIT
"""The command line, ``scorecontract`` and ``python -m scorecontract``.

A thin layer over the public API: parse the arguments, call the library,
render the result.  ``main`` is the entry point.
"""

__all__ = ["main"]

from ._main import main
