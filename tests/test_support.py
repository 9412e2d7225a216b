# SPDX-License-Identifier: MIT
"""The suite's own runners: in-process ``run_main`` gives what a fresh interpreter gives.

White-box: ``run_main`` promises to put back the class state of
``_cli._io.Output``, which no command shows (``main`` resets it), so one
test reads it.

Most command-line tests call ``run_main`` instead of spawning ``python -m
scorecontract`` (``run_cli``); this is what makes that sound.  Each call is
compared with a fresh interpreter's, byte for byte, and leaves nothing
behind.  ``run_fresh`` and ``run_streams`` batch the calls of a test that
needs a fresh interpreter into one.
"""

from __future__ import annotations

import os
import sys

import pytest

from scorecontract._cli._io import Output
from support import FIXTURES, run_cli, run_fresh, run_main, run_streams, sample

PASS = str(FIXTURES / "pass-0.9.json")
NAN = str(FIXTURES / "nan.json")
CALLS = [
    (["check", "--", PASS], b""),
    (["check", "--format", "json", "--", NAN], b""),
    (["check", "-"], b'{"score": 0.5}'),
    (["check", "--help"], b""),
    (["check", "--he", "--", PASS], b""),
    (["report", "--scheduled", "2", "--format", "markdown", "-"], b'{"trial_id": "a", "score": 0.9}\n'),
]


@pytest.mark.parametrize("index", range(len(CALLS)), ids=[" ".join(args[:2]) for args, _ in CALLS])
def test_run_main_gives_what_a_fresh_interpreter_gives(index):
    args, stdin = CALLS[index]
    here = run_main(*args, stdin=stdin)
    fresh = run_cli(*args, stdin=stdin)
    assert (here.returncode, here.stdout, here.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert here.stdout or here.stderr


def test_run_main_puts_everything_back(tmp_path):
    streams = sys.stdin, sys.stdout, sys.stderr
    cwd, environ = os.getcwd(), dict(os.environ)
    Output.stdout_lost = True  # as a run whose result line was lost leaves it
    (tmp_path / "e.json").write_bytes(b'{"score": 0.9}')
    result = run_main("check", "--", "e.json", cwd=tmp_path, env={"ONLY": "this"})
    assert result.returncode == 0 and result.stdout.startswith(b"PASS ")
    assert (sys.stdin, sys.stdout, sys.stderr) == streams
    assert (os.getcwd(), dict(os.environ)) == (cwd, environ)
    assert Output.stdout_lost is True
    Output.stdout_lost = False
    # Repeatable: the same call, the same bytes.
    first, again = run_main("check", "--", PASS), run_main("check", "--", PASS)
    assert (first.returncode, first.stdout, first.stderr) == (again.returncode, again.stdout, again.stderr)


def test_run_main_sees_the_environment_it_is_given(tmp_path):
    key = tmp_path / "key"
    key.write_bytes(b"k" * 32)
    key.chmod(0o600)
    (tmp_path / "e.json").write_bytes(b'{"score": 0.9}')
    assert run_main("sign", "--key-file", str(key), "--", "e.json", cwd=tmp_path).returncode == 0
    args = ["check", "--key-env", "GATE_KEY", "--", "e.json"]
    assert run_main(*args, cwd=tmp_path, env={"GATE_KEY": "k" * 32}).returncode == 0
    assert run_main(*args, cwd=tmp_path, env={}).returncode == 2
    assert "GATE_KEY" not in os.environ


def test_merge_stderr_keeps_the_order_of_writes():
    merged = run_main("check", "--he", "--", PASS, merge_stderr=True)
    apart = run_main("check", "--he", "--", PASS)
    assert merged.stderr == b"" and merged.stdout == apart.stdout + apart.stderr


def test_run_fresh_and_run_streams_give_each_call_its_own_result():
    fresh = run_fresh(CALLS, optimize=1)
    streams = run_streams([args for args, stdin in CALLS if not stdin])
    assert [r.returncode for r in fresh] == [0, 3, 1, 0, 2, 3]
    assert [r.returncode for r in streams] == [0, 3, 0, 2]
    here = [run_main(*args, stdin=stdin) for args, stdin in CALLS]
    assert [(r.stdout, r.stderr) for r in fresh] == [(r.stdout, r.stderr) for r in here]
    without_stdin = [r for r, (_, stdin) in zip(here, CALLS) if not stdin]
    assert [(r.stdout, r.stderr) for r in streams] == [(r.stdout, r.stderr) for r in without_stdin]


def test_sample_is_seeded_ordered_and_complete_under_exhaustive(monkeypatch):
    import support

    items = list(range(100))
    monkeypatch.setattr(support, "EXHAUSTIVE", False)
    chosen = sample(items, 10, "a seed")
    assert len(chosen) == 10 and chosen == sorted(chosen) and set(chosen) <= set(items)
    assert chosen == sample(items, 10, "a seed") and chosen != sample(items, 10, "another seed")
    assert sample(items[:5], 10, "a seed") == items[:5]
    monkeypatch.setattr(support, "EXHAUSTIVE", True)
    assert sample(items, 10, "a seed") == items
