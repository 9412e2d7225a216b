# SPDX-License-Identifier: MIT
"""The built sdist and wheel: the licence, py.typed, every module, no tests;
and the wheel installs into a clean venv with no index and runs.

Building needs the flit_core backend from PyPI, so the suite does not build:
``.ci/run`` runs ``python -m build`` in a dev-only venv and then this file
with ``SCORECONTRACT_DIST`` naming the output folder, and fails if these
tests were skipped.  Without that variable they skip, which keeps
``python -m pytest`` fast and offline.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import scorecontract
from support import FIXTURES, ROOT, SRC

DIST = os.environ.get("SCORECONTRACT_DIST")
pytestmark = pytest.mark.skipif(
    not DIST, reason="SCORECONTRACT_DIST is not set (.ci/run builds the archives and sets it)"
)

PACKAGE = SRC / "scorecontract"
VERSION = scorecontract.__version__
# Paths below the package, subpackages included (_cli/ holds the command line).
MODULES = sorted(
    p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*") if p.suffix == ".py" or p.name == "py.typed"
)


def only(pattern):
    found = sorted(Path(DIST).glob(pattern))
    if len(found) != 1:
        raise AssertionError(f"expected one {pattern} in {DIST}, found {found}")
    return found[0]


def looks_like_a_test(name):
    parts = name.split("/")
    return any(p in ("tests", "test", "fixtures", "conftest.py") or p.startswith("test_") for p in parts)


def test_sdist_holds_the_package_licence_and_no_tests():
    sdist = only(f"scorecontract-{VERSION}.tar.gz")
    prefix = f"scorecontract-{VERSION}/"
    with tarfile.open(sdist) as archive:
        names = [n[len(prefix) :] for n in archive.getnames() if n.startswith(prefix)]
        pyproject = archive.extractfile(prefix + "pyproject.toml").read()
        license_text = archive.extractfile(prefix + "LICENSE").read()
    assert {"LICENSE", "README.md", "pyproject.toml", "PKG-INFO"} <= set(names)
    assert (
        sorted(
            n[len("src/scorecontract/") :]
            for n in names
            if n.startswith("src/scorecontract/") and not n.endswith("/") and "/__pycache__/" not in n
        )
        == MODULES
    )
    assert [n for n in names if looks_like_a_test(n)] == []
    assert pyproject == (ROOT / "pyproject.toml").read_bytes()
    assert license_text == (ROOT / "LICENSE").read_bytes()


def test_wheel_holds_the_package_licence_py_typed_and_no_tests():
    wheel = only(f"scorecontract-{VERSION}-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        modules = {
            n[len("scorecontract/") :]: archive.read(n)
            for n in names
            if n.startswith("scorecontract/") and not n.endswith("/")
        }
        info = f"scorecontract-{VERSION}.dist-info/"
        metadata = archive.read(info + "METADATA").decode("utf-8")
        entry_points = archive.read(info + "entry_points.txt").decode("utf-8")
        licences = [archive.read(n) for n in names if n.startswith(info) and n.endswith("/LICENSE")]
    assert sorted(modules) == MODULES
    for name, data in modules.items():
        assert data == (PACKAGE / name).read_bytes(), name
    assert modules["py.typed"] == b""
    assert licences == [(ROOT / "LICENSE").read_bytes()]
    assert [n for n in names if looks_like_a_test(n)] == []
    assert f"\nVersion: {VERSION}\n" in metadata
    # No runtime dependency: the only Requires-Dist is the test extra's.
    requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    assert all("extra ==" in line for line in requires), requires
    scripts = entry_points.split("[console_scripts]", 1)[1].split("\n[", 1)[0]
    assert [line.replace(" ", "") for line in scripts.split("\n") if line.strip()] == [
        "scorecontract=scorecontract._cli:main"
    ]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A fresh venv with only the wheel, installed with no index at all."""
    folder = tmp_path_factory.mktemp("installed")
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    # No index, no find-links, no pip configuration: a dependency would
    # have nowhere to come from, so the install proves there is none.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON"))}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    wheel = only(f"scorecontract-{VERSION}-py3-none-any.whl")
    result = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--no-index", str(wheel)],
        capture_output=True,
        env=env,
        timeout=300,
    )
    if result.returncode != 0:
        raise AssertionError(result.stdout.decode() + result.stderr.decode())
    return bin_dir, env, folder


def test_installed_command_prints_the_version(installed):
    bin_dir, env, cwd = installed
    result = subprocess.run(
        [str(bin_dir / "scorecontract"), "--version"], capture_output=True, env=env, cwd=cwd, timeout=120
    )
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.decode().strip() == f"scorecontract {VERSION}"


def test_installed_command_decides(installed):
    bin_dir, env, cwd = installed
    invalid = subprocess.run(
        [str(bin_dir / "scorecontract"), "check", str(FIXTURES / "nan.json")],
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )
    passing = subprocess.run(
        [str(bin_dir / "scorecontract"), "check", str(FIXTURES / "pass-0.9.json")],
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )
    assert (invalid.returncode, passing.returncode) == (3, 0)
    assert invalid.stdout.startswith(b"INVALID non-standard-constant: ")


def test_installed_package_is_the_wheels_and_typed(installed):
    bin_dir, env, cwd = installed
    probe = (
        "import os, scorecontract; d = os.path.dirname(scorecontract.__file__); "
        "print(d); print(os.path.isfile(os.path.join(d, 'py.typed')))"
    )
    result = subprocess.run([str(bin_dir / "python"), "-c", probe], capture_output=True, env=env, cwd=cwd, timeout=120)
    assert result.returncode == 0, result.stderr.decode()
    folder, typed = result.stdout.decode().split()
    assert "site-packages" in folder and not folder.startswith(str(SRC))
    assert typed == "True"
