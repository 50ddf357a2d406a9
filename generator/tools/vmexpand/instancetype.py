"""Writing an instancetype into a VM, and refusing any field both of them set.

An instancetype owns the resources it names: a VM that also sets one of them
(its CPU topology, guest memory, hugepages, GPUs...) conflicts, and KubeVirt
refuses it, naming each such field. When nothing conflicts every value is copied
into the VM's domain, and the CPU topology is laid out as the preference asks.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, MutableMapping

from ...quantity import parse
from ._tree import child, get, is_empty, is_unset, path, tree_copy
from .conflicts import ExpandError, annotation_conflict, conflict
from .goquantity import canonical, float32, int64, quantity_format
from .topology import guest_topology

Spec = MutableMapping[str, Any]
Applier = Callable[[Mapping[str, Any], Spec], "list[ExpandError]"]


def _resources_set(vmi_spec: Mapping[str, Any], kind: str, resource: str) -> bool:
    value = get(vmi_spec, "domain", "resources", kind)
    return isinstance(value, dict) and resource in value


def apply_node_selector(instancetype: Mapping[str, Any], vmi_spec: Spec) -> list[ExpandError]:
    if instancetype.get("nodeSelector") is None:
        return []
    if vmi_spec.get("nodeSelector") is not None:
        return [conflict("nodeSelector")]
    vmi_spec["nodeSelector"] = dict(instancetype["nodeSelector"])
    return []


def apply_scheduler_name(instancetype: Mapping[str, Any], vmi_spec: Spec) -> list[ExpandError]:
    if not instancetype.get("schedulerName"):
        return []
    if vmi_spec.get("schedulerName"):
        return [conflict("schedulerName")]
    vmi_spec["schedulerName"] = instancetype["schedulerName"]
    return []


def _cpu_conflicts(it_cpu: Mapping[str, Any], vmi_spec: Spec) -> list[ExpandError]:
    found = []
    for kind in ("requests", "limits"):
        if _resources_set(vmi_spec, kind, "cpu"):
            found.append(conflict("domain", "resources", kind, "cpu"))
    cpu = get(vmi_spec, "domain", "cpu", default={})
    for name in ("sockets", "cores", "threads"):
        if not is_empty(cpu, name):
            found.append(conflict("domain", "cpu", name))
    if not is_empty(cpu, "model") and not is_unset(it_cpu, "model"):
        found.append(conflict("domain", "cpu", "model"))
    if cpu.get("dedicatedCpuPlacement") is True and not is_unset(it_cpu, "dedicatedCPUPlacement"):
        found.append(conflict("domain", "cpu", "dedicatedCPUPlacement"))
    if cpu.get("isolateEmulatorThread") is True and not is_unset(it_cpu, "isolateEmulatorThread"):
        found.append(conflict("domain", "cpu", "isolateEmulatorThread"))
    for name in ("numa", "realtime"):
        if not is_unset(cpu, name) and not is_unset(it_cpu, name):
            found.append(conflict("domain", "cpu", name))
    return found


def apply_cpu(instancetype: Mapping[str, Any], preference: Mapping[str, Any] | None, vmi_spec: Spec) -> list[ExpandError]:
    it_cpu = instancetype.get("cpu") or {}
    cpu = path(vmi_spec, "domain", "cpu")
    found = _cpu_conflicts(it_cpu, vmi_spec)
    if found:
        return found
    if not is_unset(it_cpu, "model"):
        cpu["model"] = it_cpu["model"]
    if not is_unset(it_cpu, "dedicatedCPUPlacement"):
        cpu["dedicatedCpuPlacement"] = it_cpu["dedicatedCPUPlacement"]
    if not is_unset(it_cpu, "isolateEmulatorThread"):
        cpu["isolateEmulatorThread"] = it_cpu["isolateEmulatorThread"]
    for name in ("numa", "realtime"):
        if not is_unset(it_cpu, name):
            cpu[name] = tree_copy(it_cpu[name])
    if not is_unset(it_cpu, "maxSockets"):
        cpu["maxSockets"] = it_cpu["maxSockets"]
    cpu.update(guest_topology(int(it_cpu.get("guest") or 0), preference))
    return []


def apply_memory(instancetype: Mapping[str, Any], vmi_spec: Spec) -> list[ExpandError]:
    it_memory = instancetype.get("memory") or {}
    memory = path(vmi_spec, "domain", "memory")
    if not is_unset(memory, "guest"):
        return [conflict("domain", "memory", "guest")]
    for name in ("hugepages", "maxGuest"):
        if not is_unset(memory, name) and not is_unset(it_memory, name):
            return [conflict("domain", "memory", name)]
    for kind in ("requests", "limits"):
        if _resources_set(vmi_spec, kind, "memory"):
            return [conflict("domain", "resources", kind, "memory")]

    guest = it_memory.get("guest")
    memory["guest"] = guest
    overcommit = it_memory.get("overcommitPercent") or 0
    if overcommit > 0:
        # KubeVirt computes the request in single precision; so must a faithful port.
        factor = float32(1 - float32(float32(overcommit) / float32(100)))
        requested = int64(float32(float32(float(parse(guest))) * factor))
        requests = path(vmi_spec, "domain", "resources", "requests")
        requests["memory"] = canonical(requested, quantity_format(guest))
    for name in ("hugepages", "maxGuest"):
        if not is_unset(it_memory, name):
            memory[name] = tree_copy(it_memory[name])
    return []


def apply_io_threads_policy(instancetype: Mapping[str, Any], vmi_spec: Spec) -> list[ExpandError]:
    if is_unset(instancetype, "ioThreadsPolicy"):
        return []
    domain = path(vmi_spec, "domain")
    if not is_unset(domain, "ioThreadsPolicy"):
        return [conflict("domain", "ioThreadsPolicy")]
    domain["ioThreadsPolicy"] = instancetype["ioThreadsPolicy"]
    return []


def apply_io_threads(instancetype: Mapping[str, Any], vmi_spec: Spec) -> list[ExpandError]:
    count = get(instancetype, "ioThreads", "supplementalPoolThreadCount")
    if count is None:
        return []
    domain = path(vmi_spec, "domain")
    if get(domain, "ioThreads", "supplementalPoolThreadCount") is not None:
        return [conflict("domain", "ioThreads", "supplementalPoolThreadCount")]
    child(domain, "ioThreads")["supplementalPoolThreadCount"] = count
    return []


def apply_launch_security(instancetype: Mapping[str, Any], vmi_spec: Spec) -> list[ExpandError]:
    if is_unset(instancetype, "launchSecurity"):
        return []
    domain = path(vmi_spec, "domain")
    if not is_unset(domain, "launchSecurity"):
        return [conflict("domain", "launchSecurity")]
    domain["launchSecurity"] = tree_copy(instancetype["launchSecurity"])
    return []


def _apply_device_list(key: str) -> Applier:
    def apply(instancetype: Mapping[str, Any], vmi_spec: Spec) -> list[ExpandError]:
        wanted = instancetype.get(key) or []
        if not wanted:
            return []
        devices = path(vmi_spec, "domain", "devices")
        if devices.get(key):
            return [conflict("domain", "devices", key)]
        devices[key] = tree_copy(wanted)
        return []

    apply.__doc__ = f"Copy the instancetype's {key}; a VM listing its own conflicts."
    return apply


apply_gpus = _apply_device_list("gpus")
apply_host_devices = _apply_device_list("hostDevices")


def apply_annotations(instancetype: Mapping[str, Any], metadata: MutableMapping[str, Any]) -> list[ExpandError]:
    """Add the instancetype's annotations to the VM template; a different value is a conflict."""
    annotations = child(metadata, "annotations")
    found = []
    for key, value in sorted((instancetype.get("annotations") or {}).items()):
        if key in annotations:
            if annotations[key] != value:
                found.append(annotation_conflict(key))
            continue
        annotations[key] = value
    return found


def apply_instancetype(
    instancetype: Mapping[str, Any],
    preference: Mapping[str, Any] | None,
    vmi_spec: Spec,
    metadata: MutableMapping[str, Any],
) -> list[ExpandError]:
    """Write ``instancetype`` into ``vmi_spec`` in KubeVirt's order; every conflict found, or []."""
    found: list[ExpandError] = []
    found += apply_node_selector(instancetype, vmi_spec)
    found += apply_scheduler_name(instancetype, vmi_spec)
    found += apply_cpu(instancetype, preference, vmi_spec)
    found += apply_memory(instancetype, vmi_spec)
    found += apply_io_threads_policy(instancetype, vmi_spec)
    found += apply_io_threads(instancetype, vmi_spec)
    found += apply_launch_security(instancetype, vmi_spec)
    found += apply_gpus(instancetype, vmi_spec)
    found += apply_host_devices(instancetype, vmi_spec)
    found += apply_annotations(instancetype, metadata)
    return found
