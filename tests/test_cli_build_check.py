"""`citgen build --check` and `citgen readme --check`: is what is committed what a build makes now?

Each runs in this process (click's runner) from a folder of its own: the paths named are not read
relative to the checkout.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from helpers import REPO, builtin_name, copy_catalog, default_build

pytestmark = pytest.mark.heavy(4)  # seconds of a worker's time: run early (conftest.py)

ALL = "common-instancetypes-all-bundle.yaml"


def citgen(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``citgen ARGS`` run in this process (click's runner) from the folder ``cwd``, as a process would end."""
    here = os.getcwd()
    os.chdir(cwd)
    try:
        run = CliRunner().invoke(main, list(args))
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(args, run.exit_code, run.stdout, run.stderr)


@pytest.fixture
def committed(tmp_path: Path) -> Path:
    """A copy of the committed bundles, to change without touching the checkout."""
    shutil.copytree(REPO / "bundles", tmp_path / "bundles")
    return tmp_path / "bundles"


def test_the_committed_bundles_pass_from_any_directory(tmp_path: Path):
    done = citgen("build", "--check", "--out", str(REPO / "bundles"), cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == f"{builtin_name()}: {REPO / 'bundles'} is up to date (111 files)\n"


def test_stale_missing_and_extra_files_exit_1_and_nothing_is_written(tmp_path: Path, committed: Path):
    bundle = committed / "common-clusterpreferences-bundle.yaml"
    bundle.write_text(bundle.read_text().replace("preferredDiskBus: virtio", "preferredDiskBus: sata", 1))
    (committed / "common-preferences-bundle.yaml").unlink()
    (committed / "stray.yaml").write_text("{}\n")
    before = {p: p.read_bytes() for p in committed.rglob("*") if p.is_file()}
    done = citgen("build", "--check", "--out", str(committed), cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == (
        f"{builtin_name()}: {committed} is out of date: 1 stale, 1 missing, 1 extra\n"
        "  stale:   common-clusterpreferences-bundle.yaml (0 added, 0 removed, 1 changed)\n"
        "  missing: common-preferences-bundle.yaml\n"
        "  extra:   stray.yaml\n"
        "run `citgen build` with the same options to update it\n")
    assert {p: p.read_bytes() for p in committed.rglob("*") if p.is_file()} == before
    assert not any(p.name.startswith(".") for p in tmp_path.iterdir())  # no lock file, no staging directory


def test_the_options_of_the_build_are_the_options_of_the_check(tmp_path: Path, committed: Path):
    done = citgen("build", "--check", "--out", str(committed), "--version", "v9.9.9", cwd=tmp_path)
    assert done.returncode == 1
    assert f"  stale:   {ALL} (0 added, 0 removed, 244 changed)\n" in done.stdout


def test_json_lists_the_files(tmp_path: Path, committed: Path):
    bundle = committed / "common-clusterpreferences-bundle.yaml"
    bundle.write_text(bundle.read_text().replace("preferredDiskBus: virtio", "preferredDiskBus: sata", 1))
    (committed / "CHECKSUMS.sha256").write_text("\n")
    (committed / "common-preferences-bundle.yaml").unlink()
    (committed / "stray.yaml").write_text("{}\n")
    report = json.loads(citgen("build", "--check", "--out", str(committed), "--format", "json", cwd=tmp_path).stdout)
    stale = ["CHECKSUMS.sha256", "common-clusterpreferences-bundle.yaml"]
    assert {key: value for key, value in report.items() if key != "outputs"} == {
        "command": "build", "ok": False, "exitCode": 1, "problems": [], "newerRuleFindings": [], "warnings": [],
        "notes": [], "counts": {"extra": 1, "files": 111, "missing": 1, "stale": 2},
        "out": str(committed), "catalog": {"path": None, "builtIn": True, "version": default_build().version},
        "upToDate": False, "stale": stale, "missing": ["common-preferences-bundle.yaml"],
        "extra": ["stray.yaml"],
        "summaries": {"common-clusterpreferences-bundle.yaml": "0 added, 0 removed, 1 changed"}}


def test_an_input_error_exits_2(tmp_path: Path, committed: Path):
    done = citgen("build", "--check", "--out", str(committed), "--gpu-device", "amd.com/gpu", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("--gpu-device: error: ")
    refused = citgen("build", "--check", "--out", str(committed), "--version", "not a version!", cwd=tmp_path)
    assert (refused.returncode, refused.stdout, refused.stderr) == (2, "", (
        "--version: error: 'not a version!' is not a valid label value: a valid label must be an empty string or "
        "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
        "character; it is stamped as the label instancetype.kubevirt.io/common-instancetypes-version [input]\n"
        "citgen: 1 problem, nothing written\n"))
    missing = citgen("build", "--check", "--out", str(tmp_path / "nowhere"), cwd=tmp_path)
    assert missing.returncode == 2
    assert missing.stderr.startswith(f"{tmp_path / 'nowhere'}: error: the output directory does not exist; ")


def test_a_catalog_whose_build_fails_validation_is_refused_as_a_build_is(tmp_path: Path):
    catalog = copy_catalog(tmp_path / "catalog")
    template = catalog / "templates" / "preference.yaml.j2"
    template.write_text(template.read_text() + "  annotationz: {}\n")
    done = citgen("build", "--check", "--catalog", str(catalog), "--out", str(REPO / "bundles"), cwd=tmp_path)
    lines = done.stderr.splitlines()
    assert (done.returncode, done.stdout, len(lines)) == (2, "", 115)
    assert lines[-1] == "citgen: 114 problems, nothing written"
    # the build is checked before it is written: no line to point at, so the document's number
    assert lines[0] == ("common-instancetypes-all-bundle.yaml: error: VirtualMachineClusterPreference alpine "
                        "(document 65) $.spec.annotationz: unknown field 'annotationz'; did you mean 'annotations'? "
                        "(defined in preferences/alpine.yaml:9) [schema]")


def test_readme_check_names_the_catalogs_readme_from_any_directory(tmp_path: Path):
    done = citgen("readme", "--check", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, f"{builtin_name()}: {REPO / 'README.md'} is up to date\n")


def test_readme_check_of_a_stale_readme_exits_1_naming_it(tmp_path: Path):
    catalog = tmp_path / "catalog"
    assert citgen("init", str(catalog), cwd=tmp_path).returncode == 0
    (catalog / "README.md").write_text("".join(f"<!-- BEGIN citgen readme: {table} -->\n<!-- END citgen readme: {table} -->\n"
                                               for table in ("series", "instancetypes", "preferences")))
    done = citgen("readme", "--check", "--catalog", str(catalog), cwd=tmp_path)
    assert (done.returncode, done.stderr) == (
        1, f"catalog {catalog}/ v0.1.0-dev: {catalog / 'README.md'} is out of date: run `citgen readme`\n")


def test_readme_of_a_catalog_without_one_says_where_it_looked(tmp_path: Path):
    catalog = tmp_path / "catalog"
    assert citgen("init", str(catalog), cwd=tmp_path).returncode == 0
    done = citgen("readme", "--check", "--catalog", str(catalog), cwd=tmp_path)
    assert (done.returncode, done.stderr) == (2, (
        f"{catalog / 'README.md'}: error: the catalog has no README.md for the tables; create one holding the "
        "table markers (`citgen readme --help` shows them), or name another file with --file [input]\n"
        "citgen: 1 problem\n"))
