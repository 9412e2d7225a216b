# SPDX-License-Identifier: MIT
"""Pathological inputs at two sizes: the time must grow linearly.

    python benchmarks/adversarial.py           # every shape, 1x and 4x
    python benchmarks/adversarial.py --smoke   # tiny sizes, outcomes only
    python benchmarks/adversarial.py --only escaped

Each shape is an input built to make a scanner, a regex, a decoder or a
query do more than linear work, run through one entry point (evaluate,
with and without a selection query, judge with and without extract, a
report line, a manifest, a policy file, loads) at a base size and at four
times that size.  Linear work takes about 4x as
long; quadratic, 16x.  The script fails (exit 1) if any ratio is over 6x,
or if any shape did not get the outcome it was built for: a shape that no
longer reaches the code it targets measures nothing.

Standard library only.  Each time is the best of several rounds, each
round as many calls as make the base size take a measurable time.  The
smoke mode checks outcomes only (times at tiny sizes are noise) and is what
the test suite runs.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from scorecontract import (  # noqa: E402
    InvalidEvidence,
    Policy,
    PolicyError,
    evaluate,
    judge,
    load_policy,
    loads,
    report,
)

LIMIT = 6.0
BASE = 64 * 1024  # bytes at 1x; 4x is 256 KiB
POLICY_BASE = 12 * 1024  # policy files are capped at 64 KiB: 4x is 48 KiB
SMOKE_BASE = 2 * 1024
EXACT = Policy(0.5, exact=True)

Builder = Callable[[int], bytes]
Runner = Callable[[bytes], str]


def _repeat(unit: str, size: int) -> str:
    return unit * max(1, size // len(unit))


def _join(item: str, size: int, sep: str = ",") -> str:
    return sep.join([item] * max(1, size // (len(item) + len(sep))))


# -- the entry points: each returns the outcome's code -----------------------


def run_evaluate(data: bytes) -> str:
    return evaluate(data).code


def run_evaluate_str(data: bytes) -> str:
    # The str path checks size and surrogates instead of decoding.
    return evaluate(data.decode("utf-8")).code


def run_evaluate_exact(data: bytes) -> str:
    return evaluate(data, policy=EXACT).code


def run_judge(data: bytes) -> str:
    return judge(data).code


def run_judge_extract(data: bytes) -> str:
    return judge(data, extract=True).code


def run_loads(data: bytes) -> str:
    try:
        loads(data)
    except InvalidEvidence as exc:
        return exc.code
    return "ok"


# A filter whose absolute query does not depend on the candidate: it was
# evaluated again for each of them, quadratic in the array.
ABSOLUTE_IN_FILTER = "$.a[?@.n == count($.a[*])].score"
# An I-Regexp read from the document, whose automaton has some 1,900
# positions, on text where no two steps meet the same set of positions.
PATTERN_FROM_DOCUMENT = "a[ab]{1900}c"
SEARCH_FROM_DOCUMENT = "$[?search(@.text, @.pattern)].score"


def run_select(query: str) -> Runner:
    def run(data: bytes) -> str:
        return evaluate(data, select=query).code

    return run


def absolute_in_filter(size: int) -> bytes:
    count = max(2, size // 9)
    members = ['{"n": 0}'] * (count - 1) + ['{"n": %d, "score": 0.9}' % count]
    return ('{"a": [' + ",".join(members) + "]}").encode()


def pattern_from_document(size: int, full: bool = False) -> bytes:
    # Random a and b, then the one place the pattern matches, at the end:
    # the whole text is read.
    rng = random.Random(size)
    text = "".join(rng.choice("ab") for _ in range(size)) + "a" + "b" * 1900 + "c"
    pattern = "[ab]*" + PATTERN_FROM_DOCUMENT if full else PATTERN_FROM_DOCUMENT
    return ('{"s": {"pattern": "%s", "text": "%s", "score": 0.9}}' % (pattern, text)).encode()


def run_report(data: bytes) -> str:
    # Bare count of 1: the shapes are about one line, or about many lines
    # of one trial.
    return report(data, scheduled=1, max_listed=10).code


def run_report_many(data: bytes) -> str:
    return report(data, scheduled=data.count(b"\n"), max_listed=10).code


class FileRunner:
    """Write the input to a file once per size, then time the reading."""

    def __init__(self, suffix: str, read: Callable[[str], str]) -> None:
        self.suffix = suffix
        self.read = read
        self.folder = tempfile.mkdtemp(prefix="adversarial-")
        self.written: dict[bytes, str] = {}

    def __call__(self, data: bytes) -> str:
        path = self.written.get(data)
        if path is None:
            path = os.path.join(self.folder, f"{len(self.written)}{self.suffix}")
            with open(path, "wb") as stream:
                stream.write(data)
            self.written[data] = path
        return self.read(path)


def _policy_code(path: str) -> str:
    try:
        load_policy(path)
    except PolicyError as exc:
        return exc.code
    return "ok"


def _manifest_code(path: str) -> str:
    try:
        return report(b"", manifest=path).code
    except PolicyError as exc:
        return exc.code


def _toml_available() -> bool:
    try:
        import tomllib  # noqa: F401
    except ImportError:
        return False
    return True


# -- the shapes ----------------------------------------------------------------

RECORD_PAD = '{"score": 0.9, "pad": "%s"}'


def shapes() -> list[tuple[str, str, Runner, Builder, str, int]]:
    """(name, entry point, runner, builder(size) -> bytes, expected code, base size)."""
    policy_json = FileRunner(".json", _policy_code)
    policy_toml = FileRunner(".toml", _policy_code)
    manifest = FileRunner(".json", _manifest_code)
    found: list[tuple[str, str, Runner, Builder, str, int]] = []

    def add(name: str, entry: str, runner: Runner, build: Builder, code: str, base: int = BASE) -> None:
        found.append((name, entry, runner, build, code, base))

    # JSON shapes, for every entry point that decodes one JSON text.
    json_shapes: list[tuple[str, Builder, str, str, str]] = [
        # (name, builder, code for evaluate, for judge, for loads)
        (
            "escaped-quotes-then-brackets",
            lambda n: (_repeat('\\"', n) + "[]" * 129).encode(),
            "syntax",
            "syntax",
            "syntax",
        ),
        (
            "unterminated-string-of-escaped-quotes",
            lambda n: ('["' + _repeat('\\"', n) + "[" * 129).encode(),
            "too-deep",
            "too-deep",
            "too-deep",
        ),
        (
            "escaped-quotes-in-a-string",
            lambda n: (RECORD_PAD % _repeat('\\"', n)).encode(),
            "unexpected-member",
            "positive-score",
            "ok",
        ),
        ("long-string", lambda n: (RECORD_PAD % _repeat("a", n)).encode(), "unexpected-member", "positive-score", "ok"),
        (
            "long-non-ascii-string",
            lambda n: (RECORD_PAD % _repeat("\u00e9\u8a66", n // 5)).encode(),
            "unexpected-member",
            "positive-score",
            "ok",
        ),
        (
            "many-unicode-escapes",
            lambda n: (RECORD_PAD % _repeat("\\u00e9", n)).encode(),
            "unexpected-member",
            "positive-score",
            "ok",
        ),
        (
            "many-members",
            lambda n: ("{" + ",".join(f'"m{i}": 0' for i in range(n // 9)) + "}").encode(),
            "missing-member",
            "no-judgment",
            "ok",
        ),
        (
            "many-members-duplicate-last",
            lambda n: ("{" + ",".join(f'"m{i}": 0' for i in range(n // 9)) + ', "m0": 1}').encode(),
            "duplicate-member",
            "duplicate-member",
            "duplicate-member",
        ),
        (
            "nesting-just-under-the-limit",
            lambda n: ("[" + _join("[" * 127 + "0" + "]" * 127, n) + "]").encode(),
            "not-an-object",
            "not-an-object",
            "ok",
        ),
        (
            "nesting-just-over-the-limit",
            lambda n: ("[" + _join("[" * 127 + "0" + "]" * 127, n) + "," + "[" * 128 + "]" * 128 + "]").encode(),
            "too-deep",
            "too-deep",
            "too-deep",
        ),
        (
            "many-brackets-inside-strings",
            lambda n: ('{"pad": "' + _repeat("[{", n) + '"}').encode(),
            "missing-member",
            "no-judgment",
            "ok",
        ),
        (
            "long-numbers-under-the-cap",
            lambda n: ("[" + _join("1" * 640, n) + "]").encode(),
            "not-an-object",
            "not-an-object",
            "ok",
        ),
        (
            "long-fractions-under-the-cap",
            lambda n: ("[" + _join("0." + "1" * 638, n) + "]").encode(),
            "not-an-object",
            "not-an-object",
            "ok",
        ),
        (
            "a-number-over-the-cap",
            lambda n: ('{"score": ' + _repeat("1", n) + "}").encode(),
            "too-many-digits",
            "too-many-digits",
            "too-many-digits",
        ),
        (
            "whitespace",
            lambda n: ('{"score":' + _repeat(" ", n) + "0.9}").encode(),
            "meets-threshold",
            "positive-score",
            "ok",
        ),
        ("whitespace-then-garbage", lambda n: (_repeat(" \n", n) + "x").encode(), "syntax", "syntax", "syntax"),
        ("nul-bytes", lambda n: _repeat("\x00", n).encode(), "syntax", "syntax", "syntax"),
        (
            "trailing-data",
            lambda n: ('{"score": 0.9}' + _repeat(" {}", n)).encode(),
            "trailing-data",
            "trailing-data",
            "trailing-data",
        ),
    ]
    for name, build, evaluate_code, judge_code, loads_code in json_shapes:
        add(name, "evaluate", run_evaluate, build, evaluate_code)
        add(name, "evaluate str", run_evaluate_str, build, evaluate_code)
        add(name, "judge", run_judge, build, judge_code)
        add(name, "loads", run_loads, build, loads_code)
    add(
        "long-fractions-exact",
        "evaluate exact",
        run_evaluate_exact,
        lambda n: ('{"score": 0.5, "x": [' + _join("0." + "1" * 638, n) + "]}").encode(),
        "unexpected-member",
    )

    # Selection: a query's own cost must be linear in the document too.
    add(
        "absolute-query-in-a-filter",
        "evaluate select",
        run_select(ABSOLUTE_IN_FILTER),
        absolute_in_filter,
        "meets-threshold",
    )
    add(
        "search-with-a-pattern-from-the-document",
        "evaluate select",
        run_select(SEARCH_FROM_DOCUMENT),
        pattern_from_document,
        "meets-threshold",
    )
    add(
        "match-with-a-pattern-from-the-document",
        "evaluate select",
        run_select("$[?match(@.text, @.pattern)].score"),
        lambda n: pattern_from_document(n, full=True),
        "meets-threshold",
    )

    # Extraction from a grader's prose.
    extraction: list[tuple[str, Builder, str]] = [
        ("many-open-braces", lambda n: _repeat("{", n).encode(), "extraction-failed"),
        ("many-open-braces-and-spaces", lambda n: _repeat("{   \n", n).encode(), "extraction-failed"),
        ("many-object-starts", lambda n: _repeat('{"', n).encode(), "extraction-failed"),
        ("many-nested-objects-unclosed", lambda n: ('{"a":' + _repeat('{"b":', n)).encode(), "extraction-failed"),
        ("escaped-quotes-unterminated", lambda n: ('{"reason": "' + _repeat('\\"', n)).encode(), "extraction-failed"),
        (
            "braces-inside-a-string",
            lambda n: ('ok {"reason": "' + _repeat("{}", n) + '", "pass": true}').encode(),
            "explicit-pass",
        ),
        ("many-backticks", lambda n: _repeat("`", n).encode(), "extraction-failed"),
        ("many-fence-lines", lambda n: _repeat("```   \n", n).encode(), "extraction-failed"),
        ("an-unclosed-json-fence", lambda n: ("```json\n" + _repeat("``\n", n)).encode(), "extraction-failed"),
        (
            "a-long-fence",
            lambda n: ("`" * (n // 2) + "json\n" + '{"pass": true}\n' + "`" * (n // 2 - 1) + "\n").encode(),
            "extraction-failed",
        ),
    ]
    for name, build, code in extraction:
        add(name, "judge extract", run_judge_extract, build, code)

    # Report lines: one long line, or many lines.
    def trial(trial_id: str, score: str = "0.9") -> str:
        return '{"trial_id": "' + trial_id + '", "score": ' + score + "}\n"

    report_shapes: list[tuple[str, Runner, Builder, str]] = [
        ("a-very-long-trial-id", run_report, lambda n: trial(_repeat("a", n)).encode(), "meets-threshold"),
        (
            "a-very-long-escaped-trial-id",
            run_report,
            lambda n: trial(_repeat("\\u0061", n)).encode(),
            "meets-threshold",
        ),
        (
            "a-very-long-unreadable-line",
            run_report,
            lambda n: ('{"trial_id": "t", "x": "' + _repeat('\\"', n)).encode() + b"\n",
            "population-unknown",
        ),
        (
            "escaped-quotes-then-brackets-line",
            run_report,
            lambda n: (_repeat('\\"', n) + "[]" * 129 + "\n").encode(),
            "population-unknown",
        ),
        (
            "a-long-line-of-many-members",
            run_report,
            lambda n: (
                '{"trial_id": "t", "score": 0.9, ' + ",".join(f'"m{i}": 0' for i in range(n // 9)) + "}\n"
            ).encode(),
            "meets-threshold",
        ),
        (
            "many-distinct-trials",
            run_report_many,
            lambda n: "".join(trial(f"t-{i}") for i in range(n // 34)).encode(),
            "meets-threshold",
        ),
        ("many-reruns-of-one-trial", run_report, lambda n: (trial("t") * (n // 32)).encode(), "meets-threshold"),
        ("many-invalid-lines", run_report, lambda n: (trial("t", "NaN") * (n // 32)).encode(), "missing-evidence"),
        (
            "many-full-path-lines",
            run_report,
            lambda n: ('{"trial_id": "t", "seed": 1, "score": 0.9}\n' * (n // 43)).encode(),
            "meets-threshold",
        ),
    ]
    for name, runner, build, code in report_shapes:
        add(name, "report", runner, build, code)

    # Manifests: a JSON array of ids, read by the evidence's strict loader.
    manifest_shapes: list[tuple[str, Builder, str]] = [
        ("many-ids", lambda n: ("[" + ",".join(f'"t-{i}"' for i in range(n // 9)) + "]").encode(), "missing-evidence"),
        ("a-very-long-id", lambda n: ('["' + _repeat("a", n) + '"]').encode(), "missing-evidence"),
        (
            "escaped-ids",
            lambda n: ("[" + ",".join(f'"\\u0074-{i}"' for i in range(n // 14)) + "]").encode(),
            "missing-evidence",
        ),
        ("escaped-quotes-then-brackets", lambda n: (_repeat('\\"', n) + "[]" * 129).encode(), "bad-population"),
        ("many-duplicates", lambda n: ("[" + _join('"t"', n) + "]").encode(), "bad-population"),
    ]
    for name, build, code in manifest_shapes:
        add(name, "manifest", manifest, build, code)

    # Policy files (64 KiB at most).
    policy_shapes: list[tuple[str, Builder, str]] = [
        ("escaped-quotes-then-brackets", lambda n: (_repeat('\\"', n) + "[]" * 129).encode(), "bad-policy-file"),
        (
            "escaped-quotes-in-the-version",
            lambda n: ('{"version": "' + _repeat('\\"', n) + '", "threshold": 0.8, "exact": false}').encode(),
            "bad-version",
        ),
        (
            "many-unknown-keys",
            lambda n: (
                '{"version": "v", "threshold": 0.8, "exact": false, '
                + ",".join(f'"k{i}": 0' for i in range(n // 9))
                + "}"
            ).encode(),
            "unknown-policy-key",
        ),
        (
            "a-long-unknown-key",
            lambda n: ('{"version": "v", "threshold": 0.8, "exact": false, "' + _repeat("tresh", n) + '": 1}').encode(),
            "unknown-policy-key",
        ),
        (
            "nesting-over-the-limit",
            lambda n: (
                '{"version": "v", "threshold": 0.8, "exact": false, "x": ['
                + _join("[" * 120 + "]" * 120, n)
                + ","
                + "[" * 130
                + "]" * 130
                + "]}"
            ).encode(),
            "bad-policy-file",
        ),
        (
            "a-number-over-the-cap",
            lambda n: ('{"version": "v", "exact": false, "threshold": 0.' + _repeat("1", n) + "}").encode(),
            "bad-policy-file",
        ),
    ]
    for name, build, code in policy_shapes:
        add(name, "load_policy json", policy_json, build, code, POLICY_BASE)
    if _toml_available():
        toml_shapes: list[tuple[str, Builder, str]] = [
            # tomllib is quadratic in the parts of one dotted key: refused
            # before it parses, by the dots on one line.
            (
                "a-long-dotted-key",
                lambda n: ('version = "v"\nexact = false\nthreshold = 0.8\n' + _repeat("a.", n) + "z = 1\n").encode(),
                "bad-policy-file",
            ),
            (
                "a-long-dotted-table-header",
                lambda n: ('version = "v"\nexact = false\nthreshold = 0.8\n[' + _repeat("a.", n) + "z]\n").encode(),
                "bad-policy-file",
            ),
            (
                "many-keys-of-64-parts",
                lambda n: (
                    'version = "v"\nexact = false\nthreshold = 0.8\n'
                    + "".join("a." * 64 + f"z{i} = 1\n" for i in range(n // 136))
                ).encode(),
                "unknown-policy-key",
            ),
            (
                "many-keys",
                lambda n: (
                    'version = "v"\nexact = false\nthreshold = 0.8\n' + "".join(f"k{i} = 1\n" for i in range(n // 8))
                ).encode(),
                "unknown-policy-key",
            ),
            (
                "many-tables",
                lambda n: (
                    'version = "v"\nexact = false\nthreshold = 0.8\n' + "".join(f"[t{i}]\n" for i in range(n // 6))
                ).encode(),
                "unknown-policy-key",
            ),
            (
                "a-long-string",
                lambda n: ('version = "' + _repeat('\\"', n) + '"\nexact = false\nthreshold = 0.8\n').encode(),
                "bad-version",
            ),
            (
                "a-long-number",
                lambda n: ('version = "v"\nexact = false\nthreshold = 0.' + _repeat("1_", n) + "1\n").encode(),
                "bad-policy-file",
            ),
            (
                "deep-arrays",
                lambda n: (
                    'version = "v"\nexact = false\nthreshold = 0.8\nx = ' + "[" * (n // 2) + "]" * (n // 2) + "\n"
                ).encode(),
                "bad-policy-file",
            ),
        ]
        for name, build, code in toml_shapes:
            add(name, "load_policy toml", policy_toml, build, code, POLICY_BASE)
    return found


# -- measuring -------------------------------------------------------------------


def best_times(runner: Runner, small: bytes, large: bytes, calls: int, rounds: int) -> tuple[float, float]:
    """The best time per call of each input, measured in alternation.

    Alternating rounds put a neighbour's burst of load on both sizes, not
    on one, so it disturbs the ratio less.
    """
    best = [float("inf"), float("inf")]
    counts = (calls, max(1, calls // 4))
    # As timeit does: a collection triggered by an earlier shape's garbage
    # is not this shape's time.
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            for index, data in enumerate((small, large)):
                start = time.perf_counter()
                for _ in range(counts[index]):
                    runner(data)
                best[index] = min(best[index], (time.perf_counter() - start) / counts[index])
    finally:
        gc.enable()
    return best[0], best[1]


def calls_for(runner: Runner, data: bytes, target: float) -> int:
    """How many calls of the 1x input take about *target* seconds."""
    start = time.perf_counter()
    runner(data)
    once = max(time.perf_counter() - start, 1e-6)
    return max(1, min(2000, int(target / once)))


def main(argv: list[str] | None = None) -> int:
    # __doc__ is None under python -OO.
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes; check outcomes, not times")
    parser.add_argument("--only", default="", help="run only shapes whose name contains this")
    args = parser.parse_args(argv)

    failures: list[str] = []
    print(f"python {sys.version.split()[0]}; ratio limit {LIMIT}x (linear is about 4x)")
    print(f"{'entry point':<17} {'shape':<40} {'1x KiB':>7} {'1x ms':>8} {'4x ms':>8} {'ratio':>6}  outcome")
    for name, entry, runner, build, code, base in shapes():
        if args.only not in name:
            continue
        size = SMOKE_BASE if args.smoke else base
        small, large = build(size), build(4 * size)
        outcomes = (runner(small), runner(large))
        ok = outcomes == (code, code)
        if not ok:
            failures.append(f"{entry} {name}: got {outcomes}, built for {code!r}")
        if args.smoke:
            print(f"{entry:<17} {name:<40} {len(small) / 1024:>7.1f} {'-':>8} {'-':>8} {'-':>6}  {outcomes[1]}")
            continue
        calls = calls_for(runner, small, 0.015)
        small_time, large_time = best_times(runner, small, large, calls, 3)
        ratio = large_time / small_time
        if ratio > LIMIT:
            # One retry: a neighbour's burst on a shared machine is not a
            # quadratic scan, but a quadratic scan fails twice.
            small_time, large_time = best_times(runner, small, large, calls, 7)
            ratio = large_time / small_time
        flag = "" if ratio <= LIMIT else "  <-- over the limit"
        if ratio > LIMIT:
            failures.append(f"{entry} {name}: {ratio:.1f}x from 1x to 4x")
        print(
            f"{entry:<17} {name:<40} {len(small) / 1024:>7.1f} {small_time * 1e3:>8.2f} "
            f"{large_time * 1e3:>8.2f} {ratio:>5.1f}x  {outcomes[1]}{flag}"
        )
    if failures:
        print(f"\n{len(failures)} failure(s):")
        for failure in failures:
            print(f"  {failure}")
        return 1
    print("\nall shapes linear" if not args.smoke else "\nall shapes reach their outcome")
    return 0


if __name__ == "__main__":
    sys.exit(main())
