"""Filling a VM from a preference: only what the VM leaves unset.

A preference never overrides the user. Each value is applied only where the VM
has none, disk by disk, interface by interface and input by input, so a VM can
mix a preferred virtio disk bus with its own SATA CD-ROM. Two exceptions are
kept from KubeVirt because its API cannot tell "unset" from "false" there:
ACPI and disableHotplug are always taken from the preference when it names them.
"""

from __future__ import annotations

from typing import Any, Mapping, MutableMapping

from ._tree import child, get, is_empty, is_unset, items, path, tree_copy

Spec = MutableMapping[str, Any]

#: Interface fields that choose a binding; with none of them the VM left the binding unset.
_BINDINGS = ("bridge", "slirp", "masquerade", "sriov", "macvtap", "passt", "binding")

_AUTOATTACH = {
    "preferredAutoattachGraphicsDevice": "autoattachGraphicsDevice",
    "preferredAutoattachMemBalloon": "autoattachMemBalloon",
    "preferredAutoattachPodInterface": "autoattachPodInterface",
    "preferredAutoattachSerialConsole": "autoattachSerialConsole",
    "preferredAutoattachInputDevice": "autoattachInputDevice",
}

_DEVICE_FLAGS = {
    "preferredUseVirtioTransitional": "useVirtioTransitional",
    "preferredBlockMultiQueue": "blockMultiQueue",
    "preferredNetworkInterfaceMultiQueue": "networkInterfaceMultiqueue",
}

_FEATURES = {
    "preferredApic": "apic",
    "preferredKvm": "kvm",
    "preferredPvspinlock": "pvspinlock",
    "preferredSmm": "smm",
}


def _fill(target: MutableMapping[str, Any], key: str, value: Any) -> None:
    """Set ``key`` to a copy of ``value`` when the preference has one and the VM has none."""
    if value is not None and is_unset(target, key):
        target[key] = tree_copy(value)


def apply_cpu_features(preference: Mapping[str, Any], vmi_spec: Spec) -> None:
    preferred = get(preference, "cpu", "preferredCPUFeatures") or []
    if not preferred:
        return
    cpu = path(vmi_spec, "domain", "cpu")
    features = cpu.get("features") if isinstance(cpu.get("features"), list) else []
    present = {f.get("name") for f in features if isinstance(f, dict)}
    for feature in preferred:
        if feature.get("name") not in present:
            features.append(tree_copy(feature))
    cpu["features"] = features


def apply_disks(devices_pref: Mapping[str, Any], devices: MutableMapping[str, Any]) -> None:
    """Per disk: bus, block size, cache, IO and a dedicated IO thread for virtio disks."""
    for disk in items(devices, "disks"):
        if is_unset(disk, "disk") and is_unset(disk, "cdrom") and is_unset(disk, "lun"):
            disk["disk"] = {}
        if not is_unset(disk, "disk"):
            target = disk["disk"]
            if devices_pref.get("preferredDiskBus") and is_empty(target, "bus"):
                target["bus"] = devices_pref["preferredDiskBus"]
            _fill(disk, "blockSize", devices_pref.get("preferredDiskBlockSize"))
            if devices_pref.get("preferredDiskCache") and is_empty(disk, "cache"):
                disk["cache"] = devices_pref["preferredDiskCache"]
            if devices_pref.get("preferredDiskIO") and is_empty(disk, "io"):
                disk["io"] = devices_pref["preferredDiskIO"]
            dedicated = devices_pref.get("preferredDiskDedicatedIoThread")
            if dedicated is not None and is_unset(disk, "dedicatedIOThread") and target.get("bus") == "virtio":
                disk["dedicatedIOThread"] = dedicated
        elif not is_unset(disk, "cdrom"):
            if devices_pref.get("preferredCdromBus") and is_empty(disk["cdrom"], "bus"):
                disk["cdrom"]["bus"] = devices_pref["preferredCdromBus"]
        elif not is_unset(disk, "lun"):
            if devices_pref.get("preferredLunBus") and is_empty(disk["lun"], "bus"):
                disk["lun"]["bus"] = devices_pref["preferredLunBus"]


def apply_interfaces(devices_pref: Mapping[str, Any], devices: MutableMapping[str, Any], vmi_spec: Spec) -> None:
    """Per interface: the model, and masquerade for an unbound interface on the pod network."""
    pod_networks = {n.get("name") for n in items(vmi_spec, "networks") if isinstance(n, dict) and n.get("pod") is not None}
    for iface in items(devices, "interfaces"):
        if devices_pref.get("preferredInterfaceModel") and is_empty(iface, "model"):
            iface["model"] = devices_pref["preferredInterfaceModel"]
        masquerade = devices_pref.get("preferredInterfaceMasquerade")
        unbound = all(is_unset(iface, key) for key in _BINDINGS)
        if masquerade is not None and unbound and iface.get("name") in pod_networks:
            iface["masquerade"] = tree_copy(masquerade)


def apply_inputs(devices_pref: Mapping[str, Any], devices: MutableMapping[str, Any]) -> None:
    """Per input device: bus and type."""
    for device in items(devices, "inputs"):
        if devices_pref.get("preferredInputBus") and is_empty(device, "bus"):
            device["bus"] = devices_pref["preferredInputBus"]
        if devices_pref.get("preferredInputType") and is_empty(device, "type"):
            device["type"] = devices_pref["preferredInputType"]


def apply_panic_devices(devices_pref: Mapping[str, Any], devices: MutableMapping[str, Any]) -> None:
    model = devices_pref.get("preferredPanicDeviceModel")
    if model is None:
        return
    panic = items(devices, "panicDevices")
    if not panic:
        devices["panicDevices"] = [{"model": model}]
        return
    for device in panic:
        if is_unset(device, "model"):
            device["model"] = model


def apply_devices(preference: Mapping[str, Any], vmi_spec: Spec) -> None:
    devices_pref = preference.get("devices")
    if not isinstance(devices_pref, dict):
        return
    devices = path(vmi_spec, "domain", "devices")
    for pref_key, vm_key in _DEVICE_FLAGS.items():
        _fill(devices, vm_key, devices_pref.get(pref_key))
    if devices_pref.get("preferredDisableHotplug") is not None:
        devices["disableHotplug"] = devices_pref["preferredDisableHotplug"]
    sound = devices.get("sound")
    if devices_pref.get("preferredSoundModel") and isinstance(sound, dict) and is_empty(sound, "model"):
        sound["model"] = devices_pref["preferredSoundModel"]
    _fill(devices, "rng", devices_pref.get("preferredRng"))
    _fill(devices, "tpm", devices_pref.get("preferredTPM"))
    if devices_pref.get("preferredVideoType") is not None:
        video = child(devices, "video")
        if is_empty(video, "type"):
            video["type"] = devices_pref["preferredVideoType"]
    for pref_key, vm_key in _AUTOATTACH.items():
        _fill(devices, vm_key, devices_pref.get(pref_key))
    apply_disks(devices_pref, devices)
    apply_interfaces(devices_pref, devices, vmi_spec)
    apply_inputs(devices_pref, devices)
    apply_panic_devices(devices_pref, devices)


def apply_features(preference: Mapping[str, Any], vmi_spec: Spec) -> None:
    """ACPI, APIC, Hyper-V enlightenments one by one, KVM, pvspinlock and SMM."""
    wanted = preference.get("features")
    if not isinstance(wanted, dict):
        return
    features = path(vmi_spec, "domain", "features")
    if wanted.get("preferredAcpi") is not None:
        features["acpi"] = tree_copy(wanted["preferredAcpi"])
    _fill(features, "apic", wanted.get("preferredApic"))
    hyperv = wanted.get("preferredHyperv")
    passthrough = get(features, "hypervPassthrough", "enabled") is True
    if isinstance(hyperv, dict) and not passthrough:
        vm_hyperv = child(features, "hyperv")
        for name, value in hyperv.items():
            _fill(vm_hyperv, name, value)
    for pref_key, vm_key in _FEATURES.items():
        _fill(features, vm_key, wanted.get(pref_key))


def apply_firmware(preference: Mapping[str, Any], vmi_spec: Spec) -> None:
    """BIOS or EFI (with secure boot and persistence) unless the VM chose a bootloader."""
    wanted = preference.get("firmware")
    if not isinstance(wanted, dict):
        return
    bootloader = path(vmi_spec, "domain", "firmware", "bootloader")
    if wanted.get("preferredUseBios") is True and is_unset(bootloader, "bios") and is_unset(bootloader, "efi"):
        bootloader["bios"] = {}
    if wanted.get("preferredUseBiosSerial") is not None and not is_unset(bootloader, "bios"):
        _fill(bootloader["bios"], "useSerial", wanted["preferredUseBiosSerial"])
    if is_unset(bootloader, "efi") and is_unset(bootloader, "bios") and wanted.get("preferredEfi") is not None:
        bootloader["efi"] = tree_copy(wanted["preferredEfi"])
        return
    if wanted.get("preferredUseEfi") is True and is_unset(bootloader, "efi") and is_unset(bootloader, "bios"):
        bootloader["efi"] = {}
    if wanted.get("preferredUseSecureBoot") is not None and not is_unset(bootloader, "efi"):
        _fill(bootloader["efi"], "secureBoot", wanted["preferredUseSecureBoot"])


def apply_machine(preference: Mapping[str, Any], vmi_spec: Spec) -> None:
    preferred = get(preference, "machine", "preferredMachineType")
    if preferred:
        machine = path(vmi_spec, "domain", "machine")
        if is_empty(machine, "type"):
            machine["type"] = preferred


def apply_clock(preference: Mapping[str, Any], vmi_spec: Spec) -> None:
    """The clock offset only when the VM sets neither UTC nor a timezone; timers only when it sets none."""
    wanted = preference.get("clock")
    if not isinstance(wanted, dict):
        return
    clock = path(vmi_spec, "domain", "clock")
    offset = wanted.get("preferredClockOffset")
    if offset is not None and is_unset(clock, "utc") and is_unset(clock, "timezone"):
        clock.update(tree_copy(offset))
    _fill(clock, "timer", wanted.get("preferredTimer"))


def apply_launch_security(preference: Mapping[str, Any], vmi_spec: Spec) -> None:
    _fill(path(vmi_spec, "domain"), "launchSecurity", preference.get("preferredLaunchSecurity"))


def apply_annotations(preference: Mapping[str, Any], metadata: MutableMapping[str, Any]) -> None:
    annotations = child(metadata, "annotations")
    for key, value in sorted((preference.get("annotations") or {}).items()):
        annotations.setdefault(key, value)


def apply_preference(preference: Mapping[str, Any] | None, vmi_spec: Spec, metadata: MutableMapping[str, Any]) -> None:
    """Fill ``vmi_spec`` and the template ``metadata`` from ``preference`` in KubeVirt's order."""
    if preference is None:
        return
    apply_cpu_features(preference, vmi_spec)
    apply_devices(preference, vmi_spec)
    apply_features(preference, vmi_spec)
    apply_firmware(preference, vmi_spec)
    apply_machine(preference, vmi_spec)
    apply_clock(preference, vmi_spec)
    if is_empty(vmi_spec, "subdomain") and preference.get("preferredSubdomain") is not None:
        vmi_spec["subdomain"] = preference["preferredSubdomain"]
    _fill(vmi_spec, "terminationGracePeriodSeconds", preference.get("preferredTerminationGracePeriodSeconds"))
    apply_launch_security(preference, vmi_spec)
    apply_annotations(preference, metadata)
