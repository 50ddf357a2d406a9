"""expand/kubevirt.py: how the rewritten spec is made (_Builder.own, put and pop).

The builder copies a mapping of the object's spec once, the first time it writes
below it, and from then on writes into that copy; it keeps every mapping it copied
or made by its id (and so alive: an id is unique only while its object lives).
Removing a field removes every mapping it leaves empty, at any depth.

Private helper, tested on purpose: _Builder keeps one object's notes, whose edge cases a build
reaches only for a rare release.
"""

from __future__ import annotations

from typing import Any

from generator.expand.kubevirt import _Builder, for_release
from generator.model import CatalogObject
from generator.problems import Location
from generator.schemas.releases import Release

HERE = Location("catalog.yaml")
V1_0, V1_3 = Release(1, 0), Release(1, 3)


def preference(**spec: Any) -> CatalogObject:
    return CatalogObject("preference", "fedora", "fedora", {}, {}, spec, HERE)


def test_a_mapping_is_copied_once_and_written_into_from_then_on():
    obj = preference(firmware={"bootloader": {"efi": {}}})
    builder = _Builder(obj, V1_3)
    builder.put(("firmware", "preferredUseEfi"), True)
    firmware = builder.spec["firmware"]
    builder.put(("firmware", "preferredUseSecureBoot"), False)
    assert builder.spec["firmware"] is firmware
    assert firmware == {"bootloader": {"efi": {}}, "preferredUseEfi": True, "preferredUseSecureBoot": False}
    assert firmware["bootloader"] is obj.spec["firmware"]["bootloader"]  # not written below: shared
    assert obj.spec == {"firmware": {"bootloader": {"efi": {}}}}


def test_a_mapping_made_on_the_way_is_written_into_from_then_on():
    builder = _Builder(preference(), V1_3)
    builder.put(("cpu", "topology", "sockets"), 1)
    cpu, topology = builder.spec["cpu"], builder.spec["cpu"]["topology"]
    builder.put(("cpu", "topology", "cores"), 2)
    assert builder.spec["cpu"] is cpu and builder.spec["cpu"]["topology"] is topology
    assert builder.spec == {"cpu": {"topology": {"sockets": 1, "cores": 2}}}


def test_every_mapping_the_builder_copied_or_made_is_kept_by_its_id():
    obj = preference(firmware={"preferredEfi": {}}, devices={"preferredDiskBus": "virtio"})
    builder = _Builder(obj, V1_3)
    assert builder.owned == {id(builder.spec): builder.spec}
    builder.put(("firmware", "preferredUseEfi"), True)
    builder.put(("cpu", "topology", "sockets"), 1)
    made = [builder.spec, builder.spec["firmware"], builder.spec["cpu"], builder.spec["cpu"]["topology"]]
    assert builder.owned == {id(m): m for m in made}
    assert all(builder.owned[id(m)] is m for m in made)


def test_a_value_that_is_no_mapping_is_returned_as_it_is():
    obj = preference(preferredTerminationGracePeriodSeconds=30, firmware={"preferredEfi": {}})
    builder = _Builder(obj, V1_3)
    assert builder.own(builder.spec, "preferredTerminationGracePeriodSeconds") == 30
    assert builder.owned == {id(builder.spec): builder.spec}


def test_removing_a_field_removes_every_mapping_it_leaves_empty_at_any_depth():
    builder = _Builder(preference(features={"preferredHyperv": {"tlbflush": {"direct": {}}}}, cpu={"a": 1}),
                       V1_0)
    assert builder.pop(("features", "preferredHyperv", "tlbflush", "direct")) == {}
    assert builder.spec == {"cpu": {"a": 1}}


def test_removing_a_field_keeps_the_first_mapping_above_it_that_holds_more():
    spec = {"features": {"preferredHyperv": {"tlbflush": {"direct": {}}, "relaxed": {}}}}
    builder = _Builder(preference(**spec), V1_0)
    builder.pop(("features", "preferredHyperv", "tlbflush", "direct"))
    assert builder.spec == {"features": {"preferredHyperv": {"relaxed": {}}}}
    assert spec == {"features": {"preferredHyperv": {"tlbflush": {"direct": {}}, "relaxed": {}}}}


def test_a_build_leaves_out_a_deep_field_with_the_mappings_it_empties():
    [old], said = for_release([preference(features={"preferredHyperv": {"tlbflush": {"direct": {}}}})], V1_0, ())
    assert old.spec == {}
    assert [str(a) for a in said] == [
        "preference fedora: spec.features.preferredHyperv.tlbflush.direct (KubeVirt v1.8) left out"]
