"""An instancetype written into a VM, and the fields both set refused (generator/tools/vmexpand/instancetype.py)."""

from __future__ import annotations

import pytest

from generator.tools.vmexpand import expand
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
