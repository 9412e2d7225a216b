# SPDX-License-Identifier: MIT
"""A fail-closed contract between AI-evaluation evidence and a release.

Only an exact PASS releases; NaN, 1e400, true, duplicate members and every
other malformed score are INVALID, kept distinct from FAIL.
"""

__all__ = [
    "Decision",
    "InvalidEvidence",
    "Judgment",
    "Outcome",
    "Policy",
    "PolicyError",
    "Report",
    "ScoreContractError",
    "Verdict",
    "__version__",
    "authenticate",
    "decide",
    "dumps",
    "evaluate",
    "extract_json",
    "judge",
    "load_policy",
    "loads",
    "report",
    "sign",
]

__version__ = "0.1.0"

from ._decide import decide
from ._dumps import dumps
from ._errors import InvalidEvidence, PolicyError, ScoreContractError
from ._evaluate import Decision, evaluate, loads
from ._extract import extract_json
from ._judgment import Judgment, Outcome, judge
from ._policy import Policy
from ._policy_file import load_policy
from ._report import Report, report
from ._sign import authenticate, sign
from ._verdict import Verdict
