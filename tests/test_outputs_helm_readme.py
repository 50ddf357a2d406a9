"""The chart README's table of values (outputs/helm.py `values_reference` and the helpers it uses).

Each value is a row: its dotted path, its type in words, its default as a user
writes it in a values file (or "unset"), and its description from the schema.
The rows follow values.yaml's order, then values only the schema has; a closed
group of values (``kinds``) is walked into, a map value (``labels``) is one row.
Each list of accepted names is shown once, with every value that accepts it.
The README of the built-in catalog's chart is checked against the build.

Private helpers, tested on purpose: the chart README's table of values is written by _show,
_type_text and _is_group, case by case.
"""

from __future__ import annotations

import pytest
import yaml

from generator.outputs.context import OutputContext
from generator.outputs.helm import _is_group, _show, _type_text, chart_files, values_reference, values_schema
from tests.helpers import default_build


def context() -> OutputContext:
    build = default_build()
    return OutputContext(build.catalog, build.version, build.objects, build.bundles, documents=build.documents)


@pytest.mark.parametrize("schema, text", [
    ({"type": "array", "items": {"type": "string", "enum": ["a"]}}, "list of names"),
    ({"type": "array", "items": {"type": "string", "enum": []}}, "list of names"),
    ({"type": "array", "items": {"type": "string"}}, "list of strings"),
    ({"type": "array", "items": {}}, "list of values"),
    ({"type": "array"}, "list of values"),
    ({"type": "array", "items": None}, "list of values"),
    ({"type": "object", "additionalProperties": {"type": "string"}}, "map of strings"),
    ({"type": "object", "additionalProperties": {"maxLength": 3}}, "map"),
    ({"type": "object", "additionalProperties": True}, "map"),
    ({"type": "object"}, "map"),
    ({"type": "boolean"}, "boolean"),
    ({"type": "string", "items": {"enum": ["a"]}}, "string"),
])
def test_a_value_s_type_in_words(schema: dict, text: str):
    assert _type_text(schema) == text


@pytest.mark.parametrize("value, shown", [
    (True, "`true`"), ([], "`[]`"), ({}, "`{}`"), ("kubevirt.io", '`"kubevirt.io"`'), ("é", '`"é"`'),
    (None, "`null`"), ("1.8", '`"1.8"`'),
])
def test_a_default_is_shown_as_json(value: object, shown: str):
    assert _show(value) == shown


def test_only_a_closed_object_is_a_group_of_values():
    assert _is_group({"type": "object", "additionalProperties": False})
    assert not _is_group({"type": "object", "additionalProperties": {"type": "string"}})
    assert not _is_group({"type": "object"})
    assert not _is_group({"type": "object", "additionalProperties": 0})
    assert not _is_group({"type": "array", "additionalProperties": False})


SCHEMA = {"properties": {
    "only": {"type": "object", "description": "only in the schema"},
    "group": {"type": "object", "additionalProperties": False, "properties": {
        "flag": {"type": "boolean", "description": "a flag"},
        "names": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}, "description": "names"},
        "inner": {"type": "object", "additionalProperties": False, "properties": {
            "deep": {"type": "string"}}},
    }},
    "other": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}, "description": "same names"},
    "third": {"type": "array", "items": {"type": "string", "enum": ["z"]}},
    "empty": {"type": "array", "items": {"type": "string", "enum": []}},
    "map": {"type": "object", "additionalProperties": {"type": "string"}, "description": "a | map"},
    "odd": {"type": "string", "items": {"enum": ["q"]}},  # items of a value that is no list name nothing
}}


def test_rows_follow_the_values_then_what_only_the_schema_has():
    values = {"map": {}, "group": {"names": [], "flag": True, "extra": 1}, "other": ["x"], "unknown": 1}
    table, names = values_reference(values, SCHEMA)
    assert table == (
        "| value | type | default | what it does |\n"
        "| --- | --- | --- | --- |\n"
        "| `map` | map of strings | `{}` | a \\| map |\n"
        "| `group.names` | list of names | `[]` | names |\n"
        "| `group.flag` | boolean | `true` | a flag |\n"
        "| `group.inner.deep` | string | unset |  |\n"
        "| `other` | list of names | `[\"x\"]` | same names |\n"
        "| `only` | map | unset | only in the schema |\n"
        "| `third` | list of names | unset |  |\n"
        "| `empty` | list of names | unset |  |\n"
        "| `odd` | string | unset |  |\n")
    assert names == [(["`group.names`", "`other`"], ["`x`", "`y`"]), (["`third`"], ["`z`"])]


def test_a_group_the_values_leave_empty_or_null_is_walked_with_every_value_unset():
    for group in (None, {}):
        table, _names = values_reference({"group": group}, SCHEMA)
        assert "| `group.flag` | boolean | unset | a flag |\n" in table
        assert table.splitlines()[2] == "| `group.flag` | boolean | unset | a flag |"


def test_a_schema_without_properties_gives_an_empty_table():
    assert values_reference({"a": 1}, {}) == ("| value | type | default | what it does |\n"
                                              "| --- | --- | --- | --- |\n", [])
    table, _names = values_reference({"group": {}}, {"properties": {"group": {
        "type": "object", "additionalProperties": False}}})
    assert table == "| value | type | default | what it does |\n| --- | --- | --- | --- |\n"


def test_the_built_in_chart_readme_lists_each_value_and_the_names_each_list_accepts():
    ctx = context()
    text = chart_files(ctx)["README.md"].decode()
    assert text.startswith(
        "# common-instancetypes\n\nCommon instancetypes (VM sizes) and preferences (guest OS settings) for "
        f"KubeVirt: the kubevirt.io catalog, version {ctx.version}.\n")
    assert ("| `kinds.cluster` | boolean | `true` | Install VirtualMachineClusterInstancetype and "
            "VirtualMachineClusterPreference objects (cluster-wide). |\n") in text
    assert "| `kubevirt.version` | string | `\"v1.9\"` | The KubeVirt release" in text
    assert "| `labels` | map of strings | `{}` | Extra labels on every object;" in text
    assert ("| `global` | map | unset | Helm's values shared between a parent chart and its subcharts; this "
            "chart reads none of them. |\n\n`instancetypes.series`, `instancetypes.excludeSeries` accept:\n"
            "`cx`, `cx1`, `d`, `d1`, `m`, `m1`, `n`, `n1`, `o`, `o1`, `rt`, `rt1`, `u`, `u1`\n\n"
            "`instancetypes.sizes`, `instancetypes.excludeSizes` accept:\n`nano`, `micro`,") in text
    assert "\n`preferences.include`, `preferences.exclude` accept:\n`alpine`, `centos-stream`," in text
    assert "Releases:\nv1.0, v1.1, v1.2, v1.3, v1.4, v1.5, v1.6, v1.7, v1.8, v1.9. Your cluster's release:" in text


def test_the_readme_table_is_read_off_the_values_and_the_schema():
    ctx = context()
    files = chart_files(ctx)
    table, accepted = values_reference(yaml.safe_load(files["values.yaml"]), values_schema(ctx))
    text = files["README.md"].decode()
    assert table in text
    assert len(table.splitlines()) == 2 + 16
    assert [paths for paths, _names in accepted] == [
        ["`instancetypes.series`", "`instancetypes.excludeSeries`"],
        ["`instancetypes.sizes`", "`instancetypes.excludeSizes`"],
        ["`preferences.include`", "`preferences.exclude`"]]
