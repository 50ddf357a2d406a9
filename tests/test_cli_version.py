"""generator/cli/version.py: ``citgen --version``, the package's version and the built-in catalog's.

The line reads the catalog the package finds (paths.builtin_catalog), so a catalog
of another version shows that version; the flag is the group's and eager, so it
answers before a subcommand runs, while a subcommand's own ``--version`` is that
subcommand's option. An installation without its catalog says so, with exit code 2.
"""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import generator
from generator.cli import main
from generator.cli.version import version_line, version_option
from generator.errors import InputError
from generator.problems import Location, Problem
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
        "citgen: error: the built-in catalog is missing from /x/generator; reinstall citgen [input]",
        f"citgen {generator.__version__}: the built-in catalog cannot be read; reinstall citgen",
    ])


@pytest.mark.parametrize("args", [["--version"], ["--version", "--version"]])
def test_the_flag_given_twice_prints_one_line(args: list[str]):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0 and result.output.count("\n") == 1
    assert result.output.startswith(f"citgen {generator.__version__} (built-in catalog ")


def tiny() -> click.Command:
    """A command of its own with the flag, made in the test: the flag as any command would take it."""

    @click.command()
    @version_option()
    @click.option("--count", type=int)
    def counting(count: int | None) -> None:
        click.echo(f"ran with {count}")

    return counting


def test_the_flag_is_explained_in_the_help() -> None:
    command = tiny()
    assert command.params[0].get_help_record(click.Context(command)) == (
        "--version", "Show citgen's version and the built-in catalog's version, and exit.")


def test_the_flag_answers_before_the_other_options_are_read_and_the_command_never_runs() -> None:
    result = CliRunner().invoke(tiny(), ["--count", "many", "--version"])
    assert (result.exit_code, result.stdout, result.stderr) == (0, version_line() + "\n", "")


def test_without_the_flag_the_command_runs_and_is_not_given_it() -> None:
    result = CliRunner().invoke(tiny(), ["--count", "3"])
    assert (result.exit_code, result.output) == (0, "ran with 3\n")


def test_the_flag_returns_exit_code_zero_to_a_program_that_runs_the_command_itself() -> None:
    result = CliRunner().invoke(tiny(), ["--version"], standalone_mode=False)
    assert (result.exit_code, result.return_value) == (0, 0)


def test_a_broken_built_in_catalog_is_each_of_its_problems_on_standard_error(monkeypatch) -> None:
    def broken(_root: Path) -> None:
        raise InputError([Problem(Location("catalog.yaml", 3), "expected a version"),
                          Problem(Location("series/u.yaml"), "no sizes")])

    monkeypatch.setattr("generator.load.catalog.load_catalog", broken)
    result = CliRunner().invoke(tiny(), ["--version"])
    assert (result.exit_code, result.stdout, result.stderr.splitlines()) == (2, "", [
        "catalog.yaml:3: error: expected a version [input]",
        "series/u.yaml: error: no sizes [input]",
        f"citgen {generator.__version__}: the built-in catalog cannot be read; reinstall citgen",
    ])
