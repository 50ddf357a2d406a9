"""The index of every release's fields (generator/schemas/fields.py); the dated tree made of it is
tests/test_schemas_dated.py's.

A build answers "which releases have this field" from the index alone, never reading
ten releases' schemas; these tests hold its answers to those of the schemas
themselves, for every kind, every release and every field the schemas have, plus the
places where the two ways of asking could part: unknown keys, keys an open mapping
takes, list items, and ObjectMeta, which the index leaves to the schemas.
"""

from __future__ import annotations

import json
from itertools import product
from pathlib import Path

import pytest

from generator.schemas import _node_at, fields_of, has_field, schema_fields, shipped_schema
from generator.schemas import fields as index
from generator.model import KINDS
from generator.schemas.releases import Release, known, release_data

RELEASES = known()


def by_schema(kind, path, release) -> bool:
    """The schemas' own answer, by their walk (_node_at of generator/schemas, not the module under test)."""
    return _node_at(shipped_schema(kind, release), path) is not None


def every_path(kind):
    """Each field any release has, and beside each the places a lookup could go wrong."""
    seen = set()
    for release in RELEASES:
        seen |= schema_fields(kind, release)
    for path in sorted(seen, key=str):
        yield path
        yield path + ("noSuchField",)
        yield path + (0,)
        yield path + (0, "name")
    yield ("spec", "annotations", "any.key/name")
    yield ("spec", "annotations", "any.key/name", "deeper")
    yield ("spec", "nodeSelector", "kubernetes.io/arch")
    yield ("noSuchField",)


@pytest.mark.parametrize("kind", KINDS)
def test_the_index_answers_every_field_of_every_release_as_the_schema_does(kind):
    wrong = [(path, str(release)) for path, release in product(every_path(kind), RELEASES)
             if index.has(kind, path, release) is not None
             and index.has(kind, path, release) != by_schema(kind, path, release)]
    assert wrong == []


@pytest.mark.parametrize("kind", KINDS)
def test_the_index_lists_each_release_s_fields_as_its_schema_does(kind):
    for release in RELEASES:
        assert index.fields(kind, release) == schema_fields(kind, release), release
        assert fields_of(kind, release) == schema_fields(kind, release), release


def test_below_metadata_the_schemas_answer_and_has_field_follows_them():
    kind = "VirtualMachineClusterPreference"
    path = ("metadata", "labels", "instancetype.kubevirt.io/os-type")
    assert index.has(kind, path, RELEASES[-1]) is None
    assert has_field(kind, path, RELEASES[-1]) is True
    assert has_field(kind, ("metadata", "noSuchField"), RELEASES[-1]) is False
    assert index.has(kind, ("metadata",), RELEASES[-1]) is True


def test_a_kind_or_release_the_index_does_not_hold_is_left_to_the_schemas():
    assert index.has("VirtualMachine", ("spec",), RELEASES[-1]) is None
    assert index.has("VirtualMachineClusterPreference", ("spec",), Release(1, 99)) is None
    assert index.fields("VirtualMachine", RELEASES[-1]) is None


def test_an_index_that_does_not_cover_the_known_releases_is_made_again_from_the_release_files(monkeypatch):
    """Private state, read on purpose: the index is made once in _index, whose memo must be emptied to make it again."""
    shipped = index._index()
    index._index.cache_clear()
    try:
        monkeypatch.setattr(index, "FIELDS_FILE", "no-such-file.json")
        assert index._index() == shipped  # made from the release files, it is what was shipped
    finally:
        index._index.cache_clear()


def test_the_index_is_the_one_build_index_makes_of_the_shipped_release_files():
    files = {f"{release}.json": release_data(release) for release in RELEASES}
    shipped = Path(index.__file__).with_name(index.FIELDS_FILE).read_text(encoding="utf-8")
    assert index.build_index(files) == json.loads(shipped)


def test_a_key_one_release_names_and_another_takes_as_any_key_is_had_by_both(monkeypatch):
    """The lookup of has_field: a release's own properties first, then its additionalProperties.

    Private state, replaced on purpose: _index is the one place the index comes from, so a toy index goes there.
    """
    toy = {"v1.0.json": {"kinds": {"Toy": {"properties": {"spec": {"properties": {"x": {"type": "string"}}}}}}},
           "v1.1.json": {"kinds": {"Toy": {"properties": {"spec": {
               "properties": {"y": {"type": "string"}}, "additionalProperties": {"type": "string"}}}}}}}
    releases = (Release(1, 0), Release(1, 1))
    monkeypatch.setattr(index, "known", lambda: releases)
    monkeypatch.setattr(index, "_index", lambda: index.build_index(toy))
    assert [index.has("Toy", ("spec", "x"), r) for r in releases] == [True, True]
    assert [index.has("Toy", ("spec", "y"), r) for r in releases] == [False, True]
    assert [index.has("Toy", ("spec", "z"), r) for r in releases] == [False, True]
    assert [index.has("Toy", ("spec", "z", "deeper"), r) for r in releases] == [False, False]
    assert [index.fields("Toy", r) for r in releases] == [{("spec",), ("spec", "x")}, {("spec",), ("spec", "y")}]


def test_whether_a_release_has_every_field_is_answered_by_the_index_as_by_the_schemas():
    for release in RELEASES:
        kinds = sorted(release_data(release)["kinds"])
        by_schemas = all(schema_fields(kind, other) <= schema_fields(kind, release)
                         for kind in kinds for other in RELEASES)
        assert index.has_all(release) is by_schemas, release
    assert [index.has_all(r) for r in RELEASES] == [False] * (len(RELEASES) - 1) + [True]
