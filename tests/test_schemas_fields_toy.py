"""generator/schemas/fields.py on toy release files: each rule of the index where one small case shows it.

The index of the shipped releases is held to the schemas in tests/test_schemas_fields.py; what the
shipped files never show (a kind one release lacks, an ObjectMeta with fields, a schema that is a
boolean, a release v1.10) is shown here. The tests that ask the index replace the module's private
``_index`` and its ``known``: the one place the index comes from and the releases it is read against.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.schemas import fields as index
from generator.schemas.releases import Release

OLD, NEW = Release(1, 0), Release(1, 1)

#: v1.0 has the kind Old, a list whose items have a field ``a``, and a spec.x; v1.1 drops Old and the
#: items' field, takes any key in spec (whose values have a field ``deep``), and writes ``flag`` as an
#: object with a field where v1.0 had a boolean schema.
TOY = {
    "v1.0.json": {"kinds": {
        "Toy": {"properties": {
            "metadata": {"properties": {"name": {"type": "string"}}},
            "spec": {"properties": {"x": {}, "list": {"items": {"properties": {"a": {}}}}, "flag": True}}}},
        "Old": {"properties": {"spec": {}}}}},
    "v1.1.json": {"kinds": {
        "Toy": {"properties": {
            "metadata": {"properties": {"name": {"type": "string"}}},
            "spec": {"properties": {"x": {}, "list": {"items": {"properties": {}}},
                                    "flag": {"properties": {"on": {}}}},
                     "additionalProperties": {"properties": {"deep": {}}}}}}}},
}


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    built = index.build_index(TOY)
    monkeypatch.setattr(index, "known", lambda: (OLD, NEW))
    monkeypatch.setattr(index, "_index", lambda: built)
    return built


def test_the_index_keeps_of_metadata_only_which_releases_have_it():
    assert index.build_index(TOY)["kinds"]["Toy"]["p"]["metadata"] == {"r": 0b11}


def test_a_boolean_schema_has_no_fields_and_does_not_hide_another_release_s():
    spec = index.build_index(TOY)["kinds"]["Toy"]["p"]["spec"]
    assert spec["p"]["flag"] == {"r": 0b11, "p": {"on": {"r": 0b10}}}
    assert spec["a"] == {"r": 0b10, "p": {"deep": {"r": 0b10}}}


def test_releases_are_in_the_order_of_their_numbers_and_a_kind_without_fields_is_a_bare_node():
    files = {"v1.10.json": {"kinds": {"Bare": {"type": "object"}}}, "v1.9.json": {"kinds": {}}}
    assert index.build_index(files) == {"generatedBy": "citgen schema import", "releases": ["v1.9", "v1.10"],
                                        "kinds": {"Bare": {"r": 0b10}}}


def test_the_index_of_a_folder_reads_its_release_files_only(tmp_path: Path):
    for name, data in TOY.items():
        (tmp_path / name).write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "notes.json").write_text("not JSON, and not a release")
    (tmp_path / "v1.2.txt").write_text("not JSON")
    assert index.folder_index(tmp_path) == index.build_index(TOY)


def test_a_kind_a_release_lacks_is_left_to_the_schemas(toy):
    assert (index.has("Old", ("spec",), OLD), index.has("Old", ("spec",), NEW)) == (True, None)
    assert (index.fields("Old", OLD), index.fields("Old", NEW)) == ({("spec",)}, None)


def test_below_metadata_the_schemas_answer_from_the_second_key_on(toy):
    assert (index.has("Toy", ("metadata",), NEW), index.has("Toy", ("metadata", "name"), NEW)) == (True, None)


def test_the_fields_of_a_release_leave_out_those_only_another_has(toy):
    assert index.fields("Toy", NEW) == {("metadata",), ("spec",), ("spec", "x"), ("spec", "list"), ("spec", "flag"),
                                        ("spec", "flag", "on")}
    assert index.fields("Toy", OLD) == {("metadata",), ("spec",), ("spec", "x"), ("spec", "list"),
                                        ("spec", "list", "a"), ("spec", "flag")}


@pytest.mark.parametrize("newer, has_all", [
    ({"Toy": {"properties": {"list": {"items": {"properties": {}}}}}}, False),
    ({"Toy": {"properties": {"list": {"items": {"properties": {"a": {}}}}}}}, True),
], ids=["a field of the items dropped", "a kind dropped"])
def test_a_release_has_every_field_unless_it_lacks_one_even_inside_list_items(monkeypatch, newer, has_all):
    files = {"v1.0.json": {"kinds": {"Toy": {"properties": {"list": {"items": {"properties": {"a": {}}}}}},
                                     "Old": {"properties": {"spec": {}}}}},
             "v1.1.json": {"kinds": newer}}
    built = index.build_index(files)
    monkeypatch.setattr(index, "known", lambda: (OLD, NEW))
    monkeypatch.setattr(index, "_index", lambda: built)
    assert (index.has_all(OLD), index.has_all(NEW)) == (True, has_all)


def test_the_releases_of_a_node_are_the_bits_of_its_mask(toy):
    assert index.releases_of({"r": 0b10}) == {1}
    assert index.releases_of({"r": 0b11}) == {0, 1}
