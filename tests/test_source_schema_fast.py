"""The compiled yes/no schema check agrees with jsonschema, so taking it never lets a bad object through."""

from __future__ import annotations

import copy
import subprocess
import sys
from typing import Any

from hypothesis import given, strategies as st

import pytest

from generator.load.catalog import series_files
from generator.paths import builtin_catalog
from generator.quantity import parse
from generator.schemas import check_object, known_kinds, quick_check, validator
from generator.source import formats
from generator.source.inputcheck import quick_check_for, validator_for
from generator.source.formats import OVERLAY
from generator.source.schema_fast import compile_schema
from generator.source.yamlsrc import load_file
from tests.helpers import REPO, default_build

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.sampled_from(["", "4Gi", "1.5", "true", "virtio", "bogus", "Mi", "-1"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["guest", "x", "model"]), inner,
                                                                 max_size=3),
    max_leaves=6,
)


def _documents() -> list[Any]:
    return [doc.data for doc in default_build().documents]


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every key path inside ``value``, the root included."""
    found = [path]
    if isinstance(value, dict):
        for key, sub in value.items():
            found += _paths(sub, path + (key,))
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            found += _paths(sub, path + (i,))
    return found


def _set(data: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return data


def _jsonschema_valid(data: dict) -> bool:
    return not any(True for _ in validator(data["kind"]).iter_errors(data))


def test_every_shipped_schema_compiles():
    assert all(quick_check(kind) is not None for kind in known_kinds())


def test_the_built_catalog_passes_both_checks():
    for data in _documents():
        assert quick_check(data["kind"])(data) is True
        assert _jsonschema_valid(data)


@given(st.data())
def test_a_mutated_object_is_judged_as_jsonschema_judges_it(data):
    original = data.draw(st.sampled_from(_documents()))
    changed = copy.deepcopy(original)
    path = data.draw(st.sampled_from([p for p in _paths(changed)[1:] if p != ("kind",)]))
    if data.draw(st.booleans()):
        _set(changed, path, data.draw(JSON))
    else:
        parent = changed
        for key in path[:-1]:
            parent = parent[key]
        if isinstance(parent, dict):
            parent[path[-1] + "x" if isinstance(path[-1], str) else path[-1]] = data.draw(JSON)
    fast = quick_check(changed["kind"])(changed)
    slow = _jsonschema_valid(changed)
    # Never more lenient; stricter only for a float standing in for an integer.
    assert not fast or slow
    if slow and not fast:
        assert any(isinstance(v, float) for v in _leaves(changed))
    # And check_object explains whatever the fast check refused.
    assert (check_object(changed) == []) == slow
    # Judging what a person wrote (whole numbers only), jsonschema refuses exactly what the fast check does.
    assert (check_object(changed, whole_numbers=True) == []) == fast


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for sub in value.values() for leaf in _leaves(sub)]
    if isinstance(value, list):
        return [leaf for sub in value for leaf in _leaves(sub)]
    return [value]


def test_keywords_it_does_not_implement_leave_the_schema_to_jsonschema():
    assert compile_schema({"type": "object", "oneOf": [{"required": ["a"]}]}) is None
    assert compile_schema({"$ref": "https://example.com/elsewhere.json"}) is None


def test_the_keywords_it_implements():
    check = compile_schema({
        "type": "object",
        "properties": {
            "size": {"type": ["string", "integer"], "pattern": "^[0-9]+(Gi)?$"},
            "count": {"type": "integer", "minimum": 1, "maximum": 16},
            "bus": {"enum": ["virtio", "sata"]},
            "api": {"const": "v1"},
            "tags": {"type": "array", "items": {"$ref": "#/$defs/tag"}},
        },
        "required": ["api"],
        "additionalProperties": False,
        "$defs": {"tag": {"type": "string"}},
    })
    assert check({"api": "v1", "size": "4Gi", "count": 2, "bus": "sata", "tags": ["a"]})
    assert check({"api": "v1", "size": 4})
    assert not check({"size": "4Gi"})  # api is required
    assert not check({"api": "v2"})
    assert not check({"api": "v1", "size": "4G"})
    assert not check({"api": "v1", "count": 0})
    assert not check({"api": "v1", "count": 17})
    assert not check({"api": "v1", "count": True})
    assert not check({"api": "v1", "bus": "scsi"})
    assert not check({"api": "v1", "tags": [1]})
    assert not check({"api": "v1", "extra": 1})


def test_dependent_required_asks_for_the_keys_a_present_key_needs_as_jsonschema_does():
    schema = {"type": "object", "dependentRequired": {"since": ["line"], "line": []}}
    check = compile_schema(schema)
    cases = [{}, {"line": "rhel9"}, {"line": "rhel9", "since": "rhel9.2"}, {"since": "rhel9.2"}, "text"]
    assert [check(case) for case in cases] == [True, True, True, False, False]  # text is no object
    assert [check(case) for case in cases] == [validator_for(schema).is_valid(case) for case in cases]


# --------------------------------------------------------------------------- catalog input formats

def _input_files() -> list[tuple[dict, Any]]:
    """(format, data) of every file of the built-in catalog and the examples' overlays."""
    root = builtin_catalog()
    files = [(formats.CATALOG, root / "catalog.yaml"), (formats.SIZES, root / "series" / "sizes.yaml")]
    files += [(formats.SERIES, root / name) for name in series_files(root)]
    files += [(OVERLAY, path) for path in sorted((REPO / "examples").glob("*/overlay.yaml"))]
    return [(schema, load_file(path).data) for schema, path in files]


def test_every_input_format_compiles_and_passes_the_catalog_files():
    for schema, data in _input_files():
        check = quick_check_for(schema)
        assert check is not None
        assert check(data) is True
        assert list(validator_for(schema).iter_errors(data)) == []


@given(st.data())
def test_a_mutated_input_file_is_judged_as_jsonschema_judges_it(data):
    schema, original = data.draw(st.sampled_from(_input_files()))
    changed = copy.deepcopy(original)
    path = data.draw(st.sampled_from(_paths(changed)[1:]))
    _set(changed, path, data.draw(JSON | st.sampled_from(["0", "-2Gi", "x" * 70, "1:4", "u1"])))
    fast = quick_check_for(schema)(changed)
    slow = not any(True for _ in validator_for(schema).iter_errors(changed))
    # One meaning of "integer" for both (schema_fast.whole_number): what the compiled
    # check refuses, jsonschema refuses and explains, 1.0 included.
    assert fast == slow


def test_the_keywords_of_the_input_formats():
    check = compile_schema({
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 3},
            "tags": {"type": "array", "minItems": 1, "maxItems": 2},
            "labels": {"type": "object", "minProperties": 1, "maxProperties": 1,
                       "propertyNames": {"pattern": "^[a-z]+$"}},
            "cpu": {"anyOf": [{"type": "integer"}, {"type": "object", "required": ["guest"]}]},
            "memory": {"type": "string", "format": "quantity"},
            "mode": {"allOf": [{"type": "string"}, {"enum": ["a", "b"]}]},
            "gpu": {"type": "object", "if": {"required": ["count"]}, "then": {"required": ["device"]},
                    "else": {"maxProperties": 0}},
        },
    }, {"quantity": lambda v: not isinstance(v, str) or parse(v) > 0})
    assert check({"name": "u1", "tags": ["a"], "labels": {"a": "1"}, "cpu": 2, "memory": "2Gi",
                  "mode": "a", "gpu": {"count": 1, "device": "x"}})
    assert check({"cpu": {"guest": 2}, "gpu": {}})
    assert not check({"name": ""})
    assert not check({"name": "toolong"})
    assert not check({"tags": []})
    assert not check({"tags": [1, 2, 3]})
    assert not check({"labels": {}})
    assert not check({"labels": {"a": "1", "b": "2"}})
    assert not check({"labels": {"A": "1"}})
    assert not check({"cpu": "2"})
    assert not check({"cpu": {}})
    assert not check({"memory": "0"})
    assert not check({"memory": "lots"})  # the format check's ValueError means "invalid"
    assert not check({"mode": "c"})
    assert not check({"gpu": {"count": 1}})
    assert not check({"gpu": {"device": "x"}})


def test_a_format_it_is_not_given_is_an_annotation():
    assert compile_schema({"type": "string", "format": "quantity"})("lots")


def test_a_valid_build_never_imports_jsonschema():
    """jsonschema only explains refusals; a clean build of the built-in catalog leaves it unimported."""
    script = ("import sys; from generator.pipeline import BuildOptions, generate; "
              "build = generate(BuildOptions(helm_package=True)); "
              "print(len(build.documents), not build.problems, 'jsonschema' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [str(len(default_build().documents)), "True", "False"]


# --------------------------------------------------------------------------- each keyword, exactly


def test_a_schema_of_annotations_only_accepts_anything():
    check = compile_schema({"title": "t", "description": "anything", "x-kubernetes-list-type": "atomic"})
    assert [check(v) for v in (None, 0, "x", [1], {"a": 1})] == [True] * 5


def test_true_accepts_anything_and_false_nothing():
    assert [compile_schema(True)(v) for v in (None, 0, "x", {})] == [True] * 4
    assert [compile_schema(False)(v) for v in (None, 0, "x", {})] == [False] * 4
    check = compile_schema({"type": "object", "properties": {"gone": False, "any": True}})
    assert (check({"any": [1]}), check({"gone": None})) == (True, False)


def test_a_number_is_an_int_or_a_float_never_a_bool_or_text():
    check = compile_schema({"type": "number"})
    assert [check(v) for v in (1, 1.5, 0.0, True, "1", None)] == [True, True, True, False, False, False]


def test_null_is_none_only():
    check = compile_schema({"type": "null"})
    assert [check(v) for v in (None, 0, "", False, [])] == [True, False, False, False, False]


def test_a_list_of_types_takes_any_of_them():
    check = compile_schema({"type": ["null", "number"]})
    assert [check(v) for v in (None, 2, 2.5, "2", False)] == [True, True, True, False, False]


def test_keywords_starting_with_x_dash_are_annotations():
    check = compile_schema({"type": "string", "x-kubernetes-int-or-string": True, "x-expected": "text"})
    assert (check("a"), check(1)) == (True, False)


def test_an_enum_or_const_of_values_python_compares_loosely_is_left_to_jsonschema():
    """True == 1 and 1.0 == 1 to Python; only str, int and null compare as JSON does."""
    assert compile_schema({"enum": ["a", True]}) is None
    assert compile_schema({"enum": [1.0]}) is None
    assert compile_schema({"enum": [[1]]}) is None
    assert compile_schema({"const": 2.5}) is None
    assert compile_schema({"const": {"a": 1}}) is None
    assert compile_schema({"const": False}) is None


def test_an_enum_takes_its_values_by_type_and_value():
    check = compile_schema({"enum": ["a", 1, None]})
    assert [check(v) for v in ("a", 1, None, True, 1.0, "1", [1])] == [True, True, True, False, False, False, False]
    const = compile_schema({"const": 1})
    assert [const(v) for v in (1, True, 1.0, "1")] == [True, False, False, False]


def test_minimum_and_maximum_are_inclusive():
    check = compile_schema({"minimum": 1, "maximum": 16})
    assert [check(v) for v in (1, 1.0, 16, 16.0, 0.5, 16.5, "0")] == [True, True, True, True, False, False, True]


def test_if_without_then_or_else_leaves_that_branch_unchecked():
    condition = {"required": ["count"]}
    then_only = compile_schema({"if": condition, "then": {"required": ["device"]}})
    assert (then_only({"count": 1, "device": "x"}), then_only({"count": 1}), then_only({})) == (True, False, True)
    else_only = compile_schema({"if": condition, "else": {"maxProperties": 0}})
    assert (else_only({"count": 1, "x": 2}), else_only({"x": 2}), else_only({})) == (True, False, True)


def test_properties_without_additional_properties_take_other_keys():
    check = compile_schema({"properties": {"a": {"type": "string"}}})
    assert (check({"a": "x", "b": 1}), check({"a": 1})) == (True, False)
    open_extra = compile_schema({"properties": {"a": {"type": "string"}}, "additionalProperties": True})
    assert open_extra({"b": 1}) is True
    typed_extra = compile_schema({"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}})
    assert (typed_extra({"a": "x", "b": 1}), typed_extra({"b": "x"})) == (True, False)


def test_properties_say_nothing_of_a_value_that_is_no_mapping():
    """Whether it must be a mapping is ``type``'s to say, as in JSON Schema."""
    closed = compile_schema({"properties": {"a": {"type": "string"}}, "additionalProperties": False})
    opened = compile_schema({"properties": {"a": {"type": "string"}}})
    assert [closed(v) for v in (5, "a", ["a"])] == [True] * 3
    assert [opened(v) for v in (5, "a", ["a"])] == [True] * 3


class _Key(str):
    """A key of a str subclass, as a reader other than citgen's YAML reader may make."""


def test_a_key_of_a_str_subclass_is_judged_by_its_property_as_jsonschema_judges_it():
    """It is still the property's name: never more lenient than jsonschema, nor stricter."""
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    closed = {**schema, "additionalProperties": False}
    for shape, value in ((schema, "x"), (schema, 1), (closed, "x"), (closed, 1)):
        data = {_Key("a"): value}
        assert compile_schema(shape)(data) is not any(validator_for(shape).iter_errors(data))
    assert [compile_schema(schema)({_Key("a"): v}) for v in ("x", 1)] == [False, True]
    assert [compile_schema(closed)({_Key("a"): v}) for v in ("x", 1)] == [False, True]


@pytest.mark.parametrize("text, matches", [("zz.old", True), ("zz.old\n", False), ("zz.old\nzz", False)])
def test_a_pattern_s_dollar_is_the_end_of_the_text_in_both_checks(text, matches):
    """JSON Schema reads ``pattern`` as ECMA-262 does: a name with a line break after it does not match ``^...$``."""
    from generator.source.schema_fast import strict_validator_class

    schema = {"type": "string", "pattern": "^[a-z.]+$"}
    assert compile_schema(schema, {})(text) is matches
    assert (not list(strict_validator_class()(schema).iter_errors(text))) is matches
