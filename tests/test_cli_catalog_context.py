"""The catalog a command works on is the one the user is in (paths.py), and every summary names it.

As ruff, yamllint and pre-commit find their configuration, a command run in a catalog's
folder or below it (catalog.yaml there or in a parent) works on that catalog; elsewhere on
the built-in one; --catalog names one explicitly (``builtin`` the built-in one). A citgen
installed from one checkout and run in another clone of this repository builds that clone:
each case here is such a clone, a copy of the catalog in a folder of its own.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from generator.cli import main
from tests.helpers import builtin_name, copy_catalog, default_build

VERSION = default_build().version


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clone of the catalog with its committed bundles, the working directory in its docs/ folder."""
    root = copy_catalog(tmp_path / "clone")
    (root / "docs").mkdir()
    monkeypatch.chdir(root)
    assert run("build", "--out", "bundles").exit_code == 0
    monkeypatch.chdir(root / "docs")
    return root


def test_build_check_in_a_clone_reports_its_edited_series_file(clone: Path):
    """Once `bundles is up to date` after an edit: the installed package's catalog was built, and no word said so."""
    fresh = run("build", "--check")
    assert (fresh.exit_code, fresh.stdout) == (0, f"catalog ../ {VERSION}: ../bundles is up to date (111 files)\n")
    series = clone / "series" / "u.yaml"
    series.write_text(series.read_text().replace("displayName: General Purpose", "displayName: Everyday"))
    stale = run("build", "--check")
    assert stale.exit_code == 1
    assert stale.stdout.splitlines()[0] == (
        f"catalog ../ {VERSION}: ../bundles is out of date: 7 stale, 0 missing, 0 extra")
    assert "  stale:   common-instancetypes-all-bundle.yaml" in stale.stdout


def test_build_writes_the_bundles_of_the_catalog_it_is_run_in_from_any_folder_of_it(clone: Path):
    before = (clone / "bundles" / "CHECKSUMS.sha256").read_bytes()
    series = clone / "series" / "u.yaml"
    series.write_text(series.read_text().replace("displayName: General Purpose", "displayName: Everyday"))
    built = run("build")
    assert built.exit_code == 0 and built.stdout.startswith(f"catalog ../ {VERSION}: wrote 111 files to ../bundles (")
    assert (clone / "bundles" / "CHECKSUMS.sha256").read_bytes() != before
    assert not (clone / "docs" / "bundles").exists()


def test_catalog_builtin_and_a_catalog_given_are_what_they_name(clone: Path, tmp_path: Path):
    listed = run("list", "--catalog", "builtin", "--series", "u", "--cpu", "1")
    assert listed.stdout.endswith(f"\n\n{builtin_name()}: 4 instancetypes\n")
    elsewhere = run("list", "--catalog", str(clone), "--series", "u", "--cpu", "1")
    assert elsewhere.stdout.endswith(f"\n\ncatalog {clone}/ {VERSION}: 4 instancetypes\n")
    # --catalog builds where the command is run, as it always has, not into the catalog named
    assert run("build", "--catalog", str(clone)).exit_code == 0
    assert (clone / "docs" / "bundles" / "CHECKSUMS.sha256").is_file()


def test_outside_any_catalog_the_built_in_one_is_used_and_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    listed = run("list", "--format", "json", "--series", "u", "--cpu", "1")
    assert json.loads(listed.stdout)["catalog"] == {"path": None, "builtIn": True, "version": VERSION}
    built = run("build")
    assert built.stdout.startswith(f"{builtin_name()}: wrote 111 files to bundles (")


def test_a_vendor_catalog_made_by_init_in_a_new_git_repository_is_the_one_its_commands_work_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """`citgen init .` was refused in a folder `git init` had made (.git is there); a README is no obstacle either."""
    repo = tmp_path / "acme"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "README.md").write_text("# Acme's catalog\n")
    monkeypatch.chdir(repo)
    made = run("init", ".", "--vendor", "acme.example.com")
    assert (made.exit_code, made.stdout.splitlines()[-1]) == (0, "build it with: citgen build")
    listed = run("list", "--format", "json", "--series", "u", "--cpu", "1")
    found = json.loads(listed.stdout)
    assert found["catalog"] == {"path": ".", "builtIn": False, "version": "v0.1.0-dev"}
    assert {o["labels"]["instancetype.kubevirt.io/vendor"] for o in found["objects"]} == {"acme.example.com"}
    assert run("list", "--series", "u", "--cpu", "1").stdout.endswith("\n\ncatalog ./ v0.1.0-dev: 4 instancetypes\n")


def test_init_still_refuses_a_folder_holding_anything_else(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "notes.txt").write_text("mine\n")
    monkeypatch.chdir(tmp_path)
    refused = run("init", ".")
    assert refused.exit_code == 2 and "refusing to initialise a directory that is not empty" in refused.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [".git", "notes.txt"]


def test_a_broken_catalog_found_from_the_working_directory_is_reported_at_its_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "catalog.yaml").write_text("vendr: acme.example.com\n")
    monkeypatch.chdir(tmp_path)
    refused = run("list")
    assert refused.exit_code == 2 and refused.stderr.startswith("catalog.yaml:1:1: error: ")
    assert run("list", "--catalog", "builtin", "-o", "name").exit_code == 0
