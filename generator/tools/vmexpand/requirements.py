"""A preference's minimum resources and architecture, checked as KubeVirt checks them.

With an instancetype the vCPUs and memory it provides are compared; without one,
the VM's own CPU topology and guest memory are. The first unmet requirement is
reported, in the order KubeVirt checks: vCPUs, memory, architecture.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...quantity import parse
from ._tree import get
from .conflicts import ExpandError, joined
from .goquantity import go_string
from .topology import (
    ACROSS_CORES_THREADS,
    ACROSS_SOCKETS_CORES,
    ACROSS_SOCKETS_CORES_THREADS,
    ANY,
    CORES,
    SOCKETS,
    SPREAD,
    THREADS,
    preferred_topology,
    spread_options,
)

INSTANCETYPE_CPU_MESSAGE = "insufficient CPU resources of {have} vCPU provided by instance type, preference requires {need} vCPU"
VM_CPU_MESSAGE = "insufficient CPU resources of {have} vCPU provided by VirtualMachine, preference requires {need} vCPU provided as {as_}"
NO_VM_CPU_MESSAGE = "no CPU resources provided by VirtualMachine, preference requires {need} vCPU"
INSTANCETYPE_MEMORY_MESSAGE = "insufficient Memory resources of {have} provided by instance type, preference requires {need}"
VM_MEMORY_MESSAGE = "insufficient Memory resources of {have} provided by VirtualMachine, preference requires {need}"
ARCHITECTURE_MESSAGE = "preference requires architecture {need} but {have} is being requested"

_INSTANCETYPE_PATH = "spec.instancetype"
_CPU_PATH = "spec.template.spec.domain.cpu"


def check(
    instancetype: Mapping[str, Any] | None,
    preference: Mapping[str, Any] | None,
    vmi_spec: Mapping[str, Any],
) -> ExpandError | None:
    """The first requirement of ``preference`` that is not met, or None."""
    requirements = get(preference, "requirements")
    if not isinstance(requirements, dict):
        return None
    if requirements.get("cpu") is not None:
        error = _check_cpu(instancetype, preference, vmi_spec)
        if error:
            return error
    if requirements.get("memory") is not None:
        error = _check_memory(instancetype, requirements, vmi_spec)
        if error:
            return error
    if requirements.get("architecture") is not None:
        need = requirements["architecture"]
        have = vmi_spec.get("architecture") or ""
        if have != need:
            return _error("spec.template.spec.architecture", ARCHITECTURE_MESSAGE.format(need=need, have=have), "architecture")
    return None


def _error(field: str, message: str, resource: str) -> ExpandError:
    return ExpandError(field, message, resource)


def _check_cpu(instancetype: Mapping[str, Any] | None, preference: Mapping[str, Any] | None, vmi_spec: Mapping[str, Any]) -> ExpandError | None:
    need = int(get(preference, "requirements", "cpu", "guest", default=0))
    if instancetype is not None:
        have = int(get(instancetype, "cpu", "guest", default=0))
        if have < need:
            return _error(_INSTANCETYPE_PATH, INSTANCETYPE_CPU_MESSAGE.format(have=have, need=need), "cpu")
        return None

    cpu = get(vmi_spec, "domain", "cpu")
    if not isinstance(cpu, dict):
        return _error(_CPU_PATH, NO_VM_CPU_MESSAGE.format(need=need), "cpu")
    count = {name: int(cpu.get(name) or 0) for name in ("sockets", "cores", "threads")}

    topology = preferred_topology(preference)
    if topology in (SOCKETS, CORES, THREADS):
        if count[topology] < need:
            return _error(f"{_CPU_PATH}.{topology}", VM_CPU_MESSAGE.format(have=count[topology], need=need, as_=topology), "cpu")
    elif topology == ANY:
        have = count["cores"] * count["sockets"] * count["threads"]
        if have < need:
            fields = joined(f"{_CPU_PATH}.{n}" for n in ("cores", "sockets", "threads"))
            return _error(fields, VM_CPU_MESSAGE.format(have=have, need=need, as_="cores, sockets and threads"), "cpu")
    elif topology == SPREAD:
        _, across = spread_options(preference)
        names = {
            ACROSS_SOCKETS_CORES: ("sockets", "cores"),
            ACROSS_CORES_THREADS: ("cores", "threads"),
            ACROSS_SOCKETS_CORES_THREADS: ("sockets", "cores", "threads"),
        }.get(across, ())
        have = 1 if names else 0
        for name in names:
            have *= count[name]
        if have < need:
            fields = joined(f"{_CPU_PATH}.{n}" for n in names)
            return _error(fields, VM_CPU_MESSAGE.format(have=have, need=need, as_=across), "cpu")
    return None


def _check_memory(instancetype: Mapping[str, Any] | None, requirements: Mapping[str, Any], vmi_spec: Mapping[str, Any]) -> ExpandError | None:
    need_text = get(requirements, "memory", "guest", default="0")
    need = parse(need_text)
    if instancetype is not None:
        have_text = get(instancetype, "memory", "guest", default="0")
        if parse(have_text) < need:
            return _error(
                _INSTANCETYPE_PATH,
                INSTANCETYPE_MEMORY_MESSAGE.format(have=go_string(have_text), need=go_string(need_text)),
                "memory",
            )
        return None
    guest = get(vmi_spec, "domain", "memory", "guest")
    if guest is not None and parse(guest) < need:
        return _error(
            "spec.template.spec.domain.memory",
            VM_MEMORY_MESSAGE.format(have=go_string(guest), need=go_string(need_text)),
            "memory",
        )
    return None
