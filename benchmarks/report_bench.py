# SPDX-License-Identifier: MIT
"""Benchmark ``scorecontract report`` against a bare ``json.loads`` loop.

    python benchmarks/report_bench.py            # 100,000 and 1,000,000 lines
    python benchmarks/report_bench.py --quick    # 100,000 lines, fewer rounds

``benchmarks/bench.py`` runs this as its report section.  Standard library
only.  Trial files are generated in a temporary directory and removed
afterwards.  Every candidate runs in a fresh interpreter, interleaved with
the others, and the table gives medians over the rounds and ratios to the
bare loop measured in the same rounds:

- ``bare loop``: ``for line in f: json.loads(line)`` over the file opened as
  UTF-8 text (the faster way to write it), and over the file opened binary;
- ``scorecontract report FILE --scheduled N --format json``, the command line;
- ``report(FILE, scheduled=N)``, the API;
- ``report(FILE, scheduled=N, confidence=0.95, min_pass_rate=0)``: both
  metrics deciding on confidence bounds; the target is that this adds less
  than 10% to the plain call's inner time at 1,000,000 lines.

*wall* is the whole process as the parent sees it, interpreter start-up
included; *inner* is the loop or the ``report()`` call alone, timed inside
the child; *peak* is the child's peak resident set, the whole process, as
the child reports it at exit: ``VmHWM`` from ``/proc/self/status``.  Not
``ru_maxrss``: on Linux a child's starts at its parent's size when forked
and keeps it through ``exec``, so it would show this script's own memory.
(Without ``/proc``, ``ru_maxrss`` it is, with that caveat.)  So that the
command line can report its own peak too, it runs as
``python -c "<prelude>; runpy.run_module('scorecontract', ...)"``, which is
what ``python -m scorecontract`` does.

Three shapes of file:

- ``reruns``: 1,000 scheduled trials, every later line a rerun, each line
  ``{"trial_id": "t-000123", "score": 0.873}``.  This is the workload the
  targets are stated for: time within 1.3x the bare loop, and peak memory at
  1,000,000 lines within 10% of the peak at 100,000 lines, since what a
  report keeps grows with the population, not with the lines.
- ``distinct``: every line a distinct scheduled trial.  Recognising reruns
  needs one small entry per scheduled trial, so memory grows with the
  population, by design; shown for the record.
- ``mixed``: 1,000 scheduled trials whose first lines carry an extra member
  (a seed), then reruns alternating with invalid lines (NaN, garbage,
  invalid UTF-8, a stray id).  Every such line takes the full strict path;
  shown for the record, with its memory, which must stay flat too.

This is a measurement, not a test: nothing here is timed by the suite.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
POPULATION = 1000

# Every child reports its own peak memory on stderr when it exits.
PRELUDE = r"""
import atexit, sys

def _peak_kib():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    import resource
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak

atexit.register(lambda: sys.stderr.write("\npeak_kib %d\n" % _peak_kib()))
"""
# Each child but the command line prints {"inner": seconds} on stdout.
BARE_TEXT = (
    PRELUDE
    + r"""
import json, sys, time
start = time.perf_counter()
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        json.loads(line)
print('{"inner": %r}' % (time.perf_counter() - start))
"""
)
BARE_BINARY = BARE_TEXT.replace('encoding="utf-8"', '"rb"')
# For a file with bad lines: a lenient reader skips what it cannot read.
TOLERANT = BARE_TEXT.replace('encoding="utf-8"', 'encoding="utf-8", errors="replace"').replace(
    "        json.loads(line)",
    "        try:\n            json.loads(line)\n        except ValueError:\n            pass",
)
API = (
    PRELUDE
    + r"""
import sys, time
from scorecontract import report
start = time.perf_counter()
result = report(sys.argv[1], scheduled=int(sys.argv[2]))
inner = time.perf_counter() - start
print('{"inner": %r, "observed": %d}' % (inner, result.observed))
"""
)

# The same call deciding on confidence bounds: the mean's CLT bound from
# the exact sums (one step per distinct score) and, with a minimum pass
# rate stated, the pass rate's Clopper-Pearson bound (its float path above
# 2,000 trials).
API_CONFIDENCE = API.replace(
    "scheduled=int(sys.argv[2]))", "scheduled=int(sys.argv[2]), confidence=0.95, min_pass_rate=0)"
)
CONFIDENCE_NAME = "report(confidence=0.95, min_pass_rate=0)"


def write_reruns(path: Path, lines: int, rng: random.Random) -> int:
    with open(path, "wb") as stream:
        for i in range(lines):
            trial = i if i < POPULATION else rng.randrange(POPULATION)
            stream.write(b'{"trial_id": "t-%06d", "score": 0.%03d}\n' % (trial, rng.randrange(1000)))
    return POPULATION


def write_distinct(path: Path, lines: int, rng: random.Random) -> int:
    with open(path, "wb") as stream:
        for i in range(lines):
            stream.write(b'{"trial_id": "t-%07d", "score": 0.%03d}\n' % (i, rng.randrange(1000)))
    return lines


def write_mixed(path: Path, lines: int, rng: random.Random) -> int:
    junk = [
        b'{"trial_id": "t-%06d", "score": NaN}\n',
        b"not json at all\n",
        b'{"trial_id": "t-%06d", "score": 0.5\xff}\n',
        b'{"trial_id": "stray-%06d", "score": 0.9}\n',
    ]
    with open(path, "wb") as stream:
        for i in range(lines):
            if i < POPULATION:
                stream.write(b'{"trial_id": "t-%06d", "score": 0.9, "seed": %d}\n' % (i, i))
            elif i % 2:
                stream.write(b'{"trial_id": "t-%06d", "score": 0.1}\n' % (i % POPULATION))
            else:
                template = junk[(i // 2) % len(junk)]
                stream.write(template % (i % POPULATION,) if b"%" in template else template)
    return POPULATION


SHAPES = {"reruns": write_reruns, "distinct": write_distinct, "mixed": write_mixed}


def run(command: list[str], verdict: bool) -> tuple[float, int | None, str]:
    """Run *command*; return its wall seconds, peak RSS in KiB, and stdout.

    The command must exit 0, or with a verdict's exit code if *verdict*.
    """
    env = dict(os.environ, PYTHONPATH=str(SRC))
    start = time.perf_counter()
    result = subprocess.run(command, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - start
    errors = result.stderr.decode(errors="replace")
    if result.returncode not in ((0, 1, 3, 4) if verdict else (0,)):
        raise SystemExit(f"{command[-4:]} exited {result.returncode}: {errors}")
    peaks = [line.split()[1] for line in errors.splitlines() if line.startswith("peak_kib ")]
    return wall, int(peaks[-1]) if peaks else None, result.stdout.decode()


def candidates(path: Path, scheduled: int, tolerant: bool) -> dict[str, list[str]]:
    python = sys.executable
    bare = {
        "bare loop: for line in f: json.loads(line)": [python, "-c", BARE_TEXT, str(path)],
        "bare loop, file opened binary": [python, "-c", BARE_BINARY, str(path)],
    }
    if tolerant:
        bare = {"bare loop, skipping lines json.loads refuses": [python, "-c", TOLERANT, str(path)]}
    return {
        **bare,
        "scorecontract report --format json": [
            python,
            "-c",
            PRELUDE + "import runpy; runpy.run_module('scorecontract', run_name='__main__', alter_sys=True)",
            "report",
            str(path),
            "--scheduled",
            str(scheduled),
            "--format",
            "json",
        ],
        "report() in a fresh interpreter": [python, "-c", API, str(path), str(scheduled)],
        CONFIDENCE_NAME: [python, "-c", API_CONFIDENCE, str(path), str(scheduled)],
    }


def measure(
    path: Path, scheduled: int, lines: int, rounds: int, tolerant: bool
) -> list[tuple[str, float, float | None, int | None]]:
    """Return (name, median wall, median inner, median peak KiB) per candidate."""
    commands = candidates(path, scheduled, tolerant)
    walls: dict[str, list[float]] = {name: [] for name in commands}
    inners: dict[str, list[float]] = {name: [] for name in commands}
    peaks: dict[str, list[int]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():  # interleaved
            wall, peak, out = run(command, verdict=not name.startswith("bare"))
            walls[name].append(wall)
            if peak is not None:
                peaks[name].append(peak)
            result = json.loads(out)  # {"inner": ...}, or the report itself
            if "inner" in result:
                inners[name].append(result["inner"])
            # Prove the work was done: every line was read as an observation.
            if not name.startswith("bare") and result.get("observed") != lines:
                raise SystemExit(f"{name}: observed {result.get('observed')} of {lines} lines")
    return [
        (
            name,
            statistics.median(walls[name]),
            statistics.median(inners[name]) if inners[name] else None,
            int(statistics.median(peaks[name])) if peaks[name] else None,
        )
        for name in commands
    ]


def _load() -> str:
    if hasattr(os, "getloadavg"):
        return "load average %.2f %.2f %.2f" % os.getloadavg()
    return "load average n/a"


def report_section(sizes: list[int], rounds: int, shapes: list[str]) -> str:
    """Run the report benchmark and return its tables and target lines."""
    out = [f"\nreport (median of {rounds} interleaved rounds; {os.cpu_count()} cores; {_load()} before)"]
    peaks: dict[tuple[str, int], int | None] = {}
    ratios: list[tuple[str, int, float, float | None]] = []
    overheads: list[tuple[str, int, float]] = []
    rng = random.Random(20261201)
    with tempfile.TemporaryDirectory(prefix="scorecontract-bench-") as directory:
        for shape in shapes:
            for lines in sizes:
                path = Path(directory) / f"{shape}-{lines}.jsonl"
                scheduled = SHAPES[shape](path, lines, rng)
                size = path.stat().st_size
                rows = measure(
                    path,
                    scheduled,
                    lines,
                    rounds if lines <= 100_000 else max(3, rounds - 2),
                    tolerant=shape == "mixed",
                )
                path.unlink()
                base_wall, base_inner = rows[0][1], rows[0][2]
                out.append(f"\n{shape}: {lines:,} lines ({size / 2**20:.1f} MiB), {scheduled:,} scheduled trials")
                width = max(len(row[0]) for row in rows)
                out.append(f"  {'':{width}}  {'wall s':>8} {'ratio':>6}  {'inner s':>8} {'ratio':>6}  {'peak MiB':>8}")
                for name, wall, inner, peak in rows:
                    inner_text = (
                        f"{inner:8.3f} {inner / base_inner:5.2f}x" if inner and base_inner else f"{'':8} {'':6}"
                    )
                    peak_text = f"{peak / 1024:8.1f}" if peak is not None else f"{'n/a':>8}"
                    out.append(f"  {name:{width}}  {wall:8.3f} {wall / base_wall:5.2f}x  {inner_text}  {peak_text}")
                named = {row[0]: row for row in rows}
                cli, api = named["scorecontract report --format json"], named["report() in a fresh interpreter"]
                bounded = named[CONFIDENCE_NAME]
                peaks[(shape, lines)] = cli[3]
                ratios.append(
                    (shape, lines, cli[1] / base_wall, api[2] / base_inner if api[2] and base_inner else None)
                )
                if api[2] and bounded[2]:
                    overheads.append((shape, lines, bounded[2] / api[2] - 1))
    out.append(f"\nreport targets ({_load()} after):")
    for shape, lines, cli_ratio, api_ratio in ratios:
        if shape != "reruns":
            continue
        api_text = f", report() {api_ratio:.2f}x" if api_ratio is not None else ""
        verdict = "met" if cli_ratio <= 1.3 and (api_ratio is None or api_ratio <= 1.3) else "MISSED"
        out.append(
            f"  time, {lines:,} lines: command line {cli_ratio:.2f}x{api_text} the bare loop "
            f"(target <= 1.3x): {verdict}"
        )
    for shape, lines, overhead in overheads:
        target = lines >= 1_000_000
        note = f"(target < 10%): {'met' if overhead < 0.10 else 'MISSED'}" if target else "(shown for the record)"
        out.append(f"  --confidence, {shape}, {lines:,} lines: report() inner time {overhead:+.1%} {note}")
    for shape in shapes:
        small, large = peaks.get((shape, min(sizes))), peaks.get((shape, max(sizes)))
        if len(sizes) < 2 or small is None or large is None:
            continue
        growth = large / small - 1
        target = shape != "distinct"
        note = (
            f"(target <= 10%): {'met' if growth <= 0.10 else 'MISSED'}"
            if target
            else "(grows with the population, by design)"
        )
        out.append(
            f"  peak memory, {shape}: {small / 1024:.1f} MiB at {min(sizes):,} lines, "
            f"{large / 1024:.1f} MiB at {max(sizes):,} lines, {growth:+.1%} {note}"
        )
    return "\n".join(out)


def main() -> int:
    # -OO strips docstrings: __doc__ is None then.
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="100,000 lines only, 3 rounds")
    parser.add_argument("--lines", help="comma-separated line counts (default 100000,1000000)")
    parser.add_argument("--rounds", type=int, help="rounds per file (default 5, or 3 with --quick)")
    parser.add_argument("--shapes", default=",".join(SHAPES), help=f"comma-separated, of {', '.join(SHAPES)}")
    args = parser.parse_args()
    sizes = [int(n) for n in args.lines.split(",")] if args.lines else [100_000] if args.quick else [100_000, 1_000_000]
    rounds = args.rounds or (3 if args.quick else 5)
    shapes = args.shapes.split(",")
    unknown = sorted(set(shapes) - set(SHAPES))
    if unknown:
        parser.error(f"unknown shapes: {', '.join(unknown)}")
    print(report_section(sizes, rounds, shapes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
