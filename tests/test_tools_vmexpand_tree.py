"""Walking and filling plain-dict objects as KubeVirt's Go tests nil and zero values.

The tests of generator/tools/vmexpand/_tree.py.
"""

from __future__ import annotations

import pytest

from generator.tools.vmexpand._tree import child, get, is_empty, is_unset, items, path, tree_copy


@pytest.mark.parametrize("present", [None, "text", ["a"], 0])
def test_child_replaces_an_absent_null_or_non_mapping_value_with_an_empty_mapping(present) -> None:
    parent = {"key": present}
    made = child(parent, "key")
    assert made == {} and parent["key"] is made


def test_child_returns_the_mapping_already_there() -> None:
    inner = {"a": 1}
    parent = {"key": inner}
    assert child(parent, "key") is inner
    assert parent == {"key": {"a": 1}}
    absent: dict = {}
    assert child(absent, "new") == {} and absent == {"new": {}}


def test_path_creates_every_missing_step_and_keeps_the_present_ones() -> None:
    root = {"a": {"keep": 1}}
    leaf = path(root, "a", "b", "c")
    leaf["x"] = 2
    assert root == {"a": {"keep": 1, "b": {"c": {"x": 2}}}}
    assert path(root) is root


def test_get_walks_mappings_and_lists() -> None:
    root = {"a": {"b": [{"c": 1}, {"c": 2}]}}
    assert get(root, "a", "b", 1, "c") == 2
    assert get(root, "a", "b", 0) == {"c": 1}
    assert get(root) is root


@pytest.mark.parametrize(
    "keys",
    [("x",), ("a", "x"), ("a", "b", 2), ("a", "b", 5), ("a", 0), ("a", "b", "c"), ("a", "b", 0, "c", "d"), ("n",)],
)
def test_get_gives_the_default_for_any_missing_step(keys) -> None:
    root = {"a": {"b": [{"c": 1}, {"c": 2}]}, "n": None}
    assert get(root, *keys) is None
    assert get(root, *keys, default="d") == "d"


def test_get_keeps_falsy_values_but_not_null() -> None:
    root = {"zero": 0, "empty": "", "false": False, "none": None}
    assert get(root, "zero", default=7) == 0
    assert get(root, "empty", default=7) == ""
    assert get(root, "false", default=7) is False
    assert get(root, "none", default=7) == 7
    assert get(None, "a", default=7) == 7


def test_is_unset_is_absent_or_null() -> None:
    assert is_unset({}, "a") is True
    assert is_unset({"a": None}, "a") is True
    assert is_unset(None, "a") is True
    assert is_unset("text", "a") is True
    for value in (0, "", False, {}, []):
        assert is_unset({"a": value}, "a") is False


@pytest.mark.parametrize("value", [None, "", 0, False, {}, []])
def test_is_empty_for_every_go_zero_value(value) -> None:
    assert is_empty({"a": value}, "a") is True


@pytest.mark.parametrize("value", ["x", 1, True, {"b": 1}, [0], -1, "0"])
def test_is_empty_is_false_for_any_other_value(value) -> None:
    assert is_empty({"a": value}, "a") is False


def test_is_empty_for_a_missing_key_or_a_non_mapping() -> None:
    assert is_empty({}, "a") is True
    assert is_empty(None, "a") is True
    assert is_empty(["a"], "a") is True


def test_items_is_the_list_or_an_empty_one() -> None:
    found = [1, 2]
    assert items({"a": found}, "a") is found
    assert items({"a": None}, "a") == []
    assert items({"a": {"b": 1}}, "a") == []
    assert items({}, "a") == []
    assert items(None, "a") == []


def test_tree_copy_is_equal_and_shares_no_mapping_or_list_with_the_original() -> None:
    original = {"spec": {"disks": [{"name": "root", "bootOrder": 1}], "running": True, "cpu": None,
                         "memory": {"guest": "2Gi"}, "ratio": 1.5}}
    copied = tree_copy(original)
    assert copied == original
    copied["spec"]["disks"][0]["name"] = "data"
    copied["spec"]["disks"].append({"name": "more"})
    copied["spec"]["memory"]["guest"] = "4Gi"
    assert original == {"spec": {"disks": [{"name": "root", "bootOrder": 1}], "running": True, "cpu": None,
                                 "memory": {"guest": "2Gi"}, "ratio": 1.5}}


def test_tree_copy_makes_a_read_only_mapping_a_dict_of_its_own() -> None:
    from types import MappingProxyType

    inner = {"a": [1]}
    copied = tree_copy(MappingProxyType({"inner": MappingProxyType(inner)}))
    assert copied == {"inner": {"a": [1]}} and type(copied) is dict and type(copied["inner"]) is dict
    copied["inner"]["a"].append(2)
    assert inner == {"a": [1]}
