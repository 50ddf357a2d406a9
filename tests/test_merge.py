"""generator/merge.py: deep_merge (a series on its defaults), merge_patch (RFC 7386) and dig."""

from __future__ import annotations

import pytest

from generator.merge import deep_merge, dig, merge_patch


# --------------------------------------------------------------------------- deep_merge


def test_deep_merge_merges_mappings_key_by_key_and_returns_the_base_itself():
    base = {"cpu": {"guest": 1, "model": "host"}, "memory": {"guest": "1Gi"}}
    merged = deep_merge(base, {"cpu": {"guest": 2}, "ioThreadsPolicy": "auto"})
    assert merged is base
    assert base == {"cpu": {"guest": 2, "model": "host"}, "memory": {"guest": "1Gi"}, "ioThreadsPolicy": "auto"}


def test_deep_merge_replaces_what_is_not_a_mapping_on_both_sides():
    assert deep_merge({"a": {"b": 1}}, {"a": 5}) == {"a": 5}
    assert deep_merge({"a": 5}, {"a": {"b": 1}}) == {"a": {"b": 1}}
    assert deep_merge({"a": [1, 2]}, {"a": [3]}) == {"a": [3]}


def test_deep_merge_keeps_none_as_a_value_rather_than_removing_the_key():
    assert deep_merge({"a": 1}, {"a": None}) == {"a": None}


def test_deep_merge_copies_what_it_takes_so_the_extra_is_never_shared():
    extra = {"gpus": [{"name": "gpu1"}], "cpu": {"numa": {"guestMappingPassthrough": {}}}}
    merged = deep_merge({}, extra)
    merged["gpus"][0]["name"] = "changed"
    merged["cpu"]["numa"]["guestMappingPassthrough"]["x"] = 1
    assert extra == {"gpus": [{"name": "gpu1"}], "cpu": {"numa": {"guestMappingPassthrough": {}}}}


def test_deep_merge_reaches_any_depth():
    base = {"a": {"b": {"c": {"d": 1, "e": 2}}}}
    assert deep_merge(base, {"a": {"b": {"c": {"d": 9}}}}) == {"a": {"b": {"c": {"d": 9, "e": 2}}}}


# --------------------------------------------------------------------------- merge_patch (RFC 7386)


@pytest.mark.parametrize("target, patch, result", [
    # the examples of RFC 7386, appendix A
    ({"a": "b"}, {"a": "c"}, {"a": "c"}),
    ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
    ({"a": "b"}, {"a": None}, {}),
    ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
    ({"a": ["b"]}, {"a": "c"}, {"a": "c"}),
    ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
    ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
    ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
    (["a", "b"], ["c", "d"], ["c", "d"]),
    ({"a": "b"}, ["c"], ["c"]),
    ({"a": "foo"}, None, None),
    ({"a": "foo"}, "bar", "bar"),
    ({"e": None}, {"a": 1}, {"e": None, "a": 1}),
    ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
    ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}),
], ids=lambda v: repr(v)[:30])
def test_merge_patch_does_what_rfc_7386_shows(target, patch, result):
    assert merge_patch(target, patch) == result


def test_merge_patch_removing_a_missing_key_is_no_error():
    assert merge_patch({"a": 1}, {"b": None}) == {"a": 1}


def test_merge_patch_leaves_the_target_and_the_patch_as_they_were():
    target, patch = {"a": {"b": 1}, "keep": [1]}, {"a": {"c": [2]}, "keep": None}
    out = merge_patch(target, patch)
    out["a"]["c"].append(3)
    assert target == {"a": {"b": 1}, "keep": [1]} and patch == {"a": {"c": [2]}, "keep": None}
    assert out == {"a": {"b": 1, "c": [2, 3]}}


def test_merge_patch_copies_a_replacing_value_all_the_way_down():
    patch = {"gpus": [{"name": "gpu1", "deviceName": "nvidia.com/A400"}]}
    out = merge_patch({}, patch)
    out["gpus"][0]["name"] = "changed"
    assert patch == {"gpus": [{"name": "gpu1", "deviceName": "nvidia.com/A400"}]}


def test_merge_patch_of_a_mapping_onto_something_else_starts_from_an_empty_mapping():
    assert merge_patch("text", {"a": 1, "b": None}) == {"a": 1}
    assert merge_patch(None, {"a": {"b": None}}) == {"a": {}}


# --------------------------------------------------------------------------- dig


def test_dig_reads_the_value_at_a_key_path():
    data = {"spec": {"cpu": {"guest": 4}, "gpus": [{"name": "g"}]}}
    assert dig(data, "spec", "cpu", "guest") == 4
    assert dig(data, "spec", "gpus") == [{"name": "g"}]
    assert dig(data) is data


@pytest.mark.parametrize("data, path", [
    ({"spec": {}}, ("spec", "cpu", "guest")),        # a key missing on the way
    ({"spec": {"cpu": 4}}, ("spec", "cpu", "guest")),  # a value that is no mapping on the way
    ({"spec": [{"cpu": 1}]}, ("spec", "cpu")),        # a list is not looked into
    ("text", ("spec",)),
    (None, ("spec",)),
])
def test_dig_answers_none_wherever_the_path_breaks(data, path):
    assert dig(data, *path) is None


def test_dig_returns_a_falsy_value_as_it_is():
    assert dig({"a": {"b": 0}}, "a", "b") == 0
    assert dig({"a": {"b": False}}, "a", "b") is False
    assert dig({"a": {"b": ""}}, "a", "b") == ""
