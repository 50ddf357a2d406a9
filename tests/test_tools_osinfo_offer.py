"""generator/tools/osinfo/offer.py: which preference the catalog offers for a libosinfo OS, and why.

A small database and catalog made here: each reason (release, line, distro, family)
and how one preference is chosen among those making the same claim.
"""

from __future__ import annotations

from pathlib import Path

from generator.osinfo.model import OsinfoDatabase, OsRelease
from generator.problems import Location
from generator.tools.osinfo.guests import GuestOs
from generator.tools.osinfo.offer import Candidate, guest_table, offer, offers


def release(short_id: str, distro: str, version: str, family: str = "linux", derives: tuple[str, ...] = (),
            name: str | None = None, vendor_id: str | None = None) -> OsRelease:
    return OsRelease(id=vendor_id or f"http://example.org/{distro}/{version}", short_ids=(short_id,),
                     name=name or f"{distro} {version}", vendor=None, family=family, distro=distro, version=version,
                     release_status="released", derives_from=derives, upgrades=(), resources=(), firmware=(),
                     devices=frozenset(), location=Location(f"os/{short_id}.xml", 5, 3))


DB = OsinfoDatabase(Path("db"), "20221203", tuple(sorted((
    release("rhel9.0", "rhel", "9.0", name="Red Hat Enterprise Linux 9.0"),
    release("rhel9.1", "rhel", "9.1", derives=("http://example.org/rhel/9.0",), name="Red Hat Enterprise Linux 9.1"),
    release("rhel9.4", "rhel", "9.4", name="Red Hat Enterprise Linux 9.4"),  # listed by no claim, related by version
    release("rhel8.6", "rhel", "8.6"),
    release("rhel6.10", "rhel", "6.10"),
    release("ubuntu22.04", "ubuntu", "22.04"),
    release("win2k19", "win", "10.0", family="winnt", derives=("http://example.org/win/2k16",)),
    release("win2k16", "win", "10.0", family="winnt", vendor_id="http://example.org/win/2k16"),
    release("win2k3", "win", "5.2", family="winnt"),
    release("linux2022", "generic", "2022", vendor_id="http://libosinfo.org/linux/2022"),
    release("freebsd13.0", "freebsd", "13.0", family="freebsd"),
), key=lambda os: os.id)))

CATALOG = (
    Candidate("rhel.9", ("rhel9.1", "rhel9.0"), "rhel9", "amd64", virtio=True, written=("rhel9.1",)),
    Candidate("rhel.9.desktop", ("rhel9.0", "rhel9.1"), "rhel9", "amd64", virtio=True),
    Candidate("rhel.9.arm64", ("rhel9.0", "rhel9.1"), "rhel9", "arm64", virtio=True),
    Candidate("rhel.8", ("rhel8.6",), "rhel8", virtio=True),
    Candidate("ubuntu", ("ubuntu22.04",), "ubuntu", virtio=True),
    Candidate("windows.2k19", ("win2k19",)),
    Candidate("windows.2k19.virtio", ("win2k19",), virtio=True),
    Candidate("linux", ("linux2022",), virtio=True),
)


def test_a_release_a_preference_names_itself_is_offered_for_that_release():
    found = offer("win2k19", DB, CATALOG)
    assert (found.preference, found.reason) == ("windows.2k19.virtio", "release")
    assert found.why == "windows.2k19.virtio is for win 10.0 (win2k19)"
    assert found.also == ("windows.2k19",)


def test_without_virtio_the_preference_without_virtio_devices_is_offered():
    found = offer("win2k19", DB, CATALOG, virtio=False)
    assert (found.preference, found.also) == ("windows.2k19", ("windows.2k19.virtio",))


def test_a_release_a_line_lists_is_offered_the_line_s_preference_and_its_variants_beside_it():
    found = offer("rhel9.1", DB, CATALOG)
    assert (found.preference, found.reason, found.also) == ("rhel.9", "line", ("rhel.9.desktop",))
    assert "is a release of the line rhel9, which rhel.9 stands for (its claim names it)" in found.why
    assert "which rhel.9 stands for (the database 20221203 has it in the line)" in offer("rhel9.0", DB, CATALOG).why


def test_the_architecture_asked_chooses_among_a_line_s_preferences():
    assert offer("rhel9.1", DB, CATALOG, arch="arm64").preference == "rhel.9.arm64"
    assert offer("rhel8.6", DB, CATALOG, arch="arm64").preference == "rhel.8"  # a preference for any architecture
    assert not offer("win2k19", DB, (Candidate("windows.2k19", ("win2k19",), architecture="amd64"),),
                     arch="s390x").covered


def test_a_release_the_database_relates_to_a_line_by_distro_and_major_version_is_the_line_s():
    found = offer("rhel9.4", DB, CATALOG)
    assert (found.preference, found.reason) == ("rhel.9", "line")
    assert "is rhel 9, as the releases of the line rhel9 are (the database says)" in found.why


def test_a_release_deriving_from_one_a_line_lists_is_the_line_s():
    catalog = (Candidate("rhel.9", ("rhel9.0",), "rhel9"),)
    found = offer("rhel9.1", DB, catalog)
    assert (found.preference, found.reason) == ("rhel.9", "line")
    assert "derives from rhel9.0 (the database says)" in found.why


def test_derives_from_across_major_versions_leads_nowhere():
    """win2k19 derives from win2k16 in libosinfo: that makes no Windows Server 2016 preference right for it."""
    assert not offer("win2k19", DB, (Candidate("windows.2k16", ("win2k16",), "win2k16"),)).covered


def test_a_release_the_database_does_not_know_is_a_line_s_by_its_short_id():
    found = offer("rhel9.6", DB, CATALOG)
    assert (found.os, found.preference, found.reason) == (None, "rhel.9", "line")
    assert "the database 20221203 does not know it" in found.why
    assert not offer("rhel9x", DB, CATALOG).covered


def test_a_release_of_a_distribution_a_preference_stands_for_whole_is_the_distro_s():
    found = offer("ubuntu24.04", DB, CATALOG)  # not in this database: by its name
    assert (found.preference, found.reason) == ("ubuntu", "distro")
    catalog = (Candidate("ubuntu", ("ubuntu20.04",), "ubuntu"),)
    found = offer("ubuntu22.04", DB, catalog)
    assert (found.preference, found.reason) == ("ubuntu", "distro")
    assert found.why == "ubuntu 22.04 (ubuntu22.04) is of the distribution ubuntu, whose generic preference is ubuntu"


def test_a_release_of_a_family_whose_generic_os_a_preference_claims_is_the_family_s():
    found = offer("rhel6.10", DB, CATALOG)
    assert (found.preference, found.reason) == ("linux", "family")
    assert found.why == "rhel 6.10 (rhel6.10) is of the family linux, whose generic preference is linux"


def test_an_os_no_preference_covers_is_offered_nothing():
    for short_id in ("win2k3", "freebsd13.0", "nothing1.0"):
        found = offer(short_id, DB, CATALOG)
        assert (found.preference, found.reason, found.covered) == (None, None, False)


def test_a_deprecated_preference_is_offered_only_when_no_other_makes_the_claim():
    catalog = (Candidate("windows.2k19", ("win2k19",), deprecated=True), Candidate("windows.2k19.sata", ("win2k19",)))
    assert offer("win2k19", DB, catalog, virtio=False).preference == "windows.2k19.sata"


def test_every_os_the_catalog_covers_is_mapped_in_the_database_s_order():
    found = offers(DB, CATALOG)
    assert [(o.short_id, o.preference, o.reason) for o in found] == [  # win2k3, win2k16 and freebsd13.0: none
        ("rhel6.10", "linux", "family"), ("rhel8.6", "rhel.8", "line"), ("rhel9.0", "rhel.9", "line"),
        ("rhel9.1", "rhel.9", "line"), ("rhel9.4", "rhel.9", "line"), ("ubuntu22.04", "ubuntu", "line"),
        ("win2k19", "windows.2k19.virtio", "release"), ("linux2022", "linux", "release")]


def test_a_source_s_ids_are_answered_through_their_libosinfo_os_or_distribution():
    ids = {"rhel9_64Guest": GuestOs(short_id="rhel9.0"), "ubuntu64Guest": GuestOs(distro="ubuntu"),
           "windows2019srv_64Guest": GuestOs(short_id="win2k19"), "win2k3Guest": GuestOs(short_id="win2k3"),
           "fedoraGuest": GuestOs(distro="fedora"), "windows12_64Guest": GuestOs(untranslated="never released")}
    table, left = guest_table(ids, DB, CATALOG, virtio=False)
    assert table == {"rhel9_64Guest": "rhel.9", "ubuntu64Guest": "ubuntu", "windows2019srv_64Guest": "windows.2k19"}
    assert left == {"win2k3Guest": "no preference of the catalog covers win2k3",
                    "fedoraGuest": "no preference of the catalog stands for the distribution fedora",
                    "windows12_64Guest": "never released"}


def test_a_release_before_the_line_s_since_is_not_the_line_s():
    """alpine is for Alpine 3.15 on (``since: alpinelinux3.15``): 3.10, of the same line, falls to what is next."""
    catalog = (Candidate("rhel.9", ("rhel9.4",), "rhel9", since="9.4"), *CATALOG[-1:])
    assert offer("rhel9.4", DB, catalog).reason == "line"
    found = offer("rhel9.1", DB, (Candidate("rhel.9", (), "rhel9", since="9.4"), *CATALOG[-1:]))
    assert (found.preference, found.reason) == ("linux", "family")


def test_what_a_database_says_is_never_read_as_a_format():
    db = OsinfoDatabase(Path("db"), "{0}", (release("win2k19", "win", "10.0", family="winnt",
                                                    name="Windows {name} {0} %s {}"),))
    found = offer("win2k19", db, (Candidate("windows.2k19", ("win2k19",)),))
    assert found.why == "windows.2k19 is for Windows {name} {0} %s {} (win2k19)"
