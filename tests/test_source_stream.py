"""generator.source.stream.py: a YAML stream as the units ``citgen refs`` reads one at a time.

Each document is a unit, and each item of a List document (a mapping whose kind ends in
``List``, with no anchor or alias) is one, read from its own slice of the text but located
in the whole file: its line, column, document and path under ``items``. A problem of a
unit's values comes with the unit, its lines moved to the file's; malformed YAML ends the
stream with the reader's own words; more documents than the limit is one problem.
"""

from __future__ import annotations

from typing import Any

import pytest

from generator.problems import Location, Problem
from generator.source.inputfiles import Limits, limited
from generator.source.stream import Unit, units

LIST = ("apiVersion: v1\nkind: List\nitems:\n- kind: VM\n  metadata: {name: one}\n"
        "- kind: VM\n  metadata:\n    name: two\n")


def read(text: str) -> list[tuple[int, tuple, Any] | str]:
    """Each unit as its document, its path and its data; each problem as the user reads it."""
    return [(u.doc, u.path, u.data) if isinstance(u, Unit) else str(u) for u in units(text, "f.yaml")]


def test_each_document_is_a_unit_in_order():
    assert read("kind: A\n---\nkind: B\n") == [(0, (), {"kind": "A"}), (1, (), {"kind": "B"})]


def test_each_item_of_a_list_is_a_unit_of_its_document():
    assert read(LIST + "---\nkind: C\n") == [
        (0, ("items", 0), {"kind": "VM", "metadata": {"name": "one"}}),
        (0, ("items", 1), {"kind": "VM", "metadata": {"name": "two"}}),
        (1, (), {"kind": "C"}),
    ]


def test_an_item_is_located_in_the_whole_file():
    found = [u.locate(("metadata", "name"), "n") for u in units(LIST, "f.yaml")]
    assert found == [Location("f.yaml", 5, 20, ("items", 0, "metadata", "name"), 0, "n", "VM"),
                     Location("f.yaml", 8, 11, ("items", 1, "metadata", "name"), 0, "n", "VM")]
    assert [u.lines_before for u in units(LIST, "f.yaml")] == [3, 5]


def test_any_kind_ending_in_list_is_read_item_by_item_and_an_item_need_not_be_a_mapping():
    assert read("kind: VMList\nitems:\n- 3\n- {a: 1}\n") == [(0, ("items", 0), 3), (0, ("items", 1), {"a": 1})]


def test_a_list_with_an_anchor_and_a_mapping_of_another_kind_are_read_whole():
    aliased = "kind: List\nitems:\n- &x {a: 1}\n- *x\n"
    assert read(aliased) == [(0, (), {"kind": "List", "items": [{"a": 1}, {"a": 1}]})]
    assert read("kind: Other\nitems:\n- {a: 1}\n") == [(0, (), {"kind": "Other", "items": [{"a": 1}]})]


@pytest.mark.parametrize("text, found", [
    # an anchor on a mapping, then plain values; an anchor on a value, then a mapping
    ("kind: List\nitems:\n- &x {a: 1}\n- {b: 2}\n", [(0, (), {"kind": "List", "items": [{"a": 1}, {"b": 2}]})]),
    ("kind: List\nitems:\n- &x a\n- {b: 2}\n", [(0, (), {"kind": "List", "items": ["a", {"b": 2}]})]),
    # an alias alone: the whole document is refused, not its item
    ("kind: List\nitems:\n- {a: 1}\n- *x\n", ["f.yaml:4:3: alias '*x' names no anchor defined before it"]),
])
def test_a_list_with_any_anchor_or_alias_is_read_as_one_document(text: str, found: list):
    assert read(text) == found


@pytest.mark.parametrize("text", [
    "kind: List\napiVersion: v1\nitems:\n- {a: 1}\nmetadata: {name: l}\nnotes: [x]\n",
    "kind: List\nitems:\n- {a: 1}\n? [x]\n: 1\n",  # a key that is a list
])
def test_only_the_items_of_a_list_are_units_whatever_keys_come_beside_them(text: str):
    assert read(text) == [(0, ("items", 0), {"a": 1})]


def test_a_list_without_items_is_read_whole():
    assert read("kind: List\nmetadata: {name: l}\n") == [(0, (), {"kind": "List", "metadata": {"name": "l"}})]


def test_a_unit_the_reader_refuses_whole_is_said_where_it_is_and_the_next_is_read():
    assert read("a: 1\n---\nb: *nope\n---\nc: 2\n") == [
        (0, (), {"a": 1}), "f.yaml:3:4: alias '*nope' names no anchor defined before it", (2, (), {"c": 2})]
    deep = "kind: List\nitems:\n- {a: " + "[" * 100 + "1" + "]" * 100 + "}\n- {b: 2}\n"
    assert read(deep) == [
        "f.yaml:3:106: items[0]: lists and mappings are nested more than 100 levels deep; refusing a document this "
        "deep", (0, ("items", 1), {"b": 2})]


def test_a_duplicate_key_in_an_item_comes_with_it_at_the_file_s_lines():
    text = "kind: List\nitems:\n- kind: VM\n  metadata: {name: one}\n- kind: VM\n  metadata: {name: two}\n  kind: VM\n"
    second = [u for u in units(text, "f.yaml")][1]
    assert [str(p) for p in second.problems] == ["f.yaml:7:3: items[1].kind: duplicate key 'kind' (first at line 5)"]


def test_a_tag_refused_in_one_document_leaves_the_next_read():
    found = list(units("a: 1\n---\n!!python/object x\n---\nb: 2\n", "f.yaml"))
    assert [u.data for u in found] == [{"a": 1}, "x", {"b": 2}]
    assert [str(p) for p in found[1].problems] == [
        "f.yaml:3:1: unknown tag '!!python/object'; citgen reads only plain YAML values (tags !!str, !!int, !!float, "
        "!!bool, !!null, !!map, !!seq)"]


@pytest.mark.parametrize("text, problem", [
    ("kind: A\n---\nkind: B\nmetadata: {name: [\n",
     "f.yaml:5:1: malformed YAML: did not find expected node content (while parsing a flow node)"),
    ("kind: A\n--- \n  kind: B\n  metadata: {name: [\n",
     "f.yaml:5:1: malformed YAML: did not find expected node content (while parsing a flow node)"),
    ("kind: A\n...\n%BAD\n---\nkind: B\n",
     "f.yaml:3:5: malformed YAML: found unknown directive name (while scanning a directive)"),
])
def test_malformed_yaml_ends_the_stream_after_the_documents_before_it(text: str, problem: str):
    assert read(text) == [(0, (), {"kind": "A"}), problem]


@pytest.mark.parametrize("text, problem", [
    ("# c\n# d\n  b: 1\n  c: [\n",  # a document that starts indented, below other lines
     "f.yaml:5:1: malformed YAML: did not find expected node content (while parsing a flow node)"),
    ("%YAML 1.1\n%YAML 1.1\n---\na: 1\n",  # before any document starts
     "f.yaml:2:1: malformed YAML: found duplicate %YAML directive"),
])
def test_malformed_yaml_is_placed_where_it_is_in_the_file(text: str, problem: str):
    assert read(text) == [problem]


def test_malformed_yaml_right_after_a_document_is_refused_not_read_as_one_more():
    """The parser stops between two documents: the text after the last one is no document of its own, and the last
    one's problems are said once, with it."""
    found = list(units("kind: A\n---\n  a: 1\n  a: 2\n -3\n", "f.yaml"))
    assert [(u.doc, u.data, [str(p) for p in u.problems]) if isinstance(u, Unit) else str(u) for u in found] == [
        (0, {"kind": "A"}, []), (1, {"a": 1}, ["f.yaml:4:3: a: duplicate key 'a' (first at line 3)"]),
        "f.yaml:5:2: malformed YAML: did not find expected <document start>"]


def test_a_stream_longer_than_one_piece_of_the_parser_is_read_whole():
    long = "x" * 70_000
    assert read(f"a: {long}\n---\nb: {long}\n---\nc: 1\n") == [
        (0, (), {"a": long}), (1, (), {"b": long}), (2, (), {"c": 1})]


def test_a_problem_of_a_unit_is_the_reader_s_at_the_file_s_line_and_only_the_reader_s_line_moves():
    first = next(units("a: 1\na: 2\n", "f.yaml"))
    assert first.problems == (Problem(Location("f.yaml", 2, 1, ("a",)), "duplicate key 'a' (first at line 1)"),)
    text = "kind: List\nitems:\n- kind: VM\n  '(first at line 1)': 1\n  '(first at line 1)': 2\n"
    item = next(units(text, "f.yaml"))
    assert item.problems == (Problem(Location("f.yaml", 5, 3, ("items", 0, "(first at line 1)")),
                                     "duplicate key '(first at line 1)' (first at line 4)"),)


def test_more_documents_than_the_limit_is_one_problem_where_the_first_too_many_starts():
    with limited(Limits(max_documents=2)):
        assert read("kind: A\n---\nkind: B\n") == [(0, (), {"kind": "A"}), (1, (), {"kind": "B"})]
        assert read("kind: A\n---\nkind: B\n---\nkind: C\n---\nkind: D\n") == [
            (0, (), {"kind": "A"}), (1, (), {"kind": "B"}),
            "f.yaml:4:1: holds more than 2 YAML documents; raise the limit with `citgen --max-documents N` or "
            "CITGEN_MAX_DOCUMENTS if the file is right",
        ]
        assert len(read(LIST + "---\nkind: B\n")) == 3  # a List's items are one document
