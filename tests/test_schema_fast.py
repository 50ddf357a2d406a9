"""The compiled yes/no schema check agrees with jsonschema, so taking it never lets a bad object through."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.schema import check_object, known_kinds, quick_check, validator
from generator.schema_fast import compile_schema
from tests.helpers import default_build

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


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
