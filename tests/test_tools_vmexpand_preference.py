"""A VM filled from a preference, only where it leaves a value unset (generator/tools/vmexpand/preference.py)."""

from __future__ import annotations

from generator.tools.vmexpand import expand
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
