"""An instancetype written into a VM, and the fields both set refused (generator/tools/vmexpand/instancetype.py)."""

from __future__ import annotations

import copy

import pytest

from generator.tools.vmexpand import expand
from generator.tools.vmexpand.instancetype import _apply_device_list, apply_instancetype
from tests.vmexpand_helpers import instancetype, template_spec, vm


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


# -- apply_instancetype on a VM spec written here ---------------------------------------------------


def applied(it: dict, vmi_spec: dict | None = None, metadata: dict | None = None, preference: dict | None = None):
    vmi_spec = {} if vmi_spec is None else vmi_spec
    metadata = {} if metadata is None else metadata
    found = apply_instancetype(it, preference, vmi_spec, metadata)
    return [str(e) for e in found], vmi_spec, metadata


def conflict_message(field: str) -> str:
    path = f"spec.template.spec.{field}"
    return f"{path}: VM field(s) {path} conflicts with selected instance type"


@pytest.mark.parametrize("name", ["sockets", "cores", "threads"])
def test_a_vm_laying_out_its_own_vcpus_conflicts(name) -> None:
    errors, _, _ = applied(instancetype(), {"domain": {"cpu": {name: 2}}})
    assert errors == [conflict_message(f"domain.cpu.{name}")]


def test_a_vm_with_a_zero_count_does_not_conflict() -> None:
    errors, spec, _ = applied(instancetype(cpu=2), {"domain": {"cpu": {"sockets": 0, "cores": 0, "threads": 0}}})
    assert errors == []
    assert spec["domain"]["cpu"] == {"sockets": 2, "cores": 1, "threads": 1}


def test_every_cpu_conflict_is_reported_in_kubevirts_order() -> None:
    vmi_spec = {"domain": {"cpu": {"sockets": 1, "cores": 2, "threads": 1, "model": "Haswell",
                                   "dedicatedCpuPlacement": True, "isolateEmulatorThread": True,
                                   "numa": {}, "realtime": {}},
                           "resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "2"}}}}
    it = instancetype(cpu_extra={"model": "host", "dedicatedCPUPlacement": True, "isolateEmulatorThread": True,
                                 "numa": {"guestMappingPassthrough": {}}, "realtime": {}})
    errors, spec, _ = applied(it, vmi_spec)
    assert errors == [conflict_message(f) for f in (
        "domain.resources.requests.cpu", "domain.resources.limits.cpu", "domain.cpu.sockets", "domain.cpu.cores",
        "domain.cpu.threads", "domain.cpu.model", "domain.cpu.dedicatedCPUPlacement",
        "domain.cpu.isolateEmulatorThread",
        "domain.cpu.numa", "domain.cpu.realtime")]
    assert spec["domain"]["cpu"]["model"] == "Haswell"  # nothing written once a conflict is found


def test_dedicated_placement_conflicts_only_when_both_ask_for_it() -> None:
    it = instancetype(cpu_extra={"dedicatedCPUPlacement": True})
    errors, _, _ = applied(it, {"domain": {"cpu": {"dedicatedCpuPlacement": True}}})
    assert errors == [conflict_message("domain.cpu.dedicatedCPUPlacement")]
    errors, spec, _ = applied(it, {"domain": {"cpu": {"dedicatedCpuPlacement": False}}})
    assert errors == [] and spec["domain"]["cpu"]["dedicatedCpuPlacement"] is True
    errors, _, _ = applied(instancetype(), {"domain": {"cpu": {"isolateEmulatorThread": True}}})
    assert errors == []


def test_the_vms_cpu_values_stay_when_the_instancetype_has_none() -> None:
    vmi_spec = {"domain": {"cpu": {"numa": {"guestMappingPassthrough": {}}, "realtime": {"mask": "1"}}}}
    errors, spec, _ = applied(instancetype(cpu=1), vmi_spec)
    assert errors == []
    assert spec["domain"]["cpu"] == {"numa": {"guestMappingPassthrough": {}}, "realtime": {"mask": "1"},
                                     "sockets": 1, "cores": 1, "threads": 1}


def test_the_topology_is_laid_out_as_the_preference_asks() -> None:
    errors, spec, _ = applied(instancetype(cpu=4), preference={"cpu": {"preferredCPUTopology": "threads"}})
    assert spec["domain"]["cpu"] == {"sockets": 1, "cores": 1, "threads": 4}


def test_the_instancetypes_cpu_and_memory_values_are_copies() -> None:
    it = instancetype(cpu_extra={"numa": {"guestMappingPassthrough": {}}, "realtime": {"mask": "0"}},
                      memory_extra={"hugepages": {"pageSize": "2Mi"}}, launchSecurity={"sev": {}},
                      gpus=[{"name": "g", "deviceName": "d"}], hostDevices=[{"name": "h", "deviceName": "d"}])
    before = copy.deepcopy(it)
    _, spec, _ = applied(it)
    domain = spec["domain"]
    domain["cpu"]["numa"]["x"] = domain["cpu"]["realtime"]["x"] = domain["memory"]["hugepages"]["x"] = 1
    domain["cpu"]["numa"]["guestMappingPassthrough"]["x"] = 1
    domain["launchSecurity"]["x"] = 1
    domain["launchSecurity"]["sev"]["x"] = 1
    domain["devices"]["gpus"][0]["x"] = domain["devices"]["hostDevices"][0]["x"] = 1
    assert it == before


@pytest.mark.parametrize(
    "vm_domain, field",
    [
        ({"memory": {"guest": "1Gi"}}, "domain.memory.guest"),
        ({"memory": {"maxGuest": "4Gi"}}, "domain.memory.maxGuest"),
        ({"resources": {"limits": {"memory": "1Gi"}}}, "domain.resources.limits.memory"),
        ({"ioThreads": {"supplementalPoolThreadCount": 1}}, "domain.ioThreads.supplementalPoolThreadCount"),
        ({"devices": {"gpus": [{"name": "x", "deviceName": "y"}]}}, "domain.devices.gpus"),
    ],
)
def test_more_fields_both_set_are_conflicts(vm_domain, field) -> None:
    it = instancetype(memory_extra={"maxGuest": "8Gi"}, ioThreads={"supplementalPoolThreadCount": 2},
                      gpus=[{"name": "a", "deviceName": "b"}])
    errors, _, _ = applied(it, {"domain": copy.deepcopy(vm_domain)})
    assert errors == [conflict_message(field)]


def test_only_the_first_memory_conflict_is_reported() -> None:
    it = instancetype(memory_extra={"hugepages": {"pageSize": "1Gi"}, "maxGuest": "8Gi"})
    vmi_spec = {"domain": {"memory": {"hugepages": {"pageSize": "2Mi"}, "maxGuest": "4Gi"},
                           "resources": {"requests": {"memory": "1Gi"}}}}
    errors, _, _ = applied(it, copy.deepcopy(vmi_spec))
    assert errors == [conflict_message("domain.memory.hugepages")]
    del vmi_spec["domain"]["memory"]["hugepages"]
    errors, _, _ = applied(it, copy.deepcopy(vmi_spec))
    assert errors == [conflict_message("domain.memory.maxGuest")]
    del vmi_spec["domain"]["memory"]["maxGuest"]
    errors, _, _ = applied(it, copy.deepcopy(vmi_spec))
    assert errors == [conflict_message("domain.resources.requests.memory")]


def test_the_vms_hugepages_stay_when_the_instancetype_has_none() -> None:
    errors, spec, _ = applied(instancetype(memory="2Gi"), {"domain": {"memory": {"hugepages": {"pageSize": "2Mi"}}}})
    assert errors == []
    assert spec["domain"]["memory"] == {"hugepages": {"pageSize": "2Mi"}, "guest": "2Gi"}


def test_node_selector_and_scheduler_name_conflict_with_the_vms_own() -> None:
    it = instancetype(nodeSelector={"a": "b"}, schedulerName="s")
    errors, _, _ = applied(it, {"nodeSelector": {}, "schedulerName": "mine"})
    assert errors == [conflict_message("nodeSelector"), conflict_message("schedulerName")]


def test_node_selector_is_copied() -> None:
    it = instancetype(nodeSelector={"a": "b"})
    _, spec, _ = applied(it)
    spec["nodeSelector"]["c"] = "d"
    assert it["nodeSelector"] == {"a": "b"}


def test_conflicts_of_every_part_are_reported_together() -> None:
    it = instancetype(nodeSelector={"a": "b"}, ioThreadsPolicy="auto", launchSecurity={"sev": {}},
                      hostDevices=[{"name": "h", "deviceName": "d"}], annotations={"k": "v"})
    vmi_spec = {"nodeSelector": {"x": "y"}, "domain": {"cpu": {"cores": 2}, "memory": {"guest": "1Gi"},
                                                        "ioThreadsPolicy": "shared", "launchSecurity": {},
                                                        "devices": {"hostDevices": [{"name": "x", "deviceName": "y"}]}}}
    errors, _, _ = applied(it, vmi_spec, {"annotations": {"k": "other"}})
    assert errors == [conflict_message(f) for f in ("nodeSelector", "domain.cpu.cores", "domain.memory.guest",
                                                     "domain.ioThreadsPolicy", "domain.launchSecurity",
                                                     "domain.devices.hostDevices")] + [
        "annotations.k: VM field(s) annotations.k conflicts with selected instance type"]


def test_annotations_are_added_in_order_and_a_different_value_conflicts() -> None:
    errors, _, metadata = applied(instancetype(annotations={"b": "2", "a": "1", "c": "3"}), {},
                                  {"annotations": {"a": "0", "c": "3"}})
    assert errors == ["annotations.a: VM field(s) annotations.a conflicts with selected instance type"]
    assert metadata == {"annotations": {"a": "0", "c": "3", "b": "2"}}
    errors, _, metadata = applied(instancetype(annotations={"b": "2", "a": "1"}))
    assert list(metadata["annotations"]) == ["a", "b"]


@pytest.mark.parametrize(
    "guest, percent, requested",
    [
        ("2Gi", 50, "1Gi"),
        ("4Gi", 25, "3Gi"),
        ("2G", 50, "1G"),
        ("1Gi", 100, "0"),
    ],
)
def test_overcommit_requests_the_guest_memory_less_the_percentage(guest, percent, requested) -> None:
    _, spec, _ = applied(instancetype(memory=guest, memory_extra={"overcommitPercent": percent}))
    assert spec["domain"]["resources"]["requests"]["memory"] == requested
    assert spec["domain"]["memory"]["guest"] == guest


def test_no_overcommit_requests_nothing() -> None:
    _, spec, _ = applied(instancetype(memory_extra={"overcommitPercent": 0}))
    assert "resources" not in spec["domain"]


def test_io_threads_and_policy_are_written_when_the_vm_has_none() -> None:
    it = instancetype(ioThreadsPolicy="supplementalPool", ioThreads={"supplementalPoolThreadCount": 4})
    errors, spec, _ = applied(it, {"domain": {"ioThreads": {}}})
    assert errors == []
    assert (spec["domain"]["ioThreadsPolicy"], spec["domain"]["ioThreads"]) == ("supplementalPool",
                                                                                {"supplementalPoolThreadCount": 4})


def test_an_instancetype_without_extras_writes_only_cpu_and_memory() -> None:
    errors, spec, metadata = applied(instancetype(cpu=2, memory="1Gi"))
    assert errors == []
    assert spec == {"domain": {"cpu": {"sockets": 2, "cores": 1, "threads": 1}, "memory": {"guest": "1Gi"}}}
    assert metadata == {"annotations": {}}


def test_an_overcommit_of_one_percent_lowers_the_request() -> None:
    _, spec, _ = applied(instancetype(memory="1Gi", memory_extra={"overcommitPercent": 1}))
    # float32(1 - float32(1)/100) is 0.99000001; 2^30 times that is 1063004416 exactly in single precision,
    # not a whole number of KiB, so Go prints the bytes
    assert spec["domain"]["resources"]["requests"]["memory"] == "1063004416"


def test_an_instancetype_naming_no_vcpus_lays_out_zero_sockets() -> None:
    """KubeVirt's guest count is a uint32, 0 when left out; only a count of exactly 1 keeps the 1 x 1 x 1 default."""
    _, spec, _ = applied({"memory": {"guest": "1Gi"}})
    assert spec["domain"]["cpu"] == {"sockets": 0, "cores": 1, "threads": 1}


@pytest.mark.parametrize("key", ["gpus", "hostDevices"])
def test_a_device_list_applier_copies_the_list_or_reports_the_vms_own(key) -> None:
    """apply_gpus and apply_host_devices are made by one factory at import; built again here, it is exercised too.

    Private helper, tested on purpose: _apply_device_list is KubeVirt's merge of one device list, for lists no
    instancetype holds.
    """
    apply = _apply_device_list(key)
    assert apply.__doc__ == f"Copy the instancetype's {key}; a VM listing its own conflicts."
    wanted = [{"name": "a", "deviceName": "vendor.com/a", "tag": {"nested": "x"}}]
    it = {key: wanted}
    vmi_spec: dict = {}
    assert apply(it, vmi_spec) == []
    assert vmi_spec == {"domain": {"devices": {key: wanted}}}
    vmi_spec["domain"]["devices"][key][0]["tag"]["nested"] = "changed"
    assert wanted[0]["tag"] == {"nested": "x"}
    own = {"domain": {"devices": {key: [{"name": "mine"}]}}}
    assert [str(e) for e in apply(it, own)] == [conflict_message(f"domain.devices.{key}")]
    assert own == {"domain": {"devices": {key: [{"name": "mine"}]}}}
    empty = {"domain": {"devices": {key: []}}}
    assert apply(it, empty) == [] and empty["domain"]["devices"][key] == wanted
    untouched: dict = {}
    assert apply({key: []}, untouched) == [] and apply({}, untouched) == []
    assert untouched == {}
