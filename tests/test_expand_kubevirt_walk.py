"""expand/kubevirt.py: the two ways of finding what a release lacks agree, and the edges of the rewrite.

A build walks only the fields some release lacks (schemas/dated.py); under a field that
takes any key (``spec.annotations``), and for a release or kind without that tree, it
asks the schemas about every key instead. Both walks must find the same fields in the
same order, or a build's changes would depend on which one ran.

Private helpers, tested on purpose: the walk over the dated tree (_Builder, _missing, _copy) is
where a wrong release hides, which a build shows only for that release.
"""

from __future__ import annotations

from typing import Any

import pytest

from generator.expand import kubevirt
from generator.expand.kubevirt import Adjustment, _Builder, _missing, for_release
from generator.model import CatalogObject, OlderField, Spelling
from generator.problems import Location
from generator.schemas.releases import Release, known

HERE = Location("catalog.yaml")


def preference(**spec: Any) -> CatalogObject:
    return CatalogObject("preference", "fedora", "fedora", {}, {}, spec, HERE)


SPECS = [
    {"annotations": {"a": "b"}, "preferredArchitecture": "arm64", "cpu": {"spreadOptions": {"ratio": 2}}},
    {"devices": {"preferredVideoType": "virtio", "preferredDiskBus": "virtio",
                 "preferredDiskBlockSize": {"custom": {"logical": 512, "discardGranularity": 4096}}}},
    {"firmware": {"preferredEfi": {"secureBoot": True}}, "requirements": {"architecture": "amd64", "cpu": {"guest": 1}}},
    {"preferredLaunchSecurity": {"sev": {}}, "features": {"preferredHyperv": {"tlbflush": {"direct": {}}}}},
    {"noSuchField": {"preferredArchitecture": "x"}, "cpu": {"noSuchEither": 1}},
]


@pytest.mark.parametrize("spec", SPECS, ids=range(len(SPECS)))
@pytest.mark.parametrize("release", known(), ids=str)
def test_the_walk_of_the_dated_tree_finds_what_asking_every_key_finds(spec, release):
    builder = _Builder(preference(**spec), release)
    assert builder.tree is not None and builder.index == known().index(release)
    by_tree = _missing(builder.spec, ("spec",), builder, builder.tree)
    by_schema = _missing(builder.spec, ("spec",), builder, None)
    assert by_tree == by_schema


def test_what_a_release_lacks_is_found_at_every_depth_in_the_spec_s_order():
    builder = _Builder(preference(**SPECS[0], **SPECS[1], **SPECS[2], **SPECS[3]), Release(1, 0))
    assert _missing(builder.spec, ("spec",), builder, None) == [
        ("spec", "annotations"), ("spec", "preferredArchitecture"), ("spec", "cpu", "spreadOptions"),
        ("spec", "devices", "preferredVideoType"),
        ("spec", "devices", "preferredDiskBlockSize", "custom", "discardGranularity"),
        ("spec", "firmware", "preferredEfi"), ("spec", "requirements", "architecture"),
        ("spec", "preferredLaunchSecurity"), ("spec", "features", "preferredHyperv", "tlbflush", "direct")]


def test_a_key_no_release_has_is_never_taken_for_one_the_release_lacks():
    builder = _Builder(preference(**SPECS[4]), Release(1, 0))
    assert _missing(builder.spec, ("spec",), builder, None) == []


def test_a_release_citgen_does_not_know_is_answered_by_the_schemas_key_by_key():
    builder = _Builder(preference(annotations={"a": "b"}), Release(1, 99))
    assert (builder.index, builder.tree) == (None, None)


def test_annotations_a_release_lacks_are_left_out_and_kept_by_one_that_has_them():
    obj = preference(annotations={"a": "b"}, preferredDiskBus="virtio")
    [old], said = for_release([obj], Release(1, 0), ())
    assert old.spec == {"preferredDiskBus": "virtio"}
    assert [str(a) for a in said] == ["preference fedora: spec.annotations (KubeVirt v1.1) left out"]
    [kept], said = for_release([obj], Release(1, 1), ())
    assert kept is obj and said == []


def test_a_field_no_release_citgen_knows_brought_is_said_so():
    found = Adjustment("preference", "fedora", "spec.x", "left out", None, Release(1, 0))
    assert str(found) == "preference fedora: spec.x (no KubeVirt release citgen knows) left out"
    assert found.record()["since"] is None
    assert Adjustment("preference", "fedora", "spec.x", "left out", Release(1, 4), Release(1, 0)).record()[
        "since"] == "v1.4"


def test_each_older_field_is_written_when_one_before_it_is_skipped():
    spelling = Spelling(("spec", "firmware", "preferredEfi"), HERE, writes=(
        OlderField(("spec", "firmware", "preferredUseSecureBoot"), source="secureBoot"),
        OlderField(("spec", "firmware", "preferredUseEfi"), value=True)))
    [old], said = for_release([preference(firmware={"preferredEfi": {"persistent": True}})], Release(1, 3),
                              (spelling,))
    assert old.spec == {"firmware": {"preferredUseEfi": True}}  # no secureBoot to write from, then the flag


def test_an_older_field_already_set_is_left_as_it_is_and_the_next_one_written():
    spelling = Spelling(("spec", "firmware", "preferredEfi"), HERE, writes=(
        OlderField(("spec", "firmware", "preferredUseEfi"), value=True),
        OlderField(("spec", "firmware", "preferredUseSecureBoot"), source="secureBoot")))
    obj = preference(firmware={"preferredEfi": {"secureBoot": True}, "preferredUseEfi": False})
    [old], _ = for_release([obj], Release(1, 3), (spelling,))
    assert old.spec == {"firmware": {"preferredUseEfi": False, "preferredUseSecureBoot": True}}


def test_a_value_written_as_an_older_field_is_a_copy_of_the_object_s():
    chosen = {"source": "dev/urandom"}
    spelling = Spelling(("spec", "firmware", "preferredEfi"), HERE, writes=(
        OlderField(("spec", "firmware", "preferredUseEfi"), source="persistent"),))
    obj = preference(firmware={"preferredEfi": {"persistent": chosen}})
    [old], _ = for_release([obj], Release(1, 3), (spelling,))
    written = old.spec["firmware"]["preferredUseEfi"]
    assert written == chosen and written is not chosen
    written["source"] = "changed"
    assert chosen == {"source": "dev/urandom"}


def test_copying_makes_new_mappings_and_lists_all_the_way_down_and_shares_the_rest():
    value = {"a": [{"b": 1}, "text"], "c": {"d": [2]}}
    copied = kubevirt._copy(value)
    assert copied == value and copied is not value
    assert copied["a"] is not value["a"] and copied["a"][0] is not value["a"][0]
    assert copied["c"]["d"] is not value["c"]["d"]
    assert copied["a"][1] is value["a"][1]  # text is never changed, so it is shared
