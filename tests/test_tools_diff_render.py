"""tools/diff.py's reports, written out whole: what a release manager reads or a pipeline parses.

The text report is for people (one line per object, its kinds listed together when
they changed alike); the JSON report is for tools (one entry per document, stable
key order and layout so it diffs and greps well across releases). Both are checked
here character for character on small comparisons built in memory.
"""

from __future__ import annotations

from typing import Any

from generator.source.documents import BundleDoc
from generator.tools.diff import diff_objects, render_json, render_text

CIT = "VirtualMachineClusterInstancetype"
IT = "VirtualMachineInstancetype"
CPREF = "VirtualMachineClusterPreference"
PREF = "VirtualMachinePreference"
DEPRECATED = "instancetype.kubevirt.io/deprecated"
NOTE = ("note: {count} may still be referenced by existing VirtualMachines (spec.instancetype.name, "
        "spec.preference.name). To keep shipping {them}, labelled deprecated, build with --retain-from old.yaml")


def obj(kind: str, name: str, spec: Any = None, **labels: str) -> BundleDoc:
    data: dict[str, Any] = {"kind": kind, "metadata": {"name": name, "labels": labels}}
    if spec is not None:
        data["spec"] = spec
    return BundleDoc("b.yaml", 0, data)


def side(*docs: BundleDoc) -> dict:
    return {(d.kind, d.name): d for d in docs}


def compared(old: dict, new: dict):
    return diff_objects(old, new, old_name="old.yaml", new_name="new.yaml")


def test_the_text_report_lists_each_section_under_its_title_with_a_count() -> None:
    old = side(obj(CIT, "u1.small"), obj(CIT, "u1.medium", {"cpu": {"guest": 2}}))
    new = side(obj(CIT, "u1.medium", {"cpu": {"guest": 4}}), obj(CPREF, "alpine"))
    assert render_text(compared(old, new)) == (
        "citgen diff old.yaml new.yaml\n"
        "\n"
        "added (1):\n"
        f"  + alpine ({CPREF})\n"
        "\n"
        "removed (1):\n"
        f"  - u1.small ({CIT})\n"
        "\n"
        "changed (1):\n"
        f"  ~ u1.medium ({CIT})\n"
        "      $.spec.cpu.guest: 2 -> 4\n"
        "\n"
        + NOTE.format(count="1 removed object", them="it") + "\n"
        "\n"
        "summary: 1 added, 1 removed, 1 changed, 0 newly deprecated\n")


def test_the_note_about_removed_objects_speaks_of_them_in_the_plural_when_there_are_two() -> None:
    old = side(obj(CIT, "u1.small"), obj(IT, "u1.small"), obj(CIT, "u1.tiny"))
    text = render_text(compared(old, {}))
    assert text == (
        "citgen diff old.yaml new.yaml\n"
        "\n"
        "removed (2):\n"
        f"  - u1.small ({CIT}, {IT})\n"
        f"  - u1.tiny ({CIT})\n"
        "\n"
        + NOTE.format(count="2 removed objects", them="them") + "\n"
        "\n"
        "summary: 0 added, 2 removed, 0 changed, 0 newly deprecated\n")


def test_no_note_about_removed_objects_when_nothing_was_removed() -> None:
    text = render_text(compared({}, side(obj(CIT, "u1.small"))))
    assert text == ("citgen diff old.yaml new.yaml\n\nadded (1):\n"
                    f"  + u1.small ({CIT})\n\nsummary: 1 added, 0 removed, 0 changed, 0 newly deprecated\n")


def test_the_text_report_warns_about_newly_deprecated_objects_in_a_section_of_their_own() -> None:
    old = side(obj(CIT, "u1.old"), obj(IT, "u1.old"))
    new = side(obj(CIT, "u1.old", **{DEPRECATED: "true"}), obj(IT, "u1.old", **{DEPRECATED: "true"}))
    assert render_text(compared(old, new)) == (
        "citgen diff old.yaml new.yaml\n"
        "\n"
        "changed (1):\n"
        f"  ~ u1.old ({CIT}, {IT})\n"
        f"      $.metadata.labels['{DEPRECATED}']: (absent) -> \"true\"\n"
        "\n"
        "newly deprecated (1):\n"
        f"  ! u1.old ({CIT}, {IT}) [deprecated]\n"
        "\n"
        "summary: 0 added, 0 removed, 1 changed, 1 newly deprecated\n")


def test_added_and_removed_objects_that_carry_the_deprecated_label_are_marked() -> None:
    old = side(obj(CIT, "u1.gone", **{DEPRECATED: "true"}))
    new = side(obj(CIT, "u1.back", **{DEPRECATED: "true"}), obj(CIT, "u1.new"))
    text = render_text(compared(old, new))
    assert (f"added (2):\n  + u1.back ({CIT}) [deprecated]\n  + u1.new ({CIT})\n\n"
            f"removed (1):\n  - u1.gone ({CIT}) [deprecated]\n\n") in text


def test_kinds_of_one_name_that_changed_differently_get_a_line_each() -> None:
    old = side(obj(CIT, "u1.small", {"cpu": {"guest": 1}}), obj(IT, "u1.small", {"cpu": {"guest": 1}}))
    new = side(obj(CIT, "u1.small", {"cpu": {"guest": 2}}), obj(IT, "u1.small", {"cpu": {"guest": 3}}))
    text = render_text(compared(old, new))
    assert ("changed (2):\n"
            f"  ~ u1.small ({CIT})\n      $.spec.cpu.guest: 1 -> 2\n"
            f"  ~ u1.small ({IT})\n      $.spec.cpu.guest: 1 -> 3\n") in text
    assert text.endswith("summary: 0 added, 0 removed, 2 changed, 0 newly deprecated\n")


def test_kinds_of_one_name_deprecated_on_one_side_only_get_a_line_each() -> None:
    new = side(obj(CIT, "u1.small", **{DEPRECATED: "true"}), obj(IT, "u1.small"))
    assert f"added (2):\n  + u1.small ({CIT}) [deprecated]\n  + u1.small ({IT})\n" in render_text(compared({}, new))


def test_values_in_the_text_report_are_json_with_sorted_keys() -> None:
    """A mapping reads the same whatever order its file wrote the keys in: two releases compare alike."""
    old = side(obj(CIT, "u1.small", {"cpu": {"guest": 1}}))
    new = side(obj(CIT, "u1.small", {"cpu": {"guest": 1}, "memory": {"guest": "2Gi", "overcommitPercent": 10}}))
    assert ('      $.spec.memory: (absent) -> {"guest": "2Gi", "overcommitPercent": 10}\n'
            in render_text(compared(old, new)))
    reordered = side(obj(CIT, "u1.small", {"cpu": {"guest": 1}, "memory": {"overcommitPercent": 10, "guest": "2Gi"}}))
    assert render_text(compared(old, reordered)) == render_text(compared(old, new))


def test_names_and_kinds_with_control_characters_are_escaped_in_the_text_report() -> None:
    """A line break in a name must not start a line of its own in the report."""
    text = render_text(compared({}, side(obj("Evil\nKind", "a\nb"))))
    assert "  + a\\nb (Evil\\nKind)\n" in text


def test_objects_are_listed_by_name_then_in_the_catalog_order_of_kinds() -> None:
    """Cluster kind before its namespaced twin, instancetypes before preferences, other kinds last."""
    new = side(obj("ConfigMap", "b"), obj(PREF, "b"), obj(CPREF, "b"), obj(IT, "b"), obj(CIT, "b"),
               obj("Alpha", "b"), obj(PREF, "a"), obj(CIT, "c"))
    result = compared({}, new)
    assert [(e.name, e.kind) for e in result.added] == [
        ("a", PREF), ("b", CIT), ("b", IT), ("b", CPREF), ("b", PREF), ("b", "Alpha"), ("b", "ConfigMap"), ("c", CIT)]
    assert [(e.name, e.kind) for e in compared(new, {}).removed] == [(e.name, e.kind) for e in result.added]
    changed = compared(new, side(*(obj(d.kind, d.name, {"x": 1}) for d in new.values())))
    assert [(e.name, e.kind) for e in changed.changed] == [(e.name, e.kind) for e in result.added]


def test_the_json_report_names_the_two_builds_compared_and_keeps_a_stable_layout() -> None:
    """Keys sorted, two-space indent, one entry per document: a pipeline can diff two reports."""
    old = side(obj(CIT, "u1.small", {"cpu": {"guest": 2}}), obj(CIT, "u1.gone"),
               obj(CIT, "u1.old"))
    new = side(obj(CIT, "u1.small", {"cpu": {"guest": 4}}), obj(CPREF, "alpine", **{DEPRECATED: "true"}),
               obj(CIT, "u1.old", **{DEPRECATED: "true"}))
    assert render_json(compared(old, new)) == """\
{
  "added": [
    {
      "deprecated": true,
      "kind": "VirtualMachineClusterPreference",
      "name": "alpine"
    }
  ],
  "changed": [
    {
      "changes": [
        {
          "new": "true",
          "path": "$.metadata.labels['instancetype.kubevirt.io/deprecated']"
        }
      ],
      "deprecated": true,
      "kind": "VirtualMachineClusterInstancetype",
      "name": "u1.old"
    },
    {
      "changes": [
        {
          "new": 4,
          "old": 2,
          "path": "$.spec.cpu.guest"
        }
      ],
      "kind": "VirtualMachineClusterInstancetype",
      "name": "u1.small"
    }
  ],
  "equal": false,
  "ignoredLabels": [
    "instancetype.kubevirt.io/common-instancetypes-version"
  ],
  "new": "new.yaml",
  "newlyDeprecated": [
    {
      "kind": "VirtualMachineClusterInstancetype",
      "name": "u1.old"
    }
  ],
  "old": "old.yaml",
  "optIn": [],
  "removed": [
    {
      "kind": "VirtualMachineClusterInstancetype",
      "name": "u1.gone"
    }
  ],
  "retainFrom": "old.yaml",
  "summary": {
    "added": 1,
    "changed": 2,
    "newlyDeprecated": 1,
    "removed": 1
  }
}
"""


def test_the_json_report_of_equal_builds_is_empty_and_has_nothing_to_retain() -> None:
    same = side(obj(CIT, "u1.small"))
    assert render_json(diff_objects(same, same, old_name="a/", new_name="b/", ignored_labels=())) == """\
{
  "added": [],
  "changed": [],
  "equal": true,
  "ignoredLabels": [],
  "new": "b/",
  "newlyDeprecated": [],
  "old": "a/",
  "optIn": [],
  "removed": [],
  "retainFrom": null,
  "summary": {
    "added": 0,
    "changed": 0,
    "newlyDeprecated": 0,
    "removed": 0
  }
}
"""


def test_a_json_change_leaves_out_the_side_that_has_no_value_but_keeps_a_null() -> None:
    """``old`` missing means the field was added; ``"old": null`` means it was written as null."""
    old = side(obj(CIT, "u1.small", {"a": None, "gone": 1}))
    new = side(obj(CIT, "u1.small", {"a": 1, "added": None}))
    report = render_json(compared(old, new))
    assert """\
      "changes": [
        {
          "new": 1,
          "old": null,
          "path": "$.spec.a"
        },
        {
          "new": null,
          "path": "$.spec.added"
        },
        {
          "old": 1,
          "path": "$.spec.gone"
        }
      ],
""" in report


def test_kinds_of_one_name_that_changed_from_different_values_get_a_line_each() -> None:
    old = side(obj(CIT, "u1.small", {"cpu": {"guest": 1}}), obj(IT, "u1.small", {"cpu": {"guest": 3}}))
    new = side(obj(CIT, "u1.small", {"cpu": {"guest": 2}}), obj(IT, "u1.small", {"cpu": {"guest": 2}}))
    assert ("changed (2):\n"
            f"  ~ u1.small ({CIT})\n      $.spec.cpu.guest: 1 -> 2\n"
            f"  ~ u1.small ({IT})\n      $.spec.cpu.guest: 3 -> 2\n") in render_text(compared(old, new))
