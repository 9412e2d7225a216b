# SPDX-License-Identifier: MIT
"""The strict loader against json.loads on a large harness log.

    python benchmarks/selection.py                 # 10 MB, exits 1 above 1.5x
    python benchmarks/selection.py --print-only    # figures only
    python benchmarks/selection.py --size 2000000 --rounds 3

Generates an Inspect-like evaluation log (deterministic: a fixed seed):
many samples, each with messages, model output, scores and events, nested
objects, strings with escapes and non-ASCII text, integers and floats, and
NaN as the score of a few unscored samples, as Inspect writes it.  Then it
times, on the same bytes:

- ``json.loads(data)``, the baseline;
- the strict load for selection: ``decode_evidence`` (UTF-8, byte limit)
  and ``load_document`` (every strict rule, recording each NaN with its
  path), then a JSONPath query and a JSON Pointer for the headline.

Each round times both, one after the other, in CPU time of this process
(``time.process_time``), so that other work on a shared machine moves the
figures less; the time ratio is the median of the rounds' ratios, printed
with the best times.  Peak memory is measured with tracemalloc, once each.
The script exits 1 if either ratio is over 1.5 (the target), unless
``--print-only``.  Standard library only.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from scorecontract._encoding import decode_evidence  # noqa: E402
from scorecontract._jsonpath import compile_query  # noqa: E402
from scorecontract._strict_json import load_document  # noqa: E402

LIMIT = 1.5
QUERY = "$.results.scores[0].metrics.accuracy.value"
POINTER = "/results/scores/0/metrics/accuracy/value"
HEADLINE = 0.6125

_WORDS = tuple(
    "the model answer question choice because therefore option correct reason step first "
    "second final result value data test sample score token output input analysis evidence "
    "hypothesis compute caf\u00e9 na\u00efve r\u00e9sum\u00e9".split()
)


_WIDE_WORDS = _WORDS + ("\u2014", "don\u2019t", "\u201cquoted\u201d")


def _text(rng: random.Random, words: int, vocabulary: tuple[str, ...] = _WORDS) -> str:
    parts = []
    for _ in range(words):
        word = rng.choice(vocabulary)
        roll = rng.random()
        if roll < 0.08:
            word += ","
        elif roll < 0.12:
            word += "."
        elif roll < 0.14:
            word += ".\n"
        parts.append(word)
    text = " ".join(parts)
    if rng.random() < 0.3:
        text += "\n\nANSWER: " + rng.choice("ABCD")
    if rng.random() < 0.1:
        text += ' He said "yes" [see {x: 1}].'
    return text


def _event(rng: random.Random) -> dict[str, object]:
    return {
        "timestamp": "2025-09-01T12:00:%02d.%06d+00:00" % (rng.randrange(60), rng.randrange(10**6)),
        "working_start": rng.uniform(0, 100),
        "event": "model",
        "model": "openai/gpt-4o",
        "config": {"temperature": 0.0, "max_tokens": 1024},
        "output": {
            "usage": {"input_tokens": rng.randrange(100, 2000), "output_tokens": rng.randrange(500)},
            "time": rng.random(),
        },
        "pending": False,
    }


def _sample(rng: random.Random, number: int, vocabulary: tuple[str, ...]) -> dict[str, object]:
    # Inspect marks an unscored sample with a NaN score value: here one in 50.
    value: object = float("nan") if number % 50 == 3 else rng.choice("CI")
    return {
        "id": number,
        "epoch": 1,
        "input": _text(rng, 40, vocabulary),
        "choices": [_text(rng, 5, vocabulary) for _ in range(4)],
        "target": rng.choice("ABCD"),
        "messages": [
            {"id": "m%da" % number, "content": _text(rng, 40, vocabulary), "source": "input", "role": "user"},
            {
                "id": "m%db" % number,
                "content": [{"type": "text", "text": _text(rng, 60, vocabulary)}],
                "source": "generate",
                "role": "assistant",
                "model": "gpt-4o",
            },
        ],
        "output": {
            "model": "gpt-4o-2024-08-06",
            "choices": [
                {
                    "message": {"role": "assistant", "content": _text(rng, 30, vocabulary)},
                    "stop_reason": "stop",
                    "logprob": -rng.random(),
                }
            ],
            "usage": {
                "input_tokens": rng.randrange(100, 2000),
                "output_tokens": rng.randrange(1, 500),
                "total_tokens": rng.randrange(100, 2500),
            },
            "time": round(rng.uniform(0.1, 9.9), 6),
        },
        "scores": {
            "choice": {
                "value": value,
                "answer": rng.choice("ABCD"),
                "explanation": _text(rng, 8, vocabulary),
                "metadata": {},
            }
        },
        "metadata": {"subject": rng.choice(_WORDS), "difficulty": rng.random()},
        "store": {},
        "events": [_event(rng), _event(rng)],
        "model_usage": {"gpt-4o": {"input_tokens": rng.randrange(100, 2000), "output_tokens": rng.randrange(500)}},
        "total_time": rng.uniform(0.5, 20),
        "working_time": rng.uniform(0.5, 20),
        "uuid": "%032x" % rng.getrandbits(128),
        "error_retries": [],
    }


def harness_log(size: int, seed: int = 12, wide: bool = False) -> bytes:
    """Return an Inspect-like log of about *size* bytes, the same for a seed.

    Its text is Latin-1 (accented words), or with *wide* has the curly
    quotes and dashes models write too, which make Python hold the decoded
    text in two bytes a character.
    """
    vocabulary = _WIDE_WORDS if wide else _WORDS
    rng = random.Random(seed)
    samples: list[dict[str, object]] = []
    log = {
        "version": 2,
        "status": "success",
        "eval": {
            "eval_id": "x7YbQ2",
            "run_id": "r1",
            "created": "2025-09-01T12:00:00+00:00",
            "task": "mmlu",
            "model": "openai/gpt-4o",
            "dataset": {"name": "mmlu", "samples": 0, "shuffled": False},
            "config": {"epochs": 1, "fail_on_error": True, "limit": None},
        },
        "plan": {"name": "plan", "steps": [{"solver": "multiple_choice", "params": {}}]},
        "results": {
            "total_samples": 0,
            "completed_samples": 0,
            "scores": [
                {
                    "name": "choice",
                    "scorer": "choice",
                    "params": {},
                    "metrics": {
                        "accuracy": {"name": "accuracy", "value": HEADLINE, "params": {}},
                        "stderr": {"name": "stderr", "value": 0.0123, "params": {}},
                    },
                }
            ],
        },
        "stats": {"started_at": "2025-09-01T12:00:00+00:00", "completed_at": "2025-09-01T13:00:00+00:00"},
        "samples": samples,
    }
    written = 2000
    while written < size:
        sample = _sample(rng, len(samples) + 1, vocabulary)
        samples.append(sample)
        # In the log each line of a sample is indented by 4 more spaces.
        dumped = json.dumps(sample, indent=2, ensure_ascii=False)
        written += len(dumped.encode("utf-8")) + 4 * (dumped.count("\n") + 1) + 2
    results = log["results"]
    results["total_samples"] = results["completed_samples"] = len(samples)  # type: ignore[index]
    # Inspect writes with indent=2, NaN as the bare constant.
    return json.dumps(log, indent=2, ensure_ascii=False).encode("utf-8")


def strict_select(data: bytes) -> object:
    """The strict load for selection, then the headline by JSONPath and by pointer."""
    document, nonfinite = load_document(decode_evidence(data, len(data)))
    [(path, value)] = compile_query(QUERY).select(document)
    [(same_path, same_value)] = compile_query(POINTER).select(document)
    if value != HEADLINE or same_value != HEADLINE or path != same_path:
        raise SystemExit(f"selected {path} = {value!r}, {same_path} = {same_value!r}")
    if any(record.path.startswith("$['results']") for record in nonfinite):
        raise SystemExit("a NaN was recorded in the results")
    return document


def cpu_time(function: Callable[[], object]) -> float:
    gc.collect()
    begin = time.process_time()
    function()
    return time.process_time() - begin


def peak_memory(function: Callable[[], object]) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main(argv: list[str] | None = None) -> int:
    # -OO strips docstrings: __doc__ is None then.
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--size", type=int, default=10_000_000, help="bytes of log to generate")
    parser.add_argument("--rounds", type=int, default=11, help="rounds, each timing both")
    parser.add_argument("--wide", action="store_true", help="text beyond Latin-1 (curly quotes, dashes)")
    parser.add_argument("--print-only", action="store_true", help="print the figures, never fail")
    options = parser.parse_args(argv)

    data = harness_log(options.size, wide=options.wide)
    nans = len(load_document(decode_evidence(data, len(data)))[1])
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")
    print(f"document: {len(data):,} bytes, {nans} NaN scores; selecting {QUERY} and {POINTER}")

    candidates: dict[str, Callable[[], object]] = {
        "json.loads(bytes)": lambda: json.loads(data),
        "strict load + selection": lambda: strict_select(data),
    }
    times: dict[str, list[float]] = {name: [] for name in candidates}
    ratios = []
    # Each round times both, one after the other, so that a busy moment on
    # the machine hurts both alike; the ratio of each round counts.
    for _ in range(options.rounds):
        base = cpu_time(candidates["json.loads(bytes)"])
        strict = cpu_time(candidates["strict load + selection"])
        times["json.loads(bytes)"].append(base)
        times["strict load + selection"].append(strict)
        ratios.append(strict / base)
    peaks = {name: peak_memory(function) for name, function in candidates.items()}

    best = {name: min(taken) for name, taken in times.items()}
    base_peak = peaks["json.loads(bytes)"]
    print(f"{'':28s} {'best ms':>9s} {'ratio':>6s} {'peak MiB':>9s} {'ratio':>6s}")
    for name in candidates:
        print(
            f"{name:28s} {best[name] * 1000:9.1f} {best[name] / best['json.loads(bytes)']:5.2f}x "
            f"{peaks[name] / 2**20:9.1f} {peaks[name] / base_peak:5.2f}x"
        )
    time_ratio = statistics.median(ratios)
    peak_ratio = peaks["strict load + selection"] / base_peak
    print(
        f"time ratio, median of {len(ratios)} rounds: {time_ratio:.2f}x (from {min(ratios):.2f}x to {max(ratios):.2f}x)"
    )
    if options.print_only:
        return 0
    if time_ratio > LIMIT or peak_ratio > LIMIT:
        print(f"over the target of {LIMIT}x", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
