"""The compiled yes/no schema check agrees with jsonschema, so taking it never lets a bad object through."""

from __future__ import annotations

import copy
import subprocess
import sys
from typing import Any

from hypothesis import given, strategies as st

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
