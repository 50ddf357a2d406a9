"""An installed citgen carries the built-in catalog: `citgen build` works from any directory.

The wheel is built the way the README's install instructions get one: pip fetches the
repository from a Git URL (a local repository holding this checkout's files, since the
tests have no network) and builds it with the project's build backend. It is built once
per test session, even when several test processes run at the same time: the first one
builds it under a lock in the directory they share, the others take that wheel.
"""

from __future__ import annotations

import email.parser
import fcntl
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

import generator
from tests.helpers import REPO, snapshot

pytestmark = pytest.mark.heavy(9)  # seconds of a worker's time: run early (conftest.py)


def _shared_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory every test process of this session sees (pytest-xdist workers share the parent)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _git_url_of_checkout(where: Path) -> str | None:
    """A Git repository holding this checkout's files as they are now (committed or not), as a URL.

    None without git: the wheel is then built from the directory, as `pip install .` does.
    """
    git = shutil.which("git")
    if git is None or not (REPO / ".git").exists():
        return None
    listed = subprocess.run([git, "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=REPO,
                            check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        if (REPO / name).is_file():
            (where / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, where / name)
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": os.devnull}
    for command in (["init", "--quiet"], ["add", "--all"], ["commit", "--quiet", "--message", "checkout"]):
        subprocess.run([git, *command], cwd=where, env=env, check=True, capture_output=True)
    return f"git+{where.as_uri()}"


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    shared = _shared_dir(tmp_path_factory) / "citgen-wheel"
    shared.mkdir(exist_ok=True)
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        found = sorted((shared / "dist").glob("kubevirt_citgen-*.whl"))
        if not found:
            source = _git_url_of_checkout(shared / "repository") or str(REPO)
            subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                            "--wheel-dir", str(shared / "dist"), source], check=True, capture_output=True)
            found = sorted((shared / "dist").glob("kubevirt_citgen-*.whl"))
    [built] = found
    return built


def test_the_wheel_holds_the_catalog_and_the_schemas(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for expected in ("generator/catalog/catalog.yaml", "generator/catalog/series/sizes.yaml",
                     "generator/catalog/series/cx.yaml", "generator/catalog/preferences/windows.yaml",
                     "generator/catalog/preferences/traits/efi.yaml",
                     "generator/catalog/templates/instancetype.yaml.j2",
                     "generator/schemas/virtualmachine_v1.json", "generator/schemas/kubevirt/v1.0.json",
                     "generator/schemas/kubevirt/v1.9.json",
                     "generator/tools/site/assets/page.html", "generator/tools/site/assets/site.js",
                     "generator/tools/site/assets/site.css"):
        assert expected in names
    assert not any(n.startswith(("generator/catalog/bundles", "tests/")) for n in names)


def test_the_wheel_carries_the_license_and_names_it(wheel):
    info = f"kubevirt_citgen-{generator.__version__}.dist-info"
    with zipfile.ZipFile(wheel) as archive:
        assert archive.read(f"{info}/licenses/LICENSE") == (REPO / "LICENSE").read_bytes()
        metadata = email.parser.Parser().parsestr(archive.read(f"{info}/METADATA").decode())
    assert metadata["Version"] == generator.__version__
    assert metadata["License-Expression"] == "Apache-2.0"
    assert metadata.get_all("License-File") == ["LICENSE"]


def test_an_installed_citgen_builds_the_same_bundles_from_any_directory(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    code = "import generator.paths, sys; print(generator.paths.builtin_catalog()); sys.exit(0)"
    where = subprocess.run([sys.executable, "-c", code], cwd=workdir, env=env, check=True,
                           capture_output=True, text=True).stdout.strip()
    assert where == str(site / "generator" / "catalog")
    subprocess.run([sys.executable, "-m", "generator.cli", "build"], cwd=workdir, env=env, check=True,
                   capture_output=True)
    for bundle in sorted((REPO / "bundles").glob("*.yaml")) + [REPO / "bundles" / "CHECKSUMS.sha256"]:
        assert (workdir / "bundles" / bundle.name).read_bytes() == bundle.read_bytes(), bundle.name


def test_the_wheel_in_a_fresh_virtual_environment_builds_the_committed_bundles(wheel, tmp_path):
    """As a user installs it: a new virtual environment outside the repository, dependencies from the index."""
    venv = tmp_path / "venv"
    # No pip of its own (seeding one takes seconds): this process's pip installs into it, and
    # resolves the dependencies from the index the same way.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
                                "--quiet", str(wheel)], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()

    def run(*command: str) -> str:
        done = subprocess.run(list(command), cwd=workdir, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout

    run(str(venv / "bin" / "citgen"), "build", "--out", "out")
    assert snapshot(workdir / "out") == snapshot(REPO / "bundles")
    catalog_version = yaml.safe_load((REPO / "catalog.yaml").read_text(encoding="utf-8"))["version"]
    version_line = f"citgen {generator.__version__} (built-in catalog {catalog_version})\n"
    assert run(str(venv / "bin" / "citgen"), "--version") == version_line
    assert run(str(venv / "bin" / "python"), "-m", "generator", "--version") == version_line
    where = run(str(venv / "bin" / "python"), "-c", "import generator; print(generator.__file__)")
    assert Path(where.strip()).is_relative_to(venv)
