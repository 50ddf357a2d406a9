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
from generator.errors import InputError
from generator.tools.diff import (ABSENT, Change, compare, diff_objects, diff_paths, read_objects, render_json,
                                  render_text)

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


def test_an_absent_value_shows_as_absent_when_a_change_is_printed() -> None:
    """A failing assertion or a debugger shows ``(absent)``, not an opaque object, for a side without the field."""
    assert repr(ABSENT) == "(absent)"
    assert repr(Change(("spec", "x"), 1)) == "Change(path=('spec', 'x'), old=1, new=(absent))"


def test_keys_written_alike_are_listed_integer_key_first() -> None:
    """``1`` and ``"1"`` print the same; the order between them does not depend on the files' key order."""
    for old in ({"1": "a", 1: "b"}, {1: "b", "1": "a"}):
        assert compare(old, {}) == [Change((1,), "b", ABSENT), Change(("1",), "a", ABSENT)]


def test_objects_without_metadata_or_labels_are_not_deprecated() -> None:
    """Comparing objects as given: one without metadata, or with labels null or not a mapping, is no deprecated one."""
    new = {(IT, "a"): BundleDoc("b.yaml", 0, {"kind": IT}),
           (IT, "b"): BundleDoc("b.yaml", 1, {"kind": IT, "metadata": {"name": "b", "labels": None}}),
           (IT, "c"): BundleDoc("b.yaml", 2, {"kind": IT, "metadata": {"name": "c", "labels": ["deprecated"]}}),
           (IT, "d"): doc("d", deprecated="false")}
    assert [(e.name, e.deprecated) for e in diff_objects({}, new).added] == [
        ("a", False), ("b", False), ("c", False), ("d", False)]
    assert [(e.name, e.deprecated) for e in diff_objects(new, {}).removed] == [
        ("a", False), ("b", False), ("c", False), ("d", False)]


def test_an_object_without_metadata_compares_with_the_version_label_ignored() -> None:
    old = {(IT, "a"): BundleDoc("b.yaml", 0, {"kind": IT, "spec": {"x": 1}})}
    new = {(IT, "a"): BundleDoc("b.yaml", 0, {"kind": IT, "spec": {"x": 2}})}
    [entry] = diff_objects(old, new).changed
    assert entry.changes == (Change(("spec", "x"), 1, 2),)


def test_only_the_ignored_label_is_taken_out() -> None:
    """Ignoring the version label keeps the other labels and the rest of metadata compared."""
    old = {(IT, "a"): doc("a", **{"common-instancetypes-version": "v1", "cpu": "1"})}
    new = {(IT, "a"): doc("a", **{"common-instancetypes-version": "v2", "cpu": "2"})}
    [entry] = diff_objects(old, new).changed
    assert entry.changes == (Change(("metadata", "labels", "instancetype.kubevirt.io/cpu"), "1", "2"),)
    renamed = {(IT, "a"): BundleDoc("b.yaml", 0, {"kind": IT, "metadata": {
        "name": "b", "labels": {"instancetype.kubevirt.io/common-instancetypes-version": "v2"}}})}
    [entry] = diff_objects(old, renamed).changed
    assert [c.path for c in entry.changes] == [("metadata", "labels", "instancetype.kubevirt.io/cpu"),
                                              ("metadata", "name")]


def test_a_deprecated_label_set_to_false_or_taken_away_is_not_newly_deprecated() -> None:
    old = {(IT, "a"): doc("a", deprecated="true"), (IT, "b"): doc("b", deprecated="true"), (IT, "c"): doc("c")}
    new = {(IT, "a"): doc("a", deprecated="false"), (IT, "b"): doc("b"), (IT, "c"): doc("c", deprecated="yes")}
    result = diff_objects(old, new)
    assert [e.name for e in result.changed] == ["a", "b", "c"]
    assert result.newly_deprecated == ()


def test_a_comparison_of_objects_names_its_sides_old_and_new_unless_told() -> None:
    result = diff_objects({}, {(IT, "a"): doc("a")})
    assert (result.old, result.new) == ("OLD", "NEW")
    assert render_text(result).startswith("citgen diff OLD NEW\n")
    assert result.ignored_labels == ("instancetype.kubevirt.io/common-instancetypes-version",)


def test_a_document_without_a_name_is_a_problem_and_reading_goes_on(tmp_path: Path) -> None:
    """Every unusable document of the file is reported at once, each where its name should be."""
    path = tmp_path / "b.yaml"
    path.write_text(f"kind: {IT}\nmetadata: {{labels: {{}}}}\n---\nkind: {IT}\n---\n"
                    f"kind: {IT}\nmetadata: {{name: 7}}\n---\nkind: {IT}\nmetadata: {{name: ok}}\n---\n- 1\n")
    with pytest.raises(InputError) as caught:
        read_objects(path)
    assert [str(p) for p in caught.value.problems] == [
        f"{path}#0 $.metadata.name: expected an object with metadata.name",
        f"{path}#1 $.metadata.name: expected an object with metadata.name",
        f"{path}#2 $.metadata.name: expected an object with metadata.name",
        f"{path}#4 $[0].kind: expected a Kubernetes object with a kind",  # a bare list is read as its items
    ]


def test_a_mapping_without_a_kind_is_a_problem_and_reading_goes_on_after_it(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_text(f"metadata: {{name: a}}\n---\nkind: 7\nmetadata: {{name: b}}\n---\nkind: {IT}\n")
    with pytest.raises(InputError) as caught:
        read_objects(path)
    assert [str(p) for p in caught.value.problems] == [
        f"{path}#0 (a) $.kind: expected a Kubernetes object with a kind",
        f"{path}#1 (b) $.kind: expected a Kubernetes object with a kind",
        f"{path}#2 $.metadata.name: expected an object with metadata.name",
    ]


def test_comparing_two_files_ignores_the_version_label_by_default(tmp_path: Path) -> None:
    def written(name: str, version: str) -> Path:
        path = tmp_path / name
        path.write_text(f"kind: {IT}\nmetadata:\n  name: a\n  labels:\n"
                        f"    instancetype.kubevirt.io/common-instancetypes-version: {version}\n")
        return path

    old, new = written("old.yaml", "v1.0.0"), written("new.yaml", "v1.1.0")
    assert diff_paths(old, new).equal
    assert not diff_paths(old, new, include_version_label=True).equal


def test_objects_whose_metadata_is_null_compare_like_any_other() -> None:
    """diff_objects compares what it is given; a null metadata has no labels to take out."""
    same = {(IT, "a"): BundleDoc("b.yaml", 0, {"kind": IT, "metadata": None, "spec": {"x": 1}})}
    assert diff_objects(same, same).equal


# --------------------------------------------------------------------------- timestamps, and the label gained with labels


def timestamped(tmp_path: Path, name: str, value: str) -> Path:
    path = tmp_path / name
    path.write_text(f"kind: {IT}\nmetadata:\n  name: u1.large\nspec:\n  when: {value}\n")
    return path


def test_a_changed_timestamp_is_a_change_shown_as_written(tmp_path: Path) -> None:
    result = diff_paths(timestamped(tmp_path, "old.yaml", "2024-01-01"), timestamped(tmp_path, "new.yaml", "2024-01-02"))
    [entry] = result.changed
    assert '      $.spec.when: "2024-01-01" -> "2024-01-02"\n' in render_text(result)
    assert json.loads(render_json(result))["changed"][0]["changes"] == [
        {"path": "$.spec.when", "old": "2024-01-01", "new": "2024-01-02"}]


def test_the_same_moment_written_in_another_time_zone_is_a_change(tmp_path: Path) -> None:
    """The API server keeps the text it is given: two spellings of one moment are two values."""
    result = diff_paths(timestamped(tmp_path, "old.yaml", "2024-01-01T10:00:00+00:00"),
                        timestamped(tmp_path, "new.yaml", "2024-01-01T11:00:00+01:00"))
    assert [c.path for e in result.changed for c in e.changes] == [("spec", "when")]
    assert diff_paths(timestamped(tmp_path, "a.yaml", "2024-01-01T10:00:00Z"),
                      timestamped(tmp_path, "b.yaml", "2024-01-01T10:00:00Z")).equal


def test_an_object_that_gains_the_deprecated_label_with_its_first_labels_is_newly_deprecated() -> None:
    bare = BundleDoc("b.yaml", 0, {"kind": IT, "metadata": {"name": "a"}})
    result = diff_objects({(IT, "a"): bare}, {(IT, "a"): doc("a", deprecated="true")})
    assert [e.name for e in result.newly_deprecated] == ["a"]
    assert json.loads(render_json(result))["summary"]["newlyDeprecated"] == 1


def test_an_object_deprecated_on_both_sides_is_not_newly_deprecated() -> None:
    old, new = doc("a", deprecated="true", cpu="1"), doc("a", deprecated="true", cpu="2")
    result = diff_objects({(IT, "a"): old}, {(IT, "a"): new})
    assert [e.name for e in result.changed] == ["a"] and result.newly_deprecated == ()
