"""expand/kubevirt.py: what a build for a release costs, beyond its result.

A release citgen has a dated tree for is walked along that tree (schemas/dated.py):
the schemas are asked about no key on the way, however deep the fields a release
lacks lie, and whether or not the object has essential fields (only under a field that
takes any key, ``spec.annotations``, is each key asked, once a walk: one walk for an
object without essential fields, two for one with them). A build for a release
that has every field and every value the spellings name walks no object at all.
"""

from __future__ import annotations

from typing import Any

import pytest

import generator.expand.kubevirt as module
from generator.expand.kubevirt import for_release
from generator.model import CatalogObject, OlderValue, Spelling
from generator.problems import Location
from generator.schemas.releases import Release, newest

HERE = Location("catalog.yaml")


def preference(essential: tuple = (), **spec: Any) -> CatalogObject:
    return CatalogObject("preference", "fedora", "fedora", {}, {}, spec, HERE, facts={"essential": essential})


@pytest.fixture
def asked(monkeypatch) -> list[tuple[str, ...]]:
    """Every field the build asks the schemas about one by one (kubevirt.has_field), in order."""
    paths: list[tuple[str, ...]] = []
    has_field = module.has_field

    def counted(kind: str, path: tuple[str, ...], release: Release) -> bool:
        paths.append(path)
        return has_field(kind, path, release)

    monkeypatch.setattr(module, "has_field", counted)
    return paths


@pytest.mark.parametrize("essential", [(), (("spec", "preferredLaunchSecurity"),)], ids=["plain", "essential"])
def test_a_release_with_a_dated_tree_is_walked_without_asking_the_schemas_key_by_key(asked, essential):
    obj = preference(essential, devices={"preferredVideoType": "vga", "preferredDiskBus": "virtio"},
                     cpu={"preferredCPUTopology": "preferSockets"})
    [kept], adjustments = for_release([obj], Release(1, 0), ())
    assert kept.spec == {"devices": {"preferredDiskBus": "virtio"}, "cpu": {"preferredCPUTopology": "preferSockets"}}
    assert [a.field for a in adjustments] == ["spec.devices.preferredVideoType"]
    assert asked == []


def test_an_object_without_essential_fields_is_walked_once(asked):
    """Under a field that takes any key (``spec.annotations``) the walk asks the schemas about each key."""
    obj = preference(annotations={"a": "b"}, devices={"preferredVideoType": "vga"})
    [kept], adjustments = for_release([obj], Release(1, 1), ())
    assert kept.spec == {"annotations": {"a": "b"}}
    assert [a.field for a in adjustments] == ["spec.devices.preferredVideoType"]
    assert asked == [("spec", "annotations", "a")]


def test_an_object_with_essential_fields_is_walked_for_them_first(asked):
    obj = preference((("spec", "preferredLaunchSecurity"),), annotations={"a": "b"})
    assert for_release([obj], Release(1, 1), ()) == ([obj], [])
    assert asked == [("spec", "annotations", "a"), ("spec", "annotations", "a")]


def test_a_field_that_leads_to_dated_fields_but_holds_no_mapping_is_left_for_validation():
    for value in (None, ["vga"], "vga"):
        obj = preference(devices=value)
        assert for_release([obj], Release(1, 0), ()) == ([obj], [])


def test_building_for_the_newest_release_walks_no_object_when_its_spellings_name_its_own_values(monkeypatch):
    """Private state, replaced on purpose: the walk (_one) is made to fail, to show it is never taken."""
    monkeypatch.setattr(module, "_one", lambda *args: (_ for _ in ()).throw(AssertionError("walked")))
    spelling = Spelling(("spec", "cpu", "preferredCPUTopology"), HERE,
                        values={"diagonal": OlderValue(str(newest()), "spread")})
    objects = [preference(cpu={"preferredCPUTopology": "diagonal"})]
    assert for_release(objects, newest(), (spelling,)) == (objects, [])
