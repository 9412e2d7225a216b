# SPDX-License-Identifier: MIT
"""Benchmark scorecontract against its peers, interleaved, in one run.

    python benchmarks/bench.py            # everything
    python benchmarks/bench.py --quick    # fewer rounds, 100k-line report only

The report section is ``benchmarks/report_bench.py``, also runnable alone.

Standard library only (timeit, tracemalloc, resource, subprocess).  Every
figure is a median over interleaved rounds, and every table gives ratios to
the baseline measured in the same run: absolute times depend on the machine,
ratios much less.  pydantic and msgspec are measured only when installed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import timeit
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
sys.path.insert(0, str(SRC))

from scorecontract import evaluate  # noqa: E402

RECORD = '{"score": 0.873}'


def seed_style_gate(raw: str) -> str:
    """The first article's strict gate: hooks passed to json.loads per call."""

    def reject_constant(token: str) -> object:
        raise ValueError("non-standard numeric constant: " + token)

    def unique(pairs: list[tuple[str, object]]) -> dict[str, object]:
        record = dict(pairs)
        if len(record) != len(pairs):
            raise ValueError("duplicate member")
        return record

    try:
        record = json.loads(raw, parse_constant=reject_constant, object_pairs_hook=unique)
        if type(record) is not dict or list(record) != ["score"]:
            return "INVALID"
        score = record["score"]
        if type(score) not in (int, float):
            return "INVALID"
        if type(score) is float and not math.isfinite(score):
            return "INVALID"
        if not 0 <= score <= 1:
            return "INVALID"
    except ValueError:
        return "INVALID"
    return "PASS" if score >= 0.8 else "FAIL"


def _prebuilt_gate() -> Callable[[str], str]:
    """The same checks with one JSONDecoder built up front."""

    def reject_constant(token: str) -> object:
        raise ValueError(token)

    def unique(pairs: list[tuple[str, object]]) -> dict[str, object]:
        record = dict(pairs)
        if len(record) != len(pairs):
            raise ValueError("duplicate member")
        return record

    decode = json.JSONDecoder(parse_constant=reject_constant, object_pairs_hook=unique).decode

    def gate(raw: str) -> str:
        try:
            record = decode(raw)
        except ValueError:
            return "INVALID"
        if type(record) is not dict or list(record) != ["score"]:
            return "INVALID"
        score = record["score"]
        if type(score) not in (int, float) or (type(score) is float and not math.isfinite(score)):
            return "INVALID"
        if not 0 <= score <= 1:
            return "INVALID"
        return "PASS" if score >= 0.8 else "FAIL"

    return gate


def _optional_peers() -> dict[str, Callable[[], object]]:
    peers: dict[str, Callable[[], object]] = {}
    data = RECORD.encode()
    try:
        import msgspec

        class Record(msgspec.Struct, forbid_unknown_fields=True):
            score: float

        decoder = msgspec.json.Decoder(Record, strict=True)
        peers["msgspec (C; no duplicate check)"] = lambda: decoder.decode(data)
    except ImportError:
        pass
    try:
        import pydantic

        class Model(pydantic.BaseModel):
            model_config = pydantic.ConfigDict(strict=True, extra="forbid", allow_inf_nan=False)
            score: float

        peers["pydantic v2 strict (no duplicate check)"] = lambda: Model.model_validate_json(data)
    except ImportError:
        pass
    return peers


def single_record(rounds: int) -> list[tuple[str, float]]:
    text = RECORD
    data = text.encode()
    prebuilt = _prebuilt_gate()
    candidates: dict[str, Callable[[], object]] = {
        "json.loads(str) (baseline)": lambda: json.loads(text),
        "scorecontract.evaluate(str)": lambda: evaluate(text),
        "scorecontract.evaluate(bytes)": lambda: evaluate(data),
        "json.loads(bytes)": lambda: json.loads(data),
        "seed-style gate, hooks per call": lambda: seed_style_gate(text),
        "pre-built JSONDecoder with hooks": lambda: prebuilt(text),
    }
    candidates.update(_optional_peers())
    for function in candidates.values():  # warm up, and prove each works
        function()
    number = 20_000
    samples: dict[str, list[float]] = {name: [] for name in candidates}
    for _ in range(rounds):
        for name, function in candidates.items():  # interleaved
            samples[name].append(timeit.timeit(function, number=number) / number)
    return [(name, statistics.median(values)) for name, values in samples.items()]


def _run_wall(command: list[str], repeat: int, env: dict[str, str]) -> float:
    times = []
    for _ in range(repeat):
        start = timeit.default_timer()
        subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(timeit.default_timer() - start)
    return statistics.median(times)


def command_line(rounds: int) -> list[tuple[str, float]]:
    env = dict(os.environ, PYTHONPATH=str(SRC))
    fixture = str(ROOT / "fixtures" / "pass-0.9.json")
    # What the installed `scorecontract` console script runs (pip's wrapper
    # imports main and calls it), and the `python -m` form, which also pays
    # for runpy.
    console_script = "import sys; from scorecontract._cli import main; sys.exit(main())"
    commands = {
        'python -c "import json" (baseline)': [sys.executable, "-c", "import json"],
        "scorecontract check fixture": [sys.executable, "-c", console_script, "check", fixture],
        "python -m scorecontract check fixture": [sys.executable, "-m", "scorecontract", "check", fixture],
        'python -c "import scorecontract"': [sys.executable, "-c", "import scorecontract"],
    }
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            samples[name].append(_run_wall(command, 3, env))
    # Start-up is noise-dominated: the fastest round is the best estimate
    # of what each command itself costs.
    return [(name, min(values)) for name, values in samples.items()]


def import_time() -> list[tuple[str, int]]:
    env = dict(os.environ, PYTHONPATH=str(SRC))
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import scorecontract"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    rows = []
    for line in result.stderr.splitlines():
        parts = [part.strip() for part in line.split("|")]
        if len(parts) == 3 and "scorecontract" in parts[2]:
            rows.append((parts[2], int(parts[1])))
    return rows


def _table(title: str, rows: list[tuple[str, float]], unit: str, scale: float) -> str:
    baseline = rows[0][1]
    width = max(len(name) for name, _ in rows)
    lines = [f"\n{title}", f"{'':{width}}  {unit:>10}  ratio"]
    for name, value in rows:
        lines.append(f"{name:{width}}  {value * scale:10.3f}  {value / baseline:5.2f}x")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    args = parser.parse_args()
    rounds = 5 if args.quick else 15
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}")
    print(f"python: {platform.python_implementation()} {platform.python_version()}")
    print(
        _table(f"single record {RECORD} (median of {rounds} interleaved rounds)", single_record(rounds), "us/call", 1e6)
    )
    print(_table("command line (wall time, best round of medians of 3)", command_line(max(5, rounds // 2)), "ms", 1e3))
    print("\nimport time of scorecontract modules (python -X importtime, us cumulative)")
    for name, micros in import_time():
        print(f"  {name:40} {micros:8d}")
    from report_bench import SHAPES, report_section  # beside this script

    sizes = [100_000] if args.quick else [100_000, 1_000_000]
    print(report_section(sizes, 3 if args.quick else 5, list(SHAPES)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
