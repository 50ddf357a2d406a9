"""The expansion's parts, one KubeVirt behaviour per test, on objects written here."""

from __future__ import annotations

import copy

import pytest

from generator.tools.vmexpand import MatcherError, UnusableInput, expand, expand_with, resolve
from generator.tools.vmexpand.goquantity import go_string
from generator.tools.vmexpand.requirements import check as check_requirements
from generator.tools.vmexpand.topology import check_spread, guest_topology


def vm(**template_spec) -> dict:
    spec = {"domain": {}}
    spec.update(template_spec)
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "t"},
            "spec": {"template": {"spec": spec}}}


def instancetype(cpu: int = 2, memory: str = "2Gi", **extra) -> dict:
    spec = {"cpu": {"guest": cpu}, "memory": {"guest": memory}}
    for key, value in extra.items():
        if key in ("cpu_extra", "memory_extra"):
            spec[key.split("_")[0]].update(value)
        else:
            spec[key] = value
    return spec


def template_spec(result) -> dict:
    assert result.errors == ()
    return result.vm["spec"]["template"]["spec"]


# -- CPU topology --------------------------------------------------------------------------

@pytest.mark.parametrize(
    "preference, vcpus, expected",
    [
        (None, 4, {"sockets": 4, "cores": 1, "threads": 1}),
        ({"cpu": {"preferredCPUTopology": "cores"}}, 4, {"sockets": 1, "cores": 4, "threads": 1}),
        ({"cpu": {"preferredCPUTopology": "threads"}}, 4, {"sockets": 1, "cores": 1, "threads": 4}),
        ({"cpu": {"preferredCPUTopology": "any"}}, 4, {"sockets": 4, "cores": 1, "threads": 1}),
        ({"cpu": {"preferredCPUTopology": "preferCores"}}, 4, {"sockets": 1, "cores": 4, "threads": 1}),
        ({"cpu": {"preferredCPUTopology": "spread"}}, 8, {"sockets": 4, "cores": 2, "threads": 1}),
        ({"cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"ratio": 4}}}, 8,
         {"sockets": 2, "cores": 4, "threads": 1}),
        ({"preferSpreadSocketToCoreRatio": 4, "cpu": {"preferredCPUTopology": "spread"}}, 8,
         {"sockets": 2, "cores": 4, "threads": 1}),
        ({"cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"across": "CoresThreads"}}}, 8,
         {"sockets": 1, "cores": 4, "threads": 2}),
        ({"cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"across": "SocketsCoresThreads", "ratio": 4}}},
         16, {"sockets": 2, "cores": 4, "threads": 2}),
        ({"cpu": {"preferredCPUTopology": "cores"}}, 1, {"sockets": 1, "cores": 1, "threads": 1}),
    ],
)
def test_guest_topology(preference, vcpus, expected) -> None:
    assert guest_topology(vcpus, preference) == expected
    # whatever the layout, the guest sees exactly the instancetype's vCPUs
    assert expected["sockets"] * expected["cores"] * expected["threads"] == vcpus


@pytest.mark.parametrize(
    "across, ratio, vcpus, message",
    [
        ("SocketsCores", 3, 4, "4 vCPUs provided by the instance type are not divisible by the "
         "Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of 3 provided by the preference"),
        ("CoresThreads", 3, 4, "4 vCPUs provided by the instance type are not divisible by the number of "
         "threads per core 3"),
        ("SocketsCoresThreads", 2, 6, "6 vCPUs provided by the instance type are not divisible by the number of "
         "threads per core 2 and Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of 2"),
    ],
)
def test_spread_refusals(across, ratio, vcpus, message) -> None:
    preference = {"cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"across": across, "ratio": ratio}}}
    error = check_spread({"cpu": {"guest": vcpus}}, preference)
    assert (error.field, error.message, error.reason) == ("instancetype.spec.cpu.guest", message, "topology")
    assert check_spread({"cpu": {"guest": vcpus * ratio * 2}}, preference) is None


def test_spread_is_not_checked_for_other_topologies_or_without_instancetype() -> None:
    assert check_spread({"cpu": {"guest": 3}}, {"cpu": {"preferredCPUTopology": "cores"}}) is None
    assert check_spread(None, {"cpu": {"preferredCPUTopology": "spread"}}) is None


# -- requirements ---------------------------------------------------------------------------

def test_requirements_against_the_vm_without_instancetype() -> None:
    preference = {"cpu": {"preferredCPUTopology": "cores"}, "requirements": {"cpu": {"guest": 4}}}
    error = check_requirements(None, preference, {"domain": {"cpu": {"cores": 2}}})
    assert str(error) == ("spec.template.spec.domain.cpu.cores: insufficient CPU resources of 2 vCPU provided by "
                          "VirtualMachine, preference requires 4 vCPU provided as cores")
    error = check_requirements(None, preference, {"domain": {}})
    assert str(error) == ("spec.template.spec.domain.cpu: no CPU resources provided by VirtualMachine, "
                          "preference requires 4 vCPU")
    assert check_requirements(None, preference, {"domain": {"cpu": {"cores": 4}}}) is None


def test_requirements_any_and_spread_count_the_product() -> None:
    any_pref = {"cpu": {"preferredCPUTopology": "any"}, "requirements": {"cpu": {"guest": 8}}}
    error = check_requirements(None, any_pref, {"domain": {"cpu": {"cores": 2, "sockets": 2, "threads": 1}}})
    assert error.field == ("spec.template.spec.domain.cpu.cores, spec.template.spec.domain.cpu.sockets, "
                           "spec.template.spec.domain.cpu.threads")
    assert error.message.endswith("of 4 vCPU provided by VirtualMachine, preference requires 8 vCPU "
                                  "provided as cores, sockets and threads")
    spread = {"cpu": {"preferredCPUTopology": "spread"}, "requirements": {"cpu": {"guest": 8}}}
    error = check_requirements(None, spread, {"domain": {"cpu": {"cores": 2, "sockets": 2, "threads": 2}}})
    assert error.message.endswith("of 4 vCPU provided by VirtualMachine, preference requires 8 vCPU provided as SocketsCores")


def test_memory_requirement_against_the_vm() -> None:
    preference = {"requirements": {"memory": {"guest": "1.5Gi"}}}
    error = check_requirements(None, preference, {"domain": {"memory": {"guest": "1Gi"}}})
    assert str(error) == ("spec.template.spec.domain.memory: insufficient Memory resources of 1Gi provided by "
                          "VirtualMachine, preference requires 1536Mi")
    assert check_requirements(None, preference, {"domain": {"memory": {"guest": "1536Mi"}}}) is None


def test_requirements_compare_quantities_not_text() -> None:
    preference = {"requirements": {"memory": {"guest": "1024Mi"}}}
    assert check_requirements({"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}}, preference, {}) is None


@pytest.mark.parametrize("text, printed", [("1.5Gi", "1536Mi"), ("2Gi", "2Gi"), ("1000M", "1G"), ("0.5", "500m"),
                                           ("1536", "1536"), ("1e3", "1e3"), ("100Mi", "100Mi")])
def test_quantities_print_as_go_prints_them(text, printed) -> None:
    assert go_string(text) == printed


# -- instancetype ---------------------------------------------------------------------------

def test_instancetype_values_are_written_into_the_domain() -> None:
    it = {
        "cpu": {"guest": 4, "model": "host-passthrough", "dedicatedCPUPlacement": True, "isolateEmulatorThread": True,
                "numa": {"guestMappingPassthrough": {}}, "realtime": {"mask": "0"}, "maxSockets": 8},
        "memory": {"guest": "4Gi", "hugepages": {"pageSize": "1Gi"}, "maxGuest": "8Gi"},
        "ioThreadsPolicy": "auto",
        "ioThreads": {"supplementalPoolThreadCount": 2},
        "launchSecurity": {"sev": {}},
        "gpus": [{"name": "gpu1", "deviceName": "nvidia.com/A10"}],
        "hostDevices": [{"name": "dev1", "deviceName": "example.com/dev"}],
        "nodeSelector": {"gpu": "yes"},
        "schedulerName": "realtime-scheduler",
        "annotations": {"cpu-quota.crio.io": "disable"},
    }
    result = expand(vm(), it, None)
    spec = template_spec(result)
    domain = spec["domain"]
    assert domain["cpu"] == {"model": "host-passthrough", "dedicatedCpuPlacement": True, "isolateEmulatorThread": True,
                             "numa": {"guestMappingPassthrough": {}}, "realtime": {"mask": "0"}, "maxSockets": 8,
                             "sockets": 4, "cores": 1, "threads": 1}
    assert domain["memory"] == {"guest": "4Gi", "hugepages": {"pageSize": "1Gi"}, "maxGuest": "8Gi"}
    assert domain["ioThreadsPolicy"] == "auto"
    assert domain["ioThreads"] == {"supplementalPoolThreadCount": 2}
    assert domain["launchSecurity"] == {"sev": {}}
    assert domain["devices"]["gpus"] == it["gpus"]
    assert domain["devices"]["hostDevices"] == it["hostDevices"]
    assert spec["nodeSelector"] == {"gpu": "yes"}
    assert spec["schedulerName"] == "realtime-scheduler"
    assert result.vm["spec"]["template"]["metadata"]["annotations"] == {"cpu-quota.crio.io": "disable"}


@pytest.mark.parametrize(
    "vm_domain, it_extra, field",
    [
        ({"cpu": {"model": "Haswell"}}, {"cpu": {"model": "host-passthrough"}}, "domain.cpu.model"),
        ({"cpu": {"isolateEmulatorThread": True}}, {"cpu": {"isolateEmulatorThread": True}},
         "domain.cpu.isolateEmulatorThread"),
        ({"cpu": {"numa": {"guestMappingPassthrough": {}}}}, {"cpu": {"numa": {"guestMappingPassthrough": {}}}},
         "domain.cpu.numa"),
        ({"cpu": {"realtime": {}}}, {"cpu": {"realtime": {}}}, "domain.cpu.realtime"),
        ({"resources": {"limits": {"cpu": "2"}}}, {}, "domain.resources.limits.cpu"),
        ({"memory": {"hugepages": {"pageSize": "2Mi"}}}, {"memory": {"hugepages": {"pageSize": "1Gi"}}},
         "domain.memory.hugepages"),
        ({"resources": {"requests": {"memory": "1Gi"}}}, {}, "domain.resources.requests.memory"),
        ({"ioThreadsPolicy": "shared"}, {"ioThreadsPolicy": "auto"}, "domain.ioThreadsPolicy"),
        ({"launchSecurity": {}}, {"launchSecurity": {"sev": {}}}, "domain.launchSecurity"),
        ({"devices": {"hostDevices": [{"name": "x", "deviceName": "y"}]}},
         {"hostDevices": [{"name": "a", "deviceName": "b"}]}, "domain.devices.hostDevices"),
    ],
)
def test_a_field_both_set_is_a_conflict(vm_domain, it_extra, field) -> None:
    it = instancetype(cpu=2)
    for key, value in it_extra.items():
        if isinstance(value, dict) and key in it:
            it[key].update(value)
        else:
            it[key] = value
    result = expand(vm(domain=vm_domain), it, None)
    path = f"spec.template.spec.{field}"
    assert [str(e) for e in result.errors] == [f"{path}: VM field(s) {path} conflicts with selected instance type"]


def test_vm_values_the_instancetype_does_not_set_are_not_conflicts() -> None:
    result = expand(vm(domain={"cpu": {"model": "Haswell", "dedicatedCpuPlacement": True}, "ioThreadsPolicy": "shared"},
                       schedulerName="mine"), instancetype(), None)
    spec = template_spec(result)
    assert spec["domain"]["cpu"]["model"] == "Haswell"
    assert spec["domain"]["ioThreadsPolicy"] == "shared"
    assert spec["schedulerName"] == "mine"


def test_an_equal_annotation_is_not_a_conflict() -> None:
    source = vm()
    source["spec"]["template"]["metadata"] = {"annotations": {"a": "1"}}
    result = expand(source, instancetype(annotations={"a": "1", "b": "2"}), None)
    assert result.vm["spec"]["template"]["metadata"]["annotations"] == {"a": "1", "b": "2"}


def test_overcommit_lowers_the_memory_request_in_single_precision() -> None:
    spec = template_spec(expand(vm(), instancetype(memory="1Gi", memory_extra={"overcommitPercent": 10}), None))
    # float32(1 - 0.1) is 0.89999998; Go truncates 1Gi x that to a whole number of bytes.
    assert spec["domain"]["resources"]["requests"]["memory"] == "966367616"


# -- preference -----------------------------------------------------------------------------

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


# -- mutation, matchers and input -------------------------------------------------------------

def test_architecture_and_machine_type() -> None:
    assert template_spec(expand(vm(), None, None))["architecture"] == "amd64"
    arm = template_spec(expand(vm(), None, None, arch="arm64"))
    assert (arm["architecture"], arm["domain"]["machine"]) == ("arm64", {"type": "virt"})
    own = template_spec(expand(vm(architecture="s390x"), None, {"preferredArchitecture": "arm64"}))
    assert (own["architecture"], own["domain"]["machine"]) == ("s390x", {"type": "s390-ccw-virtio"})
    preferred = template_spec(expand(vm(), None, {"machine": {"preferredMachineType": "pc-q35-rhel9.6.0"}}))
    assert preferred["domain"]["machine"] == {"type": "pc-q35-rhel9.6.0"}


def test_masquerade_clusters_get_a_masquerade_default_interface() -> None:
    spec = template_spec(expand(vm(), None, None, network_interface="masquerade"))
    assert spec["domain"]["devices"]["interfaces"] == [{"name": "default", "masquerade": {}}]
    assert spec["networks"] == [{"name": "default", "pod": {}}]


def test_unknown_architecture_is_unusable_input() -> None:
    with pytest.raises(UnusableInput, match="unsupported architecture 'riscv64'"):
        expand(vm(), None, None, arch="riscv64")


def test_callers_objects_are_not_changed() -> None:
    source, it, pref = vm(volumes=[{"name": "a", "emptyDisk": {"capacity": "1Gi"}}]), instancetype(), {"devices": {"preferredDiskBus": "sata"}}
    before = copy.deepcopy((source, it, pref))
    expand(source, it, pref)
    assert (source, it, pref) == before


def test_matchers_resolve_cluster_kinds_by_default_and_namespaced_on_request() -> None:
    objects = [
        {"kind": "VirtualMachineClusterInstancetype", "metadata": {"name": "x"}, "spec": {"cpu": {"guest": 1}}},
        {"kind": "VirtualMachineInstancetype", "metadata": {"name": "x"}, "spec": {"cpu": {"guest": 2}}},
    ]
    source = vm()
    source["spec"]["instancetype"] = {"name": "x"}
    assert resolve(source, objects)[0]["spec"]["cpu"]["guest"] == 1
    source["spec"]["instancetype"] = {"name": "x", "kind": "virtualmachineinstancetypes"}
    assert resolve(source, objects)[0]["spec"]["cpu"]["guest"] == 2
    source["spec"]["instancetype"] = {"name": "x", "kind": "Flavor"}
    with pytest.raises(MatcherError, match="got unexpected kind in InstancetypeMatcher: Flavor"):
        resolve(source, objects)
    source["spec"]["instancetype"] = {"name": "y"}
    with pytest.raises(MatcherError, match='VirtualMachineClusterInstancetype "y" not found') as raised:
        resolve(source, objects)
    assert raised.value.which == "instancetype"


def test_the_expanded_vm_has_no_matchers() -> None:
    source = vm()
    source["spec"]["instancetype"] = {"name": "x"}
    objects = [{"kind": "VirtualMachineClusterInstancetype", "metadata": {"name": "x"}, "spec": instancetype()}]
    result = expand_with(source, objects)
    assert "instancetype" not in result.vm["spec"] and "preference" not in result.vm["spec"]


@pytest.mark.parametrize("bad", [{"kind": "VirtualMachine"}, {"spec": {}}, {"spec": {"template": "x"}}])
def test_a_vm_without_a_template_is_unusable(bad) -> None:
    with pytest.raises(UnusableInput):
        expand(bad, None, None)


def test_a_bad_quantity_is_unusable_input() -> None:
    with pytest.raises(UnusableInput, match="not a Kubernetes quantity"):
        expand(vm(), instancetype(memory="lots"), {"requirements": {"memory": {"guest": "1Gi"}}})
