# SPDX-License-Identifier: MIT
"""The package's version, a literal equal to pyproject.toml's.

A module of its own so that the parts that record the version (receipts,
signatures, ``--version``) import it without importing the package's
``__init__``, which would be an import cycle.  Never generated from git or
read from installed metadata: a vendored copy has neither.
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
