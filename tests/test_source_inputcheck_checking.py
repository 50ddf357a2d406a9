"""generator/source/inputcheck.py: what checking hands back, and the validators it checks with.

``checked`` returns the document with what breaks its schema left out (a loader that
reads on past a mistake sees only values of the promised shape) and the problems that
say what was left out; ``read_checked`` reads a file first. ``validator_for`` and
``quick_check_for`` are jsonschema's validator and the compiled yes/no check of a
schema, made once per schema, both checking the catalog's own formats (quantity,
label-value) and no other.

Private helpers, tested on purpose: _is_quantity and _is_label_value decide what a format check
sees, including values that are not text, which no schema of the catalog's formats passes them.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any, Mapping

import pytest

from generator import quantity
from generator.source.inputcheck import (LEFT_OUT, LabelValueError, _is_label_value, _is_quantity, checked, present,
                                         quick_check_for, read_checked, schema_problems, validator_for)
from generator.source.yamlsrc import Document, SourceMap, load_text


def document(text: str, file: str = "f.yaml") -> Document:
    return load_text(textwrap.dedent(text).lstrip("\n"), file)


def said(found: list[Any]) -> list[str]:
    return [str(p) for p in found]


def mapping(**properties: Any) -> dict[str, Any]:
    """A closed mapping of ``properties``."""
    return {"type": "object", "properties": properties, "additionalProperties": False}


SERIES = mapping(prefix={"type": "string"}, version={"type": "integer"},
                 sizes={"type": "array", "items": {"type": "string"}},
                 variants={"type": "object", "propertyNames": {"pattern": "^[a-z]+$", "x-expected": "a suffix"},
                           "additionalProperties": mapping(ratio={"type": "string"})})


# --------------------------------------------------------------------------- checked


def test_a_document_that_fits_its_schema_is_handed_back_as_it_is():
    doc = document("prefix: u\nversion: 1\nsizes: [small]\n")
    assert checked(doc, SERIES) == (doc, [])
    assert schema_problems(doc, SERIES) == []


def test_what_breaks_the_schema_is_left_out_of_the_document_and_the_rest_kept():
    doc = document("""
        prefix: u
        version: '1'
        sizes: [small, 2, large, [x]]
        colour: red
        variants: {ok: {ratio: '1:4'}, Bad: {ratio: '1:2'}, odd: {ratio: 3, extra: 1}}
        """)
    kept, found = checked(doc, SERIES)
    assert said(found) == [
        "f.yaml:2:10: version: expected a whole number, got '1'",
        "f.yaml:3:16: sizes[1]: expected a string, got 2",
        "f.yaml:3:26: sizes[3]: expected a string, got a list",
        "f.yaml:5:11: variants: expected a suffix, got 'Bad'",
        "f.yaml:5:66: variants.odd.ratio: expected a string, got 3",
        "f.yaml:5:69: variants.odd.extra: unknown key 'extra'; expected one of: ratio",
        "f.yaml:4:1: colour: unknown key 'colour'; expected one of: prefix, sizes, variants, version",
    ]
    assert kept is not None and kept is not doc
    assert kept.data == {"prefix": "u", "sizes": ["small", LEFT_OUT, "large", LEFT_OUT],
                         "variants": {"ok": {"ratio": "1:4"}, "odd": {}}}
    assert present(kept.data["sizes"]) == [(0, "small"), (2, "large")]
    assert (kept.source, kept.index) == (doc.source, doc.index)
    assert doc.data["version"] == "1" and len(doc.data["sizes"]) == 4  # the document read is not changed


def test_a_missing_key_leaves_the_mapping_that_lacks_it_in():
    schema = {**mapping(a={}, b={}), "required": ["a"]}
    doc = document("b: 1\n")
    kept, found = checked(doc, schema)
    assert said(found) == ["f.yaml:1:1: missing required key 'a'"]
    assert kept is not None and kept.data == {"b": 1}


def test_a_document_that_breaks_the_schema_as_a_whole_is_not_handed_back():
    doc = document("- a\n")
    kept, found = checked(doc, SERIES)
    assert kept is None
    assert said(found) == ["f.yaml:1:1: expected a mapping, got a list"]


def test_a_schema_beyond_the_quick_check_is_still_checked():
    schema = mapping(size={"oneOf": [{"type": "integer"}, {"type": "string"}]})
    assert quick_check_for(schema) is None
    doc = document("size: 1\n")
    assert checked(doc, schema) == (doc, [])
    kept, found = checked(document("size: [1]\nother: 2\n"), schema)
    assert said(found) == [
        "f.yaml:1:7: size: expected a whole number or a string, got a list",
        "f.yaml:2:1: other: unknown key 'other'; expected one of: size"]
    assert kept is not None and kept.data == {}


def test_a_value_the_quick_check_refuses_but_the_explainer_accepts_is_kept_without_a_problem():
    # The compiled check holds an enum's values to their type (1.0 is not 1); jsonschema
    # compares numbers by value. Where they differ the explainer has the last word.
    schema = {"enum": [1]}
    doc = document("1.0\n")
    assert quick_check_for(schema) is not None and not quick_check_for(schema)(doc.data)
    assert checked(doc, schema) == (doc, [])


def test_a_key_that_is_not_text_is_told_in_the_order_of_its_text():
    # YAML files never have one (yamlsrc refuses it); a document built in code may.
    doc = Document({"c": 1, 2: 2, "b": 3}, SourceMap("f.yaml"), 0)
    kept, found = checked(doc, mapping(a={}))
    assert [p.message for p in found] == ["unknown key '2'; expected one of: a", "unknown key 'b'; expected one of: a",
                                          "unknown key 'c'; expected one of: a"]
    assert kept is not None and kept.data == {}


def test_an_item_left_out_shows_as_left_out():
    assert repr(LEFT_OUT) == "LEFT_OUT"
    assert present([LEFT_OUT, "a", None, LEFT_OUT]) == [(1, "a"), (2, None)]


# --------------------------------------------------------------------------- read_checked


def test_a_file_is_read_named_as_displayed_and_checked(tmp_path: Path):
    path = tmp_path / "u.yaml"
    path.write_text("prefix: u\nversion: 1.0\n", encoding="utf-8")
    kept, found = read_checked(path, "series/u.yaml", SERIES, within=tmp_path)
    assert said(found) == ["series/u.yaml:2:10: version: expected a whole number, got 1.0"]
    assert kept is not None and kept.data == {"prefix": "u"}
    path.write_text("prefix: u\n", encoding="utf-8")
    kept, found = read_checked(path, "series/u.yaml", SERIES)
    assert found == [] and kept is not None and kept.data == {"prefix": "u"}


def test_a_file_that_cannot_be_read_is_told_so_and_nothing_of_it_handed_back(tmp_path: Path):
    path = tmp_path / "u.yaml"
    path.write_text("prefix: [u\n", encoding="utf-8")
    kept, found = read_checked(path, "series/u.yaml", SERIES)
    assert kept is None
    assert len(found) == 1 and str(found[0]).startswith("series/u.yaml:2:1: malformed YAML: ")


def test_a_link_out_of_the_catalog_is_not_followed(tmp_path: Path):
    outside = tmp_path / "secret.yaml"
    outside.write_text("prefix: u\n", encoding="utf-8")
    catalog = tmp_path / "catalog"
    catalog.mkdir()
    (catalog / "u.yaml").symlink_to(outside)
    kept, found = read_checked(catalog / "u.yaml", "u.yaml", SERIES, within=catalog)
    assert kept is None and len(found) == 1 and str(found[0]).startswith("u.yaml")
    assert read_checked(catalog / "u.yaml", "u.yaml", SERIES)[1] == []


# --------------------------------------------------------------------------- the formats


def test_a_quantity_is_checked_only_when_it_is_text():
    assert _is_quantity("1Mi") is True
    assert _is_quantity(5) is True and _is_quantity(None) is True
    with pytest.raises(quantity.QuantityError, match="^expected a memory quantity greater than zero, got '0'$"):
        _is_quantity("0")
    with pytest.raises(quantity.QuantityError, match="is not a Kubernetes quantity"):
        _is_quantity("4GB")


def test_a_label_value_is_checked_only_when_it_is_text():
    assert _is_label_value("example.com") is True
    assert _is_label_value("") is True
    assert _is_label_value(5) is True
    with pytest.raises(LabelValueError, match="^'-x' is not a valid label value: "):
        _is_label_value("-x")


LABEL = {"type": "string", "format": "label-value"}
QUANTITY = {"type": "string", "format": "quantity"}


@pytest.mark.parametrize("schema, value", [(LABEL, "-x"), (QUANTITY, "0"), (QUANTITY, "4GB")])
def test_both_checkers_check_the_catalogs_formats(schema: Mapping[str, Any], value: str):
    quick = quick_check_for(schema)
    assert quick is not None and quick(value) is False
    errors = list(validator_for(schema).iter_errors(value))
    assert [e.validator for e in errors] == ["format"]
    assert isinstance(errors[0].cause, ValueError)


def test_neither_checker_checks_a_format_the_catalog_does_not_define():
    schema = {"type": "string", "format": "email"}
    assert list(validator_for(schema).iter_errors("not an address")) == []
    quick = quick_check_for(schema)
    assert quick is not None and quick("not an address") is True


def test_the_validator_holds_whole_numbers_to_what_a_catalog_author_means():
    validator = validator_for({"type": "integer"})
    assert validator.is_valid(3)
    assert not validator.is_valid(3.0)
    assert not validator.is_valid(True)


def test_each_schema_is_compiled_once_and_two_schemas_each_get_their_own():
    schema, other = mapping(a={"type": "string"}), mapping(a={"type": "integer"})
    assert validator_for(schema) is validator_for(mapping(a={"type": "string"}))
    assert quick_check_for(schema) is quick_check_for(schema)
    assert validator_for(schema) is not validator_for(other)
    assert validator_for(schema).is_valid({"a": "x"}) and not validator_for(other).is_valid({"a": "x"})
    quick, other_quick = quick_check_for(schema), quick_check_for(other)
    assert quick is not None and other_quick is not None
    assert quick({"a": "x"}) is True and other_quick({"a": "x"}) is False
    assert said(schema_problems(document("a: 5\n"), schema)) == ["f.yaml:1:4: a: expected a string, got 5"]


def test_what_breaks_the_schema_within_an_item_of_a_list_is_left_out_of_that_item():
    schema = mapping(traits={"type": "array", "items": mapping(trait={"type": "string"}, why={"type": "string"})})
    kept, found = checked(document("traits: [{trait: rng, colour: 1}, {trait: 5, why: x}, [a]]\n"), schema)
    assert said(found) == [
        "f.yaml:1:23: traits[0].colour: unknown key 'colour'; expected one of: trait, why",
        "f.yaml:1:43: traits[1].trait: expected a string, got 5",
        "f.yaml:1:55: traits[2]: expected a mapping, got a list",
    ]
    assert kept is not None and kept.data == {"traits": [{"trait": "rng"}, {"why": "x"}, LEFT_OUT]}


def test_a_schema_without_a_type_is_checked_for_what_it_asks_of_a_mapping():
    schema = {"required": ["a"]}
    assert said(schema_problems(document("b: 1\n"), schema)) == ["f.yaml:1:1: missing required key 'a'"]
    assert schema_problems(document("a: 1\n"), schema) == []


def test_one_byte_is_a_memory_quantity_greater_than_zero():
    assert _is_quantity("1") is True
    assert _is_quantity("1Ki") is True


def test_a_key_of_the_whole_file_that_is_no_valid_name_is_left_out_and_the_rest_kept():
    names = {"pattern": "^[a-z]+$", "x-expected": "a lower-case name"}
    kept, found = checked(document("ok: 1\nBig: 2\n"), {"type": "object", "propertyNames": names})
    assert said(found) == ["f.yaml:1:1: expected a lower-case name, got 'Big'"]
    assert kept is not None and kept.data == {"ok": 1}
    kept, found = checked(document("ok: 1\nBig: 2\n"), {"type": "object", "propertyNames": {**names, "x-at-key": True}})
    assert said(found) == ["f.yaml:2:1: Big: expected a lower-case name, got 'Big'"]
    assert kept is not None and kept.data == {"ok": 1}
