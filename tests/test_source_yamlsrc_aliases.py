"""generator/source/yamlsrc.py: anchors, aliases and merge keys, and the bounds on growth and nesting.

An alias reads as a copy of what its anchor names, located where the anchor's
pieces are written; an alias inside its own anchor, an alias of nothing and an
anchor defined twice are refused. A merge key (``<<``) takes a mapping or a list
of mappings, and the keys written beside it win. Aliases may add at most
ALIAS_EXPANSION_LIMIT nodes to a document (counted, never expanded), and lists
and mappings nest at most NESTING_LIMIT deep, whatever libyaml's own limit is.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from generator.errors import InputError
from generator.source.yamlsrc import ALIAS_EXPANSION_LIMIT, NESTING_LIMIT, Document, iter_documents, load_stream_fast

SELF = "refers to the list or mapping that contains it"
TOO_DEEP = (f"lists and mappings are nested more than {NESTING_LIMIT} levels deep; "
            "refusing a document this deep")


def read(text: str) -> Document:
    [doc] = iter_documents(text, "f.yaml")
    return doc


def both(text: str) -> Any:
    """The value of ``text``'s one document, which both readers must agree on."""
    value = read(text).data
    assert load_stream_fast(text, "f.yaml") == [value]
    return value


def refused(text: str, fast: bool = False) -> list[str]:
    with pytest.raises(InputError) as caught:
        if fast:
            load_stream_fast(text, "f.yaml")
        else:
            list(iter_documents(text, "f.yaml"))
    return [str(p) for p in caught.value.problems]


def refused_by_both(text: str) -> list[str]:
    lines = refused(text)
    assert refused(text, fast=True) == lines
    return lines


def growth(expanded: int, written: int) -> str:
    return (f"aliases expand this document to {expanded} nodes from {written} written ones; "
            f"refusing documents that grow by more than {ALIAS_EXPANSION_LIMIT} nodes through aliases")


# --------------------------------------------------------------------------- aliases


def test_an_alias_reads_as_what_its_anchor_names():
    assert both("a: &a [1, 2]\nb: *a\ns: &s text\nt: *s\nm: &m {k: [v]}\nn: [*m, *s]\n") == {
        "a": [1, 2], "b": [1, 2], "s": "text", "t": "text", "m": {"k": ["v"]}, "n": [{"k": ["v"]}, "text"]}


def test_each_use_of_an_alias_is_a_value_of_its_own_all_the_way_down():
    for data in (read("a: &a {x: [1]}\nb: *a\nc: *a\n").data, load_stream_fast("a: &a {x: [1]}\nb: *a\nc: *a\n")[0]):
        assert data["b"] is not data["a"] and data["c"] is not data["b"]
        assert data["b"]["x"] is not data["a"]["x"] and data["c"]["x"] is not data["b"]["x"]
        data["b"]["x"].append(2)
        assert (data["a"], data["c"]) == ({"x": [1]}, {"x": [1]})


def test_an_alias_is_located_where_it_is_written_and_its_pieces_where_the_anchor_has_them():
    doc = read("x: 1\na: &a {y: 2, z: [3]}\nb: *a\nc: [*a]\n")
    assert doc.source.values == {
        (): (1, 1), ("x",): (1, 4), ("a",): (2, 4), ("a", "y"): (2, 11), ("a", "z"): (2, 17), ("a", "z", 0): (2, 18),
        ("b",): (3, 4), ("b", "y"): (2, 11), ("b", "z"): (2, 17), ("b", "z", 0): (2, 18),
        ("c",): (4, 4), ("c", 0): (4, 5), ("c", 0, "y"): (2, 11), ("c", 0, "z"): (2, 17), ("c", 0, "z", 0): (2, 18)}
    assert doc.source.keys == {
        ("x",): (1, 1), ("a",): (2, 1), ("a", "y"): (2, 8), ("a", "z"): (2, 14), ("b",): (3, 1),
        ("b", "y"): (2, 8), ("b", "z"): (2, 14), ("c",): (4, 1), ("c", 0, "y"): (2, 8), ("c", 0, "z"): (2, 14)}


def test_an_alias_of_a_scalar_is_located_where_the_alias_is():
    doc = read("a: &s x\nb: [*s, *s]\n")
    assert doc.data == {"a": "x", "b": ["x", "x"]}
    assert doc.source.values == {(): (1, 1), ("a",): (1, 4), ("b",): (2, 4), ("b", 0): (2, 5), ("b", 1): (2, 9)}


def test_an_alias_of_an_anchor_at_the_top_of_a_list_is_located_inside_the_alias():
    doc = read("- &a [1]\n- *a\n- {k: *a}\n")
    assert doc.source.values == {(): (1, 1), (0,): (1, 3), (0, 0): (1, 7), (1,): (2, 3), (1, 0): (1, 7),
                                 (2,): (3, 3), (2, "k"): (3, 7), (2, "k", 0): (1, 7)}


def test_an_alias_of_nothing_is_refused():
    assert refused_by_both("a: *x\n") == ["f.yaml:1:4: alias '*x' names no anchor defined before it"]
    assert refused_by_both("a: *x\nb: &x 1\n") == ["f.yaml:1:4: alias '*x' names no anchor defined before it"]


def test_anchors_belong_to_their_document():
    assert [d.data for d in iter_documents("&x 1\n---\n&x 2\n", "f.yaml")] == [1, 2]
    docs = iter_documents("&x 1\n---\n*x\n", "f.yaml")
    assert next(docs).data == 1
    with pytest.raises(InputError) as caught:
        next(docs)
    assert [str(p) for p in caught.value.problems] == ["f.yaml:3:1: alias '*x' names no anchor defined before it"]


def test_a_long_alias_name_is_quoted_as_an_excerpt():
    assert refused("a: *" + "x" * 100 + "\n") == [
        f"f.yaml:1:4: alias '*{'x' * 60}... (40 more characters)' names no anchor defined before it"]


@pytest.mark.parametrize("text, place, line", [
    ("a: &a [*a]\n", "1:8", 1),
    ("spec: &a {x: *a}\n", "1:14", 1),
    ("spec: &a\n  x:\n    y: [1, *a]\n", "3:12", 1),
    ("a: 1\nb: &a\n  - [*a]\n", "3:6", 2),
])
def test_an_alias_inside_its_own_anchor_is_refused_with_the_line_of_the_anchor(text: str, place: str, line: int):
    assert refused_by_both(text) == [
        f"f.yaml:{place}: alias '*a' {SELF} (anchored at line {line}); YAML that refers to itself cannot be read"]


def test_an_alias_of_a_finished_anchor_inside_a_new_one_is_fine():
    assert both("a: &a [1]\nb: &b [*a, [*a]]\nc: *b\n") == {"a": [1], "b": [[1], [[1]]], "c": [[1], [[1]]]}


@pytest.mark.parametrize("text, place", [
    ("a: &x [1]\nb: &x [2]\n", "2:4"),
    ("a: &x [&x [1]]\n", "1:8"),
    ("a: &x [&x 1]\n", "1:8"),
    ("a: &x 1\nb: &x 2\n", "2:4"),
    ("a: &x 1\nb: &x [1]\n", "2:4"),
    ("a: &x [1]\nb: &x 1\n", "2:4"),
    ("&x a: 1\nb: &x 2\n", "2:4"),
    ("a: &x 1\n&x b: 2\n", "2:1"),
])
def test_an_anchor_defined_twice_in_a_document_is_refused(text: str, place: str):
    assert refused_by_both(text) == [f"f.yaml:{place}: anchor '&x' is defined twice in one document"]


def test_an_anchor_name_is_quoted_as_an_excerpt():
    name = "x" * 100
    assert refused(f"a: &{name} 1\nb: &{name} 2\n") == [
        f"f.yaml:2:4: anchor '&{'x' * 60}... (40 more characters)' is defined twice in one document"]


# --------------------------------------------------------------------------- aliases as keys


def test_an_alias_of_text_may_be_a_key():
    doc = read("a: &k name\nb: {*k : x}\n")
    assert doc.data == {"a": "name", "b": {"name": "x"}}
    assert doc.source.keys[("b", "name")] == (2, 5)
    assert doc.source.values[("b", "name")] == (2, 10)
    assert load_stream_fast("a: &k name\nb: {*k : x}\n") == [doc.data]


def test_an_anchored_key_may_be_used_again_as_a_value():
    assert both("&k a: 1\nb: *k\n") == {"a": 1, "b": "a"}


def test_an_alias_as_a_key_is_refused_when_it_repeats_a_key():
    assert refused("&k a: 1\n*k : 2\n") == ["f.yaml:2:1: a: duplicate key 'a' (first at line 1)"]


def test_an_alias_of_a_number_as_a_key_is_refused_quoting_the_number_as_written():
    assert refused("a: &k 1.50\nb: {*k : y}\n") == [
        "f.yaml:2:5: b: mapping key '1.50' is read as a number, not text; write it in quotes ('1.50')"]
    assert refused("&k 1.50 : x\nb: {*k : y}\n") == [
        "f.yaml:1:1: mapping key '1.50' is read as a number, not text; write it in quotes ('1.50')",
        "f.yaml:2:5: b: mapping key '1.50' is read as a number, not text; write it in quotes ('1.50')"]
    assert refused("a: &k 1.50\nb: {*k : y}\n", fast=True) == [
        "f.yaml:2:5: mapping key '1.50' is read as a number, not text; write it in quotes ('1.50')"]


def test_an_alias_of_a_list_or_mapping_as_a_key_is_refused():
    assert refused("a: &l [1]\nb: {*l : x}\n") == [
        "f.yaml:2:5: b: a mapping key must be a plain value, not a list or mapping"]
    assert refused("a: &m {k: v}\n*m : x\n", fast=True) == [
        "f.yaml:2:1: a mapping key must be a plain value, not a list or mapping"]


def test_an_alias_of_a_merge_sign_as_a_key_is_a_plain_key():
    assert both("a: &m <<\nb: {*m : x}\n") == {"a": "<<", "b": {"<<": "x"}}


# --------------------------------------------------------------------------- merge keys


def test_a_merge_key_adds_the_keys_of_a_mapping_and_the_keys_written_beside_it_win():
    data = both("base: &b {x: 1, y: 2}\nd:\n  z: 3\n  <<: *b\n  x: 9\n")
    assert list(data["d"].items()) == [("x", 9), ("y", 2), ("z", 3)]
    assert data["base"] == {"x": 1, "y": 2}


def test_a_merge_key_takes_a_mapping_written_in_place():
    assert both("d:\n  x: 9\n  <<: {x: 1, y: 2}\n") == {"d": {"x": 9, "y": 2}}
    assert both("<<: {a: 1}\nb: 2\n") == {"a": 1, "b": 2}


def test_a_merge_key_takes_a_list_of_mappings_and_the_first_to_have_a_key_wins():
    assert both("<<: [{a: 1}, {a: 2, b: 3}]\n") == {"a": 1, "b": 3}
    assert both("base: &b {x: 1}\nd: {<<: [*b, {x: 2, y: 2}], z: 3}\n")["d"] == {"x": 1, "y": 2, "z": 3}


def test_a_merged_mapping_may_merge_in_turn():
    assert both("d: {<<: {a: 1, <<: {b: 2, a: 3}}}\n") == {"d": {"b": 2, "a": 1}}


def test_merging_an_empty_mapping_adds_nothing():
    assert both("a: {<<: {}, b: 1}\n") == {"a": {"b": 1}}
    assert both("a: {<<: [], b: 1}\n") == {"a": {"b": 1}}


def test_keys_merged_in_are_located_where_they_are_written_unless_written_beside_the_merge():
    doc = read("base: &b {x: 1, y: 2}\nd:\n  z: 3\n  <<: *b\n  x: 9\n")
    assert doc.source.values == {(): (1, 1), ("base",): (1, 7), ("base", "x"): (1, 14), ("base", "y"): (1, 20),
                                 ("d",): (3, 3), ("d", "z"): (3, 6), ("d", "x"): (5, 6), ("d", "y"): (1, 20)}
    assert doc.source.keys == {("base",): (1, 1), ("base", "x"): (1, 11), ("base", "y"): (1, 17), ("d",): (2, 1),
                               ("d", "z"): (3, 3), ("d", "x"): (5, 3), ("d", "y"): (1, 17)}


def test_keys_merged_from_a_list_of_mappings_are_located_where_the_first_to_have_them_writes_them():
    """Each key at its line in the mapping it came from, not under the place of the list's items."""
    doc = read("base: &b {a: 1, c: 5}\nm:\n  x: 0\n  <<: [{a: 2, b: [3]}, *b]\n  y: 9\n")
    assert doc.data["m"] == {"a": 2, "b": [3], "c": 5, "x": 0, "y": 9}
    assert doc.source.values == {(): (1, 1), ("base",): (1, 7), ("base", "a"): (1, 14), ("base", "c"): (1, 20),
                                 ("m",): (3, 3), ("m", "x"): (3, 6), ("m", "a"): (4, 12), ("m", "b"): (4, 18),
                                 ("m", "b", 0): (4, 19), ("m", "c"): (1, 20), ("m", "y"): (5, 6)}
    assert doc.source.keys == {("base",): (1, 1), ("base", "a"): (1, 11), ("base", "c"): (1, 17), ("m",): (2, 1),
                               ("m", "x"): (3, 3), ("m", "a"): (4, 9), ("m", "b"): (4, 15), ("m", "c"): (1, 17),
                               ("m", "y"): (5, 3)}


def test_a_key_written_before_the_merge_keeps_its_place():
    doc = read("d:\n  x: 9\n  <<: {x: 1, y: [2]}\n")
    assert doc.source.values == {(): (1, 1), ("d",): (2, 3), ("d", "x"): (2, 6), ("d", "y"): (3, 17),
                                 ("d", "y", 0): (3, 18)}
    assert doc.source.keys == {("d",): (1, 1), ("d", "x"): (2, 3), ("d", "y"): (3, 14)}
    doc = read("b: &b {x: 1, y: [2]}\nd:\n  x: 9\n  <<: *b\n")
    assert (doc.source.values[("d", "x")], doc.source.keys[("d", "x")]) == ((3, 6), (3, 3))
    assert (doc.source.values[("d", "y", 0)], doc.source.keys[("d", "y")]) == ((1, 18), (1, 14))


def test_what_is_inside_a_merged_value_yields_its_place_to_what_is_written_beside_the_merge():
    doc = read("d:\n  y: [9]\n  <<: {y: [2], z: [3]}\n")
    assert doc.data == {"d": {"y": [9], "z": [3]}}
    assert doc.source.values == {(): (1, 1), ("d",): (2, 3), ("d", "y"): (2, 6), ("d", "y", 0): (2, 7),
                                 ("d", "z"): (3, 19), ("d", "z", 0): (3, 20)}


def test_an_anchored_merge_key_reads_as_the_merge_sign_where_it_is_aliased():
    assert both("&m <<: {a: 1}\nb: *m\n") == {"a": 1, "b": "<<"}


def test_a_merge_key_of_anything_but_mappings_is_refused_where_the_value_ends():
    assert refused("a: {<<: 5}\n") == ["f.yaml:1:9: a: a merge key (<<) takes a mapping or a list of mappings"]
    assert refused("a: {<<: [1, 2]}\n") == ["f.yaml:1:14: a: a merge key (<<) takes a mapping or a list of mappings"]
    assert refused("a: {<<: [{x: 1}, 5]}\n") == [
        "f.yaml:1:19: a: a merge key (<<) takes a mapping or a list of mappings"]
    assert refused("a: &a [1]\nb: {<<: *a}\n") == [
        "f.yaml:2:9: b: a merge key (<<) takes a mapping or a list of mappings"]
    assert refused("<<: x\n", fast=True) == ["f.yaml:1:5: a merge key (<<) takes a mapping or a list of mappings"]


def test_a_mapping_may_merge_only_once():
    assert refused_by_both("<<: {a: 1}\n<<: {b: 2}\n") == [
        "f.yaml:2:1: a mapping may merge (<<) only once; merge a list of mappings instead"]
    assert refused("d:\n  <<: {a: 1}\n  <<: {b: 2}\n") == [
        "f.yaml:3:3: d: a mapping may merge (<<) only once; merge a list of mappings instead"]


def test_a_merge_key_in_two_mappings_is_merged_in_each():
    assert both("a: {<<: {x: 1}}\nb: {<<: {y: 2}}\n") == {"a": {"x": 1}, "b": {"y": 2}}


# --------------------------------------------------------------------------- growth through aliases

ITEMS = ", ".join(str(i) for i in range(99))  # with its list: an anchor of 100 nodes


def test_aliases_may_add_exactly_the_limit_of_nodes():
    text = f"a: &a [{ITEMS}]\ns: &s x\nb: [" + ", ".join(["*a"] * 1000) + "]\n"
    [data] = load_stream_fast(text, "f.yaml")
    assert len(data["b"]) == 1000 and data["b"][-1] == list(range(99))


def test_aliases_adding_one_node_past_the_limit_are_refused_with_how_far_the_document_would_grow():
    text = f"a: &a [{ITEMS}]\ns: &s x\nb: [" + ", ".join(["*a"] * 1000) + ", *s]\n"
    assert refused(text, fast=True) == [f"f.yaml: {growth(100_107, 106)}"]


def test_past_the_limit_aliases_are_counted_without_copying_what_they_name(monkeypatch):
    copies: list[object] = []
    real = copy.deepcopy
    monkeypatch.setattr(copy, "deepcopy", lambda value, *more: copies.append(value) or real(value, *more))
    text = f"a: &a [{ITEMS}]\nb: [" + ", ".join(["*a"] * 1005) + "]\n"
    assert refused(text, fast=True) == [f"f.yaml: {growth(100_500 + 104, 104)}"]
    assert len(copies) == 1000  # the aliases within the limit; the one crossing it and those after are counted


def test_an_alias_of_an_anchored_key_adds_one_node():
    text = f"&k s: x\na: &a [{ITEMS}]\nb: [" + ", ".join(["*a"] * 1000) + ", *k]\n"
    assert refused(text, fast=True) == [f"f.yaml: {growth(100_001 + 106, 106)}"]


def bomb(levels: int, width: int = 10) -> str:
    """Lists of ``width`` aliases of the list before, ``levels`` deep, the first of nine scalars."""
    text = "l0: &a0 [1, 2, 3, 4, 5, 6, 7, 8, 9]\n"
    for level in range(1, levels):
        text += f"l{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * width) + "]\n"
    return text + f"top: [*a{levels - 1}, *a{levels - 1}]\n"


def test_growth_counts_what_each_alias_would_bring_without_expanding_it():
    # anchors of 10, 101, 1011, 10111 and 101111 nodes: the aliases add 100 + 1010 + 10110 + 101110 + 2 * 101111
    expanded = 100 + 1010 + 10110 + 101110 + 2 * 101111
    written = 1 + 6 + 6 + 9  # the mapping, its keys, its lists and the nine scalars
    assert refused(bomb(5), fast=True) == [f"f.yaml: {growth(written + expanded, written)}"]


# Under a key that is refused, a list is not located: its aliases are quick to read with the source map.
UNLOCATED = "0: &a [" + ", ".join(str(i) for i in range(99)) + "]\nb: [" + ", ".join(["*a"] * 1001) + "]\n"


def test_growth_is_refused_at_the_start_of_the_document():
    assert refused(UNLOCATED) == [f"f.yaml:1:1: {growth(100_100 + 104, 104)}"]
    assert refused("a: 1\n---\n# more\n" + UNLOCATED) == [f"f.yaml:4:1: {growth(100_100 + 104, 104)}"]


def test_growth_is_refused_without_a_line_by_the_fast_reader():
    assert refused(UNLOCATED, fast=True) == [f"f.yaml: {growth(100_100 + 104, 104)}"]


def test_growth_within_the_limit_is_read_whatever_its_shape():
    data = both(bomb(3))
    assert len(data["top"]) == 2 and len(data["top"][1]) == 10
    assert data["top"][1][9][9] == [1, 2, 3, 4, 5, 6, 7, 8, 9]


def test_mappings_count_their_values_and_what_aliases_bring_into_them():
    # &m holds 1 + 99 values; 1,000 aliases of it add 100,000 nodes: the limit, read
    anchor = "m: &m {" + ", ".join(f"k{i}: {i}" for i in range(99)) + "}\n"
    [data] = load_stream_fast(anchor + "b: [" + ", ".join(["*m"] * 1000) + "]\n", "f.yaml")
    assert len(data["b"]) == 1000 and data["b"][999]["k98"] == 98
    # one more alias of a scalar: past it, counted with the keys written
    with pytest.raises(InputError) as caught:
        load_stream_fast(anchor + "s: &s x\nb: [" + ", ".join(["*m"] * 1000) + ", *s]\n", "f.yaml")
    assert [str(p) for p in caught.value.problems] == [f"f.yaml: {growth(100_001 + 205, 205)}"]


def test_an_anchor_holding_aliases_counts_what_they_bring():
    # &a: 3 nodes; &b: its list, an alias of &a and 97 scalars, 101 nodes, of which the alias added 3;
    # 990 aliases of &b and seven of &s add 99,990 + 7 more: with the 3, the limit, read
    base = "a: &a [x, y]\nb: &b [*a, " + ", ".join(str(i) for i in range(97)) + "]\ns: &s x\n"
    [data] = load_stream_fast(base + "c: [" + ", ".join(["*b"] * 990 + ["*s"] * 7) + "]\n", "f.yaml")
    assert data["c"][0][:2] == [["x", "y"], 0] and len(data["c"]) == 997
    with pytest.raises(InputError) as caught:
        load_stream_fast(base + "c: [" + ", ".join(["*b"] * 990 + ["*s"] * 8) + "]\n", "f.yaml")
    assert [str(p) for p in caught.value.problems] == [f"f.yaml: {growth(100_001 + 108, 108)}"]


def test_a_list_used_as_a_key_counts_in_the_mapping_it_is_in():
    # &m: the mapping, the list of two written as a key, the value dropped with it and 95 more: 100 nodes
    more = ", ".join(f"k{i}: {i}" for i in range(95))
    text = f"m: &m {{[1, 2]: x, {more}}}\nb: [" + ", ".join(["*m"] * 1001) + "]\n"
    assert refused(text, fast=True) == [f"f.yaml: {growth(100_100 + 199, 199)}"]


# --------------------------------------------------------------------------- nesting


def test_lists_nested_exactly_to_the_limit_are_read():
    text = "[" * NESTING_LIMIT + "]" * NESTING_LIMIT
    for value in (read(text).data, load_stream_fast(text, "f.yaml")[0]):
        for _ in range(NESTING_LIMIT - 1):
            [value] = value
        assert value == []


def test_mappings_nested_exactly_to_the_limit_are_read():
    text = "\n".join(" " * i + "a:" for i in range(NESTING_LIMIT)) + " x\n"
    value = both(text)
    for _ in range(NESTING_LIMIT):
        value = value["a"]
    assert value == "x"


@pytest.mark.parametrize("text, place", [
    ("[" * (NESTING_LIMIT + 1) + "]" * (NESTING_LIMIT + 1), "1:101"),
    ("\n".join(" " * i + "a:" for i in range(NESTING_LIMIT + 1)) + " x\n", "101:101"),
    ("- " * (NESTING_LIMIT + 1) + "x\n", "1:201"),
    ("a: {b: " + "[" * (NESTING_LIMIT - 1) + "]" * (NESTING_LIMIT - 1) + "}\n", "1:106"),
    ("? " + "[" * NESTING_LIMIT + "]" * NESTING_LIMIT + "\n: x\n", "1:102"),
])
def test_one_level_past_the_limit_is_refused_where_it_opens(text: str, place: str):
    assert refused_by_both(text) == [f"f.yaml:{place}: {TOO_DEEP}"]


DEEP = 1200  # past libyaml 6.0.4's own limit of 1000 levels (each such read takes a tenth of a second)


def test_nesting_past_libyamls_own_limit_before_anything_is_read_is_refused_at_the_level_past_citgens():
    assert refused("[" * DEEP + "]" * DEEP) == [f"f.yaml:1:101: {TOO_DEEP}"]


def test_nesting_past_libyamls_own_limit_at_the_root_of_an_explicit_document_is_refused_at_the_level_past_citgens():
    assert refused("---\n" + "[" * DEEP) == [f"f.yaml:2:101: {TOO_DEEP}"]


def test_nesting_past_libyamls_own_limit_after_what_was_read_inside_a_flow_list_counts_that_once():
    # the reader holds the mapping and the outer list, and has read [1] and b: libyaml held back the rest
    assert refused("x: [[1], b " + "[" * DEEP, fast=True) == [f"f.yaml:1:110: {TOO_DEEP}"]
