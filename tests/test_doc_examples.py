# SPDX-License-Identifier: MIT
"""Every example in README.md and docs/*.md runs and does what it shows.

A page is read as a reader follows it: its examples run in order, in one
fresh working directory that holds copies of ``src/``, ``fixtures/``,
``examples/`` and ``LICENSE``.  ``python3`` and ``python`` are this
interpreter, with its -O level; ``scorecontract`` is the command line of
the copy, as ``pip install .`` would provide it.  No ``PYTHON*`` variable
leaks in, so ``PYTHONPATH=src python3 -m scorecontract`` works only because
the example says so.

For speed, a plain ``scorecontract ...`` command (fed through ``|`` or
sent to /dev/null, at most) runs in this interpreter through
``support.run_main``, and so does a Python block, as ``__main__`` in its
own namespace: the same code as the copy, without an interpreter's
start-up per example.  Everything else a shell line does (a pipe into
``head``, an environment variable, ``>&-``, a vendored copy) runs in bash,
and a block that sets shell state runs wholly in one bash.

The conventions, for whoever writes an example:

- Shell, a fence labelled ``sh`` or ``bash``.  Each line is a command,
  except blank lines and lines that start with ``#``; a line ending in
  ``\\`` continues on the next.  A command must exit 0 unless its trailing
  comment (two spaces, then ``#``) says otherwise::

      scorecontract check -- fixtures/pass-0.9.json   # prints PASS meets-threshold: ...
      scorecontract check -- fixtures/nan.json        # exits 3
      scorecontract check -- fixtures/nan.json        # exits 3, prints INVALID non-standard-constant: ...

  ``prints`` gives the whole of stdout, its final newline dropped.  Any
  other trailing comment is prose.
- Console, a fence labelled ``console``.  A line that starts with ``$ `` is
  a command (with the same ``# exits N``); the lines after it, up to the
  next command, are everything it prints, stdout and stderr as a terminal
  shows them.
- Python, a fence labelled ``python``, runs as a script would, as
  ``__main__`` with the working directory first on ``sys.path``.  A top-level expression whose last line ends in
  ``# -> TEXT`` must have ``repr()`` TEXT; a top-level statement whose last
  line ends in ``# raises NAME`` or ``# raises NAME, code "CODE"`` must
  raise that exception (or a subclass), with that ``.code``.
- In every expected text, ``...`` stands for any text.
- ``<!-- file: NAME -->`` on the line before a fence: the block is not
  run; its text is written to NAME when the page reaches it.
- ``<!-- not-run: REASON -->`` on the line before a fence: the block is not
  run (a Python block is still compiled, a shell block still parsed).
  Few blocks may say so, and each must give its reason.

Blocks with any other label (json, toml, text, none) are shown, not run.
"""

from __future__ import annotations

import ast
import builtins
import io
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tokenize
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from support import ROOT, run_main

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RUN = {"sh", "bash", "console", "python"}
SHELL = {"sh", "bash", "console"}
MOST_NOT_RUN = 6

_FENCE = re.compile(r"^(?P<indent> *)(?P<ticks>`{3,})(?P<label>[\w-]*)\s*$")
_MARKER = re.compile(r"^\s*<!--\s*(?P<kind>not-run|file):\s*(?P<arg>.*?)\s*-->\s*$")
_NOTE = re.compile(r"^(?P<command>.*?\S)\s{2,}#\s(?P<note>.*)$")
_SHELL_EXPECT = re.compile(r"^(?:exits (?P<status>\d+)(?:, prints (?P<after>.*))?|prints (?P<prints>.*))$")
_VALUE = re.compile(r"^#\s->\s(?P<text>.*)$")
_RAISES = re.compile(r'^#\sraises\s(?P<name>\w+)(?:, code "(?P<code>[a-z0-9-]+)")?\s*$')


@dataclass
class Command:
    line: int
    text: str
    status: int = 0
    prints: str | None = None  # sh: stdout; console: everything printed


@dataclass
class Example:
    page: str
    line: int  # the opening fence
    label: str
    body: str
    body_line: int  # the document line of the body's first line
    marker: str | None = None
    argument: str = ""
    commands: list[Command] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def read_blocks(path: Path) -> list[Example]:
    """Every fenced block of *path*, with the marker on the line before it."""
    page = path.relative_to(ROOT).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = []
    number = 0
    while number < len(lines):
        opening = _FENCE.match(lines[number])
        if opening is None:
            number += 1
            continue
        indent, ticks = len(opening["indent"]), opening["ticks"]
        end = number + 1
        while end < len(lines) and not re.fullmatch(rf" *`{{{len(ticks)},}}\s*", lines[end]):
            end += 1
        if end == len(lines):
            raise AssertionError(f"{page}:{number + 1}: the fence is never closed")
        body = "".join(text[indent:] + "\n" for text in lines[number + 1 : end])
        previous = next((lines[k] for k in range(number - 1, -1, -1) if lines[k].strip()), "")
        marker = _MARKER.match(previous)
        blocks.append(
            Example(
                page,
                number + 1,
                opening["label"],
                body,
                number + 2,
                marker["kind"] if marker else None,
                marker["arg"] if marker else "",
            )
        )
        number = end + 1
    for block in blocks:
        if block.label in SHELL:
            block.commands = shell_commands(block)
    return blocks


def shell_commands(block: Example) -> list[Command]:
    """The commands of a shell or console block, with what each shows."""
    commands: list[Command] = []
    physical = block.body.splitlines()
    number = 0
    while number < len(physical):
        text, line = physical[number], block.body_line + number
        number += 1
        if block.label == "console":
            if not text.startswith("$ "):
                if not commands:
                    raise AssertionError(f"{block.page}:{line}: console output before any command")
                shown = commands[-1].prints
                commands[-1].prints = text if shown is None else shown + "\n" + text
                continue
            text = text[2:]
        elif not text.strip() or text.lstrip().startswith("#"):
            continue
        parts = [text]
        while parts[-1].endswith("\\") and number < len(physical):
            parts.append(physical[number])
            number += 1
        command = Command(line, "")
        note = _NOTE.match(parts[-1])
        if note is not None:
            parts[-1] = note["command"]
            expect = _SHELL_EXPECT.match(note["note"])
            if expect is not None:
                command.status = int(expect["status"] or 0)
                command.prints = expect["after"] if expect["after"] is not None else expect["prints"]
        command.text = "\n".join(parts)
        commands.append(command)
    if block.label == "console":
        for command in commands:
            # A command shown without output prints nothing.
            command.prints = (command.prints or "").rstrip("\n")
    return commands


def all_blocks() -> list[Example]:
    blocks = [block for page in PAGES for block in read_blocks(page)]
    if not blocks:
        raise AssertionError("no fenced blocks in README.md or docs/")
    return blocks


BLOCKS = all_blocks()
EXAMPLES = [b for b in BLOCKS if b.label in RUN and b.marker is None]
NOT_RUN = [b for b in BLOCKS if b.marker == "not-run"]


def shows(expected: str, actual: str) -> bool:
    """Whether *actual* is *expected*, where ``...`` stands for any text."""
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual, re.DOTALL) is not None


# -- running a page ------------------------------------------------------------

# What may run in this interpreter: a command that is only ``scorecontract``
# (or ``python3 -m scorecontract``) and its arguments, perhaps fed by a
# producer through ``|`` or with stdout sent to /dev/null; and ``cd``, whose
# working directory the page then keeps.  A command that sets shell state
# (a variable, an export, a ``cd`` inside a list) makes its whole block run
# in one bash, as a reader's terminal would.
_PROGRAMS = (["scorecontract"], ["python3", "-m", "scorecontract"], ["python", "-m", "scorecontract"])
_STATE = {"export", "set", "unset", "source", ".", "alias", "unalias", "shopt", "trap", "umask", "pushd", "popd"}
_STATE |= {"cd", "declare", "local", "readonly", "function", "exec", "eval"}


def _tokens(text: str) -> list[str]:
    lexer = shlex.shlex(text.replace("\\\n", " "), posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    return list(lexer)


def _is_operator(token: str) -> bool:
    return bool(token) and set(token) <= set("|&;<>()")


def _arguments(tokens: list[str]) -> list[str] | None:
    """The arguments of a plain ``scorecontract`` command, else None."""
    for program in _PROGRAMS:
        if tokens[: len(program)] == program:
            rest = tokens[len(program) :]
            return None if any(_is_operator(token) for token in rest) else rest
    return None


@dataclass
class Plan:
    """How one command runs: in this interpreter, or in bash."""

    kind: str  # "main", "cd" or "bash"
    arguments: list[str] = field(default_factory=list)
    producer: str | None = None  # a command whose stdout is main's stdin
    redirect: tuple[str, str] | None = None  # (">" or ">>", file) for stdout


def plan(command: Command) -> Plan:
    tokens = _tokens(command.text)
    if not tokens:
        return Plan("bash")
    if tokens[0] == "cd" and len(tokens) == 2 and not _is_operator(tokens[1]):
        return Plan("cd", [tokens[1]])
    if len(tokens) > 2 and tokens[-2] in (">", ">>") and not _is_operator(tokens[-1]):
        arguments = _arguments(tokens[:-2])
        if arguments is not None:
            return Plan("main", arguments, redirect=(tokens[-2], tokens[-1]))
    arguments = _arguments(tokens)
    if arguments is not None:
        return Plan("main", arguments)
    if tokens.count("|") == 1:
        # The producer, left of the one pipe, runs in bash: its text is
        # shell (printf, echo), its stdout is the evidence.
        right = tokens[tokens.index("|") + 1 :]
        arguments = _arguments(right)
        left = command.text.split("|", 1)[0]
        if arguments is not None and "\\\n" not in command.text and _tokens(left) == tokens[: tokens.index("|")]:
            return Plan("main", arguments, producer=left)
    return Plan("bash")


def sets_shell_state(command: Command) -> bool:
    tokens = _tokens(command.text)
    if tokens and re.fullmatch(r"\w+=.*", tokens[0]) and all(re.fullmatch(r"\w+=.*", t) for t in tokens):
        return True  # an assignment alone
    if plan(command).kind == "cd":
        return False
    return any(token in _STATE for token in tokens)


def python_marks(block: Example) -> dict[int, tuple[str, re.Match[str]]]:
    """The ``# -> ...`` and ``# raises ...`` comments, by line in the block."""
    marks = {}
    for token in tokenize.generate_tokens(io.StringIO(block.body).readline):
        if token.type != tokenize.COMMENT:
            continue
        for kind, pattern in (("value", _VALUE), ("raises", _RAISES)):
            match = pattern.match(token.string)
            if match is not None:
                marks[token.start[0]] = (kind, match)
    return marks


def _instrumented(block: Example, found: dict[str, dict[str, object]]) -> tuple[object, dict[str, object]]:
    """The block compiled with its marked statements recorded into *found*.

    A ``# ->`` expression records its ``repr()``; a ``# raises`` statement
    is wrapped in a try that records what it raised (or that it returned).
    Line numbers are the page's, so a traceback points into the page.
    """
    marks = {line: kind for line, (kind, _) in python_marks(block).items()}
    offset = block.body_line - 1

    def value(line: int, result: object) -> object:
        found[str(line)] = {"repr": repr(result)}
        return result

    def raised(line: int, error: BaseException) -> None:
        found[str(line)] = {"raised": [k.__name__ for k in type(error).__mro__], "code": getattr(error, "code", None)}

    def returned(line: int) -> None:
        found[str(line)] = {"raised": None}

    def call(name: str, *args: ast.expr) -> ast.Call:
        return ast.Call(ast.Name(name, ast.Load()), list(args), [])

    tree = ast.parse(block.body)
    body: list[ast.stmt] = []
    for node in tree.body:
        kind = marks.get(node.end_lineno or 0)
        line = ast.Constant((node.end_lineno or 0) + offset)
        if kind == "value" and isinstance(node, ast.Expr):
            node = ast.copy_location(ast.Expr(call("__doc_value__", line, node.value)), node)
        elif kind == "raises":
            handler = ast.ExceptHandler(
                ast.Name("BaseException", ast.Load()),
                "__doc_error__",
                [ast.Expr(call("__doc_raised__", line, ast.Name("__doc_error__", ast.Load())))],
            )
            orelse: list[ast.stmt] = [ast.Expr(call("__doc_returned__", line))]
            node = ast.copy_location(ast.Try([node], [handler], orelse, []), node)
        body.append(node)
    tree.body = body
    ast.fix_missing_locations(tree)
    ast.increment_lineno(tree, offset)
    namespace: dict[str, object] = {
        "__name__": "__main__",
        "__builtins__": builtins,
        "__doc_value__": value,
        "__doc_raised__": raised,
        "__doc_returned__": returned,
    }
    # compile() takes this interpreter's -O level, as a script run by it would.
    return compile(tree, block.page, "exec"), namespace


def _executable(path: Path, script: str) -> None:
    path.write_text("#!/bin/sh\n" + script + "\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def _interpreter() -> list[str]:
    return [sys.executable] + (["-" + "O" * sys.flags.optimize] if sys.flags.optimize else [])


Result = tuple[int, str, str]


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="backslashreplace")


class Page:
    """One page's working directory, and the results of its examples.

    The ``scorecontract`` commands a reader would type run in this
    interpreter, through ``run_main``, in the page's directory and
    environment; whatever else is shell runs in bash.  A Python block runs
    here too, as ``__main__`` in a namespace of its own.  The command line
    and the package are the suite's own ``src/``, which the page's copy
    is a copy of; ``scorecontract`` and ``python3`` on the page's PATH run
    that copy in a fresh interpreter for what bash runs.
    """

    def __init__(self, root: Path, page: str) -> None:
        self.work = root / "work"
        self.bin = root / "bin"
        self.scratch = root / "scratch"
        for directory in (self.bin, self.scratch):
            directory.mkdir(parents=True)
        ignore = shutil.ignore_patterns("__pycache__")
        for name in ("src", "fixtures", "examples"):
            shutil.copytree(ROOT / name, self.work / name, ignore=ignore)
        shutil.copy(ROOT / "LICENSE", self.work / "LICENSE")
        python = " ".join(shlex.quote(part) for part in _interpreter())
        for name in ("python3", "python"):
            _executable(self.bin / name, f'exec {python} "$@"')
        source = shlex.quote(str(self.work / "src"))
        _executable(self.bin / "scorecontract", f'PYTHONPATH={source} exec {python} -m scorecontract "$@"')
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        self.env["PATH"] = f"{self.bin}{os.pathsep}{self.env.get('PATH', '')}"
        self.results: dict[str, object] = {}
        for block in (b for b in BLOCKS if b.page == page):
            if block.marker == "file":
                (self.work / block.argument).write_text(block.body, encoding="utf-8")
            elif block.marker is None and block.label in SHELL:
                self.results[block.id] = self.run_shell(block)
            elif block.marker is None and block.label == "python":
                self.results[block.id] = self.run_python(block)

    def run_shell(self, block: Example) -> list[Result]:
        """Run the block's commands in order; (status, stdout, stderr) for each."""
        numbered = list(enumerate(block.commands))
        if any(sets_shell_state(command) for command in block.commands):
            found = self.bash(block, numbered, self.work)
            return [found[number] for number, _ in numbered]
        results: list[Result] = []
        cwd, previous = self.work, self.work
        waiting: list[tuple[int, Command]] = []  # consecutive bash commands: one bash
        for number, command in numbered:
            how = plan(command)
            if how.kind == "bash":
                waiting.append((number, command))
                continue
            if waiting:
                found = self.bash(block, waiting, cwd)
                results += [found[n] for n, _ in waiting]
                waiting = []
            if how.kind == "cd":
                target = previous if how.arguments[0] == "-" else (cwd / how.arguments[0]).resolve()
                if not target.is_dir():
                    results.append((1, "", f"cd: {how.arguments[0]}: No such file or directory\n"))
                    continue
                # bash's "cd -" prints the directory it goes to.
                results.append((0, f"{target}\n" if how.arguments[0] == "-" else "", ""))
                cwd, previous = target, cwd
                continue
            results.append(self.run_main(block, how, cwd))
        if waiting:
            found = self.bash(block, waiting, cwd)
            results += [found[n] for n, _ in waiting]
        return results

    def run_main(self, block: Example, how: Plan, cwd: Path) -> Result:
        stdin, fed = b"", ""
        if how.producer is not None:
            producer = subprocess.run(
                ["bash", "-c", how.producer],
                cwd=cwd,
                env=self.env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=60,
                check=False,
            )
            stdin, fed = producer.stdout, _text(producer.stderr)
        # A console shows stdout and stderr as they come (2>&1); with stdout
        # sent to a file, it shows stderr alone.
        console = block.label == "console"
        merged = console and how.redirect is None
        done = run_main(*how.arguments, stdin=stdin, cwd=cwd, env=self.env, merge_stderr=merged)
        stdout, stderr = _text(done.stdout), fed + _text(done.stderr)
        if how.redirect is not None:
            operator, target = how.redirect
            with open(cwd / target, "ab" if operator == ">>" else "wb") as stream:
                stream.write(done.stdout)
            stdout = ""
        if console:
            return done.returncode, fed + stdout if merged else stderr, ""
        return done.returncode, stdout, stderr

    def bash(self, block: Example, commands: list[tuple[int, Command]], cwd: Path) -> dict[int, Result]:
        """Run *commands* in one bash in *cwd*; (status, stdout, stderr) by number."""
        out = self.scratch / f"{block.line}"
        out.mkdir(exist_ok=True)
        script = []
        for number, command in commands:
            streams = "2>&1" if block.label == "console" else f'2>"$OUT/{number}.err"'
            script.append(
                f'{{ {command.text}\n}} >"$OUT/{number}.out" {streams} </dev/null\necho $? >"$OUT/{number}.rc"'
            )
        shell = subprocess.run(
            ["bash", "-c", "\n".join(script)],
            cwd=cwd,
            env=dict(self.env, OUT=str(out)),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        results = {}
        for number, _ in commands:
            err, status = out / f"{number}.err", out / f"{number}.rc"
            if not status.exists():
                raise AssertionError(f"{block.id}: bash stopped before command {number + 1}\n{shell.stderr}")
            results[number] = (
                int(status.read_text()),
                (out / f"{number}.out").read_text(encoding="utf-8", errors="backslashreplace"),
                err.read_text(encoding="utf-8", errors="backslashreplace") if err.exists() else "",
            )
        return results

    def run_python(self, block: Example) -> tuple[Result, dict[str, dict[str, object]]]:
        """Run the block as ``__main__`` here, in the page's directory and environment.

        As ``python3 block.py`` would: the working directory first on
        ``sys.path``, stdout and stderr its own, a traceback and status 1
        for what escapes.  The marks are recorded only if the block ran to
        its end.  Everything changed is put back, and the modules it
        imported from the page's directory are forgotten.
        """
        found: dict[str, dict[str, object]] = {}
        code, namespace = _instrumented(block, found)
        stdout, stderr = io.StringIO(), io.StringIO()
        saved = (os.getcwd(), dict(os.environ), list(sys.path), sys.stdin, sys.stdout, sys.stderr)
        modules = set(sys.modules)
        status = 0
        try:
            os.chdir(self.work)
            os.environ.clear()
            os.environ.update(self.env)
            sys.path.insert(0, "")
            sys.stdin, sys.stdout, sys.stderr = io.StringIO(), stdout, stderr
            try:
                exec(code, namespace)
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
                found = {}
            except BaseException:
                stderr.write(traceback.format_exc())
                status, found = 1, {}
        finally:
            cwd, environ, path, sys.stdin, sys.stdout, sys.stderr = saved
            os.chdir(cwd)
            os.environ.clear()
            os.environ.update(environ)
            sys.path[:] = path
            for name in set(sys.modules) - modules:
                origin = getattr(sys.modules[name], "__file__", None) or ""
                if origin and Path(origin).resolve().is_relative_to(self.work.resolve()):
                    del sys.modules[name]
        return (status, stdout.getvalue(), stderr.getvalue()), found


class Pages:
    def __init__(self, factory: pytest.TempPathFactory) -> None:
        self.factory = factory
        self.pages: dict[str, Page] = {}

    def result(self, block: Example) -> object:
        if block.page not in self.pages:
            root = self.factory.mktemp(Path(block.page).stem)
            self.pages[block.page] = Page(root, block.page)
        return self.pages[block.page].results[block.id]


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Pages:
    return Pages(tmp_path_factory)


# -- the tests -----------------------------------------------------------------


@pytest.mark.parametrize("block", EXAMPLES, ids=lambda block: block.id)
def test_example_does_what_it_shows(block: Example, pages: Pages) -> None:
    result = pages.result(block)
    if block.label in SHELL:
        assert block.commands, f"{block.id}: a shell block without a command"
        for command, (status, stdout, stderr) in zip(block.commands, result):
            where = f"{block.page}:{command.line}: {command.text}"
            assert status == command.status, (
                f"{where}\nexit {status}, the example shows {command.status}\n{stdout}{stderr}"
            )
            if command.prints is not None:
                shown = stdout.rstrip("\n") if block.label == "console" else stdout.removesuffix("\n")
                assert shows(command.prints, shown), (
                    f"{where}\nprinted:\n{stdout}\nthe example shows:\n{command.prints}"
                )
        return
    (status, stdout, stderr), found = result
    assert status == 0, f"{block.id}: the example failed\n{stdout}{stderr}"
    marks = python_marks(block)
    lines = {str(line + block.body_line - 1): mark for line, mark in marks.items()}
    # Every marked comment must sit on a top-level statement that ran.
    assert sorted(found) == sorted(lines), f"{block.id}: marks not on a top-level statement that ran"
    for line, (kind, match) in lines.items():
        got = found[line]
        where = f"{block.page}:{line}"
        if kind == "value":
            assert "repr" in got, f"{where}: '# ->' marks an expression, not a statement"
            assert shows(match["text"], got["repr"]), f"{where}: got {got['repr']}, the example shows {match['text']}"
        else:
            assert got["raised"] is not None, f"{where}: nothing was raised; the example shows {match['name']}"
            assert match["name"] in got["raised"], f"{where}: raised {got['raised'][0]}, not {match['name']}"
            if match["code"] is not None:
                assert got["code"] == match["code"], f"{where}: code {got['code']!r}, not {match['code']!r}"


def test_examples_run_this_interpreter_at_its_optimize_level(tmp_path: Path) -> None:
    page = Page(tmp_path, "no page: the commands alone")
    probe = "import sys; print(sys.executable, sys.flags.optimize)"
    for name in ("python3", "python"):
        shown = subprocess.run(
            [str(page.bin / name), "-c", probe],
            env=page.env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert shown.stdout.split() == [sys.executable, str(sys.flags.optimize)]
    version = subprocess.run(
        ["scorecontract", "--version"],
        cwd=tmp_path,
        env=page.env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert version.returncode == 0 and version.stdout.startswith("scorecontract ")
    assert not any(name.startswith("PYTHON") for name in page.env)


def test_the_pages_have_examples() -> None:
    # An empty corpus, or a fence convention this test no longer reads,
    # must not pass.
    assert len(EXAMPLES) >= 25
    readme = [b for b in BLOCKS if b.page == "README.md"]
    assert {"sh", "python"} <= {b.label for b in readme if b.marker is None}
    # The first screen: from a clone to a gated file, and to the tests.
    first_screen = [c.text for b in readme if b.line <= 30 for c in b.commands]
    assert "PYTHONPATH=src python3 -m scorecontract check -- fixtures/nan.json" in first_screen
    assert "python3 -m pytest" in first_screen
    assert sum(len(b.commands) for b in EXAMPLES) >= 40
    assert sum(len(python_marks(b)) for b in EXAMPLES if b.label == "python") >= 15


def test_few_blocks_are_not_run_and_each_says_why() -> None:
    assert 0 < len(NOT_RUN) <= MOST_NOT_RUN, [b.id for b in NOT_RUN]
    for block in NOT_RUN:
        assert block.label in RUN, f"{block.id}: only runnable blocks need not-run"
        assert len(block.argument.split()) >= 3, f"{block.id}: say why it is not run"


@pytest.mark.parametrize("block", [b for b in NOT_RUN if b.label == "python"], ids=lambda block: block.id)
def test_a_python_block_not_run_still_compiles(block: Example) -> None:
    compile(block.body, block.id, "exec")


def test_a_shell_block_not_run_still_parses() -> None:
    blocks = [b for b in NOT_RUN if b.label in SHELL]
    script = "\n".join(c.text for b in blocks for c in b.commands)
    assert script
    parsed = subprocess.run(["bash", "-n", "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert parsed.returncode == 0, parsed.stderr


def test_file_blocks_name_a_plain_file() -> None:
    files = [b for b in BLOCKS if b.marker == "file"]
    assert files
    for block in files:
        assert re.fullmatch(r"[\w.-]+", block.argument), f"{block.id}: {block.argument!r}"


def _invocations(command: str) -> list[list[str]]:
    """The argument lists of every check, report and sign in *command*."""
    lexer = shlex.shlex(command.replace("\\\n", " "), posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    tokens = list(lexer)
    found = []
    for number, token in enumerate(tokens[:-1]):
        program = token == "scorecontract" or (number > 0 and tokens[number - 1] == "-m")
        if program and tokens[number + 1] in ("check", "report", "sign"):
            arguments = []
            for argument in tokens[number + 2 :]:
                if argument and set(argument) <= set("|&;<>()"):
                    break
                arguments.append(argument)
            found.append(arguments)
    return found


def test_every_command_puts_double_dash_before_its_path() -> None:
    # A path that starts with "-" is read as an option unless "--" comes
    # first: every example shows the safe form, so copies of it are safe.
    shell = [b for b in BLOCKS if b.label in SHELL]
    invocations = [(b, c, args) for b in shell for c in b.commands for args in _invocations(c.text)]
    assert len(invocations) >= 20
    for block, command, arguments in invocations:
        if "--help" in arguments or "-h" in arguments:
            continue
        assert "--" in arguments, f"{block.page}:{command.line}: {command.text}"
        # Only paths after "--": one, or (report) the shards of one run.
        paths = arguments[arguments.index("--") + 1 :]
        assert paths, f"{block.page}:{command.line}: a path after --"
        assert "--" not in paths, f"{block.page}:{command.line}: one --, before the paths"


def test_plain_commands_run_here_and_the_rest_in_bash() -> None:
    here = [c for b in EXAMPLES if b.label in SHELL for c in b.commands if plan(c).kind == "main"]
    # Most of the pages' commands: the reason the pages run fast.
    assert len(here) >= 60, len(here)
    assert plan(Command(1, "scorecontract check -- a.json")) == Plan("main", ["check", "--", "a.json"])
    assert plan(Command(1, "python3 -m scorecontract --help > /dev/null")) == Plan(
        "main", ["--help"], redirect=(">", "/dev/null")
    )
    piped = plan(Command(1, "echo '{\"score\": 1}' | scorecontract check -- -"))
    assert piped == Plan("main", ["check", "--", "-"], producer="echo '{\"score\": 1}' ")
    assert plan(Command(1, "cd -")) == Plan("cd", ["-"])
    assert plan(Command(1, "scorecontract report -- t >> s.md")).redirect == (">>", "s.md")
    for shell in (
        "PYTHONPATH=src python3 -m scorecontract check -- a.json",
        "scorecontract demo | head -1",
        "scorecontract check -- a.json >&-; echo $?",
        "python -m ci_tools._vendor.gate --version",
        "printf x > result.json",
    ):
        assert plan(Command(1, shell)).kind == "bash", shell
    assert sets_shell_state(Command(1, 'export KEY="$(cat k)"'))
    assert sets_shell_state(Command(1, "X=1"))
    assert sets_shell_state(Command(1, "cd a && ls"))
    assert not sets_shell_state(Command(1, "cd a"))
    assert not sets_shell_state(Command(1, "PYTHONPATH=src python3 -m scorecontract --version"))


def test_the_double_dash_check_reads_commands() -> None:
    assert _invocations("echo x | scorecontract check --exact -- - > out") == [["--exact", "--", "-"]]
    assert _invocations("python3 -m scorecontract report --scheduled 4 t.jsonl") == [["--scheduled", "4", "t.jsonl"]]
    assert _invocations("scorecontract demo") == []


def test_shows_matches_ellipses_and_nothing_else() -> None:
    assert shows("INVALID non-finite: ...", "INVALID non-finite: score is inf")
    assert shows("a...c", "a\nb\nc")
    assert not shows("INVALID non-finite: ...", "PASS meets-threshold: score 0.9")
    assert not shows("exit", "exits")


def test_no_page_cites_an_outside_specification() -> None:
    # The project stands on its own: docs/contract.md states the contract.
    # ("S[P]EC", so that a grep of the tree for citations skips this line.)
    for page in PAGES:
        assert re.search(r"S[P]EC", page.read_text(encoding="utf-8")) is None, page.name


def test_every_docs_page_is_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pages = sorted((ROOT / "docs").glob("*.md"))
    assert len(pages) >= 10
    for page in pages:
        assert f"](docs/{page.name})" in readme, page.name


def _anchors(text: str) -> set[str]:
    # GitHub's heading ids: lower case, punctuation dropped, spaces to "-".
    headings = re.findall(r"^#{1,6} (.+)$", text, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def test_relative_links_resolve() -> None:
    checked = 0
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        # Links in prose only: a fenced block is code, not a link.
        prose = re.sub(r"^ *```.*?^ *```", "", text, flags=re.MULTILINE | re.DOTALL)
        for target in re.findall(r"\]\(([^)\s]+)\)", prose):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            assert linked.exists(), f"{page.name}: {target}"
            if anchor and linked.suffix == ".md":
                assert anchor in _anchors(linked.read_text(encoding="utf-8")), f"{page.name}: {target}"
            checked += 1
    assert checked >= 20
