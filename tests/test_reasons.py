# SPDX-License-Identifier: MIT
"""Reason codes are the stable interface: documented, and all accounted for.

White-box: the package's own table of codes, ``_errors.REASONS``, is held to
docs/reason-codes.md and to the codes the source raises; the table itself is
not public.
"""

from __future__ import annotations

import re

from scorecontract._errors import REASONS
from support import ROOT, SRC


def readme_codes():
    text = (ROOT / "docs" / "reason-codes.md").read_text(encoding="utf-8")
    section = text.split("<!-- reason-codes:", 1)[1].split("\n## ", 1)[0]
    codes = re.findall(r"^\| `([a-z0-9-]+)` \|", section, re.MULTILINE)
    if not codes:
        raise AssertionError("docs/reason-codes.md has no reason-code table")
    return codes


def raised_codes():
    pattern = re.compile(
        r'(?:InvalidEvidence|PolicyError|invalid_at|Decision)\(\s*(?:Verdict\.\w+,\s*)?"([a-z][a-z0-9-]*)"'
        r'|return \(\s*(?:Verdict\.\w+,\s*)?"([a-z][a-z0-9-]*)"'
        r'|^\s*"([a-z][a-z0-9-]*)",\s*$',
        re.MULTILINE,
    )
    found = set()
    for path in sorted((SRC / "scorecontract").rglob("*.py")):
        for match in pattern.finditer(path.read_text(encoding="utf-8")):
            found.add(next(group for group in match.groups() if group))
    return found


def test_readme_documents_exactly_the_codes():
    assert sorted(readme_codes()) == sorted(REASONS)


def test_every_code_in_the_source_is_documented():
    codes = raised_codes()
    assert "non-finite" in codes and "duplicate-member" in codes  # the scan works
    undocumented = {c for c in codes if c not in REASONS and not c.startswith("__")}
    # __all__ entries and similar plain strings are filtered by shape:
    undocumented = {c for c in undocumented if "-" in c}
    assert undocumented == set()
