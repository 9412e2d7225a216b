# SPDX-License-Identifier: MIT
"""Peak memory of ``report()`` on 100,000 and 1,000,000-line files.

    python3 benchmarks/report_memory.py [--lines 100000,1000000] [--keep DIR]

Each report runs in a fresh interpreter and prints its peak resident set
(``ru_maxrss``), so the numbers are the whole process, interpreter included.
Two shapes of file:

- ``reruns``: 1,000 scheduled trials; every other line is a rerun, an
  invalid line (NaN, garbage, invalid UTF-8) or a stray trial id.  What is
  kept grows with the population, which is fixed, so memory must stay flat
  as the file grows: the script exits 1 if the large file's peak is over
  1.5 times the small one's.
- ``distinct``: every line a distinct scheduled trial.  Recognising reruns
  needs one entry per scheduled trial, so memory grows with the population
  (not with the number of lines); the numbers are printed for the record.

This is a measurement, not a test: nothing here is timed or asserted by
the suite.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POPULATION = 1000

CHILD = r"""
import resource, sys, time
from scorecontract import report
start = time.perf_counter()
r = report(sys.argv[1], scheduled=int(sys.argv[2]))
elapsed = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
if sys.platform == "darwin":
    peak //= 1024  # bytes there, KiB on Linux
print(peak, r.observed, r.valid, r.invalid, r.ignored, r.missing, round(elapsed, 2))
"""


def write_reruns(path: str, lines: int) -> int:
    junk = [
        b'{"trial_id": "t-%d", "score": NaN}\n',
        b"not json at all\n",
        b'{"trial_id": "t-%d", "score": 0.5\xff}\n',
        b'{"trial_id": "stray-%d", "score": 0.9}\n',
    ]
    with open(path, "wb") as stream:
        for i in range(lines):
            if i < POPULATION:
                stream.write(b'{"trial_id": "t-%d", "score": 0.9, "seed": %d}\n' % (i, i))
            elif i % 2:
                stream.write(b'{"trial_id": "t-%d", "score": 0.1}\n' % (i % POPULATION))
            else:
                template = junk[(i // 2) % len(junk)]
                stream.write(template % (i,) if b"%d" in template else template)
    return POPULATION


def write_distinct(path: str, lines: int) -> int:
    with open(path, "wb") as stream:
        for i in range(lines):
            stream.write(b'{"trial_id": "t-%07d", "score": 0.%d}\n' % (i, 5 + i % 5))
    return lines


def measure(path: str, scheduled: int) -> list[str]:
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    result = subprocess.run(
        [sys.executable, "-c", CHILD, path, str(scheduled)],
        capture_output=True, env=env, check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"report failed: {result.stderr.decode(errors='replace')}")
    return result.stdout.decode().split()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", default="100000,1000000")
    parser.add_argument("--keep", metavar="DIR", help="write the files here and keep them")
    args = parser.parse_args()
    sizes = [int(n) for n in args.lines.split(",")]
    directory = args.keep or tempfile.mkdtemp(prefix="scorecontract-bench-")
    peaks: dict[str, list[int]] = {"reruns": [], "distinct": []}
    print(f"{'shape':9} {'lines':>9} {'scheduled':>9} {'peak MiB':>9} {'seconds':>8}  counts")
    try:
        for shape, write in (("reruns", write_reruns), ("distinct", write_distinct)):
            for lines in sizes:
                path = os.path.join(directory, f"{shape}-{lines}.jsonl")
                scheduled = write(path, lines)
                peak, observed, valid, invalid, ignored, missing, seconds = measure(path, scheduled)
                peaks[shape].append(int(peak))
                print(
                    f"{shape:9} {lines:>9} {scheduled:>9} {int(peak) / 1024:>9.1f} {seconds:>8}  "
                    f"observed {observed} valid {valid} invalid {invalid} ignored {ignored} missing {missing}"
                )
                if not args.keep:
                    os.unlink(path)
    finally:
        if not args.keep:
            os.rmdir(directory)
    small, large = peaks["reruns"][0], peaks["reruns"][-1]
    if large > 1.5 * small:
        print(f"FAILED: peak grew from {small} KiB to {large} KiB with a fixed population")
        return 1
    print(f"OK: fixed population, peak {small} KiB -> {large} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
