"""The differences a release makes, as JSON-patch operations: equality as JSON, diff, pointers, and each object's ops.

Plain values and hand-made objects, no build: `same` tells ``1`` from ``True`` and
``1.0`` as a document does, `diff` follows mappings and replaces everything else
whole, an `Op` is written as RFC 6902 and RFC 6901 write it, and `_Documents.ops`
reads the operations off an object whose templates write it as given.

Private class, tested on purpose: _Documents.ops is where an object's operations are read off its
rendered document, and a template that adds to an object is a case the built-in catalog does not
have.
"""

from __future__ import annotations

import pytest

from generator.errors import InputError
from generator.model import CatalogObject, PREFERENCE_KINDS
from generator.outputs.releases import Op, _Documents, diff, same
from generator.problems import Location


# --------------------------------------------------------------------------- same


@pytest.mark.parametrize("one, other", [
    ({"a": 1, "b": [1, {"c": None}]}, {"b": [1, {"c": None}], "a": 1}),
    ([1, "x", [True]], [1, "x", [True]]),
    ("text", "text"), (1, 1), (None, None), ({}, {}), ([], []),
])
def test_values_equal_as_json_are_the_same(one, other):
    assert same(one, other) is True
    assert same(other, one) is True


@pytest.mark.parametrize("one, other", [
    (1, True), (1, 1.0), (0, False), ("1", 1),
    ({"a": 1}, {"a": True}), ({"a": 1}, {"a": 2}), ({"a": 1}, {"b": 1}), ({"a": 1}, {"a": 1, "b": 2}),
    ([1], [True]), ([1, 2], [1, 3]), ([1, 2], [1]), ([1, 2], [2, 1]),
    ({"a": 1}, [1]), ({"a": 1}, "a"), ([1], 1), ([1], (1,)), ([], {}),
])
def test_values_that_differ_as_json_are_not_the_same(one, other):
    assert same(one, other) is False
    assert same(other, one) is False


# --------------------------------------------------------------------------- diff


def test_removals_come_first_then_additions_and_replacements_in_the_new_order():
    assert diff({"a": 1, "b": 2, "z": 0}, {"c": 4, "b": 3, "z": 0}) == [
        Op("remove", ("a",)), Op("add", ("c",), 4), Op("replace", ("b",), 3)]


def test_mappings_are_followed_and_anything_else_is_replaced_whole():
    old = {"cpu": {"guest": 2, "model": "host"}, "devices": ["a", "b"], "memory": {"guest": "2Gi"}}
    new = {"cpu": {"guest": 2}, "devices": ["a", "c"], "memory": "2Gi"}
    assert diff(old, new, ("spec",)) == [
        Op("remove", ("spec", "cpu", "model")), Op("replace", ("spec", "devices"), ["a", "c"]),
        Op("replace", ("spec", "memory"), "2Gi")]


def test_a_value_that_becomes_a_mapping_is_replaced_whole():
    assert diff({"a": 1}, {"a": {"b": 2}}) == [Op("replace", ("a",), {"b": 2})]


def test_a_value_of_another_json_type_is_replaced_even_when_python_calls_it_equal():
    assert diff({"a": 1, "b": 0}, {"a": True, "b": 0.0}) == [Op("replace", ("a",), True), Op("replace", ("b",), 0.0)]


def test_keys_are_written_as_text_in_the_path():
    assert diff({}, {1: "x"}) == [Op("add", ("1",), "x")]


def test_equal_values_and_the_very_same_value_give_no_operation():
    shared = {"deep": [1]}
    assert diff({"a": shared, "b": {"c": [1]}}, {"a": shared, "b": {"c": [1]}}) == []


# --------------------------------------------------------------------------- Op


def test_a_pointer_escapes_tilde_before_slash():
    op = Op("add", ("metadata", "labels", "instancetype.kubevirt.io/cpu", "a~b", "~1"), "2")
    assert op.pointer == "/metadata/labels/instancetype.kubevirt.io~1cpu/a~0b/~01"
    assert op.record() == {"op": "add", "path": op.pointer, "value": "2"}


def test_a_removal_is_written_without_a_value_and_a_replacement_with_one_even_null():
    assert Op("remove", ("spec", "x")).record() == {"op": "remove", "path": "/spec/x"}
    assert Op("replace", ("spec", "x"), None).record() == {"op": "replace", "path": "/spec/x", "value": None}
    assert Op("add", ()).pointer == ""


# --------------------------------------------------------------------------- an object's operations


def preference(kinds: tuple[str, ...] = (), **changes) -> CatalogObject:
    fields = dict(labels={"instancetype.kubevirt.io/os-type": "linux"}, annotations={"tags": "kubevirt"},
                  spec={"devices": {"preferredDiskBus": "virtio"}})
    fields.update(changes)
    return CatalogObject("preference", "p", "p", location=Location("preferences/p.yaml"), only_kinds=kinds,
                         **fields)


def documents_of(obj: CatalogObject) -> dict[tuple[str, str], dict]:
    return {(kind, obj.name): {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": kind,
                               "metadata": {"name": obj.name, "labels": dict(obj.labels),
                                            "annotations": dict(obj.annotations)},
                               "spec": obj.spec} for kind in obj.kinds}


@pytest.mark.parametrize("kinds", [(), (PREFERENCE_KINDS[1],)])
def test_an_object_written_as_given_has_its_labels_annotations_and_spec_compared(kinds):
    """Each under its own place in the document; an object kept in one kind only is found by that kind."""
    old = preference(kinds)
    new = preference(kinds, labels={}, annotations={"tags": "kubevirt,x"}, spec={"devices": {}})
    documents = _Documents([], documents_of(old), [True])
    assert documents.ops(0, old, new) == (
        Op("remove", ("metadata", "labels", "instancetype.kubevirt.io/os-type")),
        Op("replace", ("metadata", "annotations", "tags"), "kubevirt,x"),
        Op("remove", ("spec", "devices", "preferredDiskBus")))


def test_an_object_whose_templates_add_to_it_has_its_operations_read_off_the_rendered_document(tmp_path):
    """And an object made alike again (a later release changing it the same way) is rendered once."""
    (tmp_path / "preference.yaml.j2").write_text(
        "kind: {{ kind }}\nmetadata:\n  name: {{ name | yaml_scalar }}\n  labels:{{ labels | yaml_block(4) }}\n"
        "spec:{{ spec | yaml_block(2) }}\nbus: {{ (spec.devices.preferredDiskBus or 'none') | yaml_scalar }}\n")
    old = preference()
    document = {"kind": PREFERENCE_KINDS[0], "metadata": {"name": "p", "labels": dict(old.labels)},
                "spec": old.spec, "bus": "virtio"}
    documents = _Documents([tmp_path], {(PREFERENCE_KINDS[0], "p"): document}, [False])
    new = preference(annotations={"ignored": "by this template"}, spec={"devices": {"preferredDiskBus": "sata"}})
    ops = documents.ops(0, old, new)
    assert ops == (Op("replace", ("spec", "devices", "preferredDiskBus"), "sata"), Op("replace", ("bus",), "sata"))
    assert documents.ops(0, old, preference(annotations={"ignored": "by this template"},
                                            spec={"devices": {"preferredDiskBus": "sata"}})) is ops


@pytest.mark.parametrize("text", ["a: 1\n---\nb: 2\n", "- a list\n", "# nothing\n"])
def test_a_template_that_renders_no_single_mapping_for_a_changed_object_is_refused(tmp_path, text: str):
    (tmp_path / "preference.yaml.j2").write_text(text)
    old = preference()
    documents = _Documents([tmp_path], documents_of(old), [False])
    with pytest.raises(InputError) as caught:
        documents.ops(0, old, preference(spec={}))
    assert [str(p) for p in caught.value.problems] == [
        "common-instancetypes-all-bundle.yaml: p as VirtualMachineClusterPreference: the template did not render "
        "one document"]
