"""generator/source/jsonstream.py: JSON read at the JSON decoder's speed, as the same units stream.py gives.

Each case reads a text both ways, the JSON reader and the YAML one (stream.py),
and expects the same data at the same places; what JSON alone would let through is
left to the YAML reader, which refuses it in its own words.
"""

from __future__ import annotations

import json

import pytest

from generator.problems import Problem
from generator.source import jsonstream
from generator.source.stream import Unit, units

VM = {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "web", "labels": {"a": "b"}},
      "spec": {"instancetype": {"name": "u1.medium"}, "preference": {"name": "fedora"},
               "template": {"spec": {"domain": {"devices": {"disks": [{"name": "root"}, {"name": "data"}]}}}}}}
LISTED = {"apiVersion": "v1", "items": [VM, {**VM, "metadata": {"name": "db"}}], "kind": "List",
          "metadata": {"resourceVersion": ""}}
PATHS = [("spec", "instancetype", "name"), ("spec", "preference", "name"), ("metadata", "name"),
         ("spec", "template", "spec", "domain", "devices", "disks", 1, "name"), ("metadata", "labels", "a")]


def both(text: str) -> tuple[list[Unit | Problem], list[Unit | Problem]]:
    read = jsonstream.read(text, "f.json")
    assert read is not None, "the JSON reader gave the text to stream.py"
    return list(read), list(units(text, "f.json"))


def places(found: list[Unit | Problem], path: tuple, key: bool = False) -> list[tuple]:
    return [(u.path, u.locate(path, key=key).line, u.locate(path, key=key).column) for u in found
            if isinstance(u, Unit)]


@pytest.mark.parametrize("indent", [4, 2, None], ids=["kubectl", "two", "minified"])
@pytest.mark.parametrize("path", PATHS, ids=lambda p: ".".join(map(str, p)))
def test_every_item_is_the_yaml_reader_s_unit_at_the_same_place(indent, path):
    text = json.dumps(LISTED, indent=indent, separators=None if indent else (",", ":"))
    read, yamls = both(text)
    assert [(u.doc, u.path, u.data) for u in read] == [(u.doc, u.path, u.data) for u in yamls]
    assert places(read, path) == places(yamls, path)


@pytest.mark.parametrize("indent", [4, None], ids=["kubectl", "minified"])
def test_a_key_is_located_where_the_yaml_reader_locates_it(indent):
    text = json.dumps(LISTED, indent=indent, separators=None if indent else (",", ":"))
    read, yamls = both(text)
    assert places(read, ("spec", "instancetype"), key=True) == places(yamls, ("spec", "instancetype"), key=True)


def test_a_path_not_written_is_located_at_its_nearest_written_parent():
    read, yamls = both(json.dumps(LISTED, indent=4))
    missing = ("spec", "instancetype", "kind")
    assert places(read, missing) == places(yamls, missing)
    assert places(read, ("spec", "template", "spec", "domain", "devices", "disks", 5)) == \
        places(yamls, ("spec", "template", "spec", "domain", "devices", "disks", 5))


def items(found: list[Unit | Problem]) -> list[tuple]:
    """What the one reader hands on of units (objects.py): a bare list's items as units of their own."""
    out: list[tuple] = []
    for unit in found:
        if isinstance(unit, Problem):
            out.append(("problem", unit.message))
        else:
            out += [(u.path, u.data, tuple(p.message for p in u.problems)) for u in unit.items()]
    return out


def test_a_bare_list_and_a_single_object_are_read_as_stream_py_reads_them():
    for value in ([VM, VM], VM):
        read, yamls = both(json.dumps(value, indent=4))
        assert items(read) == items(yamls)


def test_a_mapping_with_items_that_is_no_list_is_one_object():
    value = {"apiVersion": "v1", "kind": "Things", "items": [VM]}
    read, yamls = both(json.dumps(value))
    assert [(u.path, u.data) for u in read] == [(u.path, u.data) for u in yamls] == [((), value)]


@pytest.mark.parametrize("text", [
    '{"kind": "List", "kind": "List", "items": []}',  # a key written twice, at the top
    "{} {}", "not json", "  # a comment\n{}",
])
def test_a_document_the_json_reader_cannot_take_whole_is_left_to_the_yaml_reader(text):
    assert jsonstream.read(text, "f.json") is None


@pytest.mark.parametrize("value", [
    "1e999999999", "1" * 41, "NaN", "Infinity",  # numbers JSON or YAML would refuse
    '"\\u0007"',                                   # an escape the YAML reader judges
    '{"a": 1, "a": 2}',                             # a key written twice in an item
])
def test_an_item_holding_what_the_yaml_reader_judges_is_read_by_it_and_refused_in_its_words(value):
    text = f'[{{"kind": "A"}}, {value}, {{"kind": "B"}}]'
    read = jsonstream.read(text, "f.json")
    assert read is not None
    mine, yamls = items(list(read)), items(list(units(text, "f.json")))
    assert [entry[:2] for entry in mine] == [entry[:2] for entry in yamls]
    assert sorted(m for entry in mine for m in entry[2]) == sorted(m for entry in yamls for m in entry[2])
    assert {entry[0] for entry in mine if entry[2]} <= {(1,)}  # on the item holding it, if refused


def test_an_item_the_yaml_reader_must_judge_is_read_by_it_in_place_and_the_rest_read_on():
    text = json.dumps([VM, {"apiVersion": "v1", "kind": "X", "metadata": {"name": "n"}}, VM], indent=2)
    text = text.replace('"kind": "X"', '"kind": "X", "kind": "Y"')
    read = list(jsonstream.read(text, "f.json") or [])
    assert [u.data["metadata"]["name"] for u in read if isinstance(u, Unit)] == ["web", "n", "web"]
    [odd] = [u for u in read if isinstance(u, Unit) and u.problems]
    assert [p.message for p in odd.problems] == [m.message for u in units(text, "f.json") if isinstance(u, Unit)
                                                 for m in u.problems]


def test_lines_are_counted_once_forward():
    lines = jsonstream._Lines("a\nbc\n\nd")
    assert [lines.at(offset) for offset in (0, 2, 3, 5, 6)] == [(0, 0), (1, 0), (1, 1), (2, 0), (3, 0)]


def test_half_a_surrogate_pair_refuses_its_item_alone_and_the_rest_is_read():
    """The YAML reader of the whole text stops at it; read item by item, the items beside it are not lost."""
    text = '[{"kind": "A"}, "\\ud800", {"kind": "B"}]'
    read = items(list(jsonstream.read(text, "f.json") or []))
    assert [entry[1] for entry in read if entry[0] != "problem"] == [{"kind": "A"}, {"kind": "B"}]
    assert [entry for entry in read if entry[0] == "problem"] == [
        ("problem", "malformed YAML: found invalid Unicode character escape code (while parsing a quoted scalar)")]


@pytest.mark.parametrize("indent", [4, None], ids=["kubectl", "minified"])
def test_a_place_found_later_is_the_place_found_now(indent):
    """A JSON unit's places wait until a finding asks (Unit.locator); the YAML reader's are found at once."""
    read, yamls = both(json.dumps(LISTED, indent=indent, separators=None if indent else (",", ":")))
    for unit, yaml_unit in zip(read, yamls):
        for path in PATHS:
            later = unit.locator(path, "web")
            assert callable(later)
            assert later() == unit.locate(path, "web") == yaml_unit.locator(path, "web")


def test_the_places_of_every_item_of_one_unit_cost_one_reading_of_it(monkeypatch):
    """Each walk resumes where the walks before it got (items, keys, line breaks), so n places of one object read
    its text about once, not n times (a HyperConverged naming a preference in thousands of data import crons)."""
    crons = [{"metadata": {"name": f"cron-{i}", "labels": {"a": "b"}}, "spec": {"x": [1, 2]}} for i in range(400)]
    text = json.dumps({"apiVersion": "hco.kubevirt.io/v1beta1", "kind": "HyperConverged",
                       "spec": {"dataImportCronTemplates": crons}}, indent=4)
    [unit] = list(jsonstream.read(text, "hco.json"))
    decoded = []

    class Counting:
        def raw_decode(self, text, at):
            decoded.append(at)
            return json.JSONDecoder().raw_decode(text, at)

    monkeypatch.setattr(jsonstream, "_SKIP", Counting())
    paths = [("spec", "dataImportCronTemplates", i, "metadata", "labels", "a") for i in reversed(range(400))]
    lines = [unit.locator(path)().line for path in paths]
    assert lines == [text[:text.index(f'"cron-{i}"')].count("\n") + 3 for i in reversed(range(400))]
    assert len(decoded) < 12 * 400  # each key, value and item once (about 9 an item); walking from the start
    # for every place read 80,000 items
