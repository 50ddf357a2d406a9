"""generator/source/yamldepth.py: deep nesting is refused in citgen's words and place, whatever libyaml does.

PyYAML 6.0.3's libyaml has no nesting limit, so citgen's reader meets the 101st
list or mapping first; PyYAML 6.0.4's stops at 1000 levels in its scanner, which in
flow style reads ahead of the events it hands out. The first group of tests reads
each shape through the reader under whichever PyYAML is installed and expects the
one answer; the second hands ``crossing`` the marks libyaml 6.0.4 reports, so the
module is checked even where an older libyaml never calls it.
"""

from __future__ import annotations

import pytest
import yaml
from yaml.error import Mark

from generator.errors import InputError
from generator.source.yamldepth import crossing, is_libyaml_depth_error
from generator.source.yamlsrc import NESTING_LIMIT, iter_documents, load_stream_fast

DEEP = 1200  # beyond libyaml 6.0.4's 1000, far beyond citgen's 100
TOO_DEEP = (f"lists and mappings are nested more than {NESTING_LIMIT} levels deep; "
            "refusing a document this deep")

#: Each shape, and the (line, column) of the list or mapping that is one level too deep.
SHAPES = {
    "a dense flow list": ("[" * DEEP + "]" * DEEP, (1, 101)),
    "flow mappings": ("{a: " * DEEP + "1" + "}" * DEEP, (1, 401)),
    "a flow list with spaces": ("[ " * DEEP + "]" * DEEP, (1, 201)),
    "a flow list as a key": ("- [" + "[" * DEEP + "]" * (DEEP + 1) + ": x", (1, 102)),
    "a flow list after other keys": ("a: b\nc:\n  " + "[" * DEEP + "]" * DEEP, (3, 102)),
    "a flow list inside a flow list begun a line before": ("[\n" + "[" * DEEP + "]" * DEEP + "]", (2, 100)),
    "block lists on one line, then flow": ("- " * 50 + "[" * DEEP, (1, 151)),
    "block lists on one line": ("- " * DEEP + "x", (1, 201)),
    "block mappings": ("\n".join(" " * i + "a:" for i in range(DEEP)) + " x", (101, 101)),
    "the second document": ("a: 1\n---\nb: " + "[" * DEEP + "]" * DEEP, (3, 103)),
    "after text of other scripts": ("é: ü€\n😀x: " + "[" * DEEP, (2, 104)),
}


@pytest.mark.parametrize("text, place", SHAPES.values(), ids=SHAPES)
def test_every_shape_of_deep_nesting_is_refused_at_the_101st_level(text, place):
    for read in (lambda: load_stream_fast(text, "f.yaml"), lambda: list(iter_documents(text, "f.yaml"))):
        with pytest.raises(InputError) as caught:
            read()
        assert [str(p) for p in caught.value.problems] == [f"f.yaml:{place[0]}:{place[1]}: {TOO_DEEP}"]


def test_nesting_exactly_at_the_limit_is_read():
    text = "[" * NESTING_LIMIT + "]" * NESTING_LIMIT
    value = load_stream_fast(text, "f.yaml")[0]
    for _ in range(NESTING_LIMIT - 1):
        value = value[0]
    assert value == []


# ------------------------------------------------------------------ crossing(), given libyaml 6.0.4's marks


def mark(text: str, index: int) -> Mark:
    line = text.count("\n", 0, index)
    return Mark("f.yaml", index, line, index - (text.rfind("\n", 0, index) + 1), None, None)


def test_a_dense_flow_list_with_nothing_read_yet_crosses_at_column_101():
    text = "[" * DEEP
    # libyaml 6.0.4: "exceeded maximum nesting depth" at column 1001, before any event of the document
    assert crossing(text, mark(text, 1000), None, 0, 0, NESTING_LIMIT) == (0, 100)


def test_what_the_reader_already_holds_counts_once():
    text = "x: [[1], " + "[" * DEEP
    # the reader has the mapping, the outer list and the closed [1]; libyaml held back from ", [[["
    last_end = mark(text, text.index("]") + 1)
    assert crossing(text, mark(text, 9 + 998), last_end, 2, 1, NESTING_LIMIT) == (0, 9 + 98)


def test_a_scan_that_starts_on_an_earlier_line_begins_at_the_line_of_the_error():
    text = "a: b\nc:\n  " + "[" * DEEP
    last_end = mark(text, 1 + text.index("c"))  # the key c, a line above
    start = text.index("[")
    assert crossing(text, mark(text, start + 999), last_end, 1, 0, NESTING_LIMIT) == (2, 2 + 99)


def test_the_scan_reads_no_more_than_the_look_ahead_before_the_error():
    text = "a: " + " " * 1_000_000 + "[" * DEEP  # a megabyte of spaces that libyaml skipped
    start = text.index("[")
    assert crossing(text, mark(text, start + 999), None, 1, 0, NESTING_LIMIT) == (0, start + 99)


def test_a_stretch_that_cannot_be_read_on_its_own_is_refused_at_libyamls_mark():
    text = "'unclosed " + "[" * DEEP  # not what libyaml can report, but the scanner is not ours
    assert crossing(text, mark(text, 1010), None, 0, 0, NESTING_LIMIT) == (0, 1010)


def test_only_libyamls_depth_error_is_taken_for_one():
    with pytest.raises(yaml.YAMLError) as caught:
        yaml.load("a: [b", Loader=yaml.CSafeLoader)
    assert not is_libyaml_depth_error(caught.value)
    assert is_libyaml_depth_error(yaml.scanner.ScannerError(
        "while increasing flow level", None, "exceeded maximum nesting depth", None))
