"""The OpenAPI-to-JSON-Schema converter and ``citgen schema import``."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st
from jsonschema import Draft202012Validator

from generator.cli.schema import schema
from generator.quantity import is_quantity
from generator.schemas.fields import FIELDS_FILE
from generator.schemas import CHECKED_QUANTITY_PATTERN, METADATA_FILE, QUANTITY_PATTERN
from generator.tools.schema_import import (KIND_SOURCES, QUANTITY_DEFINITION, KindSource, SchemaSourceError, convert,
                                           convert_kind, load_openapi, render, write_files)

SHIPPED = Path(__file__).resolve().parent.parent / "generator" / "schemas"
TOY = KindSource("Toy", "toys.example.io/v1", "v1.Toy")


def toy_document(**extra_definitions: dict) -> dict:
    """A tiny swagger document in KubeVirt's style: one kind with a spec and a quantity."""
    return {
        "swagger": "2.0",
        "definitions": {
            "v1.Toy": {
                "description": "A toy.",
                "type": "object",
                "required": ["spec"],
                "properties": {
                    "apiVersion": {"type": "string", "description": "prose"},
                    "kind": {"type": "string"},
                    "spec": {"default": {}, "$ref": "#/definitions/v1.ToySpec"},
                },
            },
            "v1.ToySpec": {
                "type": "object",
                "required": ["size", "count"],
                "properties": {
                    "count": {"type": "integer", "format": "int32", "default": 0},
                    "big": {"type": "integer", "format": "int64"},
                    "size": {"$ref": f"#/definitions/{QUANTITY_DEFINITION}"},
                    "labels": {"type": "object", "additionalProperties": {"type": "string", "default": ""}},
                    "mode": {"type": "string", "enum": ["fast", "slow"], "x-kubernetes-list-type": "atomic"},
                    "port": {"$ref": "#/definitions/intstr.IntOrString"},
                    "status": {"$ref": "#/definitions/v1.ToyStatus"},
                    "marker": {"$ref": "#/definitions/v1.Marker"},
                },
            },
            "v1.ToyStatus": {"type": "object", "nullable": True, "properties": {"ok": {"type": "boolean"}}},
            "v1.Marker": {"type": "object"},
            "v1.Unused": {"type": "object", "properties": {"x": {"type": "string"}}},
            "intstr.IntOrString": {"type": "string", "format": "int-or-string"},
            QUANTITY_DEFINITION: {"description": "grammar in words", "type": ["string", "integer", "number"]},
            **extra_definitions,
        },
    }


# --- the converter on a small document: each rule visible in one place ---


def test_kind_is_pinned_and_required():
    root = convert_kind(toy_document(), TOY)
    assert root["properties"]["apiVersion"] == {"const": "toys.example.io/v1", "type": "string"}
    assert root["properties"]["kind"] == {"const": "Toy", "type": "string"}
    assert root["required"] == ["apiVersion", "kind", "spec"]


def test_objects_with_properties_are_strict_while_maps_keep_their_value_schema():
    root = convert_kind(toy_document(), TOY)
    spec = root["$defs"]["v1.ToySpec"]
    assert root["additionalProperties"] is False
    assert spec["additionalProperties"] is False
    assert spec["properties"]["labels"] == {"type": "object", "additionalProperties": {"type": "string"}}
    assert root["$defs"]["v1.Marker"] == {"type": "object"}


def test_prose_defaults_and_extensions_are_dropped():
    text = render(convert_kind(toy_document(), TOY))
    for word in ('"description"', '"default"', "x-kubernetes", "prose", "grammar in words"):
        assert word not in text


def test_integer_formats_get_their_ranges():
    spec = convert_kind(toy_document(), TOY)["$defs"]["v1.ToySpec"]["properties"]
    assert spec["count"] == {"type": "integer", "format": "int32", "minimum": -(2**31), "maximum": 2**31 - 1}
    assert (spec["big"]["minimum"], spec["big"]["maximum"]) == (-(2**63), 2**63 - 1)


def test_quantity_gets_the_grammar_and_int_or_string_takes_both_types():
    defs = convert_kind(toy_document(), TOY)["$defs"]
    assert defs[QUANTITY_DEFINITION] == {"type": ["string", "integer", "number"], "pattern": QUANTITY_PATTERN}
    assert defs["intstr.IntOrString"]["type"] == ["integer", "string"]


def test_nullable_adds_null_to_the_type_and_enums_survive():
    defs = convert_kind(toy_document(), TOY)["$defs"]
    assert defs["v1.ToyStatus"]["type"] == ["object", "null"]
    assert defs["v1.ToySpec"]["properties"]["mode"] == {"type": "string", "enum": ["fast", "slow"]}


def test_only_reachable_definitions_are_kept_and_every_ref_resolves():
    root = convert_kind(toy_document(), TOY)
    assert sorted(root["$defs"]) == sorted(
        ["v1.ToySpec", "v1.ToyStatus", "v1.Marker", "intstr.IntOrString", QUANTITY_DEFINITION]
    )
    refs = set(re.findall(r'"\$ref": "#/\$defs/([^"]+)"', render(root)))
    assert refs == set(root["$defs"])


def test_a_dangling_ref_is_an_error():
    document = toy_document()
    document["definitions"]["v1.ToySpec"]["properties"]["ghost"] = {"$ref": "#/definitions/v1.Ghost"}
    with pytest.raises(SchemaSourceError, match=r"definitions.v1.ToySpec.ghost: \$ref '#/definitions/v1.Ghost'"):
        convert_kind(document, TOY)


def test_an_unknown_keyword_is_an_error_rather_than_silently_dropped():
    document = toy_document()
    document["definitions"]["v1.ToySpec"]["properties"]["count"]["discriminator"] = "kind"
    with pytest.raises(SchemaSourceError, match="unsupported schema keyword 'discriminator'"):
        convert_kind(document, TOY)


def test_output_is_deterministic_sorted_and_ends_with_a_newline():
    first = render(convert_kind(toy_document(), TOY))
    reordered = toy_document()
    reordered["definitions"] = dict(reversed(list(reordered["definitions"].items())))
    assert render(convert_kind(reordered, TOY)) == first
    assert first.endswith("}\n")
    assert first == json.dumps(json.loads(first), indent=2, sort_keys=True) + "\n"


@given(st.text(alphabet="0123456789.+-eEKMGTPinumk ", max_size=8))
def test_quantity_pattern_accepts_what_the_quantity_parser_accepts_and_the_checked_one_exactly_that(text):
    # the shipped grammar is Kubernetes'; the schema check holds it to the bounds of every number (1e100 is past them)
    assert bool(re.search(QUANTITY_PATTERN, text)) >= is_quantity(text)
    assert bool(re.search(CHECKED_QUANTITY_PATTERN, text)) == is_quantity(text)


# --- the shipped schemas ---


def shipped_files() -> dict[str, bytes]:
    """The files an import of swagger.json writes (the release files' index comes from their import)."""
    return {p.name: p.read_bytes() for p in sorted(SHIPPED.glob("*.json")) if p.name != FIELDS_FILE}


def test_shipped_schemas_match_a_fresh_import_byte_for_byte(swagger_path, tmp_path):
    recorded = json.loads((SHIPPED / METADATA_FILE).read_text())["kubevirtVersion"]
    result = CliRunner().invoke(
        schema, ["import", str(swagger_path), "--out", str(tmp_path), "--kubevirt-version", recorded]
    )
    assert result.exit_code == 0, result.output
    fresh = {p.name: p.read_bytes() for p in sorted(tmp_path.glob("*.json"))}
    assert sorted(fresh) == sorted(shipped_files())
    stale = [name for name in fresh if fresh[name] != shipped_files()[name]]
    assert stale == [], (
        f"generator/schemas is stale ({', '.join(stale)}); run "
        f"`citgen schema import {swagger_path} --kubevirt-version '{recorded}'`"
    )


def test_shipped_metadata_names_every_kind_and_the_kubevirt_it_came_from():
    meta = json.loads((SHIPPED / METADATA_FILE).read_text())
    assert meta["kubevirtVersion"].startswith("d923fdb8")
    assert meta["source"]["swagger"] == "2.0"
    assert re.fullmatch(r"[0-9a-f]{64}", meta["source"]["sha256"])
    assert meta["kinds"] == {
        spec.kind: {"apiVersion": spec.api_version, "definition": spec.definition, "file": spec.file}
        for spec in KIND_SOURCES
    }


@pytest.mark.parametrize("spec", KIND_SOURCES, ids=lambda s: s.kind)
def test_each_shipped_schema_is_a_valid_draft_2020_12_schema(spec):
    document = json.loads((SHIPPED / spec.file).read_text())
    Draft202012Validator.check_schema(document)
    assert document["properties"]["kind"]["const"] == spec.kind
    assert "description" not in (SHIPPED / spec.file).read_text()


# --- the command ---


def test_import_writes_every_file_and_records_the_version(swagger_path, tmp_path):
    result = CliRunner().invoke(schema, ["import", str(swagger_path), "--out", str(tmp_path / "out"),
                                         "--kubevirt-version", "v1.9.0"])
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == sorted([spec.file for spec in KIND_SOURCES] + [METADATA_FILE])
    assert result.output.count("wrote ") == len(written)
    meta = json.loads((tmp_path / "out" / METADATA_FILE).read_text())
    assert meta["kubevirtVersion"] == "v1.9.0"


def test_import_of_a_document_lacking_a_kind_names_the_missing_definition(tmp_path):
    document = toy_document()
    source = tmp_path / "swagger.json"
    source.write_text(json.dumps(document))
    result = CliRunner().invoke(schema, ["import", str(source), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "definition 'v1.VirtualMachine' of VirtualMachine " \
           "is missing from 'definitions'" in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "no such file or folder"),
        ("{not json", "not a JSON document"),
        ('{"swagger": "2.0", "paths": {}}', "not an OpenAPI (swagger 2.0) document: it has no 'definitions' object"),
        ("[1, 2]", "not an OpenAPI (swagger 2.0) document: it has no 'definitions' object"),
    ],
    ids=["missing", "not-json", "no-definitions", "not-an-object"],
)
def test_import_reports_unusable_input_with_exit_2_and_no_traceback(tmp_path, content, message):
    source = tmp_path / "swagger.json"
    if content is not None:
        source.write_text(content)
    result = CliRunner().invoke(schema, ["import", str(source), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert f"{source}: error: {message}" in result.output
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


def test_convert_covers_all_five_kinds_from_the_real_document(swagger_path):
    document = json.loads(swagger_path.read_text())
    files = convert(document, swagger_path.read_bytes(), "test")
    assert sorted(files) == sorted([spec.file for spec in KIND_SOURCES] + [METADATA_FILE])
    vm = files["virtualmachine_v1.json"]
    assert vm["properties"]["apiVersion"]["const"] == "kubevirt.io/v1"
    assert vm["$defs"][QUANTITY_DEFINITION]["pattern"] == QUANTITY_PATTERN


def test_a_malformed_definition_is_an_error_naming_where():
    document = toy_document()
    document["definitions"]["v1.ToySpec"]["required"] = "size"
    with pytest.raises(SchemaSourceError, match="definitions.v1.ToySpec: 'required' must be a JSON array"):
        convert_kind(document, TOY)


def test_import_of_json_nested_deeper_than_pythons_reader_goes_is_refused_not_a_traceback(tmp_path):
    source = tmp_path / "swagger.json"
    source.write_text("[" * 1_000_000 + "]" * 1_000_000)
    result = CliRunner().invoke(schema, ["import", str(source), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.output == (f"{source}: error: not an OpenAPI document: nested deeper than Python's JSON reader "
                             "goes [input]\n")
    assert not (tmp_path / "out").exists()


def test_import_of_definitions_that_refer_to_themselves_is_refused_not_written(tmp_path):
    document = toy_document(**{"v1.ToyStatus": {"type": "object", "properties": {
        "next": {"$ref": "#/definitions/v1.ToyLoop"}}},
        "v1.ToyLoop": {"type": "object", "properties": {"back": {"$ref": "#/definitions/v1.ToyStatus"}}}})
    for spec in KIND_SOURCES:  # the toy stands for each kind citgen imports
        document["definitions"][spec.definition] = document["definitions"]["v1.Toy"]
    source = tmp_path / "swagger.json"
    source.write_text(json.dumps(document))
    result = CliRunner().invoke(schema, ["import", str(source), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.output == (f"{source}: error: definitions.v1.ToyLoop: $ref cycle v1.ToyLoop -> v1.ToyStatus -> "
                             "v1.ToyLoop; the schemas citgen ships are trees, and a cycle would be followed for "
                             "ever [input]\n")
    assert not (tmp_path / "out").exists()


# --- every rule of the converter, each on the smallest document that shows it ---


def converted(**properties: dict) -> dict:
    """The $defs entry of v1.ToySpec converted, with ``properties`` in place of the toy's."""
    document = toy_document()
    document["definitions"]["v1.ToySpec"] = {"type": "object", "properties": properties}
    return convert_kind(document, TOY)["$defs"]["v1.ToySpec"]


def refusal(**properties: dict) -> str:
    document = toy_document()
    document["definitions"]["v1.ToySpec"] = {"type": "object", "properties": properties}
    with pytest.raises(SchemaSourceError) as raised:
        convert_kind(document, TOY)
    return str(raised.value)


def test_nullable_adds_null_once_to_a_type_of_several():
    assert converted(a={"type": ["string", "integer"], "nullable": True},
                     b={"type": ["string", "null"], "nullable": True})["properties"] == {
        "a": {"type": ["string", "integer", "null"]}, "b": {"type": ["string", "null"]}}


def test_a_map_s_own_value_schema_and_a_boolean_are_kept_and_only_integers_get_ranges():
    spec = converted(a={"type": "object", "properties": {"x": {"type": "string"}},
                        "additionalProperties": {"type": "string"}},
                     b={"type": "object", "additionalProperties": True},
                     c={"type": "string", "format": "int64"})
    assert spec["properties"] == {
        "a": {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": {"type": "string"}},
        "b": {"type": "object", "additionalProperties": True},
        "c": {"type": "string", "format": "int64"}}


def test_alternatives_are_converted_each_in_turn():
    spec = converted(a={"allOf": [{"$ref": "#/definitions/v1.Marker"}]},
                     b={"anyOf": [{"type": "string", "description": "prose"}, {"type": "integer"}]},
                     c={"oneOf": [{"type": "boolean"}]})
    assert spec["properties"] == {"a": {"allOf": [{"$ref": "#/$defs/v1.Marker"}]},
                                  "b": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                                  "c": {"oneOf": [{"type": "boolean"}]}}


@pytest.mark.parametrize("prop, where", [
    ({"type": "object", "additionalProperties": {"title": "t", "foo": 1}}, "definitions.v1.ToySpec.p.*"),
    ({"type": "array", "items": {"foo": 1}}, "definitions.v1.ToySpec.p[]"),
    ({"oneOf": [{"type": "string"}, {"foo": 1}]}, "definitions.v1.ToySpec.p.oneOf[1]"),
], ids=["map value", "list item", "alternative"])
def test_a_mistake_deep_in_a_definition_is_named_by_its_place(prop, where):
    assert refusal(p=prop) == (f"swagger.json: {where}: unsupported schema keyword 'foo'; the converter needs to "
                               "learn what it means")


def test_a_schema_that_is_not_an_object_is_refused_naming_its_type():
    assert refusal(p=["string"]) == "swagger.json: definitions.v1.ToySpec.p: expected a schema object, got list"


def test_a_kind_without_properties_or_required_fields_gets_its_kind_pinned_and_nothing_else():
    document = toy_document()
    document["definitions"]["v1.Toy"] = {"type": "object"}
    assert convert_kind(document, TOY) == {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": False,
        "required": ["apiVersion", "kind"],
        "properties": {"apiVersion": {"const": "toys.example.io/v1", "type": "string"},
                       "kind": {"const": "Toy", "type": "string"}}}
    document["definitions"]["v1.Toy"] = {"type": "object", "properties": {"x": {"foo": 1}}}
    with pytest.raises(SchemaSourceError) as raised:
        convert_kind(document, TOY)
    assert str(raised.value) == ("swagger.json: definitions.v1.Toy.x: unsupported schema keyword 'foo'; the "
                                 "converter needs to learn what it means")


def lattice(levels: int) -> dict:
    """v1.Toy -> L0, each Ln -> An and Bn, each of those -> Ln+1: 2**levels paths through shared definitions."""
    document = toy_document()
    definitions = document["definitions"]
    definitions["v1.Toy"] = {"type": "object", "properties": {"top": {"$ref": "#/definitions/L0"}}}
    for n in range(levels):
        definitions[f"L{n}"] = {"properties": {"a": {"$ref": f"#/definitions/A{n}"},
                                               "b": {"$ref": f"#/definitions/B{n}"}}}
        for side in "AB":
            definitions[f"{side}{n}"] = {"properties": {"next": {"$ref": f"#/definitions/L{n + 1}"}}}
    definitions[f"L{levels}"] = {"type": "string"}
    return document


def test_shared_definitions_are_followed_once_so_a_deep_lattice_of_them_converts_at_once():
    """A walk that followed each path would take 2**40 steps here; the real document shares definitions widely."""
    assert len(convert_kind(lattice(40), TOY)["$defs"]) == 3 * 40 + 1


def test_a_cycle_is_found_among_definitions_met_after_others_were_walked():
    document = toy_document(**{"v1.Zx": {"properties": {"next": {"$ref": "#/definitions/v1.Zy"}}},
                               "v1.Zy": {"properties": {"back": {"$ref": "#/definitions/v1.Zx"}}}})
    document["definitions"]["v1.Toy"]["properties"]["loop"] = {"$ref": "#/definitions/v1.Zx"}
    with pytest.raises(SchemaSourceError) as raised:
        convert_kind(document, TOY)
    assert str(raised.value) == ("swagger.json: definitions.v1.Zx: $ref cycle v1.Zx -> v1.Zy -> v1.Zx; the schemas "
                                 "citgen ships are trees, and a cycle would be followed for ever")


def kinds_document(**extra: object) -> dict:
    """The toy standing in for every kind citgen imports, with ``extra`` top-level keys."""
    document = toy_document()
    for spec in KIND_SOURCES:
        document["definitions"][spec.definition] = document["definitions"]["v1.Toy"]
    return {**document, **extra}


def test_the_metadata_records_the_document_s_version_unless_one_is_given():
    info = {"title": "KubeVirt API", "version": "v1.9.0"}
    meta = convert(kinds_document(info=info), b"{}")[METADATA_FILE]
    assert meta == {
        "kubevirtVersion": "v1.9.0",
        "source": {"document": "api/openapi-spec/swagger.json of kubevirt/kubevirt",
                   "sha256": "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a",
                   "swagger": "2.0", "title": "KubeVirt API", "version": "v1.9.0"},
        "kinds": {spec.kind: {"apiVersion": spec.api_version, "definition": spec.definition, "file": spec.file}
                  for spec in KIND_SOURCES},
        "generatedBy": "citgen schema import"}
    assert convert(kinds_document(info=info), b"{}", "d923fdb8")[METADATA_FILE]["kubevirtVersion"] == "d923fdb8"
    unnamed = convert(kinds_document(info="not an object"), b"{}")[METADATA_FILE]
    assert (unnamed["kubevirtVersion"], unnamed["source"]["title"], unnamed["source"]["version"]) == (None, None, None)


def test_a_document_without_the_kinds_is_refused_as_swagger_json_unless_named():
    with pytest.raises(SchemaSourceError) as raised:
        convert({"definitions": {}}, b"")
    assert str(raised.value) == ("swagger.json: definition 'v1.VirtualMachine' of VirtualMachine is missing from "
                                 "'definitions'")
    with pytest.raises(SchemaSourceError) as raised:
        convert_kind({"definitions": {}}, TOY)
    assert str(raised.value) == "swagger.json: definition 'v1.Toy' of Toy is missing from 'definitions'"


def test_render_writes_text_beyond_ascii_as_it_is():
    assert render({"b": "é", "a": [1]}) == '{\n  "a": [\n    1\n  ],\n  "b": "é"\n}\n'


# --- reading the document and writing the files ---


def test_a_directory_or_a_pipe_is_refused_as_the_document(tmp_path: Path):
    with pytest.raises(SchemaSourceError) as raised:
        load_openapi(tmp_path)
    assert str(raised.value) == f"{tmp_path}: is a directory, expected KubeVirt's swagger.json"
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(SchemaSourceError) as raised:
        load_openapi(tmp_path / "pipe")
    assert str(raised.value) == (f"{tmp_path / 'pipe'}: is a FIFO (named pipe), not a regular file; citgen reads "
                                 "only regular files")


def test_files_are_written_readable_into_a_new_folder_each_through_a_hidden_file_beside_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    replaced: list[tuple[Path, Path]] = []
    replace = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (replaced.append((Path(a), Path(b))), replace(a, b))[1])
    out = tmp_path / "new" / "schemas"
    assert write_files({"b.json": {"x": "é"}, "a.json": []}, out) == [out / "a.json", out / "b.json"]
    assert [(src.parent, src.name.startswith(f".{dst.name}."), dst) for src, dst in replaced] == [
        (out, True, out / "a.json"), (out, True, out / "b.json")]
    assert (out / "b.json").read_bytes() == '{\n  "x": "é"\n}\n'.encode()
    assert {p.name: p.stat().st_mode & 0o777 for p in out.iterdir()} == {"a.json": 0o644, "b.json": 0o644}


def test_a_file_that_cannot_be_written_leaves_nothing_behind_and_its_error_stands(tmp_path: Path):
    with pytest.raises(TypeError, match="Object of type object is not JSON serializable"):
        write_files({"a.json": object()}, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_an_output_folder_that_cannot_be_made_is_refused(tmp_path: Path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(SchemaSourceError) as raised:
        write_files({}, tmp_path / "file" / "out")
    assert str(raised.value) == f"{tmp_path / 'file' / 'out'}: cannot create the output directory: Not a directory"
