"""generator/tools/osinfo/show.py: what citgen osinfo reports, from a small database and catalog made here."""

from __future__ import annotations

from pathlib import Path

import yaml

from generator.osinfo.model import OsinfoDatabase, OsRelease
from generator.problems import Location
from generator.tools.osinfo.offer import Candidate
from generator.tools.osinfo.show import RULE, all_result, lookup_result, table_result


def release(short_id: str, name: str, distro: str, version: str, family: str = "linux") -> OsRelease:
    return OsRelease(f"http://example.org/{short_id}", (short_id,), name, None, family, distro, version, "released",
                     (), (), (), (), frozenset(), Location(f"os/{short_id}.xml", 5, 3))


DB = OsinfoDatabase(Path("db"), "20221203", (release("freebsd13.0", "FreeBSD 13.0", "freebsd", "13.0", "freebsd"),
                                             release("rhel9.0", "RHEL 9.0", "rhel", "9.0"),
                                             release("win2k19", "Windows Server 2019", "win", "10.0", "winnt")))
CATALOG = (Candidate("rhel.9", ("rhel9.0",), "rhel9", virtio=True), Candidate("windows.2k19", ("win2k19",)),
           Candidate("windows.2k19.virtio", ("win2k19",), virtio=True))
RECORD = {"catalog": {"builtIn": True}, "osinfo": {"path": "db", "version": "20221203"}}


def test_the_answers_are_a_table_and_why_each_after_a_finding_for_each_id_not_covered():
    result = lookup_result(("rhel9.0", "freebsd13.0", "win2k19"), DB, CATALOG, arch="amd64", virtio=True,
                           named="catalog", record=RECORD)
    assert result.exit_code == 1
    (problem,) = result.problems
    assert (str(problem.location), problem.rule) == ("freebsd13.0", RULE)
    assert problem.message == ("no preference of the catalog is for FreeBSD 13.0 (family freebsd, distro freebsd): "
                               "none claims it, its line, its distribution or its family")
    assert result.outputs == (
        "SHORT-ID   PREFERENCE            REASON    ALSO",
        "rhel9.0    rhel.9                line      -",
        "win2k19    windows.2k19.virtio   release   windows.2k19",
        "rhel9.0: RHEL 9.0 (rhel9.0) is a release of the line rhel9, which rhel.9 stands for (the database 20221203 "
        "has it in the line)",
        "win2k19: windows.2k19.virtio is for Windows Server 2019 (win2k19)",
        "catalog: 2 of 3 short-ids covered")
    assert [o["preference"] for o in result.data["offers"]] == ["rhel.9", None, "windows.2k19.virtio"]


def test_an_unknown_id_is_offered_the_nearest_the_database_and_the_claims_know():
    result = lookup_result(("rhel9.o",), DB, CATALOG, arch="amd64", virtio=True, named="catalog", record=RECORD)
    assert result.problems[0].message.endswith("(did you mean rhel9.0?)")


def test_every_os_covered_is_one_row_and_the_summary_counts_them():
    result = all_result(DB, CATALOG, arch="amd64", virtio=False, named="catalog", record=RECORD)
    assert result.exit_code == 0
    assert result.product.splitlines()[1:3] == ["rhel9.0    RHEL 9.0              rhel.9         line",
                                               "win2k19    Windows Server 2019   windows.2k19   release"]
    assert result.outputs == ("catalog: 2 of 3 OS releases covered by 2 preferences",)


def test_a_table_is_the_configmap_alone_and_what_it_leaves_out_is_said_beside_it():
    result = table_result("osinfo", DB, CATALOG, arch="amd64", virtio=None, namespace="ns", named="catalog",
                          record=RECORD)
    assert result.pipeable and result.exit_code == 0
    assert yaml.safe_load(result.product)["data"] == {"rhel9.0": "rhel.9", "win2k19": "windows.2k19.virtio"}
    assert result.notes == ("catalog: 2 entries written",)
    vsphere = table_result("vsphere", DB, CATALOG, arch="amd64", virtio=None, namespace=None, named="catalog",
                           record=RECORD)
    data = yaml.safe_load(vsphere.product)["data"]
    assert data["windows2019srv_64Guest"] == "windows.2k19"  # Forklift's vSphere table: no virtio devices
    assert data["rhel9_64Guest"] == "rhel.9"
    assert "windows12_64Guest: left out: VMware's id for a Windows after 11 that was never released" in vsphere.notes
