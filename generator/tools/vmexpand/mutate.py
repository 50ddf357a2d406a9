"""What KubeVirt's admission adds to a VirtualMachine before validating it.

A VM written without an architecture, a machine type, disks for its volumes or
a network still runs: KubeVirt's mutating webhook and its expansion defaults
fill them in. Doing the same here first means the checks and the expansion see
the VM KubeVirt would see, and the printed result is what ``virtctl expand``
prints.
"""

from __future__ import annotations

from typing import Any, Mapping, MutableMapping

from ._tree import get, items, path

DEFAULT_ARCHITECTURE = "amd64"

#: KubeVirt's default machine type for each architecture it supports.
MACHINE_TYPES = {"amd64": "q35", "arm64": "virt", "s390x": "s390-ccw-virtio"}

BRIDGE = "bridge"

#: The interface binding a cluster uses for the default pod network when nothing is set.
DEFAULT_NETWORK_INTERFACE = BRIDGE


class UnsupportedArchitecture(ValueError):
    """An architecture KubeVirt has no machine type for."""


def set_architecture(vmi_spec: MutableMapping[str, Any], preference: Mapping[str, Any] | None, default: str) -> None:
    """The VM's own architecture, else the preference's preferred one, else the cluster's."""
    if vmi_spec.get("architecture"):
        return
    preferred = get(preference, "preferredArchitecture")
    vmi_spec["architecture"] = preferred or default


def set_machine_type(vmi_spec: MutableMapping[str, Any], preference: Mapping[str, Any] | None) -> None:
    """The VM's machine type, else the preference's, else the default for its architecture."""
    machine = path(vmi_spec, "domain", "machine")
    if machine.get("type"):
        return
    preferred = get(preference, "machine", "preferredMachineType")
    if preferred:
        machine["type"] = preferred
        return
    arch = vmi_spec.get("architecture") or DEFAULT_ARCHITECTURE
    if arch not in MACHINE_TYPES:
        known = ", ".join(sorted(MACHINE_TYPES))
        raise UnsupportedArchitecture(f"unsupported architecture {arch!r} (KubeVirt supports {known})")
    machine["type"] = MACHINE_TYPES[arch]


def add_volume_disks(vmi_spec: MutableMapping[str, Any]) -> None:
    """A bare disk for every volume that no disk or filesystem names."""
    devices = path(vmi_spec, "domain", "devices")
    named = {d.get("name") for d in items(devices, "disks") if isinstance(d, dict)}
    named |= {f.get("name") for f in items(devices, "filesystems") if isinstance(f, dict)}
    for volume in items(vmi_spec, "volumes"):
        name = volume.get("name") if isinstance(volume, dict) else None
        if name is not None and name not in named:
            devices.setdefault("disks", [])
            if not isinstance(devices["disks"], list):
                devices["disks"] = []
            devices["disks"].append({"name": name})
            named.add(name)


def add_default_network(vmi_spec: MutableMapping[str, Any], binding: str = DEFAULT_NETWORK_INTERFACE) -> None:
    """The pod network and its interface, unless the VM names any network or interface or opts out."""
    devices = path(vmi_spec, "domain", "devices")
    if devices.get("autoattachPodInterface") is False:
        return
    if items(vmi_spec, "networks") or items(devices, "interfaces"):
        return
    devices["interfaces"] = [{"name": "default", binding: {}}]
    vmi_spec["networks"] = [{"name": "default", "pod": {}}]


def mutate(
    vmi_spec: MutableMapping[str, Any],
    preference: Mapping[str, Any] | None,
    *,
    arch: str = DEFAULT_ARCHITECTURE,
    network_interface: str = DEFAULT_NETWORK_INTERFACE,
) -> None:
    """Apply every creation-time default to ``vmi_spec`` in place, in KubeVirt's order."""
    set_architecture(vmi_spec, preference, arch)
    set_machine_type(vmi_spec, preference)
    add_volume_disks(vmi_spec)
    add_default_network(vmi_spec, network_interface)
