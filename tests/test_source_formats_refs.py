"""generator/source/formats/refs.py: the format of ``citgen refs``'s configuration file.

``names`` is a list of places, each a non-empty string (read by tools/refs/places.py)
or a mapping of a place's parts: ``family``, ``kind`` and ``path`` required, ``apiVersion``,
``group`` and ``name`` optional, nothing else. The tests read what the one explainer
(source/inputcheck.py) says of a file checked against REFS_CONFIG, message for message.
"""

from __future__ import annotations

import textwrap

import pytest

from generator.problems import sort_problems
from generator.source.formats.refs import PLACE, REFS_CONFIG
from generator.source.inputcheck import schema_problems
from generator.source.yamlsrc import load_text


def of_config(text: str) -> list[str]:
    """What the explainer says of ``text`` read as refs.yaml, in reading order."""
    document = load_text(textwrap.dedent(text).lstrip("\n"), "refs.yaml")
    return [str(p) for p in sort_problems(schema_problems(document, REFS_CONFIG))]


PLACE_KEYS = "apiVersion, family, group, kind, name, path"


@pytest.mark.parametrize("text", [
    "{}\n",
    "names: []\n",
    "names: ['preference=ConfigMap/forklift-*-osmap:data.*']\n",
    "names: [{family: instancetype, kind: VMPool, path: spec.instancetype.name}]\n",
    "names: [{family: preference, kind: VMPool, apiVersion: pool.kubevirt.io/v1alpha1, group: '', name: pool-*, "
    "path: spec.preference.name}]\n",
])
def test_a_file_with_no_places_strings_or_whole_mappings_is_accepted(text: str):
    assert of_config(text) == []


def test_the_file_holds_names_and_nothing_else():
    assert of_config("names: []\nplaces: []\n") == [
        "refs.yaml:2:1: places: unknown key 'places'; expected one of: names"]
    assert of_config("names: x\n") == ["refs.yaml:1:8: names: expected a list, got 'x'"]


def test_a_place_is_a_non_empty_string_or_a_mapping():
    assert of_config("names: ['']\n") == ["refs.yaml:1:9: names[0]: expected a non-empty string, got ''"]
    assert of_config("names: [3]\n") == ["refs.yaml:1:9: names[0]: expected a string or a mapping, got 3"]


def test_a_mapping_needs_its_family_kind_and_path_and_the_family_is_one_of_two():
    assert of_config("names: [{kind: VM}]\n") == [
        "refs.yaml:1:9: names[0]: missing required key 'family'",
        "refs.yaml:1:9: names[0]: missing required key 'path'",
    ]
    assert of_config("names: [{family: vm, kind: VM, path: a}]\n") == [
        "refs.yaml:1:18: names[0].family: expected one of instancetype, preference, got 'vm'"]


def test_a_mapping_s_parts_but_group_are_non_empty_and_no_other_key_is_allowed():
    assert of_config("names: [{family: preference, kind: VM, path: a, apiVersion: '', name: ''}]\n") == [
        "refs.yaml:1:61: names[0].apiVersion: expected a non-empty string, got ''",
        "refs.yaml:1:71: names[0].name: expected a non-empty string, got ''",
    ]
    assert of_config("names: [{family: preference, kind: VM, path: a, group: 3}]\n") == [
        "refs.yaml:1:56: names[0].group: expected a string, got 3"]
    assert of_config("names: [{family: preference, kind: VM, path: a, extra: 1}]\n") == [
        f"refs.yaml:1:49: names[0].extra: unknown key 'extra'; expected one of: {PLACE_KEYS}"]


def test_each_of_two_wrong_places_is_reported_at_its_own_index_and_a_repeated_place_is_no_mistake():
    assert of_config("names: ['a', {family: x, kind: VM, path: a}, {family: y, kind: VM, path: a}]\n") == [
        "refs.yaml:1:23: names[1].family: expected one of instancetype, preference, got 'x'",
        "refs.yaml:1:55: names[2].family: expected one of instancetype, preference, got 'y'",
    ]
    assert of_config("names: ['a=b', 'a=b']\n") == []


def test_the_list_s_mappings_are_the_place_schema():
    assert REFS_CONFIG["properties"]["names"]["items"]["anyOf"][1] is PLACE
    assert PLACE["required"] == ["family", "kind", "path"]
