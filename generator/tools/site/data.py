"""What the catalog page shows, as plain JSON-ready values computed at build time.

The page is a view of the same objects `citgen build` ships and `citgen list`
selects; nothing here decides anything the build has not. The page's scripts
only filter and arrange these values, so what a VM owner reads cannot drift from
what the cluster gets: the fit verdicts in particular are the expansion code's
(`citgen validate --matrix`), not a second opinion written in JavaScript.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

import yaml

from ...expand.kubevirt import oldest_accepting
from ...expand.lifecycle import lifecycles
from ...expand.stamp import os_releases
from ...model import CatalogObject, INSTANCETYPE_KINDS, PREFERENCE_KINDS, Catalog, Lifecycle, Series, label
from ...query import Query
from ...source.yamlclasses import Dumper
from ..vmexpand.matrix import PairResult, default_vm

if TYPE_CHECKING:
    from ...osinfo.model import OsinfoDatabase

#: Readable names of the series feature flags (features.py), in the order badges are shown.
FEATURE_BADGES: tuple[tuple[str, str], ...] = (
    ("dedicatedCPUPlacement", "Dedicated CPUs"),
    ("isolateEmulatorThread", "Isolated emulator thread"),
    ("numa", "NUMA"),
    ("hugepages", "Hugepages"),
    ("overcommitPercent", "Memory overcommit"),
    ("realtime", "Realtime"),
    ("gpus", "GPUs"),
    ("maxSocketsMatchVCPUs", "One socket per vCPU at most"),
)

GIB = 1024**3
#: libosinfo's name of each architecture KubeVirt names (a preference for none is judged as amd64).
OSINFO_ARCH = {"amd64": "x86_64", "arm64": "aarch64", "s390x": "s390x", "ppc64le": "ppc64le"}


def quantity(value: int | None) -> str:
    """Bytes as the largest binary unit that divides them (``2Gi``, ``512Mi``), as the labels read."""
    if value is None:
        return ""
    if value == 0:
        return "0"
    for unit, size in (("Ti", 1024**4), ("Gi", GIB), ("Mi", 1024**2), ("Ki", 1024)):
        if value % size == 0:
            return f"{value // size}{unit}"
    return str(value)


def ratio(value: Fraction) -> str:
    """GiB per vCPU as the ``1:4`` a series file writes."""
    return f"1:{value.numerator}" if value.denominator == 1 else f"1:{float(value):g}"


def _badges(features: Mapping[str, Any], variants: Sequence[Mapping[str, Any]],
            gpus: tuple[str, int] | None) -> list[str]:
    """The series' features in words; a variant's hugepages are named beside the series' own."""
    badges = []
    for key, text in FEATURE_BADGES:
        value = features.get(key)
        if key == "hugepages":
            sizes = [str(v) for v in [value, *(f.get(key) for f in variants)] if v]
            if sizes:
                badges.append(f"{text} {' or '.join(dict.fromkeys(sizes))}")
        elif key == "overcommitPercent" and value:
            badges.append(f"{text} {value}%")
        elif key == "gpus" and value:
            badges.append(f"{gpus[1]} × {gpus[0]}" if gpus else text)
        elif value is True:
            badges.append(text)
    known = {key for key, _ in FEATURE_BADGES}
    badges += [f"{key}: {value}" for key, value in sorted(features.items()) if key not in known and value]
    if not features.get("dedicatedCPUPlacement"):
        badges.insert(0, "Shared (burstable) CPUs")
    return badges


def _gpus(objects: Iterable[CatalogObject]) -> tuple[str, int] | None:
    for obj in objects:
        found = obj.spec.get("gpus")
        if found:
            return str(found[0].get("deviceName", "GPU")), len(found)
    return None


def _split_size(size: str, series: Series | None) -> tuple[str, str]:
    """(base size, variant suffix) of an instancetype's size label, such as ("large", "1gi")."""
    if series is not None:
        for variant in series.variants:
            base = size[: -len(variant.suffix)]
            if size.endswith(variant.suffix) and base in series.sizes:
                return base, variant.suffix
    return size, ""


def _size_order(catalog: Catalog) -> list[str]:
    """Every size name of every matrix, smallest first, in the order the matrices write them."""
    order: list[str] = []
    for matrix in catalog.matrices.values():
        previous = -1
        for size in matrix.sizes:
            if size.name not in order:
                # after the last size already placed that this matrix put before it
                order.insert(previous + 1, size.name)
            previous = order.index(size.name)
    return order


def _deprecated(obj: CatalogObject) -> bool:
    return obj.labels.get(label("deprecated")) == "true"


def lifecycle_record(record: Lifecycle | None) -> dict[str, Any] | None:
    """What the page says of a deprecated object or a retired name: since when, and what to use instead.

    ``chain`` is the replacement followed through deprecated and retired names to
    ``current``, the object to use (empty where nothing replaces it; ``current``
    null where the replacements lead to nothing the catalog builds).
    """
    if record is None:
        return None
    return {"since": record.since or "", "replacement": record.replacement or "", "chain": list(record.chain),
            "current": record.current or "", "renamed": record.renamed}


def retired_record(record: Lifecycle) -> dict[str, Any]:
    """A name the catalog no longer defines, as the page lists it."""
    return {"name": record.name, "family": record.family, **(lifecycle_record(record) or {})}


def _kubevirt(obj: CatalogObject) -> str:
    """The oldest KubeVirt release that accepts the object as the page shows it; empty for none citgen knows."""
    oldest = oldest_accepting(obj)
    return str(oldest) if oldest is not None else ""


def instancetype_record(obj: CatalogObject, series: Series | None,
                        lifecycle: Lifecycle | None = None) -> dict[str, Any]:
    size = obj.labels.get(label("size"), obj.name.partition(".")[2])
    base, variant = _split_size(size, series)
    return {
        "name": obj.name,
        "series": str(obj.facts.get("series") or obj.name.partition(".")[0]),
        "size": base,
        "variant": variant,
        "cpu": obj.facts.get("cpu"),
        "memory": obj.facts.get("memory"),
        "memoryText": quantity(obj.facts.get("memory")),
        "labels": dict(obj.labels),
        "deprecated": _deprecated(obj),
        "lifecycle": lifecycle_record(lifecycle),
        "kinds": list(obj.kinds),
        "kubevirt": _kubevirt(obj),
        "spec": obj.spec,
    }


def _firmware(spec: Mapping[str, Any]) -> str:
    firmware = spec.get("firmware") or {}
    efi = firmware.get("preferredEfi")
    if efi is not None:
        return "EFI, Secure Boot" if efi.get("secureBoot", True) else "EFI"
    if firmware.get("preferredUseEfi"):
        return "EFI, Secure Boot" if firmware.get("preferredUseSecureBoot") else "EFI"
    return "BIOS"


def _notable(spec: Mapping[str, Any]) -> list[str]:
    """Settings a VM owner would want to know before choosing, in words."""
    devices = spec.get("devices") or {}
    cpu = spec.get("cpu") or {}
    features = spec.get("features") or {}
    notes = []
    if cpu.get("preferredCPUTopology"):
        spread = cpu.get("spreadOptions") or {}
        extra = f" (ratio {spread['ratio']})" if "ratio" in spread else ""
        notes.append(f"CPU topology: {cpu['preferredCPUTopology']}{extra}")
    if devices.get("preferredTPM") is not None:
        notes.append("persistent TPM" if devices["preferredTPM"].get("persistent") else "TPM")
    if (spec.get("firmware") or {}).get("preferredEfi", {}).get("persistent"):
        notes.append("persistent EFI variables")
    if "preferredHyperv" in features:
        notes.append("Hyper-V enlightenments")
    if "preferredSmm" in features:
        notes.append("SMM")
    if devices.get("preferredRng") is not None:
        notes.append("virtio RNG")
    if devices.get("preferredAutoattachInputDevice"):
        notes.append("tablet input device")
    if devices.get("preferredVirtioTransitional"):
        notes.append("virtio transitional devices")
    if devices.get("preferredNetworkInterfaceMultiQueue"):
        notes.append("network multi-queue")
    if devices.get("preferredDiskDedicatedIoThread"):
        notes.append("dedicated disk I/O thread")
    if spec.get("preferredLaunchSecurity") is not None:
        notes.append("IBM Secure Execution")
    if spec.get("preferredTerminationGracePeriodSeconds") is not None:
        notes.append(f"{spec['preferredTerminationGracePeriodSeconds']} s shutdown grace period")
    return notes


def _resources(cpu: int | None, memory: int | None) -> dict[str, Any] | None:
    return {"cpu": cpu, "memory": memory, "memoryText": quantity(memory)} if cpu or memory else None


def os_record(obj: CatalogObject, osinfo: "OsinfoDatabase | None") -> dict[str, Any] | None:
    """The OS a preference is for: the libosinfo short-ids its claim stands for, its line, and when a database
    was found the representative release's name and its minimum and recommended resources for the preference's
    architecture.

    The representative release is the first the claim names, else the newest of its line the database knows.
    None for a preference that claims no OS; without a database, what the claim says alone (nothing of a database).
    """
    claim = obj.facts.get("osinfoClaim")
    if claim is None and not obj.facts.get("osinfo"):
        return None
    short_ids = list(os_releases(obj, osinfo))
    record: dict[str, Any] = {"shortIds": short_ids, "line": claim.line if claim is not None else None}
    named = [r for r in (osinfo.lookup(s) for s in obj.facts.get("osinfo") or ()) if r is not None] \
        if osinfo is not None else []
    known = [r for r in (osinfo.lookup(s) for s in short_ids) if r is not None] if osinfo is not None else []
    release = named[0] if named else known[-1] if known else None
    if osinfo is None or release is None:
        return record
    arch = OSINFO_ARCH.get(str(obj.facts.get("architecture") or obj.spec.get("preferredArchitecture") or "amd64"),
                           "x86_64")
    return {**record, "name": release.name, "database": osinfo.version, "arch": arch,
            "minimum": _resources(*release.minimum(arch)), "recommended": _resources(*release.recommended(arch))}


def preference_record(obj: CatalogObject, lifecycle: Lifecycle | None = None,
                      osinfo: "OsinfoDatabase | None" = None) -> dict[str, Any]:
    spec = obj.spec
    devices = spec.get("devices") or {}
    facts = obj.facts
    return {
        "name": obj.name,
        "family": obj.group,
        "displayName": str(facts.get("displayName") or obj.annotations.get("openshift.io/display-name", "")),
        "osType": facts.get("osType") or "",
        "cpu": facts.get("cpu"),
        "memory": facts.get("memory"),
        "memoryText": quantity(facts.get("memory")),
        "architecture": facts.get("architecture") or spec.get("preferredArchitecture") or "",
        "firmware": _firmware(spec),
        "diskBus": devices.get("preferredDiskBus") or "",
        "networkBus": devices.get("preferredInterfaceModel") or "",
        "notable": _notable(spec),
        "labels": dict(obj.labels),
        "deprecated": _deprecated(obj),
        "lifecycle": lifecycle_record(lifecycle),
        "kinds": list(obj.kinds),
        "kubevirt": _kubevirt(obj),
        "spec": spec,
        "os": os_record(obj, osinfo),
    }


def series_record(series: Series, instancetypes: Sequence[CatalogObject]) -> dict[str, Any]:
    return {
        "name": series.name,
        "prefix": series.prefix,
        "class": series.cls,
        "displayName": series.display_name,
        "description": series.description,
        "ratio": ratio(series.ratio),
        "badges": _badges(series.features, [v.features for v in series.variants], _gpus(instancetypes)),
        "deprecated": series.deprecated,
        # a series' replacement is a series: each size is replaced by its size of the same name
        "deprecatedSince": (series.deprecation.since or "") if series.deprecated and series.deprecation else "",
        "replacement": (series.deprecation.replacement or "") if series.deprecated and series.deprecation else "",
    }


def fit_record(results: Iterable[PairResult]) -> dict[str, Any]:
    """The refused pairs by preference, each refusal as an index into one list of messages.

    440 refusals of the built-in catalog carry 11 distinct messages: listing each
    message once keeps the page small.
    """
    messages: list[str] = []
    refused: dict[str, dict[str, list[Any]]] = {}
    for result in results:
        if result.ok:
            continue
        message = result.error or ""
        if message not in messages:
            messages.append(message)
        refused.setdefault(result.preference, {})[result.instancetype] = [messages.index(message), result.reason]
    return {"messages": messages, "refused": refused}


def manifest_template() -> str:
    """A minimal VirtualMachine with placeholders for the pair: the very VM the verdicts were made on."""
    vm = default_vm("INSTANCETYPE", "PREFERENCE")
    vm["metadata"]["name"] = "my-vm"
    vm["spec"]["runStrategy"] = "Always"
    return yaml.dump(vm, Dumper=Dumper, sort_keys=False)


def catalog_data(catalog: Catalog, version: str, objects: Sequence[CatalogObject],
                 results: Iterable[PairResult], osinfo: "OsinfoDatabase | None" = None) -> dict[str, Any]:
    """Everything the page shows: series, instancetypes, preferences, retired names, fit verdicts, manifest.

    ``osinfo``: libosinfo's database, when one was found: each preference's OS then shows its minimum and
    recommended resources (os_record).
    """
    instancetypes = Query(family="instancetype").select(objects)
    preferences = Query(family="preference").select(objects)
    lifecycle = lifecycles(objects, catalog.retirements)
    by_series = {s.name: s for s in catalog.series}
    built = [s for s in catalog.series if any(o.facts.get("series") == s.name for o in instancetypes)]
    data = {
        "vendor": catalog.settings.vendor,
        "version": version,
        "labelPrefix": label(""),
        "kinds": {"instancetype": INSTANCETYPE_KINDS[0], "preference": PREFERENCE_KINDS[0]},
        "sizes": _size_order(catalog),
        "series": [series_record(s, [o for o in instancetypes if o.facts.get("series") == s.name])
                   for s in built],
        "instancetypes": [instancetype_record(o, by_series.get(str(o.facts.get("series"))),
                                             lifecycle.get((o.family, o.name))) for o in instancetypes],
        "preferences": [preference_record(o, lifecycle.get((o.family, o.name)), osinfo) for o in preferences],
        "retired": [retired_record(r) for r in lifecycle.values() if r.status == "retired"],
        "fit": fit_record(results),
        "manifest": manifest_template(),
    }
    if osinfo is not None:  # without a database the page says nothing of one
        data["osinfo"] = {"version": osinfo.version}
    return data
