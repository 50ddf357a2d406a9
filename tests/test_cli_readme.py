"""generator/cli/readme.py: ``citgen readme``, which file it writes the tables into and what it reports.

outputs/readme.py makes the tables and places them between the markers; this command picks
the file (the catalog's README.md unless --file names one), refuses a README that is missing
or a symbolic link, leaves the file alone under --check (exit 1 when it is stale), writes it
back with the line ends it had, and says which of updated, up to date or out of date it is.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from generator.cli.readme import readme
from tests.helpers import builtin_name, copy_catalog, default_build

MARKERS = "".join(f"<!-- BEGIN citgen readme: {name} -->\n<!-- END citgen readme: {name} -->\n"
                  for name in ("series", "instancetypes", "preferences"))


@pytest.fixture(autouse=True)
def outside_any_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from a folder in no catalog, so that the built-in catalog is the one tabulated (paths.py)."""
    monkeypatch.chdir(tmp_path)


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(readme, [str(a) for a in args])


def stale(path: Path) -> Path:
    """A README holding the three tables' markers and no table."""
    path.write_text(MARKERS)
    return path


def test_a_stale_file_is_updated_and_then_up_to_date(tmp_path: Path):
    target = stale(tmp_path / "README.md")
    first = run("--file", target)
    assert (first.exit_code, first.output) == (0, f"{builtin_name()}: updated the tables in {target}\n")
    assert "| `u1.nano` | 1 | 512Mi |" in target.read_text()
    written = target.read_bytes()
    second = run("--file", target)
    assert (second.exit_code, second.output) == (0, f"{builtin_name()}: {target} is up to date\n")
    assert target.read_bytes() == written


def test_check_leaves_a_stale_file_alone_and_exits_1(tmp_path: Path):
    target = stale(tmp_path / "README.md")
    result = run("--file", target, "--check")
    assert (result.exit_code, result.output) == (1, f"{builtin_name()}: {target} is out of date: run `citgen readme`\n")
    assert target.read_text() == MARKERS


def test_check_of_a_fresh_file_exits_0(tmp_path: Path):
    target = stale(tmp_path / "README.md")
    assert run("--file", target).exit_code == 0
    result = run("--file", target, "--check")
    assert (result.exit_code, result.output) == (0, f"{builtin_name()}: {target} is up to date\n")


def test_json_says_whether_the_file_was_up_to_date_and_whether_it_was_updated(tmp_path: Path):
    target = stale(tmp_path / "README.md")

    def data(*args: str) -> tuple[int, str, bool, bool]:
        report = json.loads(run("--file", target, "--format", "json", *args).output)
        return report["exitCode"], report["file"], report["upToDate"], report["updated"]

    assert data("--check") == (1, str(target), False, False)
    assert data() == (0, str(target), False, True)
    assert data() == (0, str(target), True, False)
    assert data("--check") == (0, str(target), True, False)


def test_a_file_written_with_crlf_keeps_its_line_ends(tmp_path: Path):
    target = tmp_path / "README.md"
    target.write_bytes(MARKERS.replace("\n", "\r\n").encode())
    assert run("--file", target).exit_code == 0
    written = target.read_bytes()
    assert written.count(b"\n") == written.count(b"\r\n") > 6


def test_without_file_the_catalog_s_own_readme_is_the_one(tmp_path: Path):
    catalog = copy_catalog(tmp_path / "catalog")
    stale(catalog / "README.md")
    result = run("--catalog", catalog)
    assert (result.exit_code, result.output) == (
        0, f"catalog {catalog}/ {default_build().version}: updated the tables in {catalog / 'README.md'}\n")


def test_without_catalog_the_readme_of_the_catalog_the_working_directory_is_in_is_the_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    catalog = copy_catalog(tmp_path / "catalog")
    stale(catalog / "README.md")
    (catalog / "docs").mkdir()
    monkeypatch.chdir(catalog / "docs")
    result = run()
    assert (result.exit_code, result.output) == (
        0, f"catalog ../ {default_build().version}: updated the tables in ../README.md\n")


def test_a_catalog_without_a_readme_is_told_how_to_make_one(tmp_path: Path):
    catalog = copy_catalog(tmp_path / "catalog")
    result = run("--catalog", catalog)
    assert (result.exit_code, result.output) == (2, (
        f"{catalog / 'README.md'}: error: the catalog has no README.md for the tables; create one holding the table "
        "markers (`citgen readme --help` shows them), or name another file with --file [input]\ncitgen: 1 problem\n"))


def test_a_readme_that_is_a_link_is_refused_and_its_target_left_alone(tmp_path: Path):
    catalog = copy_catalog(tmp_path / "catalog")
    elsewhere = stale(tmp_path / "elsewhere.md")
    os.symlink(elsewhere, catalog / "README.md")
    result = run("--catalog", catalog)
    assert (result.exit_code, result.output) == (2, (
        f"{catalog / 'README.md'}: error: is a symbolic link; citgen replaces the README it writes the tables into "
        "and never writes through a link: name the file itself with --file [input]\ncitgen: 1 problem\n"))
    assert elsewhere.read_text() == MARKERS
    assert run("--file", catalog / "README.md").exit_code == 2


def test_a_file_given_wins_over_the_catalog_s_readme(tmp_path: Path):
    catalog = copy_catalog(tmp_path / "catalog")
    stale(catalog / "README.md")
    other = stale(tmp_path / "other.md")
    assert run("--catalog", catalog, "--file", other).output == (
        f"catalog {catalog}/ {default_build().version}: updated the tables in {other}\n")
    assert (catalog / "README.md").read_text() == MARKERS


def test_kubevirt_tabulates_what_a_build_for_that_release_holds(tmp_path: Path):
    newest, older = stale(tmp_path / "newest.md"), stale(tmp_path / "older.md")
    assert run("--file", newest).exit_code == 0 and run("--file", older, "--kubevirt", "v1.8").exit_code == 0
    gone = set(newest.read_text().splitlines()) - set(older.read_text().splitlines())
    assert sorted(line.split("`")[1] for line in gone) == [
        "fedora.s390x.secex", "rhel.10.s390x.secex", "rhel.9.s390x.secex"]
