"""outputs/readme.py on its own: which objects the README's tables show, and how each cell is read.

The objects are made by hand: the tables show each object once, by its cluster-wide
kind, and leave out objects retained from an old bundle; a capability row reads the
spec, with a field the spec leaves out counting as absent.
"""

from __future__ import annotations

from typing import Any

from generator.model import CLUSTER_KINDS, KINDS, CatalogObject
from generator.outputs.readme import instancetype_table, preference_table, series_matrix
from generator.problems import Location

GiB = 1024 ** 3
HERE = Location("series/x.yaml", 1)


def instancetype(name: str, spec: dict[str, Any], cpu: int = 1, memory: int = 2 * GiB, **more: Any) -> CatalogObject:
    facts = {"cpu": cpu, "memory": memory, "series": name.split(".")[0], **more.pop("facts", {})}
    return CatalogObject("instancetype", name, name[0], {}, {}, spec, HERE, facts=facts, **more)


def preference(name: str, **facts: Any) -> CatalogObject:
    return CatalogObject("preference", name, name, {}, {}, {}, HERE, facts=facts)


def test_objects_retained_in_namespaced_kinds_only_are_not_listed():
    namespaced = [k for k in KINDS if k not in CLUSTER_KINDS]
    objects = [instancetype("u1.small", {}), instancetype("u1.medium", {}, only_kinds=tuple(namespaced[:1])),
               instancetype("u1.large", {}, only_kinds=(CLUSTER_KINDS[0],))]
    assert instancetype_table(objects) == (
        "| Name | vCPUs | Memory |\n| --- | --- | --- |\n| `u1.small` | 1 | 2Gi |\n| `u1.large` | 1 | 2Gi |\n")


def test_objects_retained_from_an_old_bundle_are_not_listed():
    objects = [instancetype("u1.small", {}), instancetype("u1.old", {}, facts={"retained": True}),
               instancetype("u1.kept", {}, facts={"retained": False})]
    assert instancetype_table(objects) == (
        "| Name | vCPUs | Memory |\n| --- | --- | --- |\n| `u1.small` | 1 | 2Gi |\n| `u1.kept` | 1 | 2Gi |\n")


def test_a_preference_without_a_display_name_or_minimums_shows_empty_and_dashes():
    assert preference_table([preference("bare"), preference("named", displayName="Named", cpu=2)]) == (
        "| Name | Display name | Min vCPUs | Min memory | Architecture |\n| --- | --- | --- | --- | --- |\n"
        "| `bare` |  | - | - | - |\n| `named` | Named | 2 | - | - |\n")


def test_a_spec_without_cpu_or_memory_offers_none_of_their_capabilities():
    objects = [instancetype("a1.small", {}), instancetype("b1.small", {"gpus": [{"name": "gpu1"}]})]
    assert series_matrix(objects) == (
        "|  | A1 | B1 |\n| --- | --- | --- |\n"
        "| Burstable CPU | ✓ | ✓ |\n"
        "| GPUs |  | ✓ |\n"
        "| vCPU:memory ratio | 1:2 | 1:2 |\n")


def test_a_capability_only_the_first_series_offers_is_still_a_row():
    objects = [instancetype("a1.small", {"memory": {"hugepages": {"pageSize": "2Mi"}, "overcommitPercent": 10},
                                         "cpu": {"dedicatedCPUPlacement": True, "isolateEmulatorThread": True,
                                                 "numa": {}}}),
               instancetype("b1.small", {"memory": {}, "cpu": {}}, cpu=2)]
    assert series_matrix(objects) == (
        "|  | A1 | B1 |\n| --- | --- | --- |\n"
        "| Hugepages | 2Mi |  |\n"
        "| Overcommitted memory | ✓ |  |\n"
        "| Dedicated CPU | ✓ |  |\n"
        "| Burstable CPU |  | ✓ |\n"
        "| Isolated emulator threads | ✓ |  |\n"
        "| vNUMA | ✓ |  |\n"
        "| vCPU:memory ratio | 1:2 | 1:1 |\n")
