"""The CRD-to-JSON-Schema converter (tools/crd_import.py) and ``citgen schema import`` of release files.

A release file (../shared/kubevirt/crds/v1.8.4.json) holds a KubeVirt release's tag, commit
and the openAPIV3Schema of the four instancetype.kubevirt.io CRDs; ``citgen schema import``
turns it into generator/schemas/kubevirt/v1.8.json. The rules of the conversion are shown on
a small release file written here; the real files in ../shared check that the shipped
schemas are a fresh import of them, byte for byte.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.schemas import QUANTITY_PATTERN, check_object
from generator.schemas.releases import Release, known
from generator.tools.crd_import import (CRD_QUANTITY_PATTERN, KINDS, MAX_DEPTH, convert_release, release_files)
from generator.tools.schema_import import DRAFT, SchemaSourceError, render

from generator.schemas.fields import FIELDS_FILE
from tests.conftest import SHARED, shared_file
from tests.helpers import finding, snapshot

REPO = Path(__file__).resolve().parent.parent
SHIPPED = REPO / "generator" / "schemas" / "kubevirt"
API_VERSION = "instancetype.kubevirt.io/v1beta1"
COMMIT = "dfaa398f086692d19e01be21d83a01036e07815f"
INSTANCETYPE_KINDS = ("VirtualMachineClusterInstancetype", "VirtualMachineInstancetype")
KINDS_LISTED = ("VirtualMachineClusterInstancetype, VirtualMachineClusterPreference, "
                "VirtualMachineInstancetype, VirtualMachinePreference")


# --------------------------------------------------------------------------- a small release file

def toy_schema() -> dict[str, Any]:
    """An openAPIV3Schema as controller-gen writes one, with each construct the converter handles once."""
    return {
        "description": "A toy instancetype.",
        "type": "object",
        "required": ["spec"],
        "properties": {
            "apiVersion": {"type": "string", "description": "APIVersion defines ..."},
            "kind": {"type": "string", "description": "Kind is ..."},
            "metadata": {"type": "object"},
            "spec": {
                "type": "object",
                "required": ["memory", "cpu"],
                "properties": {
                    "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
                    "cpu": {
                        "type": "object",
                        "required": ["guest"],
                        "properties": {
                            "guest": {"type": "integer", "format": "int32", "description": "vCPUs"},
                            "model": {"type": "string", "pattern": "^[a-z]+$"},
                            "numa": {
                                "type": "object",
                                "properties": {"guestMappingPassthrough": {"type": "object"}},
                            },
                        },
                    },
                    "gpus": {
                        "type": "array",
                        "x-kubernetes-list-type": "atomic",
                        "items": {
                            "type": "object",
                            "required": ["name"],
                            "properties": {"name": {"type": "string"}},
                        },
                    },
                    "memory": {
                        "type": "object",
                        "required": ["guest"],
                        "properties": {
                            "guest": {
                                "anyOf": [{"type": "integer"}, {"type": "string"}],
                                "pattern": CRD_QUANTITY_PATTERN,
                                "x-kubernetes-int-or-string": True,
                            },
                            "overcommitPercent": {"type": "integer", "minimum": 0, "maximum": 100},
                        },
                    },
                },
            },
        },
    }


def toy_release(tag: str = "v1.8.4", commit: str = COMMIT) -> dict[str, Any]:
    return {
        "apiVersion": API_VERSION,
        "commit": commit,
        "kubevirt": tag,
        "schemas": {kind: toy_schema() for kind in KINDS},
        "source": "pkg/virt-operator/resource/generate/components/validations_generated.go",
    }


#: What the converter makes of toy_schema(), whole.
TOY_SPEC = {
    "additionalProperties": False,
    "properties": {
        "annotations": {"additionalProperties": {"type": "string"}, "type": "object"},
        "cpu": {
            "additionalProperties": False,
            "properties": {
                "guest": {"format": "int32", "type": "integer"},
                "model": {"pattern": "^[a-z]+$", "type": "string"},
                "numa": {
                    "additionalProperties": False,
                    "properties": {
                        "guestMappingPassthrough": {"additionalProperties": False, "properties": {}, "type": "object"},
                    },
                    "type": "object",
                },
            },
            "required": ["guest"],
            "type": "object",
        },
        "gpus": {
            "items": {
                "additionalProperties": False,
                "properties": {"name": {"type": "string"}},
                "required": ["name"],
                "type": "object",
            },
            "type": "array",
        },
        "memory": {
            "additionalProperties": False,
            "properties": {
                "guest": {"pattern": QUANTITY_PATTERN, "type": ["integer", "string"]},
                "overcommitPercent": {"maximum": 100, "minimum": 0, "type": "integer"},
            },
            "required": ["guest"],
            "type": "object",
        },
    },
    "required": ["cpu", "memory"],
    "type": "object",
}


def converted(document: dict[str, Any] | None = None) -> dict[str, Any]:
    return convert_release(document or toy_release(), "v1.8.4.json")


def toy_spec(kind: str = "VirtualMachineInstancetype") -> dict[str, Any]:
    return converted()["kinds"][kind]["properties"]["spec"]


def write_release(folder: Path, name: str, document: Any) -> Path:
    path = folder / name
    path.write_text(document if isinstance(document, str) else json.dumps(document), encoding="utf-8")
    return path


def citgen(*args: str):
    return CliRunner().invoke(main, list(args))


# --------------------------------------------------------------------------- the conversion, rule by rule

def test_a_toy_spec_converts_to_exactly_this_schema():
    for kind in KINDS:
        assert toy_spec(kind) == TOY_SPEC


def test_every_object_is_strict_and_an_empty_struct_accepts_no_field_at_all():
    spec = toy_spec()
    assert spec["additionalProperties"] is False
    assert spec["properties"]["cpu"]["additionalProperties"] is False
    assert spec["properties"]["gpus"]["items"]["additionalProperties"] is False
    assert spec["properties"]["cpu"]["properties"]["numa"]["properties"]["guestMappingPassthrough"] == {
        "additionalProperties": False, "properties": {}, "type": "object"}


def test_a_map_keeps_its_value_schema_instead_of_being_made_strict():
    assert toy_spec()["properties"]["annotations"] == {"additionalProperties": {"type": "string"}, "type": "object"}


@pytest.mark.parametrize("allowed", [True, False])
def test_a_map_of_any_values_or_none_keeps_its_boolean(allowed):
    document = toy_release()
    document["schemas"]["VirtualMachineInstancetype"]["properties"]["spec"]["properties"]["annotations"] = {
        "type": "object", "additionalProperties": allowed}
    spec = converted(document)["kinds"]["VirtualMachineInstancetype"]["properties"]["spec"]
    assert spec["properties"]["annotations"] == {"additionalProperties": allowed, "type": "object"}


def test_int_or_string_becomes_the_type_list_integer_string_and_its_anyOf_goes():
    guest = toy_spec()["properties"]["memory"]["properties"]["guest"]
    assert guest["type"] == ["integer", "string"]
    assert "anyOf" not in guest and "x-kubernetes-int-or-string" not in guest


def test_the_crd_quantity_pattern_becomes_citgens_quantity_grammar_and_other_patterns_stay():
    properties = toy_spec()["properties"]
    assert properties["memory"]["properties"]["guest"]["pattern"] == QUANTITY_PATTERN
    assert QUANTITY_PATTERN != CRD_QUANTITY_PATTERN
    assert properties["cpu"]["properties"]["model"]["pattern"] == "^[a-z]+$"


def test_format_is_kept_as_a_note_and_no_range_is_added_for_it():
    assert toy_spec()["properties"]["cpu"]["properties"]["guest"] == {"format": "int32", "type": "integer"}


def test_minimum_and_maximum_are_kept_as_the_crd_writes_them():
    assert toy_spec()["properties"]["memory"]["properties"]["overcommitPercent"] == {
        "maximum": 100, "minimum": 0, "type": "integer"}


def test_descriptions_and_list_type_hints_are_dropped():
    text = render(converted())
    for word in ('"description"', "x-kubernetes", "APIVersion defines", "vCPUs", "A toy instancetype"):
        assert word not in text


def test_required_fields_are_sorted():
    assert toy_spec()["required"] == ["cpu", "memory"]


def test_apiVersion_and_kind_are_pinned_with_const_and_required_and_metadata_is_a_plain_object():
    for kind in KINDS:
        root = converted()["kinds"][kind]
        assert root["$schema"] == DRAFT
        assert root["additionalProperties"] is False
        assert root["properties"]["apiVersion"] == {"const": API_VERSION, "type": "string"}
        assert root["properties"]["kind"] == {"const": kind, "type": "string"}
        assert root["properties"]["metadata"] == {"type": "object"}
        assert root["required"] == ["apiVersion", "kind", "spec"]


def test_metadata_is_a_plain_object_whatever_the_crd_says_of_it():
    document = toy_release()
    document["schemas"]["VirtualMachinePreference"]["properties"]["metadata"] = {
        "type": "object", "properties": {"name": {"type": "string"}}}
    assert converted(document)["kinds"]["VirtualMachinePreference"]["properties"]["metadata"] == {"type": "object"}


def test_the_shipped_file_records_the_tag_commit_and_source_it_came_from():
    release = converted()
    assert {key: value for key, value in release.items() if key != "kinds"} == {
        "apiVersion": API_VERSION,
        "commit": COMMIT,
        "generatedBy": "citgen schema import",
        "kubevirt": "v1.8.4",
        "source": "pkg/virt-operator/resource/generate/components/validations_generated.go of kubevirt/kubevirt",
    }
    assert list(release["kinds"]) == sorted(KINDS)


def test_a_release_file_without_a_source_is_recorded_as_virt_operators_crds():
    document = toy_release()
    del document["source"]
    assert converted(document)["source"] == "virt-operator CRDs of kubevirt/kubevirt"


def test_the_output_does_not_depend_on_the_order_of_keys_in_the_input():
    def reverse(node: Any) -> Any:
        if isinstance(node, dict):
            return {key: reverse(value) for key, value in reversed(list(node.items()))}
        if isinstance(node, list):
            return [reverse(item) for item in node]
        return node

    assert render(converted(reverse(toy_release()))) == render(converted())


def test_int_or_string_wins_over_a_type_written_after_it():
    document = toy_release()
    document["schemas"]["VirtualMachineInstancetype"]["properties"]["spec"]["properties"]["memory"]["properties"][
        "guest"] = {"x-kubernetes-int-or-string": True, "type": "string"}
    spec = converted(document)["kinds"]["VirtualMachineInstancetype"]["properties"]["spec"]
    assert spec["properties"]["memory"]["properties"]["guest"] == {"type": ["integer", "string"]}


# --------------------------------------------------------------------------- what the converter refuses

@pytest.mark.parametrize(
    "keyword, value",
    [
        ("x-kubernetes-preserve-unknown-fields", True),
        ("enum", ["a", "b"]),
        ("oneOf", [{"type": "string"}]),
        ("default", 1),
        ("x-kubernetes-int-or-string", False),
    ],
)
def test_an_unknown_keyword_is_refused_naming_where_it_is(keyword, value):
    document = toy_release()
    document["schemas"]["VirtualMachinePreference"]["properties"]["spec"]["properties"]["cpu"][keyword] = value
    with pytest.raises(SchemaSourceError) as raised:
        converted(document)
    assert [str(p) for p in raised.value.problems] == [
        f"v1.8.4.json: VirtualMachinePreference.spec.cpu: unsupported schema keyword {keyword!r}; "
        "the converter needs to learn what it means"]


@pytest.mark.parametrize("alternatives", [[{"type": "array"}], [{"type": "integer"}, {"type": "string"}]],
                         ids=["another-type", "the-int-or-string-pair"])
def test_anyOf_without_int_or_string_is_refused(alternatives):
    """Even the two types int-or-string lists: without the marker they are no int-or-string."""
    document = toy_release()
    document["schemas"]["VirtualMachineInstancetype"]["properties"]["spec"]["properties"]["gpus"]["anyOf"] = \
        alternatives
    with pytest.raises(SchemaSourceError, match=r"VirtualMachineInstancetype\.spec\.gpus: "
                                                r"unsupported schema keyword 'anyOf'"):
        converted(document)


@pytest.mark.parametrize("where, value", [("type", ["string", "null"]), ("required", "guest"),
                                          ("minimum", [0])])
def test_a_known_keyword_of_the_wrong_shape_is_refused_too(where, value):
    document = toy_release()
    document["schemas"]["VirtualMachineInstancetype"]["properties"]["spec"]["properties"]["cpu"][where] = value
    with pytest.raises(SchemaSourceError, match=rf"VirtualMachineInstancetype\.spec\.cpu: "
                                                rf"unsupported schema keyword '{where}'"):
        converted(document)


def nested(levels: int, keyword: str) -> dict[str, Any]:
    """A schema whose innermost string lies ``levels`` schema levels below its root, through ``keyword``."""
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        if keyword == "properties":
            node = {"type": "object", "properties": {"a": node}}
        elif keyword == "items":
            node = {"type": "array", "items": node}
        else:
            node = {"type": "object", "additionalProperties": node}
    return node


STEP = {"properties": ".a", "items": "[]", "additionalProperties": ".*"}


def test_max_depth_is_64_schema_levels():
    assert MAX_DEPTH == 64


@pytest.mark.parametrize("keyword", ["properties", "items", "additionalProperties"])
def test_schemas_nested_64_levels_deep_are_converted(keyword):
    document = toy_release()
    document["schemas"]["VirtualMachinePreference"] = nested(MAX_DEPTH, keyword)
    assert converted(document)["kinds"]["VirtualMachinePreference"]["$schema"] == DRAFT


@pytest.mark.parametrize("keyword", ["properties", "items", "additionalProperties"])
def test_schemas_nested_65_levels_deep_are_refused_naming_where(keyword):
    document = toy_release()
    document["schemas"]["VirtualMachinePreference"] = nested(MAX_DEPTH + 1, keyword)
    with pytest.raises(SchemaSourceError) as raised:
        converted(document)
    where = "VirtualMachinePreference" + STEP[keyword] * (MAX_DEPTH + 1)
    assert [str(p) for p in raised.value.problems] == [
        f"v1.8.4.json: {where}: schemas nested more than 64 levels deep"]


# --------------------------------------------------------------------------- the newest patch of a minor

def test_of_two_patches_of_one_minor_the_newest_is_kept_by_number_not_by_name(tmp_path):
    older = write_release(tmp_path, "v1.8.9.json", toy_release("v1.8.9", "9" * 40))
    newer = write_release(tmp_path, "v1.8.10.json", toy_release("v1.8.10", "a" * 40))
    for paths in ([older, newer], [newer, older]):
        files = release_files(paths)
        assert list(files) == ["v1.8.json"]
        assert (files["v1.8.json"]["kubevirt"], files["v1.8.json"]["commit"]) == ("v1.8.10", "a" * 40)


def test_of_two_files_of_one_release_the_first_is_kept(tmp_path):
    first = write_release(tmp_path, "a.json", toy_release("v1.8.4", "1" * 40))
    second = write_release(tmp_path, "b.json", toy_release("v1.8.4", "2" * 40))
    assert release_files([first, second])["v1.8.json"]["commit"] == "1" * 40
    assert release_files([second, first])["v1.8.json"]["commit"] == "2" * 40


def test_the_tag_inside_the_file_decides_its_release_not_the_file_name(tmp_path):
    mislabelled = write_release(tmp_path, "v1.8.99.json", toy_release("v1.8.1", "1" * 40))
    newest = write_release(tmp_path, "v1.8.2.json", toy_release("v1.8.2", "2" * 40))
    assert release_files([mislabelled, newest])["v1.8.json"]["kubevirt"] == "v1.8.2"


def test_import_of_a_folder_with_two_patches_of_a_minor_writes_the_newest(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("crds").mkdir()
    write_release(Path("crds"), "v1.8.3.json", toy_release("v1.8.3", "3" * 40))
    write_release(Path("crds"), "v1.8.4.json", toy_release("v1.8.4", COMMIT))
    write_release(Path("crds"), "v1.7.4.json", toy_release("v1.7.4", "7" * 40))
    result = citgen("schema", "import", "crds", "--out", "out")
    assert result.exit_code == 0, result.output
    assert result.output == ("wrote out/kubevirt/v1.7.json\nwrote out/kubevirt/v1.8.json\n"
                             "wrote out/release-fields.json\n")
    assert sorted(snapshot(Path("out"))) == ["kubevirt/v1.7.json", "kubevirt/v1.8.json", "release-fields.json"]
    index = json.loads(Path("out/release-fields.json").read_text())
    assert index["releases"] == ["v1.7", "v1.8"]
    written = json.loads(Path("out/kubevirt/v1.8.json").read_text())
    assert (written["kubevirt"], written["commit"]) == ("v1.8.4", COMMIT)


def test_the_shipped_file_is_the_converted_release_rendered_with_sorted_keys(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_release(tmp_path, "v1.8.4.json", toy_release())
    assert citgen("schema", "import", "v1.8.4.json", "--out", "out").exit_code == 0
    text = Path("out/kubevirt/v1.8.json").read_text()
    assert text == render(converted())
    assert text == json.dumps(json.loads(text), indent=2, sort_keys=True) + "\n"


# --------------------------------------------------------------------------- refusals: exit 2, file named, no write

def changed(**fields: Any) -> dict[str, Any]:
    """toy_release() with top-level fields replaced (None: removed)."""
    document = toy_release()
    for key, value in fields.items():
        if value is None:
            document.pop(key)
        else:
            document[key] = value
    return document


def with_kinds(*kinds: str, value: Any = None) -> dict[str, Any]:
    return changed(schemas={kind: toy_schema() if value is None else copy.deepcopy(value) for kind in kinds})


TAG_MESSAGE = "'kubevirt': expected a release tag such as v1.8.4, got {!r}"
COMMIT_MESSAGE = "'commit': expected the hexadecimal commit the schemas come from"
KINDS_MESSAGE = f"'schemas': expected exactly the kinds {KINDS_LISTED}"

REFUSED = [
    ("{not json", "not a JSON document: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    ("", "not a JSON document: Expecting value: line 1 column 1 (char 0)"),
    ("[" * 1_000_000, "not a schema file: nested deeper than Python's JSON reader goes"),
    ("[1, 2]", "expected a KubeVirt release's CRD schemas (an object with kubevirt, commit and schemas)"),
    ('"v1.8.4"', "expected a KubeVirt release's CRD schemas (an object with kubevirt, commit and schemas)"),
    (changed(kubevirt=None), "'kubevirt': expected a release tag such as v1.8.4, got nothing"),
    (changed(kubevirt="v1.8"), TAG_MESSAGE.format("v1.8")),
    (changed(kubevirt="1.8.4"), TAG_MESSAGE.format("1.8.4")),
    (changed(kubevirt="v1.8.4-rc.1"), TAG_MESSAGE.format("v1.8.4-rc.1")),
    (changed(kubevirt=184), "'kubevirt': expected a release tag such as v1.8.4, got 184, which is no text"),
    (changed(kubevirt=list(range(30))), "'kubevirt': expected a release tag such as v1.8.4, got "
                                        "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1, which is no text"),
    (changed(kubevirt="v1.8." + "9" * 41), TAG_MESSAGE.format("v1.8." + "9" * 35)),  # past every number's 40 digits
    (changed(kubevirt="v1.8." + "9" * 1_000_000), TAG_MESSAGE.format("v1.8." + "9" * 35)),
    (changed(kubevirt="v1.8.٤"), TAG_MESSAGE.format("v1.8.٤")),
    (changed(commit=None), COMMIT_MESSAGE),
    (changed(commit="abcdef"), COMMIT_MESSAGE),
    (changed(commit="a" * 41), COMMIT_MESSAGE),
    (changed(commit="DFAA398F"), COMMIT_MESSAGE),
    (changed(commit=1234567), COMMIT_MESSAGE),
    (changed(schemas=None), KINDS_MESSAGE),
    (changed(schemas=list(KINDS)), KINDS_MESSAGE),
    (with_kinds(*KINDS[:3]), KINDS_MESSAGE),
    (with_kinds(*KINDS, "VirtualMachine"), KINDS_MESSAGE),
    (changed(schemas={**toy_release()["schemas"], "VirtualMachinePreference": []}),
     "VirtualMachinePreference: expected a schema object, got list"),
    (changed(source=5), "'source': expected the path of the file the schemas were taken from"),
    (changed(apiVersion=None), "'apiVersion': expected instancetype.kubevirt.io/<version>"),
    (changed(apiVersion="kubevirt.io/v1"), "'apiVersion': expected instancetype.kubevirt.io/<version>"),
    (changed(schemas={**toy_release()["schemas"],
                      "VirtualMachinePreference": {**toy_schema(), "x-kubernetes-preserve-unknown-fields": True}}),
     "VirtualMachinePreference: unsupported schema keyword 'x-kubernetes-preserve-unknown-fields'; "
     "the converter needs to learn what it means"),
    (changed(schemas={**toy_release()["schemas"], "VirtualMachinePreference": nested(MAX_DEPTH + 1, "items")}),
     f"VirtualMachinePreference{'[]' * (MAX_DEPTH + 1)}: schemas nested more than 64 levels deep"),
]
REFUSED_IDS = [
    "not-json", "empty", "deeper-than-python-reads", "a-list", "a-string", "no-tag", "tag-without-patch",
    "tag-without-v", "tag-with-suffix", "tag-a-number", "tag-a-long-list", "tag-of-41-digits", "tag-of-a-million-digits",
    "tag-of-arabic-indic-digits", "no-commit", "commit-of-6", "commit-of-41",
    "commit-upper-case", "commit-a-number", "no-schemas", "schemas-a-list", "three-kinds", "five-kinds",
    "schema-a-list", "source-a-number", "no-apiVersion", "apiVersion-of-another-group", "unknown-keyword", "nested-65-deep",
]


@pytest.fixture
def out_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, bytes]:
    """tmp_path the current directory, holding out/ with an earlier v1.8.json and a file of someone else's."""
    monkeypatch.chdir(tmp_path)
    Path("out/kubevirt").mkdir(parents=True)
    Path("out/kubevirt/v1.8.json").write_text("earlier\n")
    Path("out/notes.txt").write_text("not ours\n")
    return snapshot(Path("out"))


def assert_refused(result, name: str, message: str, out_before: dict[str, bytes]) -> None:
    assert result.exit_code == 2, result.output
    assert result.output == f"{finding(f'{name}: {message}')}\n"
    assert isinstance(result.exception, SystemExit)
    assert snapshot(Path("out")) == out_before


@pytest.mark.parametrize("content, message", REFUSED, ids=REFUSED_IDS)
def test_a_bad_release_file_is_refused_with_exit_2_naming_it_and_nothing_is_written(out_before, content, message):
    write_release(Path("."), "v1.8.4.json", content)
    result = citgen("schema", "import", "v1.8.4.json", "--out", "out")
    assert_refused(result, "v1.8.4.json", message, out_before)


@pytest.mark.parametrize("content, message", REFUSED, ids=REFUSED_IDS)
def test_a_bad_release_file_in_a_folder_is_refused_and_its_good_neighbours_are_not_written(
        out_before, content, message):
    Path("crds").mkdir()
    write_release(Path("crds"), "v1.7.4.json", toy_release("v1.7.4", "7" * 40))
    write_release(Path("crds"), "v1.8.4.json", content)
    write_release(Path("crds"), "v1.9.0.json", toy_release("v1.9.0", "9" * 40))
    result = citgen("schema", "import", "crds", "--out", "out")
    assert_refused(result, "crds/v1.8.4.json", message, out_before)


def test_a_release_file_that_is_not_there_is_refused(out_before):
    assert_refused(citgen("schema", "import", "v1.8.4.json", "--out", "out"), "v1.8.4.json", "no such file or folder",
                   out_before)


def test_a_folder_that_cannot_be_entered_is_refused_without_the_catalogs_wording(out_before, monkeypatch):
    """Permission bits do not bind root, who runs CI: the folder's check is made to fail in this process
    (``os.access`` denies it search permission alone, which click's check of PATH does not ask for)."""
    from generator.source import inputfiles

    Path("crds").mkdir()
    write_release(Path("crds"), "v1.8.4.json", toy_release())
    access = inputfiles.os.access
    def access_but_search(path, mode: int) -> bool:  # a folder that may be listed but not entered (mode 0o644)
        return not (Path(path).name == "crds" and mode & os.X_OK) and access(path, mode)

    monkeypatch.setattr(inputfiles.os, "access", access_but_search)
    assert_refused(citgen("schema", "import", "crds", "--out", "out"), "crds",
                   "cannot read the folder: permission denied", out_before)


def test_a_folder_without_release_files_is_refused(out_before):
    Path("crds").mkdir()
    Path("crds/notes.json").write_text("{}")
    assert_refused(citgen("schema", "import", "crds", "--out", "out"), "crds",
                   "holds no release file (v1.8.4.json and the like)", out_before)


@pytest.mark.parametrize("commit", ["a" * 7, "0123456789abcdef" * 2 + "01234567"], ids=["7-digits", "40-digits"])
def test_a_commit_of_7_to_40_hexadecimal_digits_is_accepted(tmp_path, monkeypatch, commit):
    monkeypatch.chdir(tmp_path)
    write_release(tmp_path, "v1.8.4.json", toy_release(commit=commit))
    result = citgen("schema", "import", "v1.8.4.json", "--out", "out")
    assert result.exit_code == 0, result.output
    assert json.loads(Path("out/kubevirt/v1.8.json").read_text())["commit"] == commit


@pytest.mark.parametrize("tag", ["v1.8.4\n", " v1.8.4", "v1.8.4 "], ids=["newline-after", "space-before",
                                                                       "space-after"])
def test_a_tag_with_anything_around_it_is_refused(out_before, tag):
    write_release(Path("."), "v1.8.4.json", toy_release(tag))
    result = citgen("schema", "import", "v1.8.4.json", "--out", "out")
    assert_refused(result, "v1.8.4.json", TAG_MESSAGE.format(tag), out_before)


def test_a_tag_of_digits_other_than_0_to_9_is_refused(out_before):
    tag = "v1.\u0668.4"
    write_release(Path("."), "v1.8.4.json", toy_release(tag))
    result = citgen("schema", "import", "v1.8.4.json", "--out", "out")
    assert_refused(result, "v1.8.4.json", TAG_MESSAGE.format(tag), out_before)


# --------------------------------------------------------------------------- the real release files in ../shared

@pytest.fixture(scope="module")
def crds_dir() -> Path:
    """KubeVirt's CRD schemas of each release, ../shared/kubevirt/crds."""
    return shared_file(SHARED / "kubevirt" / "crds")


@pytest.fixture(scope="module")
def fresh_import(crds_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """``citgen schema import CRDS --out DIR``, once for the module: DIR and click's Result. Read only."""
    out = tmp_path_factory.mktemp("crd-import") / "out"
    result = citgen("schema", "import", str(crds_dir), "--out", str(out))
    assert result.exit_code == 0, result.output
    return out, result


def test_the_shipped_release_schemas_match_a_fresh_import_byte_for_byte(fresh_import, crds_dir):
    out, _ = fresh_import
    fresh = snapshot(out)
    shipped = {f"kubevirt/{p.name}": p.read_bytes() for p in sorted(SHIPPED.glob("*.json"))}
    shipped[FIELDS_FILE] = (SHIPPED.parent / FIELDS_FILE).read_bytes()
    assert sorted(fresh) == sorted(shipped)
    stale = [name for name in fresh if fresh[name] != shipped[name]]
    assert stale == [], (f"generator/schemas is stale ({', '.join(stale)}); "
                         f"run `citgen schema import {crds_dir}`")


def test_a_fresh_import_writes_one_file_per_minor_release_and_says_so(fresh_import):
    out, result = fresh_import
    assert result.output == ("".join(f"wrote {out}/kubevirt/v1.{minor}.json\n" for minor in range(10))
                             + f"wrote {out}/{FIELDS_FILE}\n")
    assert sorted(snapshot(out)) == [f"kubevirt/v1.{minor}.json" for minor in range(10)] + [FIELDS_FILE]


def test_importing_one_release_file_writes_that_release_only(crds_dir, tmp_path):
    result = citgen("schema", "import", str(crds_dir / "v1.8.4.json"), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert result.output == f"wrote {tmp_path}/out/kubevirt/v1.8.json\nwrote {tmp_path}/out/{FIELDS_FILE}\n"
    written = snapshot(tmp_path / "out")
    assert written.pop("kubevirt/v1.8.json") == (SHIPPED / "v1.8.json").read_bytes()
    assert json.loads(written.pop(FIELDS_FILE))["releases"] == ["v1.8"]  # the index of what the folder holds
    assert written == {}


def test_an_older_patch_beside_the_real_v1_8_4_leaves_the_shipped_v1_8_as_it_is(crds_dir, tmp_path):
    (tmp_path / "crds").mkdir()
    real = json.loads((crds_dir / "v1.8.4.json").read_text())
    write_release(tmp_path / "crds", "v1.8.4.json", real)
    write_release(tmp_path / "crds", "v1.8.3.json", {**real, "kubevirt": "v1.8.3", "commit": "3" * 40})
    result = citgen("schema", "import", str(tmp_path / "crds"), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    written = snapshot(tmp_path / "out")
    assert written.pop("kubevirt/v1.8.json") == (SHIPPED / "v1.8.json").read_bytes()
    assert list(written) == [FIELDS_FILE]


def test_the_real_crds_use_int_or_string_with_the_quantity_pattern_the_converter_replaces(crds_dir):
    real = json.loads((crds_dir / "v1.9.0.json").read_text())
    guest = real["schemas"]["VirtualMachineInstancetype"]["properties"]["spec"]["properties"]["memory"][
        "properties"]["guest"]
    assert guest["anyOf"] == [{"type": "integer"}, {"type": "string"}]
    assert guest["pattern"] == CRD_QUANTITY_PATTERN
    assert guest["x-kubernetes-int-or-string"] is True


@pytest.mark.parametrize("minor", range(10), ids=lambda m: f"v1.{m}")
def test_the_converted_schemas_keep_the_crd_bounds_of_overcommit_percent(fresh_import, minor):
    out, _ = fresh_import
    release = json.loads((out / "kubevirt" / f"v1.{minor}.json").read_text())
    for kind in INSTANCETYPE_KINDS:
        memory = release["kinds"][kind]["properties"]["spec"]["properties"]["memory"]
        assert memory["properties"]["overcommitPercent"] == {"maximum": 100, "minimum": 0, "type": "integer"}
        assert memory["properties"]["guest"] == {"pattern": QUANTITY_PATTERN, "type": ["integer", "string"]}


def instancetype(overcommit: Any) -> dict[str, Any]:
    return {"apiVersion": API_VERSION, "kind": "VirtualMachineClusterInstancetype", "metadata": {"name": "u1.small"},
            "spec": {"cpu": {"guest": 1}, "memory": {"guest": "2Gi", "overcommitPercent": overcommit}}}


@pytest.mark.parametrize(
    "overcommit, found",
    [
        (-1, [(("spec", "memory", "overcommitPercent"), "-1 is below the minimum 0")]),
        (0, []),
        (100, []),
        (101, [(("spec", "memory", "overcommitPercent"), "101 is above the maximum 100")]),
    ],
)
def test_every_release_takes_overcommit_percent_from_0_to_100_and_no_further(overcommit, found):
    for release in known():
        assert check_object(instancetype(overcommit), release=release) == found, release


def test_an_int32_field_takes_a_number_beyond_int32_at_the_schema_since_the_range_is_a_webhook_rule():
    big = instancetype(50)
    big["spec"]["cpu"]["guest"] = 2**31
    assert check_object(big, release=Release(1, 9)) == []
