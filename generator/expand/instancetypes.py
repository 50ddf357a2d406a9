"""Expand series x size matrices (x variants) into instancetype objects.

The spec is built from the size (vCPUs, memory), the series' feature flags and
its spec fragment; the labels users filter on are then read off the finished
spec, so a label can never disagree with what the object does. Each object
carries the overlay lines that changed its series or its size matrix
(model.Change), so that validation can point a problem on it at them.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..errors import InputError
from ..features import Context, apply_features
from ..load.gpu import left_out
from ..merge import deep_merge
from ..model import Catalog, CatalogObject, Series, Size, label, lines_of
from ..problems import Location, Problem
from ..quantity import format_bytes, gib
from .lifecycle import deprecation_annotations


def feature_labels(spec: Mapping[str, Any]) -> dict[str, str]:
    """The feature labels an instancetype spec implies (absent features get no label)."""
    cpu = spec.get("cpu", {})
    memory = spec.get("memory", {})
    labels = {}
    if cpu.get("dedicatedCPUPlacement"):
        labels["dedicatedCPUPlacement"] = "true"
    if cpu.get("isolateEmulatorThread"):
        labels["isolateEmulatorThread"] = "true"
    if "guestMappingPassthrough" in cpu.get("numa", {}):
        labels["numa"] = "true"
    if "realtime" in cpu:
        labels["realtime"] = "true"
    page_size = (memory.get("hugepages") or {}).get("pageSize")  # a spec fragment may leave it out
    if page_size:
        labels["hugepages"] = page_size
    if spec.get("gpus"):
        labels["gpus"] = "true"
    return labels


def _memory(series: Series, size: Size) -> int:
    if size.memory is not None:
        return size.memory
    return int(gib(series.ratio) * size.cpu)


def instancetype(series: Series, size: Size, suffix: str, features: Mapping[str, Any],
                 parameters: Mapping[str, Any], shaped_by: tuple[Location, ...] = ()) -> CatalogObject:
    memory_bytes = _memory(series, size)
    memory = format_bytes(memory_bytes)
    spec: dict[str, Any] = {"cpu": {"guest": size.cpu}, "memory": {"guest": memory}}
    apply_features(spec, features, Context(cpu=size.cpu, parameters=parameters))
    deep_merge(spec, series.spec)
    size_name = size.name + suffix
    features_found = feature_labels(spec)
    labels = {
        "class": series.cls,
        "version": str(series.version),
        "cpu": str(size.cpu),
        "memory": memory,
        "size": size_name,
        "icon-pf": series.icon,
        **features_found,
    }
    deprecation = series.size_deprecation(size_name)
    if deprecation is not None:
        labels["deprecated"] = "true"
    return CatalogObject(
        family="instancetype",
        name=f"{series.name}.{size_name}",
        group=series.prefix,
        labels={label(k): v for k, v in labels.items()},
        annotations={
            label("displayName"): series.display_name,
            label("description"): series.description,
            **deprecation_annotations(deprecation),
        },
        spec=spec,
        location=series.location,
        facts={"cpu": size.cpu, "memory": memory_bytes, "series": series.name,
               "class": series.cls, "features": tuple(sorted(features_found))},
        shaped_by=shaped_by,
    )


def series_objects(series: Series, catalog: Catalog, parameters: Mapping[str, Any]) -> list[CatalogObject]:
    matrix = catalog.matrices[series.matrix]
    flavours = [("", series.features)] + [
        (v.suffix, {**series.features, **v.features}) for v in series.variants
    ]
    shaped_by = lines_of(catalog.changes, ("series", series.name), ("matrix", series.matrix))
    return [
        instancetype(series, size, suffix, features, parameters, shaped_by)
        for size in matrix.sizes
        if size.name in series.sizes
        for suffix, features in flavours
    ]


def unique(objects: Iterable[CatalogObject]) -> list[CatalogObject]:
    """Objects sorted by name; two definitions of one name are an input error naming both."""
    by_name: dict[tuple, CatalogObject] = {}
    problems = []
    for obj in objects:
        key = (obj.family, obj.name, obj.only_kinds)
        first = by_name.get(key)
        if first is not None:
            problems.append(Problem(obj.location, f"{obj.family} '{obj.name}' is defined twice "
                                    f"(also by {first.location.file}:{first.location.line})"))
            continue
        by_name[key] = obj
    if problems:
        raise InputError(problems)
    return [by_name[k] for k in sorted(by_name)]


def instancetype_objects(catalog: Catalog, parameters: Mapping[str, Any] | None = None) -> list[CatalogObject]:
    """Every series' instancetypes, but those of GPU series when no GPU device is configured (load/gpu.py)."""
    params = parameters if parameters is not None else catalog.settings.parameters
    skipped = {s.name for s in left_out(catalog.series, params)}
    return unique(obj for s in catalog.series if s.name not in skipped for obj in series_objects(s, catalog, params))
