"""generator/source/inputcheck.py: the exact words of the one explainer, kind of mistake by kind of mistake.

Each test writes a tiny schema of its own and a few lines of YAML, and reads what a
catalog author is told: the file, line and column, the key path, what was expected
and what was found, in the wording the catalog formats rely on (tests/test_source_formats_*.py,
tests/test_broken_inputs.py, docs/errors.md). The helpers that word a value
(``describe``), its kind (``kind_of``) and a type (``_expected_type``) are tested
directly: their results are parts of every message.
"""

from __future__ import annotations

import datetime as dt
import textwrap
from typing import Any, Mapping

import pytest

from generator.problems import EXCERPT
from generator.source.inputcheck import _expected_type, describe, kind_of, schema_problems
from generator.source.yamlsrc import load_text


def problems(schema: Mapping[str, Any], text: str, file: str = "f.yaml") -> list[str]:
    """What the explainer says about ``text`` (dedented) read as ``file`` against ``schema``."""
    document = load_text(textwrap.dedent(text).lstrip("\n"), file)
    return [str(p) for p in schema_problems(document, schema)]


def mapping(**properties: Any) -> dict[str, Any]:
    """A closed mapping of ``properties``."""
    return {"type": "object", "properties": properties, "additionalProperties": False}


# --------------------------------------------------------------------------- how a value is shown


@pytest.mark.parametrize("value, shown", [
    ({"a": 1}, "a mapping"),
    ({}, "a mapping"),
    ([1, 2], "a list"),
    ([], "a list"),
    (True, "the boolean true"),
    (False, "the boolean false"),
    (None, "nothing (null)"),
    ("4GB", "'4GB'"),
    ("", "''"),
    (1.0, "1.0"),
    (5, "5"),
    (0, "0"),
])
def test_a_value_is_shown_as_a_catalog_author_wrote_it_or_by_its_kind(value: Any, shown: str):
    assert describe(value) == shown


def test_a_very_long_number_is_cut_like_a_long_text():
    assert describe(10 ** 70) == "1" + "0" * (EXCERPT - 1) + "... (11 more characters)"
    assert describe(10 ** (EXCERPT - 1)) == "1" + "0" * (EXCERPT - 1)


@pytest.mark.parametrize("value, kind", [
    (None, "nothing (null)"),
    (True, "a boolean"),
    (False, "a boolean"),
    (0, "a number"),
    (7, "a number"),
    (1.5, "a decimal number"),
    ("x", "a string"),
    ("", "a string"),
    ([1], "a list"),
    ({"a": 1}, "a mapping"),
    (dt.date(2024, 1, 1), "date"),
])
def test_the_kind_of_a_value_is_named_as_a_yaml_author_names_it(value: Any, kind: str):
    assert kind_of(value) == kind


@pytest.mark.parametrize("types, words", [
    ("object", "a mapping"),
    ("array", "a list"),
    ("string", "a string"),
    ("integer", "a whole number"),
    ("number", "a number"),
    ("boolean", "true or false"),
    ("null", "nothing (null)"),
    (["string", "null"], "a string or nothing (null)"),
    (["integer", "object", "array"], "a whole number or a mapping or a list"),
    ("decimal", "decimal"),  # a type citgen has no words for is named as the schema names it
])
def test_an_expected_type_is_said_in_words(types: Any, words: str):
    """Private helper, tested on purpose: _expected_type words every type a format may name, more than the formats
    use today.
    """
    assert _expected_type(types) == words


# --------------------------------------------------------------------------- type


def test_a_value_of_the_wrong_type_is_told_what_was_expected_and_what_it_is():
    schema = mapping(name={"type": "string"}, count={"type": "integer"}, enabled={"type": "boolean"},
                     spec={"type": "object"}, items={"type": "array"}, size={"type": "number"})
    assert problems(schema, """
        name: 5
        count: '4'
        enabled: yes please
        spec: [a]
        items: {a: 1}
        size: true
        """) == [
        "f.yaml:1:7: name: expected a string, got 5",
        "f.yaml:2:8: count: expected a whole number, got '4'",
        "f.yaml:3:10: enabled: expected true or false, got 'yes please'",
        "f.yaml:4:7: spec: expected a mapping, got a list",
        "f.yaml:5:8: items: expected a list, got a mapping",
        "f.yaml:6:7: size: expected a number, got the boolean true",
    ]


def test_a_decimal_and_a_boolean_are_not_whole_numbers():
    schema = mapping(count={"type": "integer"})
    assert problems(schema, "count: 1.0\n") == ["f.yaml:1:8: count: expected a whole number, got 1.0"]
    assert problems(schema, "count: true\n") == ["f.yaml:1:8: count: expected a whole number, got the boolean true"]
    assert problems(schema, "count: 3\n") == []


def test_a_value_that_may_be_of_several_types_names_them_all():
    schema = mapping(note={"type": ["string", "null"]})
    assert problems(schema, "note: [a]\n") == ["f.yaml:1:7: note: expected a string or nothing (null), got a list"]
    assert problems(schema, "note:\n") == []


def test_a_whole_file_of_the_wrong_type_is_told_at_its_start():
    assert problems({"type": "object"}, "- a\n- b\n") == ["f.yaml:1:1: expected a mapping, got a list"]


# --------------------------------------------------------------------------- enum, const, pattern


def test_a_value_not_among_the_allowed_ones_is_told_every_allowed_one():
    schema = mapping(hugepages={"enum": ["2Mi", "1Gi"]}, level={"enum": [1, 2, 3]})
    assert problems(schema, "hugepages: 4Mi\nlevel: 4\n") == [
        "f.yaml:1:12: hugepages: expected one of 2Mi, 1Gi, got '4Mi'",
        "f.yaml:2:8: level: expected one of 1, 2, 3, got 4",
    ]


def test_a_const_or_a_pattern_without_words_of_its_schema_is_told_in_jsonschemas_words():
    # Every such check in the catalog formats carries x-expected or x-message; without
    # them the explainer still locates the value and passes jsonschema's sentence on.
    schema = mapping(extends={"const": "builtin"}, prefix={"type": "string", "pattern": "^[a-z]+$"})
    assert problems(schema, "extends: other\nprefix: CX\n") == [
        "f.yaml:1:10: extends: 'builtin' was expected",
        "f.yaml:2:9: prefix: 'CX' does not match '^[a-z]+$'",
    ]


def test_a_schemas_expected_words_replace_whatever_check_failed():
    ratio = {"type": "string", "pattern": "^[0-9]+:[0-9]+$", "x-expected": 'a vCPU:memory ratio such as "1:4"'}
    schema = mapping(ratio=ratio, extends={"const": "builtin", "x-expected": "builtin (the catalog citgen ships)"})
    assert problems(schema, "ratio: 1-4\nextends: mine\n") == [
        "f.yaml:1:8: ratio: expected a vCPU:memory ratio such as \"1:4\", got '1-4'",
        "f.yaml:2:10: extends: expected builtin (the catalog citgen ships), got 'mine'",
    ]
    assert problems(schema, "ratio: 4\n") == ["f.yaml:1:8: ratio: expected a vCPU:memory ratio such as \"1:4\", got 4"]


def test_a_missing_key_is_told_missing_even_where_the_mapping_has_expected_words():
    schema = {"type": "object", "required": ["spec"], "x-expected": "a trait with a spec"}
    assert problems(schema, "description: x\n") == ["f.yaml:1:1: missing required key 'spec'"]


def test_a_missing_key_whose_name_jsonschema_quotes_otherwise_is_told_as_a_question_mark():
    """jsonschema names a missing key by its repr: a name holding ' comes in double quotes, and is not read."""
    schema = {"type": "object", "required": ["it's"]}
    assert problems(schema, "description: x\n") == ["f.yaml:1:1: missing required key '?'"]


# --------------------------------------------------------------------------- bounds


def test_a_number_below_its_minimum_or_above_its_maximum_is_told_the_bound():
    schema = mapping(cpu={"type": "integer", "minimum": 1, "maximum": 16},
                     percent={"type": "number", "exclusiveMinimum": 0})
    assert problems(schema, "cpu: 0\npercent: 0\n") == [
        "f.yaml:1:6: cpu: expected a number at least 1, got 0",
        "f.yaml:2:10: percent: expected a number greater than 0, got 0",
    ]
    assert problems(schema, "cpu: 17\npercent: -1.5\n") == [
        "f.yaml:1:6: cpu: expected a number at most 16, got 17",
        "f.yaml:2:10: percent: expected a number greater than 0, got -1.5",
    ]
    assert problems(schema, "cpu: 1\npercent: 0.5\n") == []
    assert problems(schema, "cpu: 16\n") == []


def test_an_empty_string_where_text_is_needed_is_told_so():
    schema = mapping(name={"type": "string", "minLength": 1})
    assert problems(schema, "name: ''\n") == ["f.yaml:1:7: name: expected a non-empty string, got ''"]


def test_a_string_too_short_or_too_long_for_a_longer_bound_is_told_in_jsonschemas_words():
    schema = mapping(code={"type": "string", "minLength": 3, "maxLength": 4})
    assert problems(schema, "code: ab\n") == ["f.yaml:1:7: code: 'ab' is too short"]
    assert problems(schema, "code: abcde\n") == ["f.yaml:1:7: code: 'abcde' is too long"]


def test_an_empty_or_short_list_is_told_how_many_items_it_needs():
    schema = mapping(one={"type": "array", "minItems": 1}, two={"type": "array", "minItems": 2})
    assert problems(schema, "one: []\ntwo: [a]\n") == [
        "f.yaml:1:6: one: expected at least one item, got an empty list",
        "f.yaml:2:6: two: expected at least 2 items, got 1",
    ]


def test_an_empty_or_small_mapping_is_told_how_many_entries_it_needs():
    schema = mapping(one={"type": "object", "minProperties": 1}, three={"type": "object", "minProperties": 3})
    assert problems(schema, "one: {}\nthree: {a: 1, b: 2}\n") == [
        "f.yaml:1:6: one: expected at least one entry, got an empty mapping",
        "f.yaml:2:8: three: expected at least 3 entries, got 2",
    ]


# --------------------------------------------------------------------------- formats


def test_a_memory_quantity_must_be_a_quantity_greater_than_zero():
    schema = mapping(memory={"type": ["string", "integer"], "format": "quantity"})
    assert problems(schema, "memory: 0Gi\n") == [
        "f.yaml:1:9: memory: expected a memory quantity greater than zero, got '0Gi'"]
    assert problems(schema, "memory: 4GB\n") == [
        "f.yaml:1:9: memory: '4GB' is not a Kubernetes quantity (expected a number with an optional suffix Ki, Mi, "
        "Gi, Ti, Pi, Ei, m, k, M, G, T, P, E, e.g. 2Gi or 512Mi)"]
    assert problems(schema, "memory: 1Mi\n") == []
    assert problems(schema, "memory: 0\n") == []  # a number is the type's business, not the format's


def test_a_label_value_is_held_to_what_the_api_server_accepts():
    schema = mapping(vendor={"type": ["string", "integer"], "format": "label-value"})
    assert problems(schema, "vendor: -example-\n") == [
        "f.yaml:1:9: vendor: '-example-' is not a valid label value: a valid label must be an empty string or "
        "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
        "character"]
    assert problems(schema, "vendor: example.com\n") == []
    assert problems(schema, "vendor: 5\n") == []


def test_a_format_citgen_does_not_define_is_only_a_note():
    schema = {"oneOf": [mapping(mail={"type": "string", "format": "email"})]}  # oneOf: checked by jsonschema
    assert problems(schema, "mail: not an address\n") == []


# --------------------------------------------------------------------------- missing and unknown keys


def test_a_missing_key_is_told_at_the_key_of_the_mapping_that_lacks_it():
    schema = mapping(preferences={"type": "object", "additionalProperties": {
        "type": "object", "required": ["displayName", "description"]}})
    assert problems(schema, """
        preferences:
          alpine:
            displayName: Alpine
        """) == ["f.yaml:2:3: preferences.alpine: missing required key 'description'"]


def test_a_schema_may_say_in_its_own_words_what_a_missing_key_is_for():
    schema = mapping(preferences={"type": "object", "additionalProperties": {
        "type": "object", "required": ["spec", "description"],
        "x-required": {"spec": "preference {name} sets nothing: {message}"}}})
    assert problems(schema, "preferences:\n  alpine: {displayName: Alpine}\n") == [
        "f.yaml:2:3: preferences.alpine: preference alpine sets nothing: missing required key 'spec'",
        "f.yaml:2:3: preferences.alpine: missing required key 'description'",
    ]


def test_an_unknown_key_is_told_the_closest_known_key_and_every_known_one():
    schema = mapping(vendor={}, version={}, provider={})
    assert problems(schema, "versoin: v1\n") == [
        "f.yaml:1:1: versoin: unknown key 'versoin' (did you mean 'version'?); expected one of: provider, vendor, "
        "version"]


def test_an_unknown_key_like_no_known_one_is_told_every_known_one():
    schema = mapping(vendor={}, version={})
    assert problems(schema, "zzz: 1\n") == ["f.yaml:1:1: zzz: unknown key 'zzz'; expected one of: vendor, version"]


def test_several_unknown_keys_are_each_told_in_the_order_of_their_names():
    schema = mapping(a={})
    assert problems(schema, "c: 1\n'2': 2\nb: 3\n") == [
        "f.yaml:2:1: 2: unknown key '2'; expected one of: a",
        "f.yaml:3:1: b: unknown key 'b'; expected one of: a",
        "f.yaml:1:1: c: unknown key 'c'; expected one of: a",
    ]


def test_a_mapping_may_be_named_in_its_unknown_key_message():
    trait = {**mapping(description={}, spec={}), "x-in": "a trait"}
    assert problems(trait, "specs: {}\n") == ["f.yaml:1:1: specs: unknown key 'specs' in a trait; did you mean 'spec'?"]
    assert problems(trait, "zzz: 1\n") == [
        "f.yaml:1:1: zzz: unknown key 'zzz' in a trait; expected one of: description, spec"]


def test_a_mapping_named_after_its_key_is_named_with_it():
    schema = mapping(preferences={"type": "object", "additionalProperties": {
        **mapping(displayName={}, iconClass={}), "x-in": "preference {name!r}"}})
    assert problems(schema, "preferences:\n  alpine:\n    iconclass: x\n") == [
        "f.yaml:3:5: preferences.alpine.iconclass: unknown key 'iconclass' in preference 'alpine'; "
        "did you mean 'iconClass'?"]


# --------------------------------------------------------------------------- keys that break the schema


NAMES = {"type": "string", "pattern": "^[a-z]+$", "maxLength": 5,
         "x-message": {"pattern": "name {name!r} must be lower-case letters",
                       "maxLength": "name {name!r} is {length} characters long; at most 5 are allowed"}}


def test_a_key_that_is_no_valid_name_is_told_at_its_mapping_with_the_key_named():
    schema = mapping(names={"type": "object", "propertyNames": NAMES})
    assert problems(schema, "names: {ok: 1, Big: 2, toolong: 3}\n") == [
        "f.yaml:1:8: names: name 'Big' must be lower-case letters",
        "f.yaml:1:8: names: name 'toolong' is 7 characters long; at most 5 are allowed",
    ]


def test_a_key_that_is_no_valid_name_may_be_told_at_the_key_itself():
    schema = mapping(names={"type": "object", "propertyNames": {**NAMES, "x-at-key": True}})
    assert problems(schema, "names: {ok: 1, Big: 2}\n") == [
        "f.yaml:1:16: names.Big: name 'Big' must be lower-case letters"]


def test_a_key_without_words_of_its_schema_is_told_what_a_key_must_be():
    names = {"pattern": "^[a-z]+$", "x-expected": "a lower-case name"}
    schema = mapping(names={"type": "object", "propertyNames": names})
    assert problems(schema, "names: {Big: 2}\n") == ["f.yaml:1:8: names: expected a lower-case name, got 'Big'"]


# --------------------------------------------------------------------------- a schema's own words (x-message)


def test_a_message_of_the_schema_replaces_the_explainers_for_every_check():
    schema = mapping(osType={"type": "string", "minLength": 1,
                             "x-message": "{name} must be a non-empty string, got {got}"})
    assert problems(schema, "osType: 5\n") == ["f.yaml:1:9: osType: osType must be a non-empty string, got 5"]
    assert problems(schema, "osType: ''\n") == ["f.yaml:1:9: osType: osType must be a non-empty string, got ''"]


def test_a_message_of_the_schema_for_one_check_leaves_the_others_to_the_explainer():
    schema = mapping(osType={"type": "string", "pattern": "^[a-z]+$",
                             "x-message": {"pattern": "{name} is lower-case letters, got {got}"}})
    assert problems(schema, "osType: Linux\n") == ["f.yaml:1:9: osType: osType is lower-case letters, got 'Linux'"]
    assert problems(schema, "osType: 5\n") == ["f.yaml:1:9: osType: expected a string, got 5"]


@pytest.mark.parametrize("text, said", [
    ("x: 5\n", "f.yaml:1:4: x: x holds a number (5; 0 long): expected a string, got 5"),
    ("x: 1.5\n", "f.yaml:1:4: x: x holds a decimal number (1.5; 0 long): expected a string, got 1.5"),
    ("x: [a, b, c]\n", "f.yaml:1:4: x: x holds a list (a list; 3 long): expected a string, got a list"),
    ("x: {a: 1, b: 2}\n", "f.yaml:1:4: x: x holds a mapping (a mapping; 2 long): expected a string, got a mapping"),
    ("x: true\n",
     "f.yaml:1:4: x: x holds a boolean (the boolean true; 0 long): expected a string, got the boolean true"),
    ("x:\n", "f.yaml:1:3: x: x holds nothing (null) (nothing (null); 0 long): expected a string, got nothing (null)"),
])
def test_a_message_of_the_schema_is_filled_in_with_the_key_the_value_its_kind_and_length(text: str, said: str):
    schema = mapping(x={"type": "string", "x-message": "{name} holds {kind} ({got}; {length} long): {message}"})
    assert problems(schema, text) == [said]


def test_the_length_of_a_string_is_its_number_of_characters():
    schema = mapping(code={"type": "string", "maxLength": 2, "x-message": "{name} has {length} characters, {got}"})
    assert problems(schema, "code: abcd\n") == ["f.yaml:1:7: code: code has 4 characters, 'abcd'"]


def test_a_message_of_the_schema_may_build_on_its_expected_words():
    schema = mapping(ratio={"type": "string", "pattern": ":", "x-expected": "a ratio such as 1:4",
                            "x-message": "{name}: {message}"})
    assert problems(schema, "ratio: 14\n") == ["f.yaml:1:8: ratio: ratio: expected a ratio such as 1:4, got 14"]


def test_a_value_at_the_top_of_a_file_has_no_key_to_name():
    assert problems({"type": "object", "x-message": "{name} is not a mapping"}, "- a\n") == [
        "f.yaml:1:1: None is not a mapping"]


# --------------------------------------------------------------------------- one of several shapes (anyOf, oneOf)

SIZE = {"anyOf": [{"type": "integer", "minimum": 1},
                  {**mapping(cpu={"type": "integer"}, memory={"type": "string"}), "required": ["cpu", "memory"]}]}


@pytest.mark.parametrize("text, said", [
    ("small: 0\n", ["f.yaml:1:8: small: expected a number at least 1, got 0"]),
    ("small: 1.0\n", ["f.yaml:1:8: small: expected a whole number, got 1.0"]),
    ("small: {cpu: 1}\n", ["f.yaml:1:1: small: missing required key 'memory'"]),
    ("small: {cpu: 1, memroy: 2Gi}\n", [
        "f.yaml:1:17: small.memroy: unknown key 'memroy' (did you mean 'memory'?); expected one of: cpu, memory",
        "f.yaml:1:1: small: missing required key 'memory'"]),
    ("small: {cpu: 1.5, memory: 2Gi}\n", ["f.yaml:1:14: small.cpu: expected a whole number, got 1.5"]),
    ("small: two\n", ["f.yaml:1:8: small: expected a whole number or a mapping, got 'two'"]),
    ("small: 2\n", []),
])
def test_a_value_of_one_of_several_shapes_is_told_about_the_shape_it_comes_closest_to(text: str, said: list[str]):
    assert problems(mapping(small=SIZE), text) == said


def test_a_value_of_one_exactly_one_shape_is_explained_as_one_of_several():
    schema = mapping(size={"oneOf": SIZE["anyOf"]})
    assert problems(schema, "size: 0\n") == ["f.yaml:1:7: size: expected a number at least 1, got 0"]
    assert problems(schema, "size: two\n") == ["f.yaml:1:7: size: expected a whole number or a mapping, got 'two'"]


def test_shapes_of_several_types_are_each_named_once():
    schema = mapping(v={"anyOf": [{"type": "string", "pattern": "^a"}, {"type": ["string", "null"], "minLength": 3},
                                  {"type": "integer"}, {"type": "string"}]})
    assert problems(schema, "v: [1]\n") == [
        "f.yaml:1:4: v: expected a string or nothing (null) or a whole number, got a list"]


def test_shapes_with_expected_words_are_told_in_them():
    schema = mapping(sizes={"anyOf": [{"const": "all"}, {"type": "array"}], "x-expected": "'all' or a list of sizes"})
    assert problems(schema, "sizes: some\n") == ["f.yaml:1:8: sizes: expected 'all' or a list of sizes, got 'some'"]


def test_a_shape_wrong_deeper_down_still_fits_better_than_a_shape_of_another_type():
    schema = mapping(v={"anyOf": [mapping(a={"type": "string"}), {"type": "integer"}]})
    assert problems(schema, "v: {a: 1}\n") == ["f.yaml:1:8: v.a: expected a string, got 1"]


def test_of_two_fitting_shapes_the_one_whose_mistake_lies_deepest_is_told():
    schema = mapping(v={"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}},
                                  {"type": "object", "required": ["b"]}]})
    assert problems(schema, "v: {a: 1}\n") == ["f.yaml:1:8: v.a: expected a string, got 1"]


def test_a_mistake_that_several_shapes_share_is_told_once():
    schema = mapping(v={"anyOf": [{"type": "object", "required": ["a"], "properties": {"b": {"type": "string"}}},
                                  {"type": "object", "required": ["a"]}]})
    assert problems(schema, "v: {b: x}\n") == ["f.yaml:1:1: v: missing required key 'a'"]


def test_every_mistake_of_the_deepest_shapes_is_told():
    schema = mapping(v={"anyOf": [mapping(a={"type": "string"}, b={"type": "integer"}), mapping(c={"type": "string"})]})
    assert problems(schema, "v: {a: 1, b: x}\n") == [
        "f.yaml:1:8: v.a: expected a string, got 1",
        "f.yaml:1:14: v.b: expected a whole number, got 'x'",
    ]


def test_shapes_within_shapes_are_followed_down_to_the_closest_one():
    schema = mapping(v={"anyOf": [{"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string"}]},
                                  {"type": "object"}]})
    assert problems(schema, "v: 0\n") == ["f.yaml:1:4: v: expected a number at least 1, got 0"]


def test_a_decimal_where_a_whole_number_or_nothing_is_expected_is_told_so():
    schema = mapping(v={"anyOf": [{"type": ["integer", "null"], "minimum": 1}, {"type": "object"}]})
    assert problems(schema, "v: 1.5\n") == ["f.yaml:1:4: v: expected a whole number or nothing (null), got 1.5"]


def test_a_shape_given_by_reference_does_not_stop_the_explainer():
    # No catalog format refers to a shape from within anyOf; the explainer still says where
    # the value is and what it is (which words it finds for the shape: see the report of issue 26).
    schema = {"$defs": {"name": {"type": "string"}},
              **mapping(v={"anyOf": [{"$ref": "#/$defs/name"}, {"type": "integer"}]})}
    found = problems(schema, "v: [a]\n")
    assert len(found) == 1 and found[0].startswith("f.yaml:1:4: v: expected ") and found[0].endswith(", got a list")


# --------------------------------------------------------------------------- edges of the schema language


def test_a_key_of_the_whole_file_that_is_no_valid_name_is_told_at_the_top():
    schema = {"type": "object", "propertyNames": {"pattern": "^[a-z]+$", "x-expected": "a lower-case name"}}
    assert problems(schema, "ok: 1\nBig: 2\n") == ["f.yaml:1:1: expected a lower-case name, got 'Big'"]


def test_a_key_no_value_is_allowed_under_is_told_without_a_crash():
    # No catalog format has a `false` schema; jsonschema's sentence is passed on (jsonschema
    # gives no key path with it, so it is told at the top of the file: see the report of issue 26).
    found = problems(mapping(old=False, new={}), "old: 1\n")
    assert len(found) == 1 and found[0].startswith("f.yaml:") and found[0].endswith("does not allow 1")


def test_a_mapping_that_allows_no_key_at_all_says_which_key_is_unknown():
    # No catalog format has one; what it lists as allowed is left open (see the report of issue 26).
    found = problems({"type": "object", "additionalProperties": False}, "a: 1\n")
    assert len(found) == 1 and found[0].startswith("f.yaml:1:1: a: unknown key 'a'")
    named = {"type": "object", "additionalProperties": False, "x-in": "a trait"}
    found = problems(named, "a: 1\n")
    assert len(found) == 1 and found[0].startswith("f.yaml:1:1: a: unknown key 'a' in a trait")


def test_every_mistake_of_a_closest_shape_is_told_in_the_order_the_shape_names_them():
    names = {"pattern": "^[a-z]+$", "x-expected": "a lower-case name"}
    schema = mapping(v={"anyOf": [{"type": "object", "required": ["a"], "propertyNames": names, "minProperties": 3},
                                  {"type": "integer"}]})
    assert problems(schema, "v: {Big: 1}\n") == [
        "f.yaml:1:1: v: missing required key 'a'",
        "f.yaml:1:4: v: expected a lower-case name, got 'Big'",
        "f.yaml:1:4: v: expected at least 3 entries, got 1",
    ]


def test_a_text_one_character_too_long_is_cut_too():
    shown = describe("x" * (EXCERPT + 1))
    assert shown.startswith("'" + "x" * EXCERPT + "... (1 more") and shown.endswith(")'")
