# SPDX-License-Identifier: MIT
"""``scorecontract demo``: the counterexamples, naive gate beside strict.

The naive gate is the one from the article this library answers::

    score = json.loads(raw)["score"]
    if score < 0.8: FAIL, else PASS

It is shown only to be refuted: NaN compares false, ``1e400`` decodes to
infinity, ``true`` is the int 1, the last duplicate member wins, and
``json.loads`` silently accepts UTF-16 bytes.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

__all__ = ["CASES", "naive_gate", "register"]

# (what the row shows, the exact evidence bytes).  Bundled in the package so
# the demo works from an installed or vendored copy, without fixtures/.
CASES = (
    ('{"score": NaN}', b'{"score": NaN}'),
    ('{"score": 1e400}', b'{"score": 1e400}'),
    ('{"score": true}', b'{"score": true}'),
    ('{"score": 0.1, "score": 0.9}', b'{"score": 0.1, "score": 0.9}'),
    ('{"score": 0.1, "\\u0073core": 0.9}', b'{"score": 0.1, "\\u0073core": 0.9}'),
    # '{"score": 0.9}'.encode("utf-16"), written out: nothing runs at import.
    ('{"score": 0.9} as UTF-16', b'\xff\xfe{\x00"\x00s\x00c\x00o\x00r\x00e\x00"\x00:\x00 \x000\x00.\x009\x00}\x00'),
    ('{"score": 1.5}', b'{"score": 1.5}'),
    ('{"score": -Infinity}', b'{"score": -Infinity}'),
    ('{"score": "0.9"}', b'{"score": "0.9"}'),
    ('{"score": null}', b'{"score": null}'),
    ('{"score": 0.9}', b'{"score": 0.9}'),
    ('{"score": 0.7}', b'{"score": 0.7}'),
)


def naive_gate(raw: bytes, /) -> str:
    """Return what the naive gate does with *raw*: PASS, FAIL or a crash."""
    import json

    try:
        score = json.loads(raw)["score"]
        if score < 0.8:
            return "FAIL"
        return "PASS"
    except Exception as exc:  # the naive gate's crash is a row of the table
        return f"crash ({type(exc).__name__})"


def register(commands: Any, epilog: str) -> None:
    """Add the ``demo`` sub-command to the parser's *commands*."""
    import argparse

    demo = commands.add_parser(
        "demo",
        help="replay the counterexamples: naive gate beside strict gate",
        description="Replay bundled counterexamples through a naive "
        "'score < 0.8' gate and through scorecontract.  Exits 0.",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    demo.set_defaults(run=_run_demo)


def _run_demo(args: argparse.Namespace) -> int:
    from .._evaluate import evaluate
    from .._verdict import Verdict
    from ._io import emit

    width = max(len(label) for label, _ in CASES) + 2
    emit('naive gate: score = json.loads(raw)["score"]; FAIL if score < 0.8 else PASS')
    emit("strict gate: scorecontract.evaluate(raw), default policy (threshold 0.8)")
    emit("")
    emit(f"{'evidence':<{width}}{'naive gate':<19}strict gate")
    naive_passes = strict_passes = bad_releases = 0
    for label, raw in CASES:
        naive = naive_gate(raw)
        decision = evaluate(raw)
        strict = decision.verdict.value
        note = ""
        if decision.verdict is Verdict.INVALID:
            strict += f" {decision.code}"
            if naive == "PASS":
                bad_releases += 1
                note = "<- naive gate releases invalid evidence"
            elif naive == "FAIL":
                note = "<- invalid evidence disguised as FAIL"
        naive_passes += naive == "PASS"
        strict_passes += decision.verdict is Verdict.PASS
        emit(f"{label:<{width}}{naive:<19}{strict:<32}{note}".rstrip())
    emit("")
    emit(
        f"naive gate: {naive_passes} PASS, {bad_releases} of them on invalid evidence; "
        f"strict gate: {strict_passes} PASS."
    )
    return 0
