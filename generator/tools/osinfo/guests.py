"""The guest-OS ids of migration sources, each as the libosinfo OS it names.

A migration tool's guest-OS table (Forklift's ``forklift-vsphere-osmap`` and
``forklift-ovirt-osmap`` ConfigMaps) maps the OS id its source reports to a
preference name. The ids are the source's, not libosinfo's: vSphere reports a VM's
``guestId`` (VMware's ``VirtualMachineGuestOsIdentifier``: ``rhel9_64Guest``), oVirt
the OS type of its engine (``rhel_9x64``, ``windows_2019x64``). Neither names a minor
release, and some name no version at all (``ubuntu64Guest``).

Here each id is translated once into what libosinfo would call it: a short-id (for a
major version, the line's first release: ``rhel9_64Guest`` is ``rhel9.0``, and the
line ``rhel9`` leads to the preference of RHEL 9), or only a distribution
(``ubuntu64Guest``: whatever Ubuntu; the distribution's generic preference). The
preference itself is then the catalog's answer for that OS (tools/osinfo/offer.py),
so a table is generated from the catalog instead of kept by hand.

The ids listed are those of Forklift's own tables (every key of both), so that a
generated table can be compared with the real one entry by entry
(docs/osinfo.md). An id whose OS libosinfo does not know (``windows12_64Guest``:
VMware's id for a Windows that was never released) has no translation.
"""

from __future__ import annotations

from typing import Mapping

from ...frozen import frozen


@frozen
class GuestOs:
    """What one source id names: a libosinfo short-id, or only a distribution (libosinfo's ``<distro>``)."""

    short_id: str | None = None
    distro: str | None = None
    #: Why the id has no translation, when it has none.
    untranslated: str | None = None


def _os(short_id: str) -> GuestOs:
    return GuestOs(short_id=short_id)


def _distro(distro: str) -> GuestOs:
    return GuestOs(distro=distro)


#: vSphere's guestId values (VMware's VirtualMachineGuestOsIdentifier) as libosinfo names the OS.
VSPHERE: Mapping[str, GuestOs] = {
    "genericLinuxGuest": _os("linux2022"),
    "ubuntu64Guest": _distro("ubuntu"),
    "ubuntuGuest": _distro("ubuntu"),
    "fedora64Guest": _distro("fedora"),
    "fedoraGuest": _distro("fedora"),
    "centos7_64Guest": _os("centos7.0"),
    "centos7Guest": _os("centos7.0"),
    "centos8_64Guest": _os("centos8"),
    "centos8Guest": _os("centos8"),
    "centos9_64Guest": _os("centos-stream9"),
    "rhel7_64Guest": _os("rhel7.0"),
    "rhel7Guest": _os("rhel7.0"),
    "rhel8_64Guest": _os("rhel8.0"),
    "rhel9_64Guest": _os("rhel9.0"),
    "rhel10_64Guest": _os("rhel10.0"),
    "sles10_64Guest": _os("sles10"),
    "sles11_64Guest": _os("sles11"),
    "sles12_64Guest": _os("sles12"),
    # libosinfo names SUSE Linux Enterprise from 15 on sle15 (the server and desktop alike)
    "sles15_64Guest": _os("sle15"),
    "sles16_64Guest": _os("sle16"),
    # VMware's id for any openSUSE: taken as Leap 15, openSUSE's line of releases (Tumbleweed has none)
    "opensuse64Guest": _os("opensuse15.0"),
    **{f"debian{n}_64Guest": _os(f"debian{n}") for n in range(4, 14)},
    "windows7_64Guest": _os("win7"),
    "windows8_64Guest": _os("win8"),
    # VMware's windows9 is Windows 10, its windows9Server Windows Server 2016, and each "srvNext" the
    # release after the one it names.
    "windows9_64Guest": _os("win10"),
    "windows9Guest": _os("win10"),
    "windows11_64Guest": _os("win11"),
    "windows12_64Guest": GuestOs(untranslated="VMware's id for a Windows after 11 that was never released"),
    "windows7Server64Guest": _os("win2k8r2"),
    "windows8Server64Guest": _os("win2k12"),
    "windows9Server64Guest": _os("win2k16"),
    "windows2019srv_64Guest": _os("win2k19"),
    "windows2019srvNext_64Guest": _os("win2k22"),
    "windows2022srvNext_64Guest": _os("win2k25"),
}

#: oVirt's OS types (ovirt-engine's osinfo) as libosinfo names the OS.
OVIRT: Mapping[str, GuestOs] = {
    "rhel_7x64": _os("rhel7.0"),
    "rhel_8x64": _os("rhel8.0"),
    "rhel_9x64": _os("rhel9.0"),
    "ubuntu_12_04": _os("ubuntu12.04"),
    "ubuntu_12_10": _os("ubuntu12.10"),
    "ubuntu_13_04": _os("ubuntu13.04"),
    "ubuntu_13_10": _os("ubuntu13.10"),
    "ubuntu_14_04": _os("ubuntu14.04"),
    "windows_10": _os("win10"),
    "windows_10x64": _os("win10"),
    "windows_11": _os("win11"),
    "windows_2012x64": _os("win2k12"),
    "windows_2012R2x64": _os("win2k12r2"),
    "windows_2016x64": _os("win2k16"),
    "windows_2019x64": _os("win2k19"),
    "windows_2022": _os("win2k22"),
}

#: The sources whose tables citgen writes, by the name ``--table`` takes.
SOURCES: Mapping[str, Mapping[str, GuestOs]] = {"vsphere": VSPHERE, "ovirt": OVIRT}
