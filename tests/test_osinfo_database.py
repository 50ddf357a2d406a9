"""libosinfo's database (issue 42) read as hostile input (finding it: test_osinfo_discovery.py).

Debian's copy in ../shared/reference/osinfo-db answers what the catalog asks;
small databases written into tmp_path show each hostile file refused at its
path while the rest of the database is read.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.osinfo.database import read_database
from generator.problems import Location
from generator.source.inputfiles import Limits, limited, parse_size
from tests.conftest import SHARED, shared_file
from tests.osinfodb import database, os_file

DEBIAN = SHARED / "reference" / "osinfo-db"
GiB = 1 << 30


@pytest.fixture(scope="module")
def debian():
    """Debian 12's osinfo-db, read once for the module."""
    db, problems = read_database(shared_file(DEBIAN))
    assert problems == []
    return db


# --------------------------------------------------------------------------- Debian's database


def test_debian_database_is_read_whole_with_its_version(debian):
    assert debian.version == "20221203"
    assert len(debian.oses) > 700
    assert [os.id for os in debian.oses] == sorted(os.id for os in debian.oses)


def test_rhel_9_1_has_its_minimum_and_inherits_its_drivers_and_uefi_from_rhel_9_0(debian):
    rhel = debian.by_short_id("rhel9.1")
    assert (rhel.id, rhel.name, rhel.family, rhel.distro, rhel.version) == \
        ("http://redhat.com/rhel/9.1", "Red Hat Enterprise Linux 9.1", "linux", "rhel", "9.1")
    assert rhel.derives_from == ("http://redhat.com/rhel/9.0",)
    assert rhel.minimum("x86_64") == (1, 1536 * 1 << 20)
    assert rhel.minimum("aarch64") == (1, 2 * GiB)  # aarch64's own memory, the vCPUs of the block for all
    assert rhel.resources_for("x86_64").arch == "x86_64"
    assert rhel.has_driver("virtio-disk") and rhel.has_driver("virtio-net") and rhel.has_driver("virtio-rng")
    assert rhel.supports_firmware("x86_64", "efi") is True
    assert rhel.supports_firmware("x86_64", "secure-boot") is None  # this database names no firmware feature
    assert debian.by_id("http://redhat.com/rhel/9.1") is rhel
    assert rhel.location.file.endswith("os/redhat.com/rhel-9.1.xml") and rhel.location.line == 5


def test_windows_11_needs_two_vcpus_and_4gib_and_boots_only_with_uefi(debian):
    win11 = debian.by_short_id("win11")
    assert win11.minimum("x86_64") == (2, 4 * GiB)
    assert win11.supports_firmware("x86_64", "bios") is False
    assert win11.supports_firmware("x86_64", "efi") is True


def test_windows_10_gets_the_virtio_win_drivers_of_its_fragments_in_win_10_d(debian):
    win10 = debian.by_short_id("win10")
    assert "http://pcisig.com/pci/1af4/1001" not in win10.devices
    assert "http://pcisig.com/pci/1af4/1001" in win10.installable_devices  # win-10.d/pre-installable-drivers.xml
    assert win10.has_driver("virtio-disk") is True


def test_a_line_is_every_release_of_it_in_version_order(debian):
    assert [os.short_id for os in debian.line("rhel9")] == ["rhel9.0", "rhel9.1"]
    assert [os.short_id for os in debian.line("rhel8")][:3] == ["rhel8.0", "rhel8.1", "rhel8.2"]


def test_a_misspelt_short_id_gets_the_nearest_ones(debian):
    assert debian.by_short_id("rhel9.9") is None
    assert "win2k22" in debian.nearest("win2k25")
    assert len(debian.nearest("rhel9.9", limit=2)) == 2


# --------------------------------------------------------------------------- hostile files

LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE libosinfo [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
]>
<libosinfo><os id="http://example.org/laughs"><short-id>&lol2;</short-id></os></libosinfo>
"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE libosinfo [
  <!ENTITY secret SYSTEM "file:///etc/passwd">
]>
<libosinfo><os id="http://example.org/xxe"><short-id>xxe</short-id><name>&secret;</name></os></libosinfo>
"""


def problems_of(root: Path) -> tuple[list[str], list[str]]:
    """The short-ids read from the database at ``root`` and its problems as text, relative to ``root``."""
    db, problems = read_database(root, "db")
    return [os.short_id for os in db.oses], [str(p) for p in problems]


def test_a_billion_laughs_file_is_refused_at_its_first_entity_and_the_rest_is_read(tmp_path):
    shorts, problems = problems_of(database(tmp_path / "db", {"a/laughs.xml": LAUGHS, "a/good.xml": os_file("good1")}))
    assert shorts == ["good1"]
    assert problems == ["db/os/a/laughs.xml:3: declares the entity 'lol'; citgen expands no XML entity (a 'billion "
                        "laughs' file multiplies itself through them), and osinfo's database declares none"]


def test_an_external_entity_is_refused_unread(tmp_path):
    shorts, problems = problems_of(database(tmp_path / "db", {"a/xxe.xml": EXTERNAL}))
    assert shorts == []
    assert problems == ["db/os/a/xxe.xml:3: declares the external entity 'secret' (SYSTEM 'file:///etc/passwd'); "
                        "citgen reads no file or URL an XML file names, and osinfo's database declares no entity"]


def test_a_1_gib_file_is_refused_from_its_size_without_being_read(tmp_path):
    root = database(tmp_path / "db", {"a/good.xml": os_file("good1")})
    with open(root / "os" / "a" / "huge.xml", "wb") as huge:
        huge.truncate(1 << 30)  # sparse: no gibibyte is written, nor read
    shorts, problems = problems_of(root)
    assert shorts == ["good1"]
    assert problems == ["db/os/a/huge.xml: is larger than the 256 MiB limit on input files; raise it with "
                        "`citgen --max-file-size SIZE` or CITGEN_MAX_FILE_SIZE if the file is right"]


def test_the_size_limit_is_the_one_of_every_input(tmp_path):
    root = database(tmp_path / "db", {"a/good.xml": os_file("good1")})
    with limited(Limits(parse_size("100"), 10)):
        shorts, problems = problems_of(root)
    assert shorts == [] and problems[0].startswith("db/os/a/good.xml: is larger than the 100 bytes limit")


def test_a_folder_loop_is_refused_at_the_link(tmp_path):
    root = database(tmp_path / "db", {"a/good.xml": os_file("good1")})
    (root / "os" / "a" / "again").symlink_to("..")
    shorts, problems = problems_of(root)
    assert shorts == ["good1"]
    assert problems == ["db/os/a/again: is a symbolic link loop: it leads back to a folder it is in"]


def test_a_link_out_of_the_database_is_refused(tmp_path):
    (tmp_path / "outside.xml").write_text(os_file("stolen1"))
    root = database(tmp_path / "db", {})
    (root / "os" / "stolen.xml").symlink_to(tmp_path / "outside.xml")
    shorts, problems = problems_of(root)
    assert shorts == []
    assert problems == ["db/os/stolen.xml: is a symbolic link leading out of the folder named; citgen reads only "
                        "what is inside it (name the target itself to read it)"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_waiting(tmp_path):
    root = database(tmp_path / "db", {})
    os.mkfifo(root / "os" / "pipe.xml")
    assert problems_of(root) == ([], ["db/os/pipe.xml: is a FIFO (named pipe), not a regular file; citgen reads "
                                      "only regular files"])


def test_malformed_xml_and_bad_numbers_are_located(tmp_path):
    bad_number = os_file("num1", "    <resources arch='all'><minimum><ram>lots</ram></minimum></resources>\n")
    shorts, problems = problems_of(database(tmp_path / "db", {
        "a/broken.xml": "<libosinfo><os id='x'>\n<short-id>x</os></libosinfo>", "a/num.xml": bad_number,
        "a/other.xml": "<html/>", "a/noid.xml": "<libosinfo>\n<os><short-id>n</short-id></os></libosinfo>"}))
    assert shorts == ["num1"]
    assert problems == [
        "db/os/a/broken.xml:2:14: malformed XML: mismatched tag",
        "db/os/a/noid.xml:2:1: <os> without an id: osinfo names every OS release with an id URI",
        "db/os/a/num.xml:6:36: <ram>: expected a whole number of at most 40 digits, got 'lots'",
        "db/os/a/other.xml:1:1: expected a <libosinfo> document, got <html>",
    ]


def test_fragments_in_a_d_folder_add_to_their_release_and_inheritance_follows_derives_from(tmp_path):
    parent = os_file("p1", "    <firmware arch='x86_64' type='efi'/>\n    <devices><device id='http://pcisig.com/pci/"
                     "1af4/1041'/><device id='http://pcisig.com/pci/1af4/1044'/></devices>\n"
                     "    <resources arch='all'><minimum><n-cpus>2</n-cpus></minimum></resources>\n")
    child = os_file("c1", "    <derives-from id='http://example.org/p1'/>\n    <devices><device id='http://pcisig."
                    "com/pci/1af4/1044' supported='false'/></devices>\n")
    fragment = ("<libosinfo><os id='http://example.org/c1'><driver><device id='http://pcisig.com/pci/1af4/1042'/>"
                "</driver></os></libosinfo>")
    root = database(tmp_path / "db", {"a/p.xml": parent, "a/c.xml": child, "a/c.d/drivers.xml": fragment})
    db, problems = read_database(root, "db")
    assert problems == []
    c1 = db.by_short_id("c1")
    assert c1.location == Location("db/os/a/c.xml", 3, 3)
    assert (c1.has_driver("virtio-net"), c1.has_driver("virtio-rng"), c1.has_driver("virtio-disk")) == \
        (True, False, True)
    assert c1.supports_firmware("x86_64", "efi") is True
    assert c1.minimum("x86_64") == (2, None)


def test_a_derives_from_loop_is_named_and_ends(tmp_path):
    a = os_file("a1", "    <derives-from id='http://example.org/b1'/>\n")
    b = os_file("b1", "    <derives-from id='http://example.org/a1'/>\n")
    db, problems = read_database(database(tmp_path / "db", {"a.xml": a, "b.xml": b}), "db")
    assert [os.short_id for os in db.oses] == ["a1", "b1"]
    assert [str(p) for p in problems] == ["db/os/b.xml:3:3: derives from 'http://example.org/a1', which derives "
                                          "from it in turn; its inheritance is left out"]


def test_version_is_unknown_without_a_version_file(tmp_path):
    root = database(tmp_path / "db", {})
    (root / "VERSION").unlink()
    assert read_database(root)[0].version == "unknown"
