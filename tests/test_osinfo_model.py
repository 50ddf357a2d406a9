"""generator/osinfo/model.py: an OS release answers for its arch, its firmware and its drivers as libosinfo would.

The releases are values built here; tests/test_osinfo_database.py reads them from files.
"""

from __future__ import annotations

import pytest

from generator.osinfo.model import Firmware, OsinfoDatabase, OsRelease, Resources
from generator.problems import Location

GiB = 1 << 30


def release(**kw) -> OsRelease:
    base = dict(id="http://example.org/x", short_ids=("x1",), name="X", vendor=None, family="linux", distro="x",
                version="1", release_status="released", derives_from=(), upgrades=(), resources=(), firmware=(),
                devices=frozenset(), location=Location("x.xml", 1, 1))
    return OsRelease(**{**base, **kw})


def test_the_block_for_all_arches_answers_what_the_arch_block_leaves_out():
    x = release(resources=(Resources("all", 1, GiB, 2, 2 * GiB), Resources("s390x", None, 4 * GiB)))
    assert x.minimum("s390x") == (1, 4 * GiB)
    assert x.recommended("s390x") == (2, 2 * GiB)
    assert x.minimum("x86_64") == (1, GiB)
    assert release().minimum("x86_64") == (None, None)
    assert release().resources_for("x86_64") is None


def test_secure_boot_is_known_only_where_the_firmware_names_the_feature():
    assert release(firmware=(Firmware("x86_64", "efi", True, {"secure-boot": True}),)) \
        .supports_firmware("x86_64", "secure-boot") is True
    assert release(firmware=(Firmware("x86_64", "efi", True, {"secure-boot": False}),)) \
        .supports_firmware("x86_64", "secure-boot") is False
    assert release(firmware=(Firmware("x86_64", "efi", False),)).supports_firmware("x86_64", "secure-boot") is False
    assert release().supports_firmware("x86_64", "bios") is True  # libosinfo's default
    assert release().supports_firmware("x86_64", "efi") is None


def test_an_os_listing_no_device_says_nothing_about_drivers():
    assert release().has_driver("virtio-net") is None
    assert release(devices=frozenset({"http://pcisig.com/pci/8086/100e"})).has_driver("virtio-net") is False
    with pytest.raises(ValueError, match="unknown device kind 'virtio-floppy'"):
        release().has_driver("virtio-floppy")


def test_a_line_is_its_releases_in_version_order_and_a_release_after_them_is_newer_than_the_database():
    db = OsinfoDatabase(None, "1", tuple(release(id=f"http://x/{s}", short_ids=(s,), version=v) for s, v in (
        ("x9.10", "9.10"), ("x9.2", "9.2"), ("x91", "91"), ("sle15sp2", "15.2"), ("sle15", "15"))))
    assert db.newest_of("x92") == "x91"  # the line x: 9.2, 9.10, 91
    assert [r.short_id for r in db.line("x9")] == ["x9.2", "x9.10"]
    assert [r.short_id for r in db.line("sle15")] == ["sle15", "sle15sp2"]
    assert db.newest_of("x9.3") is None and db.newest_of("y1.0") is None and db.newest_of("rawhide") is None
    assert db.lookup("http://x/x9.2") is db.by_short_id("x9.2")
