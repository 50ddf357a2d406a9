"""The built-in catalog's answers with Debian's database (issue 42, "What must be shown"), and the guest-OS tables
made from them compared with Forklift's own (docs/osinfo.md keeps the same figures).

The database and the catalog are read once for the module; the tables are checked by
``citgen refs`` as it checks Forklift's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.pipeline import BuildOptions, catalog_objects
from generator.tools.osinfo import candidates
from generator.tools.osinfo.guests import SOURCES
from generator.tools.osinfo.offer import Candidate, guest_table, offer, offers
from generator.tools.osinfo.osmap import Difference, compare, configmap
from tests.conftest import SHARED, shared_file
from tests.helpers import read_debian_osinfo

DEBIAN = SHARED / "reference" / "osinfo-db"
CONSUMERS = SHARED / "reference" / "consumers"
#: Forklift's tables as its repository has them today (their SOURCE files say from which commit).
FORKLIFT = {"vsphere": CONSUMERS / "forklift-osmap-vsphere" / "configmap-osmap-vsphere.yaml",
            "ovirt": CONSUMERS / "forklift-osmap-ovirt" / "configmap-osmap-ovirt.yaml"}


@pytest.fixture(scope="module")
def debian():
    db, problems = read_debian_osinfo(shared_file(DEBIAN))
    assert problems == []
    return db


@pytest.fixture(scope="module")
def catalog(debian) -> tuple[Candidate, ...]:
    _, _, objects = catalog_objects(BuildOptions())
    return candidates(objects, debian)


@pytest.mark.parametrize(("short_id", "preference", "reason"), [
    ("rhel9.1", "rhel.9", "line"),  # line: rhel9, the release in the database's line
    ("rhel9.6", "rhel.9", "line"),  # newer than the database: a release of the line by its short-id
    ("win2k19", "windows.2k19.virtio", "release"),  # virt-v2v installs the virtio drivers
    ("fedora36", "fedora", "line"),
    ("fedora35", "fedora", "distro"),  # before the line's `since: fedora36`: Fedora's generic preference
    ("ubuntu22.04", "ubuntu", "line"),
    ("ubuntu24.04", "ubuntu", "distro"),  # not in a 2022 database: by the distribution it is named after
    ("rhel6.10", "linux", "family"),  # no RHEL 6 preference: the generic Linux one (linux2022)
    ("centos-stream9", "centos.stream9", "release"),
    ("opensuse15.4", "opensuse.leap", "line"),
])
def test_the_preference_offered_for_a_guest_os_and_why(debian, catalog, short_id, preference, reason):
    found = offer(short_id, debian, catalog)
    assert (found.preference, found.reason) == (preference, reason), found.why


def test_an_os_the_catalog_does_not_cover_is_offered_nothing(debian, catalog):
    assert [offer(s, debian, catalog).covered for s in ("freebsd13.0", "win8", "solaris11", "nosuchos1")] == \
        [False] * 4


def test_the_line_s_variants_are_named_beside_the_answer(debian, catalog):
    assert offer("rhel9.1", debian, catalog).also == ("rhel.9.desktop", "rhel.9.dpdk", "rhel.9.realtime")
    assert offer("rhel9.1", debian, catalog, arch="arm64").preference == "rhel.9.arm64"


def test_the_map_of_every_os_covers_the_linux_family_and_the_windows_the_catalog_has(debian, catalog):
    found = offers(debian, catalog)
    assert len(found) == 569  # of 790 releases; docs/osinfo.md
    families = {o.os.family for o in found if o.os is not None}
    assert families == {"linux", "winnt"}


def _forklift(table: str) -> dict[str, str]:
    """Forklift's table as YAML readers take it (its vSphere table has a duplicate key, whose last value counts)."""
    return yaml.safe_load(shared_file(FORKLIFT[table]).read_text(encoding="utf-8"))["data"]


def test_the_ovirt_table_made_from_the_catalog_is_forklift_s_own(debian, catalog):
    made, left = guest_table(SOURCES["ovirt"], debian, catalog, virtio=True)
    assert left == {}
    assert compare(_forklift("ovirt"), made) == (tuple(sorted(made)), ())


def test_the_vsphere_table_made_from_the_catalog_differs_from_forklift_s_where_docs_osinfo_md_says(debian, catalog):
    made, left = guest_table(SOURCES["vsphere"], debian, catalog, virtio=False)
    same, differ = compare(_forklift("vsphere"), made)
    assert (len(_forklift("vsphere")), len(made), len(same)) == (40, 40, 32)
    assert differ == (
        Difference("centos7Guest", None, "linux"),  # a key of Forklift's 2024 table, gone from today's
        Difference("centos7_64Guest", "centos.7", "linux"),  # centos.7 was removed in v1.3.0
        Difference("centos8Guest", None, "linux"),
        Difference("centos8_64Guest", "centos.stream8", "linux"),  # removed in v1.3.0; CentOS 8 is not Stream 8
        Difference("sles10_64Guest", "sles", "linux"),  # sles claims SLE 15 (line sle15) only
        Difference("sles11_64Guest", "sles", "linux"),
        Difference("sles12_64Guest", "sles", "linux"),
        Difference("sles16_64Guest", "sles", None),  # SLE 16: no database of 2022 knows it
        Difference("windows12_64Guest", "windows.12", None),  # never released; no such preference ever existed
        Difference("windows8_64Guest", "windows.8", None),  # no Windows 8 preference ever existed
        Difference("windows9Guest", None, "windows.10"),  # a key of Forklift's 2024 table
    )
    assert sorted(left) == ["sles16_64Guest", "windows12_64Guest", "windows8_64Guest"]


def test_every_table_made_passes_citgen_refs(tmp_path: Path, debian, catalog):
    for table in ("vsphere", "ovirt"):
        made, _ = guest_table(SOURCES[table], debian, catalog, virtio=table == "ovirt")
        (tmp_path / f"{table}.yaml").write_text(configmap(table, made, "openshift-mtv", "made"), encoding="utf-8")
    made = {o.short_id: str(o.preference) for o in offers(debian, catalog)}
    (tmp_path / "osinfo.yaml").write_text(configmap("osinfo", made, None, "made"), encoding="utf-8")
    result = CliRunner().invoke(main, ["refs", "--names", "preference=ConfigMap/*-osmap:data.*", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("625 references checked against the built-in catalog")
