"""generator/cli/osinfo.py: ``citgen osinfo`` as a command: what it needs, what it refuses, how it reports.

The answers themselves are offer.py's (tests/test_tools_osinfo_offer.py, and
tests/test_tools_osinfo_catalog.py for the built-in catalog with Debian's database);
these pin the command around them, with Debian's database in ../shared.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from generator.cli import main
from tests.conftest import SHARED, shared_file
from tests.osinfodb import database

DEBIAN = SHARED / "reference" / "osinfo-db"


def run(*args: str | Path, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, ["osinfo", *(str(a) for a in args)], env=env)


@pytest.fixture
def debian(debian_osinfo_read_once: Path) -> Path:
    """Debian's database, which the commands of this module's tests read once (conftest.py)."""
    return debian_osinfo_read_once


def test_without_a_database_the_command_refuses_naming_where_it_looked(tmp_path: Path):
    if Path("/etc/osinfo").exists():
        pytest.skip("this machine has /etc/osinfo, which libosinfo reads")
    result = run("rhel9.1", env={"OSINFO_SYSTEM_DIR": str(tmp_path / "none"), "HOME": str(tmp_path)})
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"--osinfo-db: error: no libosinfo database found, and this command cannot answer without one; looked in "
        f"{tmp_path / 'none'} (OSINFO_SYSTEM_DIR), /etc/osinfo, {tmp_path / '.config' / 'osinfo'} "
        "(~/.config/osinfo); install osinfo-db (Debian, Fedora: the package osinfo-db) or name its folder with "
        "--osinfo-db [input]\ncitgen: 1 problem\n")


def test_every_usage_mistake_is_named_at_once_with_an_unusable_catalog(tmp_path: Path, debian: Path):
    result = run("--table", "vsphere", "--catalog", tmp_path / "missing", "--osinfo-db", debian)
    assert result.exit_code == 2
    assert set(result.stderr.splitlines()) == {
        "--table: error: writes the map of every OS; give --all too [input]",
        "citgen: error: name the short-ids to look up (such as rhel9.2 or win2k19), or give --all [input]",
        f"{tmp_path / 'missing'}: error: not a catalog directory: catalog.yaml is missing [input]",
        "citgen: 3 problems"}
    assert run("rhel9.1", "--all", "--osinfo-db", debian).stderr.startswith(
        "--all: error: answers for every OS of the database; give short-ids or --all, not both [input]\n")


def test_an_id_neither_the_database_nor_the_catalog_knows_is_a_finding_with_the_nearest_ids(debian: Path):
    result = run("win2k91", "--osinfo-db", debian)
    assert result.exit_code == 1
    finding = result.stdout.splitlines()[0]
    assert finding.startswith("win2k91: error: libosinfo's database 20221203 has no OS of this short-id, and no "
                              "preference of the catalog claims it or a line or distribution it is named after "
                              "(did you mean win2k12, win2k16, win2k19?)")
    assert finding.endswith(" [uncovered-os]")
    assert result.stdout.splitlines()[-1] == (f"built-in catalog v1.8.0-dev with osinfo-db 20221203 ({debian}): 0 of "
                                              "1 short-id covered")


def test_an_os_the_database_knows_and_no_preference_covers_is_a_finding_naming_it(debian: Path):
    result = run("freebsd13.0", "--osinfo-db", debian)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        "freebsd13.0: error: no preference of the catalog is for FreeBSD 13.0 (family freebsd, distro freebsd): none "
        "claims it, its line, its distribution or its family [uncovered-os]")


def test_the_json_report_names_the_catalog_the_database_and_each_answer(debian: Path):
    report = json.loads(run("freebsd13.0", "rhel9.1", "--osinfo-db", debian, "--format", "json").stdout)
    assert report["osinfo"] == {"path": str(debian), "version": "20221203"}
    assert report["catalog"]["builtIn"] is True
    assert report["offers"][0] == {"shortId": "freebsd13.0", "preference": None, "reason": None, "why": None,
                                   "also": [], "os": {"id": "http://freebsd.org/freebsd/13.0", "name": "FreeBSD 13.0",
                                                      "family": "freebsd", "distro": "freebsd", "version": "13.0"}}
    assert {key: report["offers"][1][key] for key in ("shortId", "preference", "reason", "also")} == {
        "shortId": "rhel9.1", "preference": "rhel.9", "reason": "line",
        "also": ["rhel.9.desktop", "rhel.9.dpdk", "rhel.9.realtime"]}
    assert (report["exitCode"], report["counts"]) == (1, {"shortIds": 2, "covered": 1})


def test_a_guest_os_table_is_a_configmap_alone_on_standard_output(debian: Path):
    result = run("--all", "--table", "ovirt", "--namespace", "openshift-mtv", "--osinfo-db", debian)
    assert result.exit_code == 0, result.output
    document = yaml.safe_load(result.stdout)
    assert document["kind"] == "ConfigMap"
    assert document["metadata"] == {"name": "forklift-ovirt-osmap", "namespace": "openshift-mtv"}
    assert result.stdout.startswith("---\n# generated by citgen osinfo --all --table ovirt from the built-in catalog ")
    assert result.stderr.splitlines()[-1].startswith("built-in catalog v1.8.0-dev with osinfo-db 20221203")


@pytest.mark.parametrize("namespace", ["Bad_NS", "a" * 64, "-mtv", "openshift.mtv", ""])
def test_a_namespace_the_api_server_refuses_is_refused_before_the_table_is_made(debian: Path, namespace: str):
    result = run("--all", "--table", "ovirt", "--namespace", namespace, "--osinfo-db", debian)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(f"--namespace: error: {namespace!r} is not a valid namespace name: ")


def windows(path: Path, short_ids: tuple[str, ...]) -> str:
    """An OS file of a Windows release known by ``short_ids``: the catalog's windows.* preferences claim the last."""
    ids = "".join(f"<short-id>{short_id}</short-id>" for short_id in short_ids)
    return (f'<libosinfo version="0.0.1"><os id="http://example.org/{path}">{ids}<name>{short_ids[0]}</name>'
            "<family>winnt</family><distro>win</distro></os></libosinfo>")


def test_an_id_that_cannot_key_a_configmap_is_left_out_of_the_table_saying_why(tmp_path: Path):
    """A database's short-id becomes a key of the osinfo table: one the API server refuses as a key is left out."""
    db = database(tmp_path / "db", {"a.xml": windows("a", ("bad+id", "win2k19")),
                                    "b.xml": windows("b", ("..up", "win2k16")),
                                    "c.xml": windows("c", ("fine-one", "win2k22"))})
    result = run("--all", "--table", "osinfo", "--osinfo-db", db)
    assert result.exit_code == 0, result.output
    assert yaml.safe_load(result.stdout)["data"] == {"fine-one": "windows.2k22.virtio"}
    assert result.stderr.splitlines()[:2] == [
        "..up: left out: '..up' is not a valid ConfigMap key: must not start with '..': the API server refuses it as "
        "a key of the ConfigMap",
        "bad+id: left out: 'bad+id' is not a valid ConfigMap key: a valid config key must consist of alphanumeric "
        "characters, '-', '_' or '.': the API server refuses it as a key of the ConfigMap"]


def test_a_table_larger_than_a_configmap_may_be_is_refused(debian: Path, monkeypatch):
    """The API server takes 1 MiB of data in one ConfigMap; the bound stands in for a database ten times Debian's."""
    from generator.tools.osinfo import show

    monkeypatch.setattr(show, "CONFIGMAP_DATA_MAX", 1000)
    result = run("--all", "--table", "osinfo", "--osinfo-db", debian)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("--table: error: the osinfo table of 569 entries is ")
    assert "bytes of data, more than the 1000 bytes the API server accepts in one ConfigMap" in result.stderr
