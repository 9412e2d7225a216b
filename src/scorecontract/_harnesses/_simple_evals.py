# SPDX-License-Identifier: MIT
"""openai/simple-evals: the results object ``/tmp/<eval>_<model>.json``.

The file is one flat object of metrics; ``score`` is the headline, and
each metric ``m`` may have ``m:std`` and ``m:n_samples`` beside it.
simple-evals writes ``score: null`` when no sample had a score.
"""

from __future__ import annotations

from .._errors import InvalidEvidence
from ._base import ABSENT, Headline, Option, Selected, at, count, decode, finite, load, no_such, path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._policy import Policy
    from ._base import Options, Trace

__all__ = ["FOLLOWS", "HEADLINE", "NAME", "SAMPLES", "TITLE"]

NAME = "simple-evals"
TITLE = "openai/simple-evals"
FOLLOWS = "openai/simple-evals, which has no release, /tmp/<eval>_<model>.json, as written at commit ee3b031"


def _gate(raw: bytes | str, options: Options, policy: Policy, max_bytes: int, trace: Trace) -> Selected:
    query = path(options.text("metric"))
    trace.query = query
    document, records = load(decode(raw, max_bytes), policy)
    metric = options.text("metric")
    if type(document) is dict and metric not in document:
        raise no_such("metric", metric, "--metric", "the simple-evals results", list(document))
    value, samples = at(document, metric), at(document, f"{metric}:n_samples")
    # common.py aggregate_results writes m:n_samples beside m, the number of
    # samples its mean is over: a mean over none is no score.  (Its own
    # mean of none, NaN or null, the contract refuses by its own code.)
    if finite(value) and samples is not ABSENT and count(samples, f"simple-evals' {metric}:n_samples") == 0:
        raise InvalidEvidence(
            "empty-run",
            f"simple-evals' {metric}:n_samples is 0: the {metric} {value!r} is a mean over no samples",
        )
    return Selected(document, records, query, policy)


HEADLINE = Headline(
    options=(Option("metric", "the member of the results object", default="score"),),
    file="simple-evals' `/tmp/<eval>_<model>.json`",
    selects="the member M of the results object",
    requires="a number (simple-evals writes score null when no sample had one: INVALID wrong-type); M:n_samples, "
    "when written, not 0 (else INVALID empty-run)",
    lists='NaN and infinities elsewhere (the ":std" of an empty metric)',
    gate=_gate,
    nonfinite="simple-evals writes NaN for a metric over no samples",
)

SAMPLES = None
