# SPDX-License-Identifier: MIT
"""A fail-closed contract between AI-evaluation evidence and a release.

Only an exact PASS releases; NaN, 1e400, true, duplicate members and every
other malformed score are INVALID, kept distinct from FAIL.
"""

__all__ = [
    "Decision",
    "InvalidEvidence",
    "Judgment",
    "Metric",
    "Observation",
    "Outcome",
    "Policy",
    "PolicyError",
    "Report",
    "ScoreContractError",
    "Source",
    "Verdict",
    "__version__",
    "authenticate",
    "decide",
    "dumps",
    "evaluate",
    "extract_json",
    "judge",
    "load_key",
    "load_policy",
    "loads",
    "query",
    "report",
    "sign",
]

from ._decide import decide
from ._errors import InvalidEvidence, PolicyError, ScoreContractError
from ._evaluate import Decision, evaluate, loads
from ._policy import Policy
from ._verdict import Verdict
from ._version import __version__

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._dumps import dumps
    from ._extract import extract_json
    from ._jsonpath import query
    from ._judgment import Judgment, Outcome, judge
    from ._policy_file import load_policy
    from ._report import Metric, Observation, Report, report
    from ._sign import authenticate, load_key, sign
    from ._source import Source


def __getattr__(name: str) -> object:
    # PEP 562: judgments, reports, signatures, policy files and the encoder
    # load on first use, so a release script's `scorecontract check` and a
    # harness's evaluate() import only the score pipeline (issue 7).
    if name == "dumps":
        from ._dumps import dumps

        return dumps
    if name == "extract_json":
        from ._extract import extract_json

        return extract_json
    if name in ("Judgment", "Outcome", "judge"):
        from . import _judgment

        return getattr(_judgment, name)
    if name == "query":
        from ._jsonpath import query

        return query
    if name == "load_policy":
        from ._policy_file import load_policy

        return load_policy
    if name in ("Metric", "Observation", "Report", "report"):
        from . import _report

        return getattr(_report, name)
    if name == "Source":
        from ._source import Source

        return Source
    if name in ("authenticate", "load_key", "sign"):
        from . import _sign

        return getattr(_sign, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    # The public names are __all__, loaded or not; TYPE_CHECKING is plumbing.
    return sorted((set(globals()) | set(__all__)) - {"TYPE_CHECKING"})
