# SPDX-License-Identifier: MIT
"""Start-up of ``scorecontract check FILE`` against ``python -c "import json"``.

    python benchmarks/startup.py            # 40 interleaved rounds
    python benchmarks/startup.py --rounds 100

The target is 1.3x (docs/performance.md).  The source tree is copied to a
temporary folder and byte-compiled first: with PYTHONDONTWRITEBYTECODE set
(as some shells and CI images do) every run would otherwise compile the
package again, which is not what an installed package costs.  Each round
runs the baseline and the check once, interleaved, and the medians of wall
time and of the children's CPU time are compared.  On a loaded machine the
ratio rises: compare runs made under the same load.
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _measure(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description="start-up of a plain check against import json")
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        src = Path(folder) / "src"
        shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__"))
        compileall.compile_dir(str(src), quiet=1)
        env = dict(os.environ, PYTHONPATH=str(src))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        fixture = str(ROOT / "fixtures" / "pass-0.9.json")
        commands = {
            'python -c "import json"': [sys.executable, "-c", "import json"],
            # What the installed console script runs.
            "scorecontract check FILE": [
                sys.executable,
                "-c",
                "import sys; from scorecontract._cli import main; sys.exit(main())",
                "check",
                fixture,
            ],
        }
        walls: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.rounds):
            for name, command in commands.items():
                wall, cpu = _measure(command, env)
                walls[name].append(wall)
                cpus[name].append(cpu)
    base_wall = statistics.median(walls['python -c "import json"'])
    base_cpu = statistics.median(cpus['python -c "import json"'])
    print(f"{args.rounds} interleaved rounds, medians; load average {os.getloadavg()[0]:.2f}")
    for name in commands:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        print(
            f"  {name:28} wall {wall * 1e3:7.2f} ms {wall / base_wall:5.3f}x   cpu {cpu * 1e3:7.2f} ms {cpu / base_cpu:5.3f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
