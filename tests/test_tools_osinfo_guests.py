"""generator/tools/osinfo/guests.py: the OS ids of migration sources, each as the libosinfo OS it names."""

from __future__ import annotations

from generator.tools.osinfo.guests import OVIRT, SOURCES, VSPHERE


def test_every_source_id_names_a_libosinfo_os_a_distribution_or_why_it_names_none():
    assert set(SOURCES) == {"vsphere", "ovirt"}
    for guest in (*VSPHERE.values(), *OVIRT.values()):
        assert [guest.short_id, guest.distro, guest.untranslated].count(None) == 2, guest


def test_vmware_s_off_by_one_windows_ids_are_the_releases_vmware_means():
    assert {key: VSPHERE[key].short_id for key in ("windows9_64Guest", "windows9Server64Guest",
                                                   "windows2019srvNext_64Guest", "windows2022srvNext_64Guest")} == {
        "windows9_64Guest": "win10", "windows9Server64Guest": "win2k16", "windows2019srvNext_64Guest": "win2k22",
        "windows2022srvNext_64Guest": "win2k25"}


def test_an_id_of_a_major_version_is_the_line_s_first_release_and_one_of_no_version_a_distribution():
    assert VSPHERE["rhel9_64Guest"].short_id == "rhel9.0"
    assert OVIRT["rhel_9x64"].short_id == "rhel9.0"
    assert VSPHERE["ubuntu64Guest"].distro == "ubuntu"
    assert VSPHERE["sles15_64Guest"].short_id == "sle15"  # libosinfo's name from SLE 15 on
