"""The osinfo rule (issue 42): each preference judged against the OS its catalog data names.

The database here is a value built in the test (a few OsRelease records), and the
preferences small objects as in tests/test_validate_rules.py; the last tests run the
rule on the built-in catalog with Debian 12's database (../shared/reference/osinfo-db)
and through ``citgen validate`` and ``citgen build``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.model import OsinfoClaim
from generator.osinfo.claims import OsinfoContext
from generator.osinfo.discovery import NONE_FOUND
from generator.osinfo.model import Firmware, OsinfoDatabase, OsRelease, Resources
from generator.problems import Location
from generator.source.documents import BundleDoc
from generator.validate.rules import RULES, RuleContext
from tests.conftest import SHARED, shared_file
from tests.helpers import copy_catalog
from tests.test_validate_rules import CPREF, NPREF, preference, run

GiB = 1 << 30
VIRTIO_NET, VIRTIO_DISK = "http://pcisig.com/pci/1af4/1041", "http://pcisig.com/pci/1af4/1042"


def release(short_id: str, *, minimum=(1, GiB), recommended=(None, 2 * GiB), arch: str = "all",
            firmware=(), devices=(VIRTIO_NET, VIRTIO_DISK)) -> OsRelease:
    return OsRelease(id=f"http://example.org/{short_id}", short_ids=(short_id,), name=short_id, vendor=None,
                     family="linux", distro="x", version=short_id[-3:], release_status="released",
                     derives_from=(), upgrades=(),
                     resources=(Resources(arch, minimum[0], minimum[1], recommended[0], recommended[1]),),
                     firmware=tuple(firmware), devices=frozenset(devices), location=Location("x.xml", 1, 1))


DATABASE = OsinfoDatabase(Path("db"), "20240101", (
    release("os1.0"),
    release("os1.1", minimum=(2, 2 * GiB)),
    release("big1.0", minimum=(1, GiB), recommended=(4, 4 * GiB)),
    release("arm1.0", minimum=(1, 4 * GiB), arch="aarch64"),
    release("uefi1.0", firmware=[Firmware("x86_64", "bios", False), Firmware("x86_64", "efi", True)]),
    release("nosb1.0", firmware=[Firmware("x86_64", "efi", True, {"secure-boot": False})]),
    release("old1.0", devices=["http://pcisig.com/pci/8086/100e"]),
))


def claim(*short_ids: str, line: str | None = None, **accepted: str) -> OsinfoClaim:
    return OsinfoClaim(short_ids, line, {k.replace("_", "-"): v for k, v in accepted.items()},
                       Location("preferences/os.yaml", 3, 11))


def judged(claims: dict[str, OsinfoClaim], *objects: dict) -> list[str]:
    ctx = RuleContext(osinfo=OsinfoContext(DATABASE, claims))
    return run("osinfo", *objects, ctx=ctx)


def needing(name: str, cpu: int, memory: str, **spec) -> dict:
    return preference(name, requirements={"cpu": {"guest": cpu}, "memory": {"guest": memory}}, **spec)


def test_a_preference_that_meets_its_os_is_not_reported():
    assert judged({"p": claim("os1.0")}, needing("p", 1, "2Gi", devices={"preferredDiskBus": "virtio"})) == []


def test_without_a_database_or_a_claim_nothing_is_judged():
    assert run("osinfo", needing("p", 1, "1Mi")) == []
    assert judged({}, needing("p", 1, "1Mi")) == []


def test_below_the_minimum_is_an_error_naming_the_most_demanding_release_of_a_line():
    assert judged({"p": claim(line="os1", rec_memory="r")}, needing("p", 1, "1Gi")) == [
        "b.yaml#0 (p) $.spec.requirements.cpu.guest: requires 1 vCPU, fewer than the 2 os1.1 needs at least on "
        "x86_64 (osinfo database 20240101); raise it, or accept min-cpu with the reason under osinfo [osinfo]",
        "b.yaml#0 (p) $.spec.requirements.memory.guest: requires 1Gi of memory, less than the 2Gi os1.1 needs at "
        "least on x86_64 (osinfo database 20240101); raise it, or accept min-memory with the reason under osinfo "
        "[osinfo]"]


def test_below_the_recommendation_is_a_warning():
    ctx = RuleContext(osinfo=OsinfoContext(DATABASE, {"p": claim("big1.0")}))
    found = list(RULES["osinfo"].check([BundleDoc("b.yaml", 0, needing("p", 2, "2Gi"))], ctx))
    assert [(p.severity, p.message.split(";")[0]) for p in found] == [
        ("warning", "requires 2 vCPUs, fewer than the 4 big1.0 recommends on x86_64 (osinfo database 20240101)"),
        ("warning", "requires 2Gi of memory, less than the 4Gi big1.0 recommends on x86_64 (osinfo database "
                    "20240101)")]


def test_an_accepted_difference_is_not_reported():
    assert judged({"p": claim("big1.0", rec_cpu="upstream ships 2", rec_memory="upstream ships 2Gi")},
                  needing("p", 2, "2Gi")) == []


def test_the_preference_s_architecture_picks_the_resources_judged():
    arm = needing("p", 1, "2Gi", preferredArchitecture="arm64")
    assert judged({"p": claim("arm1.0")}, arm) == [
        "b.yaml#0 (p) $.spec.requirements.memory.guest: requires 2Gi of memory, less than the 4Gi arm1.0 needs at "
        "least on aarch64 (osinfo database 20240101); raise it, or accept min-memory with the reason under osinfo "
        "[osinfo]"]
    assert judged({"p": claim("arm1.0")}, needing("p", 1, "2Gi")) == []  # amd64: no block for x86_64 or all


def test_a_firmware_the_os_does_not_boot_is_an_error():
    bios = needing("p", 1, "2Gi")
    secure = needing("p", 1, "2Gi", firmware={"preferredEfi": {"secureBoot": True}})
    assert judged({"p": claim("uefi1.0")}, bios) == [
        "b.yaml#0 (p) $.spec: prefers BIOS (no preferredEfi), which uefi1.0 on x86_64 does not boot with (osinfo "
        "database 20240101); change the firmware, or accept bios with the reason under osinfo [osinfo]"]
    assert judged({"p": claim("nosb1.0")}, secure) == [
        "b.yaml#0 (p) $.spec.firmware.preferredEfi: prefers Secure Boot, which nosb1.0 on x86_64 does not boot with "
        "(osinfo database 20240101); change the firmware, or accept secure-boot with the reason under osinfo "
        "[osinfo]"]
    assert judged({"p": claim("os1.0")}, secure) == []  # the database does not say: nothing found


def test_a_virtio_device_without_its_driver_is_a_warning_and_a_kind_no_os_lists_is_not_judged():
    spec = {"devices": {"preferredDiskBus": "virtio", "preferredRng": {}}}
    assert judged({"p": claim("old1.0")}, needing("p", 1, "2Gi", **spec)) == [
        "b.yaml#0 (p) $.spec.devices.preferredDiskBus: prefers virtio disk, which the osinfo database 20240101 lists "
        "no driver for in old1.0; change the device, or accept virtio-disk with the reason under osinfo [osinfo]"]


def test_each_preference_is_judged_once_as_its_cluster_wide_kind():
    objects = [needing("p", 1, "1Gi"), needing("p", 1, "1Gi") | {"kind": NPREF}, needing("q", 1, "1Gi")]
    objects[2]["kind"] = NPREF
    found = judged({"p": claim("os1.1", rec_memory="r"), "q": claim("os1.1", rec_memory="r")}, *objects)
    assert [line.split(" $")[0] for line in found] == ["b.yaml#0 (p)", "b.yaml#0 (p)", "b.yaml#2 (q)", "b.yaml#2 (q)"]
    assert objects[0]["kind"] == CPREF


def test_an_unknown_name_in_the_data_is_an_error_at_its_place_and_one_newer_than_the_database_is_not_judged():
    assert judged({"p": claim("os1.O")}, needing("p", 1, "2Gi")) == [
        "preferences/os.yaml:3:11: libosinfo OS 'os1.O' is no OS of the osinfo database 20240101; did you mean "
        "os1.0, os1.1, nosb1.0? [osinfo]"]
    assert judged({"p": claim("os9.9")}, needing("p", 1, "1Mi")) == []  # os9.9 came after os1.1: too new to judge


# --------------------------------------------------------------------------- the built-in catalog, Debian's database


@pytest.fixture
def debian_db(debian_osinfo_read_once: Path) -> Path:
    """Debian's database, which the commands of this module's tests read once (conftest.py)."""
    return debian_osinfo_read_once


def citgen(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_the_built_in_catalog_passes_with_debian_s_database_and_names_it(debian_db):
    status, out, err = citgen("validate", "--osinfo-db", str(debian_db))
    assert status == 0, out + err
    assert err == ""
    assert out.splitlines()[-2:] == [
        "built-in catalog v1.8.0-dev: no problems in 244 documents",
        f"osinfo: 56 preferences judged against the osinfo database 20221203 ({debian_db}); naming no OS: legacy; "
        "newer than the database, not judged: centos-stream10, ol9, rhel10, win2k25"]


def test_without_a_database_validate_says_so_once_and_passes(monkeypatch, tmp_path):
    monkeypatch.setenv("OSINFO_SYSTEM_DIR", str(tmp_path / "none"))
    monkeypatch.setenv("HOME", str(tmp_path))
    if Path("/etc/osinfo/os").is_dir():
        pytest.skip("this machine has a database in /etc/osinfo")
    status, out, err = citgen("validate", "--rule", "osinfo")
    assert (status, out.splitlines()[-1], err) == (0, NONE_FOUND, "")


def test_a_catalog_that_lost_an_accepted_reason_fails_validation_at_the_preference(debian_db, tmp_path):
    root = copy_catalog(tmp_path / "catalog")
    rhel = root / "preferences" / "rhel.yaml"
    text = rhel.read_text()
    rhel.write_text(text.replace("      accept:\n        min-memory: upstream ships 1.5Gi on every architecture; "
                                 "osinfo's 2Gi on aarch64 is for installing from media\n", ""))
    status, out, _ = citgen("validate", "--catalog", str(root), "--osinfo-db", str(debian_db), "--rule", "osinfo")
    assert status == 1
    assert out.splitlines()[0] == (
        "common-instancetypes-all-bundle.yaml: error: VirtualMachineClusterPreference rhel.9.arm64 (document 94) "
        "$.spec.requirements.memory.guest: requires 1536Mi of memory, less than the 2Gi rhel9.0 needs at least on "
        "aarch64 (osinfo database 20221203); raise it, or accept min-memory with the reason under osinfo (defined "
        "in preferences/rhel.yaml:56) [osinfo]")


def test_build_judges_too_and_a_hostile_database_is_refused_with_nothing_written(tmp_path, debian_db):
    hostile = tmp_path / "db"
    (hostile / "os" / "x").mkdir(parents=True)
    (hostile / "os" / "x" / "x.xml").write_text('<!DOCTYPE l [<!ENTITY a "b">]><libosinfo/>')
    out = tmp_path / "out"
    status, _, err = citgen("build", "--out", str(out), "--osinfo-db", str(hostile))
    assert status == 2 and not out.exists()
    assert err.splitlines()[0] == (f"{hostile}/os/x/x.xml:1: error: declares the entity 'a'; citgen expands no XML "
                                   "entity (a 'billion laughs' file multiplies itself through them), and osinfo's "
                                   "database declares none [input]")


def test_osinfo_db_is_for_the_catalog_not_for_files(tmp_path, debian_db):
    bundle = tmp_path / "b.yaml"
    bundle.write_text("apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterPreference\n"
                      "metadata: {name: x}\nspec: {}\n")
    status, _, err = citgen("validate", str(bundle), "--osinfo-db", str(debian_db))
    assert status == 2
    assert err.startswith("--osinfo-db: error: --osinfo-db judges the preferences of a catalog")


def test_the_option_must_name_a_database(tmp_path):
    status, _, err = citgen("validate", "--osinfo-db", str(tmp_path))
    assert status == 2
    assert err.splitlines()[0] == (f"--osinfo-db: error: {str(tmp_path)!r} is no osinfo database: it holds no os/ "
                                   "folder (libosinfo's database is a folder such as /usr/share/osinfo) [input]")

