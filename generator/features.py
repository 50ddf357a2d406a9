"""Series feature flags: each names a capability and writes its piece of the spec.

A series file says *what* it offers (``hugepages: 2Mi``, ``numa: true``); this
table says *how* KubeVirt spells it. Labels are later derived from the finished
spec, so a flag never has to be repeated as a label.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, MutableMapping

from .frozen import frozen

Spec = MutableMapping[str, Any]
#: GPUs per instancetype when parameters.gpu names a device but no count.
DEFAULT_GPU_COUNT = 1


@frozen
class Context:
    """What a feature may depend on besides its own value."""

    cpu: int
    parameters: Mapping[str, Any]


@frozen
class Feature:
    """A series feature flag: its name, what it does, the schema of its value, and how it writes the spec."""

    name: str
    summary: str
    schema: Mapping[str, Any]  # JSON Schema of the flag's value in a series file
    apply: Callable[[Spec, Any, Context], None]


def _section(spec: Spec, key: str) -> Spec:
    return spec.setdefault(key, {})


@frozen
class _Flag:
    """A flag that, when on, writes ``value`` at ``section``.``field`` of the spec."""

    section: str
    field: str
    value: Any

    def __call__(self, spec: Spec, on: Any, _ctx: Context) -> None:
        if on:
            _section(spec, self.section)[self.field] = self.value


def _hugepages(spec: Spec, size: Any, _ctx: Context) -> None:
    _section(spec, "memory")["hugepages"] = {"pageSize": size}


def _overcommit(spec: Spec, percent: Any, _ctx: Context) -> None:
    _section(spec, "memory")["overcommitPercent"] = percent


def _max_sockets(spec: Spec, on: Any, ctx: Context) -> None:
    if on:
        _section(spec, "cpu")["maxSockets"] = ctx.cpu


def _gpus(spec: Spec, on: Any, ctx: Context) -> None:
    if on:
        gpu = ctx.parameters["gpu"]  # expansion leaves out GPU series when no device is configured
        count = gpu.get("count", DEFAULT_GPU_COUNT)
        spec["gpus"] = [{"name": f"gpu{i}", "deviceName": gpu["deviceName"]} for i in range(1, count + 1)]


_BOOL = {"type": "boolean"}

FEATURES: dict[str, Feature] = {
    f.name: f
    for f in (
        Feature("dedicatedCPUPlacement", "pin every vCPU to a host core of its own", _BOOL,
                _Flag("cpu", "dedicatedCPUPlacement", True)),
        Feature("isolateEmulatorThread", "keep QEMU's emulator thread off the pinned cores", _BOOL,
                _Flag("cpu", "isolateEmulatorThread", True)),
        Feature("numa", "pass the host's NUMA layout through to the guest", _BOOL,
                _Flag("cpu", "numa", {"guestMappingPassthrough": {}})),
        Feature("realtime", "realtime scheduling of the vCPUs", _BOOL, _Flag("cpu", "realtime", {})),
        Feature("maxSocketsMatchVCPUs", "allow as many sockets as the size has vCPUs", _BOOL,
                _max_sockets),
        Feature("hugepages", "back guest memory with hugepages of this page size",
                {"enum": ["2Mi", "1Gi"]}, _hugepages),
        Feature("overcommitPercent", "show the guest this much more memory than is reserved",
                {"type": "integer", "minimum": 1, "maximum": 100}, _overcommit),
        Feature("gpus", "attach parameters.gpu.count GPUs (default 1) of device parameters.gpu.deviceName",
                _BOOL, _gpus),
    )
}


def apply_features(spec: Spec, features: Mapping[str, Any], ctx: Context) -> None:
    """Write every flag's piece into ``spec``, in the table's order (stable output)."""
    for name, feature in FEATURES.items():
        if name in features:
            feature.apply(spec, features[name], ctx)
