"""What a release may change of an object, found without asking it: lacking fields, dated walks, shapes, answers.

outputs/releases.py asks for_release only about objects some release may change,
once per group of releases that answer every question alike. These tests pin the
pieces of that shortcut on the KubeVirt schemas citgen ships: which releases lack
a field, the dated walk against asking every key, the shape objects share, and
what one answer of for_release comes to.

Private helpers, tested on purpose: _lacking, _dated_sets and the shapes are the shortcut's pieces;
a whole build shows only that their sum is right, these show each is.
"""

from __future__ import annotations

from types import MappingProxyType

import pytest

from generator.model import INSTANCETYPE_KINDS, PREFERENCE_KINDS, CatalogObject, OlderValue, Spelling
from generator.outputs.releases import (_ABSENT, Changed, Op, _Documents, _dated_sets, _get, _is_mapping, _lacking,
                                        _made, _shape_of, value_since)
from generator.problems import Location
from generator.schemas.releases import Release, known
from tests.helpers import default_build

EVERY = frozenset(range(len(known())))


def before(major: int, minor: int) -> frozenset[int]:
    """The releases citgen knows that are older than vMAJOR.MINOR, as indexes into known()."""
    return frozenset(i for i, release in enumerate(known()) if release < Release(major, minor))


# --------------------------------------------------------------------------- lacking fields


@pytest.mark.parametrize("kind", [PREFERENCE_KINDS[0], PREFERENCE_KINDS[1]])
def test_a_field_is_lacking_in_every_release_before_the_one_that_brought_it(kind: str):
    assert _lacking(kind, ("spec", "preferredArchitecture")) == before(1, 7)
    assert _lacking(kind, ("spec", "cpu", "spreadOptions")) == before(1, 3)
    assert _lacking(kind, ("spec", "devices", "preferredDiskBus")) == frozenset()
    assert _lacking(kind, ("spec", "nope")) == EVERY


def test_a_preference_field_is_lacking_in_every_release_of_an_instancetype():
    assert _lacking(INSTANCETYPE_KINDS[0], ("spec", "preferredArchitecture")) == EVERY
    assert _lacking(INSTANCETYPE_KINDS[0], ("spec", "cpu", "guest")) == frozenset()


# --------------------------------------------------------------------------- walking a spec


@pytest.mark.parametrize("value, mapping", [
    ({}, True), ({"a": 1}, True), (MappingProxyType({"a": 1}), True),
    ([], False), ((1,), False), ({1}, False), ("ab", False), (1, False), (1.5, False), (None, False), (True, False),
])
def test_a_mapping_is_a_dict_or_any_other_mapping(value, mapping: bool):
    assert _is_mapping(value) is mapping


def test_a_value_is_found_down_mappings_only():
    spec = {"cpu": {"guest": 2, "list": [{"a": 1}]}, "text": "abc"}
    assert _get(spec, ("cpu", "guest")) == 2
    assert _get(spec, ()) is spec
    assert _get(spec, ("cpu", "nope")) is _ABSENT
    assert _get(spec, ("text", "a")) is _ABSENT
    assert _get(spec, ("cpu", "list", "0")) is _ABSENT
    assert _get(MappingProxyType({"a": MappingProxyType({"b": None})}), ("a", "b")) is None


def every_key(kind: str, spec, prefix=("spec",)) -> list[frozenset[int]]:
    """For each field of ``spec`` some but not every release lacks, those releases: every key asked."""
    found = []
    for key, value in spec.items():
        lacking = _lacking(kind, prefix + (key,))
        if lacking and lacking != EVERY:
            found.append(lacking)
        if _is_mapping(value):
            found += every_key(kind, value, prefix + (key,))
    return found


SPECS = [
    (PREFERENCE_KINDS[0], {"preferredArchitecture": "amd64", "preferSpreadSocketToCoreRatio": 2,
                           "cpu": {"spreadOptions": {"across": "SocketsCores", "ratio": 2},
                                   "preferredCPUTopology": "cores"},
                           "devices": {"preferredDiskBus": "virtio"}, "nope": {"deeper": {"preferredArchitecture": 1}}}),
    (INSTANCETYPE_KINDS[1], {"cpu": {"guest": 2, "dedicatedCPUPlacement": True}, "memory": {"guest": "1Gi"},
                             "nodeSelector": {"example.com/a": "b"}, "annotations": {"x": "y"},
                             "preferredArchitecture": "amd64"}),
]


@pytest.mark.parametrize("kind, spec", SPECS)
def test_the_dated_walk_finds_what_asking_every_key_finds(kind: str, spec):
    assert sorted(map(sorted, _dated_sets(kind, spec))) == sorted(map(sorted, every_key(kind, spec)))


def test_the_dated_walk_finds_what_asking_every_key_finds_for_every_object_of_the_catalog():
    for obj in default_build().objects:
        kind = obj.kinds[0]
        assert sorted(map(sorted, _dated_sets(kind, obj.spec))) == sorted(map(sorted, every_key(kind, obj.spec))), \
            obj.name


def test_a_spec_with_no_dated_field_has_nothing_a_release_lacks():
    assert _dated_sets(PREFERENCE_KINDS[0], {"devices": {"preferredDiskBus": "virtio"}}) == []
    assert _dated_sets(PREFERENCE_KINDS[0], {}) == []


# --------------------------------------------------------------------------- shapes


def preference(spec, kinds: tuple[str, ...] = (), name: str = "p") -> CatalogObject:
    return CatalogObject("preference", name, "p", {}, {}, spec, Location("preferences/p.yaml"), only_kinds=kinds)


TOPOLOGY = Spelling(("spec", "cpu", "preferredCPUTopology"), Location("catalog.yaml"),
                    values={"cores": OlderValue("v1.4", "preferCores"), "any": OlderValue("v1.1")})
FIRMWARE = Spelling(("spec", "firmware", "bootloader"), Location("catalog.yaml"),
                    values={"efi": OlderValue("v1.2", "preferEfi")})


def test_a_value_is_dated_by_the_index_of_the_first_release_that_has_it():
    assert value_since(TOPOLOGY) == {"cores": len(before(1, 4)), "any": len(before(1, 1))}
    assert value_since(Spelling(("spec", "x"), Location("c"), values={"v": OlderValue("v9.0")})) == {"v": len(EVERY)}


def test_objects_that_ask_the_same_questions_share_one_shape_and_others_do_not():
    dated = [(TOPOLOGY, value_since(TOPOLOGY))]
    interned: dict = {}
    one = _shape_of(preference({"preferredArchitecture": "amd64"}), dated, interned)
    assert _shape_of(preference({"preferredArchitecture": "arm64"}, name="q"), dated, interned) is one
    assert _shape_of(preference({"cpu": {"spreadOptions": {}}}), dated, interned) is not one
    assert len(interned) == 2


def test_a_shape_changes_the_releases_that_lack_a_field_or_came_before_a_value():
    dated = [(TOPOLOGY, value_since(TOPOLOGY))]
    assert _shape_of(preference({"preferredArchitecture": "amd64"}), dated, {}).changes == before(1, 7)
    cores = _shape_of(preference({"cpu": {"preferredCPUTopology": "cores"}}), dated, {})
    assert cores.changes == before(1, 4)
    assert _shape_of(preference({"devices": {"preferredDiskBus": "virtio"}}), dated, {}).changes == frozenset()


def test_every_value_threshold_of_every_spelling_an_object_uses_tells_releases_apart():
    dated = [(TOPOLOGY, value_since(TOPOLOGY)), (FIRMWARE, value_since(FIRMWARE))]
    shape = _shape_of(preference({"cpu": {"preferredCPUTopology": "cores"}, "firmware": {"bootloader": "efi"}}),
                      dated, {})
    thresholds = sorted(value_since(TOPOLOGY).values()) + sorted(value_since(FIRMWARE).values())
    assert [signature[1] for signature in shape.signatures] == [
        tuple(index < t for t in thresholds) for index in range(len(EVERY))]


def test_an_object_kept_in_one_kind_only_is_shaped_by_that_kind():
    shape = _shape_of(preference({"preferredArchitecture": "amd64"}, kinds=(PREFERENCE_KINDS[1],)), [], {})
    assert shape.changes == before(1, 7)


# --------------------------------------------------------------------------- what an answer comes to


def test_an_answer_of_for_release_is_the_reasons_an_object_is_left_out_its_change_or_nothing():
    old = preference({"devices": {"preferredDiskBus": "virtio"}})
    documents = _Documents([], {(kind, "p"): {} for kind in PREFERENCE_KINDS}, [True])  # written as given
    assert _made(0, old, None, ("left out: reason",), documents) == ("left out: reason",)
    assert _made(0, old, old, ("said",), documents) is None
    assert _made(0, old, preference({"devices": {"preferredDiskBus": "virtio"}}), ("said",), documents) is None
    changed = _made(0, old, preference({"devices": {"preferredDiskBus": "sata"}}), ("respelt",), documents)
    ops = (Op("replace", ("spec", "devices", "preferredDiskBus"), "sata"),)
    assert changed == Changed(old, {PREFERENCE_KINDS[0]: ops, PREFERENCE_KINDS[1]: ops}, ("respelt",))
