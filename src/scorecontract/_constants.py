# SPDX-License-Identifier: MIT
"""Constants shared by the library and the command line, each defined once.

This module imports nothing, so any module may import it, and parsing the
command line's arguments loads no more than it needs.
"""

__all__ = [
    "CHECK_FORMATS",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_LISTED",
    "GATE_FORMATS",
    "METRICS",
    "RECEIPT_KINDS",
    "RECEIPT_VERSION",
    "REPORT_FORMATS",
]

# The byte limit on one piece of evidence, one trial line, one file read
# whole (RFC 8259 section 9 lets a parser limit the size of texts).
DEFAULT_MAX_BYTES = 1024 * 1024  # 1 MiB

# A report's metrics, and how many trials each of its lists names.
METRICS = ("mean", "pass-rate")
DEFAULT_MAX_LISTED = 100

# The output formats of `check`, `report` and `gate`: the same four.
CHECK_FORMATS = ("text", "json", "markdown", "github")
REPORT_FORMATS = ("text", "json", "markdown", "github")
GATE_FORMATS = ("text", "json", "markdown", "github")

# The receipt family: every record the tool writes (a check's receipt, a
# report's receipt, a signature file) names its schema with the same three
# keys, receipt_version, scorecontract_version and kind.  The version is
# bumped when a key changes meaning or disappears; new keys do not bump it.
RECEIPT_VERSION = 2
RECEIPT_KINDS = ("check", "report", "signature", "gate")
