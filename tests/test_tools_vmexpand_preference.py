"""A VM filled from a preference, only where it leaves a value unset (generator/tools/vmexpand/preference.py)."""

from __future__ import annotations

import copy

import pytest

from generator.tools.vmexpand import expand
from generator.tools.vmexpand.preference import apply_preference
from tests.vmexpand_helpers import instancetype, template_spec, vm


def test_firmware_bios_and_deprecated_efi_flags() -> None:
    bios = template_spec(expand(vm(), None, {"firmware": {"preferredUseBios": True, "preferredUseBiosSerial": True}}))
    assert bios["domain"]["firmware"] == {"bootloader": {"bios": {"useSerial": True}}}
    efi = template_spec(expand(vm(), None, {"firmware": {"preferredUseEfi": True, "preferredUseSecureBoot": True}}))
    assert efi["domain"]["firmware"] == {"bootloader": {"efi": {"secureBoot": True}}}
    mine = vm(domain={"firmware": {"bootloader": {"efi": {"secureBoot": False}}}})
    kept = template_spec(expand(mine, None, {"firmware": {"preferredEfi": {"secureBoot": True, "persistent": True}}}))
    assert kept["domain"]["firmware"] == {"bootloader": {"efi": {"secureBoot": False}}}


def test_clock_offset_and_timers_fill_only_when_unset() -> None:
    preference = {"clock": {"preferredClockOffset": {"utc": {"offsetSeconds": 0}}, "preferredTimer": {"hpet": {"present": False}}}}
    filled = template_spec(expand(vm(), None, preference))
    assert filled["domain"]["clock"] == {"utc": {"offsetSeconds": 0}, "timer": {"hpet": {"present": False}}}
    mine = vm(domain={"clock": {"utc": {"offsetSeconds": 3600}}})
    kept = template_spec(expand(mine, None, preference))
    assert kept["domain"]["clock"] == {"utc": {"offsetSeconds": 3600}, "timer": {"hpet": {"present": False}}}


def test_device_preferences() -> None:
    preference = {"devices": {
        "preferredAutoattachGraphicsDevice": False, "preferredAutoattachSerialConsole": True,
        "preferredUseVirtioTransitional": True, "preferredBlockMultiQueue": True,
        "preferredNetworkInterfaceMultiQueue": True, "preferredDisableHotplug": True,
        "preferredSoundModel": "ich9", "preferredRng": {}, "preferredTPM": {"persistent": True},
        "preferredVideoType": "virtio", "preferredPanicDeviceModel": "isa",
    }}
    source = vm(domain={"devices": {"autoattachSerialConsole": False, "disableHotplug": False,
                                    "sound": {"name": "audio"}, "rng": {}}})
    devices = template_spec(expand(source, None, preference))["domain"]["devices"]
    assert devices["autoattachGraphicsDevice"] is False
    assert devices["autoattachSerialConsole"] is False  # the VM's own value wins
    assert devices["useVirtioTransitional"] is True
    assert devices["blockMultiQueue"] is True
    assert devices["networkInterfaceMultiqueue"] is True
    assert devices["disableHotplug"] is True  # KubeVirt cannot tell false from unset here
    assert devices["sound"] == {"name": "audio", "model": "ich9"}
    assert devices["tpm"] == {"persistent": True}
    assert devices["video"] == {"type": "virtio"}
    assert devices["panicDevices"] == [{"model": "isa"}]


def test_cpu_features_and_launch_security_and_subdomain() -> None:
    preference = {"cpu": {"preferredCPUFeatures": [{"name": "vmx", "policy": "require"}, {"name": "pcid"}]},
                  "preferredLaunchSecurity": {"sev": {}}, "preferredSubdomain": "lab"}
    source = vm(domain={"cpu": {"features": [{"name": "vmx", "policy": "disable"}]}})
    spec = template_spec(expand(source, None, preference))
    assert spec["domain"]["cpu"]["features"] == [{"name": "vmx", "policy": "disable"}, {"name": "pcid"}]
    assert spec["domain"]["launchSecurity"] == {"sev": {}}
    assert spec["subdomain"] == "lab"


def test_instancetype_launch_security_wins_over_the_preferences() -> None:
    spec = template_spec(expand(vm(), instancetype(launchSecurity={"tdx": {}}), {"preferredLaunchSecurity": {"sev": {}}}))
    assert spec["domain"]["launchSecurity"] == {"tdx": {}}


# -- each preference on a VM spec written here, through apply_preference -----------------------


def applied(preference: dict, vmi_spec: dict | None = None, metadata: dict | None = None) -> tuple[dict, dict]:
    vmi_spec = {} if vmi_spec is None else vmi_spec
    metadata = {} if metadata is None else metadata
    apply_preference(preference, vmi_spec, metadata)
    return vmi_spec, metadata


def devices_after(devices_pref: dict, devices: dict, **vmi_spec) -> dict:
    spec, _ = applied({"devices": devices_pref}, {"domain": {"devices": devices}, **vmi_spec})
    return spec["domain"]["devices"]


DISK_PREFS = {"preferredDiskBus": "virtio", "preferredDiskBlockSize": {"custom": {"logical": 512, "physical": 512}},
              "preferredDiskCache": "none", "preferredDiskIO": "native", "preferredDiskDedicatedIoThread": True,
              "preferredCdromBus": "sata", "preferredLunBus": "scsi"}


def test_a_disk_without_a_target_becomes_a_disk_and_takes_every_disk_preference() -> None:
    disks = devices_after(DISK_PREFS, {"disks": [{"name": "root"}]})["disks"]
    assert disks == [{"name": "root", "disk": {"bus": "virtio"},
                      "blockSize": {"custom": {"logical": 512, "physical": 512}},
                      "cache": "none", "io": "native", "dedicatedIOThread": True}]


def test_a_disk_keeps_its_own_bus_block_size_cache_io_and_io_thread() -> None:
    own = {"name": "root", "disk": {"bus": "virtio"}, "blockSize": {"matchVolume": {"enabled": True}},
           "cache": "writeback", "io": "threads", "dedicatedIOThread": False}
    disks = devices_after(DISK_PREFS, {"disks": [dict(own)]})["disks"]
    assert disks == [own]


def test_a_dedicated_io_thread_only_for_a_virtio_disk() -> None:
    disks = devices_after(DISK_PREFS, {"disks": [{"name": "a", "disk": {"bus": "sata"}}]})["disks"]
    assert "dedicatedIOThread" not in disks[0]
    disks = devices_after({"preferredDiskDedicatedIoThread": False},
                          {"disks": [{"name": "a", "disk": {"bus": "virtio"}}]})["disks"]
    assert disks[0]["dedicatedIOThread"] is False


def test_a_disk_gets_nothing_from_a_preference_without_disk_values() -> None:
    disks = devices_after({"preferredCdromBus": "sata"}, {"disks": [{"name": "a"}]})["disks"]
    assert disks == [{"name": "a", "disk": {}}]


def test_a_cdrom_takes_only_the_cdrom_bus() -> None:
    disks = devices_after(DISK_PREFS, {"disks": [{"name": "cd", "cdrom": {}}]})["disks"]
    assert disks == [{"name": "cd", "cdrom": {"bus": "sata"}}]
    disks = devices_after(DISK_PREFS, {"disks": [{"name": "cd", "cdrom": {"bus": "scsi"}}]})["disks"]
    assert disks == [{"name": "cd", "cdrom": {"bus": "scsi"}}]


def test_a_lun_takes_only_the_lun_bus() -> None:
    disks = devices_after(DISK_PREFS, {"disks": [{"name": "l", "lun": {}}]})["disks"]
    assert disks == [{"name": "l", "lun": {"bus": "scsi"}}]
    disks = devices_after(DISK_PREFS, {"disks": [{"name": "l", "lun": {"bus": "sata"}}]})["disks"]
    assert disks == [{"name": "l", "lun": {"bus": "sata"}}]


def test_every_disk_is_filled_on_its_own() -> None:
    disks = devices_after({"preferredDiskBus": "virtio", "preferredCdromBus": "sata"},
                          {"disks": [{"name": "a", "disk": {"bus": "scsi"}}, {"name": "b"},
                                     {"name": "c", "cdrom": {}}]})["disks"]
    assert disks == [{"name": "a", "disk": {"bus": "scsi"}}, {"name": "b", "disk": {"bus": "virtio"}},
                     {"name": "c", "cdrom": {"bus": "sata"}}]


def test_the_preferred_block_size_is_copied_not_shared() -> None:
    preference = {"devices": {"preferredDiskBlockSize": {"custom": {"logical": 512}}}}
    spec, _ = applied(preference, {"domain": {"devices": {"disks": [{"name": "a"}, {"name": "b"}]}}})
    first, second = spec["domain"]["devices"]["disks"]
    first["blockSize"]["custom"]["logical"] = 4096
    assert second["blockSize"] == {"custom": {"logical": 512}}
    assert preference["devices"]["preferredDiskBlockSize"] == {"custom": {"logical": 512}}


def test_interfaces_take_the_model_and_masquerade_on_the_pod_network_only() -> None:
    prefs = {"preferredInterfaceModel": "virtio", "preferredInterfaceMasquerade": {}}
    devices = devices_after(
        prefs,
        {"interfaces": [{"name": "default"}, {"name": "other"}, {"name": "bound", "bridge": {}},
                        {"name": "mine", "model": "e1000"}]},
        networks=[{"name": "default", "pod": {}}, {"name": "other", "multus": {"networkName": "x"}},
                  {"name": "bound", "pod": {}}, {"name": "mine", "pod": {}}],
    )
    assert devices["interfaces"] == [
        {"name": "default", "model": "virtio", "masquerade": {}},
        {"name": "other", "model": "virtio"},
        {"name": "bound", "bridge": {}, "model": "virtio"},
        {"name": "mine", "model": "e1000", "masquerade": {}},
    ]


@pytest.mark.parametrize("binding", ["bridge", "slirp", "masquerade", "sriov", "macvtap", "passt", "binding"])
def test_an_interface_with_any_binding_is_not_given_masquerade(binding) -> None:
    devices = devices_after({"preferredInterfaceMasquerade": {}},
                            {"interfaces": [{"name": "default", binding: {"x": 1}}]},
                            networks=[{"name": "default", "pod": {}}])
    assert devices["interfaces"] == [{"name": "default", binding: {"x": 1}}]


def test_no_masquerade_without_the_preference() -> None:
    devices = devices_after({"preferredInterfaceModel": "virtio"}, {"interfaces": [{"name": "default"}]},
                            networks=[{"name": "default", "pod": {}}])
    assert devices["interfaces"] == [{"name": "default", "model": "virtio"}]


def test_inputs_take_bus_and_type_unless_they_have_them() -> None:
    devices = devices_after({"preferredInputBus": "virtio", "preferredInputType": "tablet"},
                            {"inputs": [{"name": "a"}, {"name": "b", "bus": "usb", "type": "keyboard"}]})
    assert devices["inputs"] == [{"name": "a", "bus": "virtio", "type": "tablet"},
                                 {"name": "b", "bus": "usb", "type": "keyboard"}]
    devices = devices_after({"preferredInputType": "tablet"}, {"inputs": [{"name": "a"}]})
    assert devices["inputs"] == [{"name": "a", "type": "tablet"}]


def test_panic_devices_get_the_model_only_where_unset() -> None:
    devices = devices_after({"preferredPanicDeviceModel": "hyperv"}, {"panicDevices": [{}, {"model": "isa"}]})
    assert devices["panicDevices"] == [{"model": "hyperv"}, {"model": "isa"}]
    assert "panicDevices" not in devices_after({}, {})


def test_device_flags_fill_only_when_the_vm_has_none() -> None:
    flags = {"preferredUseVirtioTransitional": True, "preferredBlockMultiQueue": True,
             "preferredNetworkInterfaceMultiQueue": True}
    own = {"useVirtioTransitional": False, "blockMultiQueue": False, "networkInterfaceMultiqueue": False}
    assert {k: v for k, v in devices_after(flags, dict(own)).items() if k in own} == own


def test_every_autoattach_preference_fills_when_unset_and_never_overrides() -> None:
    names = ["GraphicsDevice", "MemBalloon", "PodInterface", "SerialConsole", "InputDevice"]
    prefs = {f"preferredAutoattach{n}": False for n in names}
    devices = devices_after(prefs, {})
    assert {k: devices[k] for k in devices if k.startswith("autoattach")} == {f"autoattach{n}": False for n in names}
    own = {f"autoattach{n}": True for n in names}
    devices = devices_after(prefs, dict(own))
    assert {k: devices[k] for k in devices if k.startswith("autoattach")} == own


def test_disable_hotplug_is_always_taken_from_the_preference() -> None:
    assert devices_after({"preferredDisableHotplug": False}, {"disableHotplug": True})["disableHotplug"] is False
    assert devices_after({}, {"disableHotplug": True})["disableHotplug"] is True


def test_sound_model_only_for_a_vm_with_a_sound_device_without_model() -> None:
    assert "sound" not in devices_after({"preferredSoundModel": "ich9"}, {})
    assert devices_after({"preferredSoundModel": "ich9"}, {"sound": {"name": "s", "model": "ac97"}})["sound"] == {
        "name": "s", "model": "ac97"}


def test_rng_tpm_and_video_fill_only_when_unset() -> None:
    prefs = {"preferredRng": {}, "preferredTPM": {"persistent": True}, "preferredVideoType": "virtio"}
    devices = devices_after(prefs, {})
    assert (devices["rng"], devices["tpm"], devices["video"]) == ({}, {"persistent": True}, {"type": "virtio"})
    devices = devices_after(prefs, {"tpm": {"persistent": False}, "video": {"type": "vga"}})
    assert (devices["tpm"], devices["video"]) == ({"persistent": False}, {"type": "vga"})
    assert "video" not in devices_after({}, {})


def test_features_fill_one_by_one_and_acpi_always_wins() -> None:
    wanted = {"preferredAcpi": {"enabled": True}, "preferredApic": {"enabled": True}, "preferredKvm": {"hidden": True},
              "preferredPvspinlock": {"enabled": False}, "preferredSmm": {"enabled": True},
              "preferredHyperv": {"relaxed": {"enabled": True}, "vapic": {"enabled": True}}}
    spec, _ = applied({"features": wanted})
    assert spec["domain"]["features"] == {"acpi": {"enabled": True}, "apic": {"enabled": True},
                                          "hyperv": {"relaxed": {"enabled": True}, "vapic": {"enabled": True}},
                                          "kvm": {"hidden": True}, "pvspinlock": {"enabled": False},
                                          "smm": {"enabled": True}}
    own = {"acpi": {"enabled": False}, "apic": {"enabled": False}, "kvm": {"hidden": False},
           "pvspinlock": {"enabled": True}, "smm": {"enabled": False}, "hyperv": {"relaxed": {"enabled": False}}}
    spec, _ = applied({"features": wanted}, {"domain": {"features": copy.deepcopy(own)}})
    assert spec["domain"]["features"] == {**own, "acpi": {"enabled": True},
                                          "hyperv": {"relaxed": {"enabled": False}, "vapic": {"enabled": True}}}


def test_hyperv_passthrough_takes_no_hyperv_preferences() -> None:
    spec, _ = applied({"features": {"preferredHyperv": {"relaxed": {}}}},
                      {"domain": {"features": {"hypervPassthrough": {"enabled": True}}}})
    assert spec["domain"]["features"] == {"hypervPassthrough": {"enabled": True}}
    spec, _ = applied({"features": {"preferredHyperv": {"relaxed": {}}}},
                      {"domain": {"features": {"hypervPassthrough": {"enabled": False}}}})
    assert spec["domain"]["features"]["hyperv"] == {"relaxed": {}}


def test_bios_serial_and_secure_boot_follow_the_vms_own_bootloader() -> None:
    spec, _ = applied({"firmware": {"preferredUseBiosSerial": True, "preferredUseSecureBoot": True}},
                      {"domain": {"firmware": {"bootloader": {"bios": {}}}}})
    assert spec["domain"]["firmware"] == {"bootloader": {"bios": {"useSerial": True}}}
    spec, _ = applied({"firmware": {"preferredUseBiosSerial": True, "preferredUseSecureBoot": False}},
                      {"domain": {"firmware": {"bootloader": {"efi": {}}}}})
    assert spec["domain"]["firmware"] == {"bootloader": {"efi": {"secureBoot": False}}}


def test_a_vm_with_a_bootloader_takes_no_other() -> None:
    spec, _ = applied({"firmware": {"preferredUseBios": True}}, {"domain": {"firmware": {"bootloader": {"efi": {}}}}})
    assert spec["domain"]["firmware"] == {"bootloader": {"efi": {}}}
    spec, _ = applied({"firmware": {"preferredUseEfi": True}}, {"domain": {"firmware": {"bootloader": {"bios": {}}}}})
    assert spec["domain"]["firmware"] == {"bootloader": {"bios": {}}}
    spec, _ = applied({"firmware": {"preferredEfi": {"persistent": True}}},
                      {"domain": {"firmware": {"bootloader": {"bios": {}}}}})
    assert spec["domain"]["firmware"] == {"bootloader": {"bios": {}}}


def test_preferred_efi_is_copied_whole_and_the_deprecated_flags_are_then_ignored() -> None:
    preference = {"firmware": {"preferredEfi": {"persistent": True}, "preferredUseSecureBoot": True,
                               "preferredUseBios": False}}
    spec, _ = applied(preference)
    assert spec["domain"]["firmware"] == {"bootloader": {"efi": {"persistent": True}}}
    spec["domain"]["firmware"]["bootloader"]["efi"]["persistent"] = False
    assert preference["firmware"]["preferredEfi"] == {"persistent": True}


def test_use_efi_false_or_bios_false_choose_nothing() -> None:
    spec, _ = applied({"firmware": {"preferredUseEfi": False, "preferredUseBios": False}})
    assert spec["domain"]["firmware"] == {"bootloader": {}}


def test_the_machine_type_fills_an_empty_one_only() -> None:
    spec, _ = applied({"machine": {"preferredMachineType": "pc-q35-9.0"}}, {"domain": {"machine": {"type": ""}}})
    assert spec["domain"]["machine"] == {"type": "pc-q35-9.0"}
    spec, _ = applied({"machine": {"preferredMachineType": "pc-q35-9.0"}}, {"domain": {"machine": {"type": "q35"}}})
    assert spec["domain"]["machine"] == {"type": "q35"}
    spec, _ = applied({"machine": {}})
    assert "machine" not in spec.get("domain", {})


def test_a_timezone_keeps_the_preferred_offset_out() -> None:
    preference = {"clock": {"preferredClockOffset": {"utc": {}}, "preferredTimer": {"rtc": {}}}}
    spec, _ = applied(preference, {"domain": {"clock": {"timezone": "Europe/Rome", "timer": {"hpet": {}}}}})
    assert spec["domain"]["clock"] == {"timezone": "Europe/Rome", "timer": {"hpet": {}}}
    spec, _ = applied({"clock": {"preferredTimer": {"rtc": {}}}})
    assert spec["domain"]["clock"] == {"timer": {"rtc": {}}}


def test_subdomain_grace_period_and_annotations_fill_what_the_vm_leaves_unset() -> None:
    preference = {"preferredSubdomain": "lab", "preferredTerminationGracePeriodSeconds": 30,
                  "annotations": {"a": "from-preference", "b": "2"}}
    spec, metadata = applied(preference)
    assert (spec["subdomain"], spec["terminationGracePeriodSeconds"]) == ("lab", 30)
    assert metadata == {"annotations": {"a": "from-preference", "b": "2"}}
    spec, metadata = applied(preference, {"subdomain": "mine", "terminationGracePeriodSeconds": 0},
                             {"annotations": {"a": "mine"}})
    assert (spec["subdomain"], spec["terminationGracePeriodSeconds"]) == ("mine", 0)
    assert metadata == {"annotations": {"a": "mine", "b": "2"}}
    spec, _ = applied(preference, {"subdomain": ""})
    assert spec["subdomain"] == "lab"


def test_cpu_features_are_added_to_the_vms_list_by_name_and_copied() -> None:
    preference = {"cpu": {"preferredCPUFeatures": [{"name": "pcid", "policy": "require"}]}}
    spec, _ = applied(preference)
    assert spec["domain"]["cpu"]["features"] == [{"name": "pcid", "policy": "require"}]
    spec["domain"]["cpu"]["features"][0]["policy"] = "forbid"
    assert preference["cpu"]["preferredCPUFeatures"] == [{"name": "pcid", "policy": "require"}]
    spec, _ = applied({"cpu": {"preferredCPUFeatures": []}})
    assert "cpu" not in spec.get("domain", {})


def test_no_preference_changes_nothing() -> None:
    spec, metadata = {"domain": {}}, {}
    apply_preference(None, spec, metadata)
    assert (spec, metadata) == ({"domain": {}}, {})


def test_the_launch_security_fills_an_unset_one_only() -> None:
    spec, _ = applied({"preferredLaunchSecurity": {"sev": {}}}, {"domain": {"launchSecurity": {"snp": {}}}})
    assert spec["domain"]["launchSecurity"] == {"snp": {}}


def test_a_vms_own_bios_is_not_replaced_by_the_preferred_one() -> None:
    spec, _ = applied({"firmware": {"preferredUseBios": True, "preferredUseBiosSerial": True}},
                      {"domain": {"firmware": {"bootloader": {"bios": {"useSerial": False}}}}})
    assert spec["domain"]["firmware"] == {"bootloader": {"bios": {"useSerial": False}}}


def test_a_vms_own_efi_is_not_replaced_by_the_deprecated_efi_flag() -> None:
    spec, _ = applied({"firmware": {"preferredUseEfi": True, "preferredUseSecureBoot": True}},
                      {"domain": {"firmware": {"bootloader": {"efi": {"persistent": True}}}}})
    assert spec["domain"]["firmware"] == {"bootloader": {"efi": {"persistent": True, "secureBoot": True}}}


def test_the_preferred_clock_offset_is_copied_not_shared() -> None:
    preference = {"clock": {"preferredClockOffset": {"utc": {"offsetSeconds": 0}}}}
    spec, _ = applied(preference)
    spec["domain"]["clock"]["utc"]["offsetSeconds"] = 3600
    assert preference["clock"]["preferredClockOffset"] == {"utc": {"offsetSeconds": 0}}
