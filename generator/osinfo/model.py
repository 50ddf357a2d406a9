"""libosinfo's OS database as values: OS releases, their resources, firmware and drivers.

Nothing here reads a file (database.py does): an OsinfoDatabase is what a folder
such as /usr/share/osinfo says about the operating systems it knows, after
libosinfo's inheritance (an OS derived from another takes the devices and
firmware it does not say otherwise about, and its resources when it names none),
so that a check asks one OsRelease and gets the answer libosinfo would give.
"""

from __future__ import annotations

import re
from dataclasses import field
from functools import cached_property
from pathlib import Path
from typing import Mapping

from ..frozen import frozen
from ..problems import Location
from ..suggest import Index, nearest

#: osinfo's architecture for "every architecture this OS runs on": a block of it is the fallback.
ALL_ARCHES = "all"

#: What a check asks about (``has_driver``) and the PCI ids osinfo lists for it: the
#: transitional (0x1000 range) and the modern (0x1040 range) virtio device of each kind.
_VIRTIO = "http://pcisig.com/pci/1af4/"
DRIVERS: Mapping[str, frozenset[str]] = {
    "virtio-net": frozenset({_VIRTIO + "1000", _VIRTIO + "1041"}),
    "virtio-disk": frozenset({_VIRTIO + "1001", _VIRTIO + "1042"}),
    "virtio-balloon": frozenset({_VIRTIO + "1002", _VIRTIO + "1045"}),
    "virtio-scsi": frozenset({_VIRTIO + "1004", _VIRTIO + "1048"}),
    "virtio-serial": frozenset({_VIRTIO + "1003", _VIRTIO + "1043"}),
    "virtio-rng": frozenset({_VIRTIO + "1005", _VIRTIO + "1044"}),
    "virtio-9p": frozenset({_VIRTIO + "1009", _VIRTIO + "1049"}),
    "virtio-gpu": frozenset({_VIRTIO + "1050"}),
    "virtio-input": frozenset({_VIRTIO + "1052"}),
    "virtio-fs": frozenset({_VIRTIO + "105a"}),
    "tpm": frozenset({"http://qemu.org/tpm/tpm-crb", "http://qemu.org/tpm/tpm-tis", "http://xen.org/xen/vtpm"}),
}

FIRMWARE_KINDS = ("bios", "efi", "secure-boot")


@frozen
class Resources:
    """One ``<resources arch=...>`` block of an OS: its minimum and recommended vCPUs and memory (bytes)."""

    arch: str
    min_cpu: int | None = None
    min_memory: int | None = None
    rec_cpu: int | None = None
    rec_memory: int | None = None


@frozen
class Firmware:
    """One ``<firmware>`` entry: a firmware type the OS boots (or, ``supported=False``, does not) on an arch.

    ``features``: the firmware's features the entry names, ``{"secure-boot": True}``.
    """

    arch: str
    type: str
    supported: bool = True
    features: Mapping[str, bool] = field(default_factory=dict)


@frozen
class OsRelease:
    """One operating system release as libosinfo describes it, after inheritance."""

    id: str
    short_ids: tuple[str, ...]
    name: str
    vendor: str | None
    family: str | None
    distro: str | None
    version: str | None
    release_status: str | None
    derives_from: tuple[str, ...]
    upgrades: tuple[str, ...]
    resources: tuple[Resources, ...]
    firmware: tuple[Firmware, ...]
    devices: frozenset[str]
    location: Location
    #: Devices of the drivers osinfo lists for installing into the OS (Windows' virtio-win), beside its own.
    installable_devices: frozenset[str] = frozenset()
    clones: tuple[str, ...] = ()

    @property
    def short_id(self) -> str:
        """The main short-id (``rhel9.1``); the id itself for an OS that has none."""
        return self.short_ids[0] if self.short_ids else self.id

    def resources_for(self, arch: str) -> Resources | None:
        """The resources block of ``arch``, else the block for every arch; None when neither is there."""
        by_arch = {block.arch: block for block in self.resources}
        return by_arch.get(arch) or by_arch.get(ALL_ARCHES)

    def minimum(self, arch: str) -> tuple[int | None, int | None]:
        """(vCPUs, memory in bytes) the OS needs at least on ``arch``, each from its block or the one for all."""
        return self._value(arch, "min_cpu"), self._value(arch, "min_memory")

    def recommended(self, arch: str) -> tuple[int | None, int | None]:
        """(vCPUs, memory in bytes) recommended on ``arch``, each from its block or the one for all."""
        return self._value(arch, "rec_cpu"), self._value(arch, "rec_memory")

    def _value(self, arch: str, name: str) -> int | None:
        """One value of the arch's block, or of the block for all arches where the arch's leaves it out."""
        for block in self.resources:
            if block.arch == arch and getattr(block, name) is not None:
                return getattr(block, name)
        for block in self.resources:
            if block.arch == ALL_ARCHES and getattr(block, name) is not None:
                return getattr(block, name)
        return None

    def supports_firmware(self, arch: str, kind: str) -> bool | None:
        """Whether the OS boots with ``kind`` (bios, efi, secure-boot) on ``arch``; None when osinfo does not say.

        An OS that names no firmware boots with BIOS (libosinfo's default); one that
        names UEFI says nothing about Secure Boot unless its entry names the feature.
        """
        if kind not in FIRMWARE_KINDS:
            raise ValueError(f"unknown firmware kind {kind!r}; expected one of {', '.join(FIRMWARE_KINDS)}")
        entries = [f for f in self.firmware if f.arch in (arch, ALL_ARCHES)]
        if kind == "secure-boot":
            efi = [f for f in entries if f.type == "efi"]
            if any(not f.supported for f in efi):
                return False
            said = [f.features["secure-boot"] for f in efi if "secure-boot" in f.features]
            if said:
                return all(said)
            return None
        said = [f.supported for f in entries if f.type == kind]
        if said:
            return all(said)
        if kind == "bios":
            return True if not entries or arch in ("x86_64", "i686") else None
        return None

    def has_driver(self, what: str) -> bool | None:
        """Whether the OS has a driver for ``what`` (a key of DRIVERS); None when osinfo lists no device for it.

        Its own drivers count and so do those osinfo lists to install into it (the
        virtio-win drivers of a Windows release). An OS listing no device at all
        says nothing: None.
        """
        ids = DRIVERS.get(what)
        if ids is None:
            raise ValueError(f"unknown device kind {what!r}; expected one of {', '.join(sorted(DRIVERS))}")
        known = self.devices | self.installable_devices
        if ids & known:
            return True
        return False if known else None


@frozen
class OsinfoDatabase:
    """A folder of libosinfo's database as read: where, its VERSION, and its OS releases sorted by id."""

    path: Path
    version: str
    oses: tuple[OsRelease, ...]

    @cached_property
    def _by_short_id(self) -> Mapping[str, OsRelease]:
        return {short: os for os in self.oses for short in reversed(os.short_ids)}

    @cached_property
    def _by_id(self) -> Mapping[str, OsRelease]:
        return {os.id: os for os in self.oses}

    @cached_property
    def _index(self) -> Index:
        return Index(self._by_short_id)

    def by_short_id(self, short_id: str) -> OsRelease | None:
        return self._by_short_id.get(short_id)

    def by_id(self, id: str) -> OsRelease | None:
        return self._by_id.get(id)

    def lookup(self, name: str) -> OsRelease | None:
        """The OS a short-id or an id names."""
        return self.by_short_id(name) or self.by_id(name)

    def nearest(self, short_id: str, limit: int = 3) -> tuple[str, ...]:
        """The short-ids spelt most like ``short_id``, best first: a did-you-mean."""
        return tuple(nearest(short_id, self._index, limit=limit))

    def line(self, prefix: str) -> tuple[OsRelease, ...]:
        """The releases of a line, in version order: ``rhel9`` is rhel9.0, rhel9.1, ...; ``fedora`` is fedora1 to
        fedora37; ``sle15`` is sle15 and sle15sp1, ...: every short-id that is ``prefix`` and a version."""
        found = [os for os in self.oses if any(in_line(s, prefix) for s in os.short_ids)]
        return tuple(sorted(found, key=lambda os: _version_key(os.version or os.short_id)))

    def newest_of(self, short_id: str) -> str | None:
        """The newest release the database knows of the line ``short_id`` would be in, when ``short_id`` comes after
        it (``rhel10.0`` after rhel9.1, ``win2k25`` after win2k22); None when the database knows no such line or
        ``short_id`` does not come after it: an unknown name it is, not one newer than the database."""
        split = _split(short_id)
        if split is None:
            return None
        prefix, version = split
        known = [(v, s) for os in self.oses for s in os.short_ids
                 for p, v in [_split(s) or ("", "")] if p == prefix and v]
        if not known:
            return None
        newest_version, newest = max(known, key=lambda pair: _version_key(pair[0]))
        return newest if _version_key(version) > _version_key(newest_version) else None


_VERSIONED = re.compile(r"^(.*?[a-z-])(\d+(?:\.\d+)*(?:sp\d+)?)$")


def _split(short_id: str) -> tuple[str, str] | None:
    """``rhel9.1`` -> (``rhel``, ``9.1``), ``win2k22`` -> (``win2k``, ``22``); None for a name without a version."""
    found = _VERSIONED.match(short_id)
    return (found.group(1), found.group(2)) if found else None


def in_line(short_id: str, prefix: str) -> bool:
    """Whether ``short_id`` is a release of the line ``prefix``: the prefix itself, or it followed by a version
    (after a dot when the prefix ends in a digit: rhel9 holds rhel9.1, not rhel91)."""
    if short_id == prefix:
        return True
    if not short_id.startswith(prefix):
        return False
    rest = short_id[len(prefix):]
    if prefix[-1].isdigit():
        return re.fullmatch(r"\.\d+(\.\d+)*", rest) is not None or re.fullmatch(r"sp\d+", rest) is not None
    return re.fullmatch(r"\d+(\.\d+)*(sp\d+)?", rest) is not None


def _version_key(version: str) -> tuple:
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"[.]|(?<=\d)(?=sp)", version))
