"""generator/cli/init.py: ``citgen init`` as a command: what it says it wrote, its JSON data, its defaults.

tools/vendor_init.py's tests cover the files a catalog starts with and every refusal; these
pin what the command reports: a line per file written, then how to build the catalog, the
directory and the files as data, and the vendor it stamps (example.com unless given).
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner, Result

from generator.cli.init import init


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(init, [str(a) for a in args])


def vendor_of(catalog: Path) -> str:
    return yaml.safe_load((catalog / "catalog.yaml").read_text())["vendor"]


def test_the_command_says_each_file_it_wrote_and_how_to_build_the_catalog(tmp_path: Path):
    target = tmp_path / "acme"
    result = run(target, "--vendor", "acme.io")
    assert (result.exit_code, result.output) == (0, (
        f"wrote {target / 'catalog.yaml'}\nwrote {target / 'overlay.yaml'}\n"
        f"build it with: citgen build --catalog {target}\n"))
    assert vendor_of(target) == "acme.io"


def test_the_vendor_is_example_com_unless_given(tmp_path: Path):
    assert run(tmp_path / "c").exit_code == 0
    assert vendor_of(tmp_path / "c") == "example.com"


def test_of_two_vendors_given_the_last_counts(tmp_path: Path):
    assert run(tmp_path / "c", "--vendor", "first.io", "--vendor", "second.io").exit_code == 0
    assert vendor_of(tmp_path / "c") == "second.io"


def test_json_names_the_directory_and_the_files_and_repeats_the_lines(tmp_path: Path):
    target = tmp_path / "c"
    report = json.loads(run(target, "--format", "json").output)
    files = [str(target / "catalog.yaml"), str(target / "overlay.yaml")]
    assert (report["command"], report["exitCode"], report["ok"]) == ("init", 0, True)
    assert (report["directory"], report["files"]) == (str(target), files)
    assert report["outputs"] == [f"wrote {files[0]}", f"wrote {files[1]}",
                                 f"build it with: citgen build --catalog {target}"]
    assert report["problems"] == [] and report["counts"] == {}


def test_a_second_init_into_the_same_directory_is_refused_and_keeps_the_first(tmp_path: Path):
    target = tmp_path / "c"
    assert run(target, "--vendor", "first.io").exit_code == 0
    again = run(target, "--vendor", "second.io")
    assert (again.exit_code, again.output) == (2, (
        f"{target}: error: refusing to initialise a directory that is not empty; choose a new or empty directory "
        "[input]\n"))
    assert vendor_of(target) == "first.io"


def test_a_directory_whose_parent_is_missing_is_refused_with_exit_code_2(tmp_path: Path):
    result = run(tmp_path / "no" / "c")
    assert (result.exit_code, result.output) == (2, (
        f"{tmp_path / 'no' / 'c'}: error: cannot create the catalog: {tmp_path / 'no'} does not exist; "
        "create it first [input]\n"))
    assert not (tmp_path / "no").exists()
