"""generator/cli/version.py: ``citgen --version``, the package's version and the built-in catalog's.

The line reads the catalog the package finds (paths.builtin_catalog), so a catalog
of another version shows that version; the flag is the group's and eager, so it
answers before a subcommand runs, while a subcommand's own ``--version`` is that
subcommand's option. An installation without its catalog says so, with exit code 2.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import generator
from generator.cli import main
from generator.cli.version import version_line
from tests.helpers import copy_catalog


def catalog_of_version(root: Path, version: str) -> Path:
    """A copy of the built-in catalog whose catalog.yaml says ``version``."""
    catalog = copy_catalog(root)
    text = (catalog / "catalog.yaml").read_text()
    (catalog / "catalog.yaml").write_text(text.replace("version: v1.8.0-dev", f"version: {version}"))
    return catalog


def test_the_line_names_the_package_and_the_version_of_the_catalog_it_finds(tmp_path, monkeypatch):
    monkeypatch.setattr("generator.cli.version.builtin_catalog", lambda: catalog_of_version(tmp_path / "c", "v2.0.1"))
    assert version_line() == f"citgen {generator.__version__} (built-in catalog v2.0.1)"


def test_the_flag_prints_the_line_and_exits_zero_before_a_subcommand_runs(tmp_path, monkeypatch):
    monkeypatch.setattr("generator.cli.version.builtin_catalog", lambda: catalog_of_version(tmp_path / "c", "v7.0.0"))
    result = CliRunner().invoke(main, ["--version", "build", "--out", str(tmp_path / "out")])
    assert (result.exit_code, result.output) == (0, f"citgen {generator.__version__} (built-in catalog v7.0.0)\n")
    assert not (tmp_path / "out").exists()


def test_without_the_flag_the_catalog_is_not_read(monkeypatch):
    def unread() -> Path:
        raise AssertionError("the catalog was read")

    monkeypatch.setattr("generator.cli.version.builtin_catalog", unread)
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    shown = " ".join(result.output.split())
    assert shown.count("--version Show citgen's version and the built-in catalog's version, and exit.") == 1


def test_a_missing_built_in_catalog_is_one_error_and_exit_code_two(monkeypatch):
    def missing() -> Path:
        raise RuntimeError("the built-in catalog is missing from /x/generator; reinstall citgen")

    monkeypatch.setattr("generator.cli.version.builtin_catalog", missing)
    result = CliRunner().invoke(main, ["--version"])
    assert (result.exit_code, result.output.splitlines()) == (2, [
        "error: the built-in catalog is missing from /x/generator; reinstall citgen",
        f"citgen {generator.__version__}: the built-in catalog cannot be read; reinstall citgen",
    ])


@pytest.mark.parametrize("args", [["--version"], ["--version", "--version"]])
def test_the_flag_given_twice_prints_one_line(args: list[str]):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0 and result.output.count("\n") == 1
    assert result.output.startswith(f"citgen {generator.__version__} (built-in catalog ")
