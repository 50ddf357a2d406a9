"""tools/diff.py on its own: which values differ, judged as YAML writes them.

Python calls ``1``, ``True`` and ``1.0`` equal, and ``0`` and ``False``; in a
bundle they are ``1``, ``true`` and ``1.0``, three different values to the API
server (an integer field refuses ``true``). A diff that followed Python would
hide exactly the changes a reviewer most needs to see.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.source.documents import BundleDoc
from generator.tools.diff import ABSENT, Change, compare, diff_objects, diff_paths, render_json, render_text

IT = "VirtualMachineClusterInstancetype"


@pytest.mark.parametrize("old, new", [
    (1, True), (True, 1), (1, 1.0), (1.0, True), (0, False), (0, 0.0), ("1", 1), ("true", True), ("", None),
    (0, None), (False, None), ([], {}), (float("nan"), 0.0), (0.0, -0.0),
])
def test_values_python_calls_equal_or_alike_are_changes(old, new) -> None:
    assert compare(old, new, ("spec", "x")) == [Change(("spec", "x"), old, new)]


@pytest.mark.parametrize("value", [1, True, 1.0, 0, False, "1", None, 2.5, float("nan"), "x", [], {}])
def test_a_value_equals_itself(value) -> None:
    assert compare(value, value) == []
    assert compare({"a": [value]}, {"a": [value]}) == []


def test_inside_lists_and_mappings() -> None:
    assert compare({"a": [1, 2], "b": {"c": 0}}, {"a": [True, 2], "b": {"c": False}}) == [
        Change(("a", 0), 1, True), Change(("b", "c"), 0, False)]


def test_mapping_keys_python_calls_equal_are_different_keys() -> None:
    """{1: x} and {true: x} are two different mappings in YAML: one key removed, one added."""
    assert compare({1: "x"}, {True: "x"}) == [Change((1,), "x", ABSENT), Change((True,), ABSENT, "x")]
    assert compare({0: "x", "0": "y"}, {0: "x", "0": "y"}) == []


def test_a_subtree_one_side_lacks_is_one_change() -> None:
    assert compare({"a": {"b": 1}}, {}) == [Change(("a",), {"b": 1}, ABSENT)]
    assert compare({}, {"a": [1, 2]}) == [Change(("a",), ABSENT, [1, 2])]


def test_lists_of_different_lengths() -> None:
    assert compare([1, 2, 3], [1]) == [Change((1,), 2, ABSENT), Change((2,), 3, ABSENT)]
    assert compare([1], [1, 2]) == [Change((1,), ABSENT, 2)]


def test_changes_are_listed_by_key() -> None:
    old = {"b": 1, "a": 1, "c": {"z": 1, "y": 1}}
    new = {"b": 2, "a": 2, "c": {"z": 2, "y": 2}}
    assert [c.path for c in compare(old, new)] == [("a",), ("b",), ("c", "y"), ("c", "z")]


def bundle(tmp_path: Path, name: str, guest: str) -> Path:
    path = tmp_path / name
    path.write_text(f"---\napiVersion: instancetype.kubevirt.io/v1beta1\nkind: {IT}\nmetadata:\n  name: u1.large\n"
                    f"spec:\n  cpu:\n    guest: {guest}\n  memory:\n    guest: 8Gi\n")
    return path


@pytest.mark.parametrize("old, new, shown", [("1", "true", "1 -> true"), ("1", "1.0", "1 -> 1.0"),
                                             ("0", "false", "0 -> false"), ("'1'", "1", '"1" -> 1')])
def test_bundles_written_differently_differ(tmp_path: Path, old, new, shown) -> None:
    result = diff_paths(bundle(tmp_path, "old.yaml", old), bundle(tmp_path, "new.yaml", new))
    [entry] = result.changed
    assert [c.path for c in entry.changes] == [("spec", "cpu", "guest")]
    assert f"      $.spec.cpu.guest: {shown}\n" in render_text(result)
    assert json.loads(render_json(result))["summary"] == {"added": 0, "removed": 0, "changed": 1,
                                                          "newlyDeprecated": 0}


def test_the_same_bundle_is_no_difference(tmp_path: Path) -> None:
    same = diff_paths(bundle(tmp_path, "old.yaml", "2"), bundle(tmp_path, "new.yaml", "2"))
    assert same.equal
    assert render_text(same) == f"no differences between {tmp_path / 'old.yaml'} and {tmp_path / 'new.yaml'}\n"


def doc(name: str, kind: str = IT, index: int = 0, **labels: str) -> BundleDoc:
    return BundleDoc("b.yaml", index, {"kind": kind, "metadata": {"name": name, "labels": {
        f"instancetype.kubevirt.io/{k}": v for k, v in labels.items()}}})


def test_added_removed_and_newly_deprecated() -> None:
    old = {(IT, "a"): doc("a"), (IT, "b"): doc("b"), (IT, "c"): doc("c")}
    new = {(IT, "b"): doc("b", deprecated="true"), (IT, "c"): doc("c"), (IT, "d"): doc("d")}
    result = diff_objects(old, new)
    assert [e.name for e in result.added] == ["d"]
    assert [e.name for e in result.removed] == ["a"]
    assert [(e.name, e.deprecated) for e in result.changed] == [("b", True)]
    assert [e.name for e in result.newly_deprecated] == ["b"]


def test_the_version_label_is_ignored_unless_asked() -> None:
    old = {(IT, "a"): doc("a", **{"common-instancetypes-version": "v1"})}
    new = {(IT, "a"): doc("a", **{"common-instancetypes-version": "v2"})}
    assert diff_objects(old, new).equal
    assert not diff_objects(old, new, ignored_labels=()).equal
