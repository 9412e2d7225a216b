# SPDX-License-Identifier: MIT
"""Write the Inspect ``.eval`` logs under tests/data/zstd/ (dev-only; run once).

    cd "$(mktemp -d)"                                  # a relative, empty folder
    python -m venv venv && venv/bin/pip install inspect-ai==0.3.285 zstandard==0.25.0
    venv/bin/python path/to/tools/zstd/make_eval_logs.py path/to/tests/data/zstd

Inspect 0.3.285 writes every member of a ``.eval`` with Zstandard (ZIP
method 93, level 3, through ``zipfile_zstd`` 0.0.4 below Python 3.14).
The run is offline: ``mockllm/model`` answers from scripted outputs, each
of which carries its token usage (without it Inspect fetches a tokenizer
to count them).  Three logs come out:

- ``inspect-run.eval``: 4 samples, 3 of them right (accuracy 0.75);
- ``inspect-epochs.eval``: the same task over 2 epochs (8 samples);
- ``inspect-edited.eval``: ``inspect-run.eval`` after
  ``write_eval_log(log, header_only=True)``, Inspect's own header-only
  edit, which leaves the superseded header.json in the file.

Each log's members are decompressed with ``zstandard`` and searched for
machine paths (the top-level folders of home directories, scratch space
and work trees, and the folder it ran in); the script stops if it finds
one.  ``make_vectors.py`` then records the digests in the manifest.
"""

from __future__ import annotations

import os
import shutil
import sys
import zipfile
from pathlib import Path

VERSIONS = {"inspect-ai": "0.3.285", "zipfile-zstd": "0.0.4", "zstandard": "0.25.0"}
ANSWERS = ("A", "B", "C", "D")
RIGHT = ("A", "B", "C", "A")  # the last one is wrong: accuracy 0.75
# Spelled in parts, so that this file itself names no machine path.
PATHS = (*("/" + name for name in ("work", "tmp", "root", "home", "Users")), os.getcwd())


def run(epochs: int, log_dir: str) -> Path:
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import match
    from inspect_ai.solver import generate

    samples = [
        Sample(id=index + 1, input=f"Question {index + 1}: answer with one letter.", target=answer)
        for index, answer in enumerate(ANSWERS)
    ]
    outputs = []
    for _ in range(epochs):
        for index in range(len(samples)):
            output = ModelOutput.from_content(model="mockllm/model", content=RIGHT[index])
            output.usage = ModelUsage(input_tokens=12, output_tokens=1, total_tokens=13)
            outputs.append(output)
    model = get_model("mockllm/model", custom_outputs=outputs)
    task = Task(name="letters", dataset=samples, solver=generate(), scorer=match(), epochs=epochs)
    (log,) = eval(task, model=model, log_dir=log_dir, display="none", max_samples=1)
    if log.status != "success":
        raise SystemExit(f"the run did not succeed: {log.status} {log.error}")
    return Path(log.location)


def check_paths(path: Path) -> None:
    """Stop if a member, decompressed with zstandard itself, holds a machine path."""
    import struct

    import zstandard

    data = path.read_bytes()
    with zipfile.ZipFile(path) as archive:
        infos = archive.infolist()
    for info in infos:
        if info.compress_type != 93:
            raise SystemExit(f"{path.name}: {info.filename} is not Zstandard (method {info.compress_type})")
        name_length, extra_length = struct.unpack("<HH", data[info.header_offset + 26 : info.header_offset + 30])
        start = info.header_offset + 30 + name_length + extra_length
        member = zstandard.ZstdDecompressor().decompressobj().decompress(data[start : start + info.compress_size])
        for machine in PATHS:
            if machine.encode() in member:
                raise SystemExit(f"{path.name}: {info.filename} holds the machine path {machine}")


def main(argv: list[str]) -> int:
    from importlib.metadata import version

    for package, wanted in VERSIONS.items():
        if version(package) != wanted:
            raise SystemExit(f"{package} {version(package)} is installed; this script pins {wanted}")
    out = Path(argv[0]) if argv else Path("out")
    out.mkdir(parents=True, exist_ok=True)
    if Path.cwd() in Path(__file__).resolve().parents:
        raise SystemExit("run it from an empty folder outside the repository (paths are written relative to it)")
    os.environ["INSPECT_LOG_DIR"] = "logs"
    made = {"inspect-run.eval": run(1, "logs/run"), "inspect-epochs.eval": run(2, "logs/epochs")}
    from inspect_ai.log import read_eval_log, write_eval_log

    edited = Path("logs/edited.eval")
    shutil.copyfile(made["inspect-run.eval"], edited)
    log = read_eval_log(str(edited))
    log.eval.metadata = {"note": "edited header"}
    write_eval_log(log, str(edited), header_only=True)
    made["inspect-edited.eval"] = edited
    for name, path in made.items():
        check_paths(path)
        shutil.copyfile(path, out / name)
        print(f"{out / name}: {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
