"""The pre-commit hooks of .pre-commit-hooks.yaml, run by the real pre-commit in a vendor's repository.

The repository under test is made as a vendor makes one: `citgen init`, a build, the
README tables, a commit, and a .pre-commit-config.yaml naming this project's
repository at a revision. pre-commit installs citgen from that revision into its own
environment (once for the module, in a private PRE_COMMIT_HOME) and runs the hooks.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO

pytestmark = pytest.mark.heavy(14)  # seconds of a worker's time: run early (conftest.py)

HOOKS = ("citgen-build-check", "citgen-readme-check", "citgen-validate")
README = "# Example catalog\n" + "".join(f"\n<!-- BEGIN citgen readme: {table} -->\n<!-- END citgen readme: {table} -->\n"
                                         for table in ("series", "instancetypes", "preferences"))


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None, check: bool = True):
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise AssertionError(f"{args} failed with {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


def git(cwd: Path, *args: str) -> str:
    return run(["git", "-c", "user.name=test", "-c", "user.email=test@example.com", *args], cwd).stdout.strip()


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """This project as pre-commit fetches it: a git repository holding the working tree, and its revision."""
    snapshot = tmp_path_factory.mktemp("citgen-repo")
    listed = run(["git", "ls-files", "-co", "--exclude-standard", "-z"], REPO).stdout.split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            target = snapshot / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    git(snapshot, "init", "-q")
    git(snapshot, "add", "-A")
    git(snapshot, "commit", "-q", "-m", "snapshot")
    return snapshot, git(snapshot, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def environment(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("pre-commit-home")
    return {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never", "LC_ALL": "C.UTF-8"}


@pytest.fixture(scope="module")
def committed_catalog(tmp_path_factory: pytest.TempPathFactory, project: tuple[Path, str]) -> Path:
    """A vendor's catalog repository, outputs built and committed, configured to use the hooks. Read only."""
    citgen = [sys.executable, "-m", "generator.cli"]
    repo = tmp_path_factory.mktemp("vendor") / "catalog"
    run([*citgen, "init", str(repo), "--vendor", "example.com"], repo.parent)
    (repo / "README.md").write_text(README)
    run([*citgen, "build", "--catalog", ".", "--out", "bundles"], repo)
    run([*citgen, "readme", "--catalog", "."], repo)
    url, rev = project
    hooks = "".join(f"      - id: {hook}\n" for hook in HOOKS)
    (repo / ".pre-commit-config.yaml").write_text(f"repos:\n  - repo: {url}\n    rev: {rev}\n    hooks:\n{hooks}")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "catalog")
    return repo


@pytest.fixture
def catalog_repo(tmp_path: Path, committed_catalog: Path) -> Path:
    """This test's own copy of that repository (its .git included), to change and commit in."""
    repo = tmp_path / "catalog"
    shutil.copytree(committed_catalog, repo, symlinks=True)
    return repo


def pre_commit(repo: Path, env: dict[str, str], *args: str):
    return run([sys.executable, "-m", "pre_commit", "run", *args], repo, env, check=False)


def test_a_clean_change_passes_every_hook(catalog_repo: Path, environment):
    done = pre_commit(catalog_repo, environment, "--all-files")
    assert done.returncode == 0, done.stdout + done.stderr
    for name in ("citgen outputs are fresh", "citgen README tables are fresh", "citgen validate bundles"):
        assert any(line.startswith(name) and line.endswith("Passed") for line in done.stdout.splitlines()), done.stdout


def test_a_catalog_change_without_a_rebuild_fails_with_citgens_message(catalog_repo: Path, environment):
    overlay = catalog_repo / "overlay.yaml"
    overlay.write_text(overlay.read_text() + "series:\n  drop: [rt]\n")
    git(catalog_repo, "add", "overlay.yaml")
    done = pre_commit(catalog_repo, environment, "citgen-build-check")
    assert done.returncode == 1
    assert "bundles is out of date: " in done.stdout
    assert "  stale:   common-clusterinstancetypes-bundle.yaml (0 added, 8 removed, 0 changed)" in done.stdout
    readme = pre_commit(catalog_repo, environment, "citgen-readme-check")
    assert readme.returncode == 1
    assert "README.md is out of date: run `citgen readme`" in readme.stdout


def test_a_broken_bundle_fails_validation_at_its_line(catalog_repo: Path, environment):
    bundle = catalog_repo / "bundles" / "common-clusterinstancetypes-bundle.yaml"
    bundle.write_text(bundle.read_text().replace("guest: 1\n", "guest: one\n", 1))
    git(catalog_repo, "add", "-A")
    done = pre_commit(catalog_repo, environment, "citgen-validate")
    assert done.returncode == 1
    assert ("bundles/common-clusterinstancetypes-bundle.yaml#8 (cx1.medium) $.spec.cpu.guest: expected integer, "
            "got string 'one' [schema]\n1 problem in 1 of 65 documents\n") in done.stdout
