"""generator/source/yamldepth.py: where ``crossing`` places the refusal, at the edges of what it scans.

tests/test_source_yamldepth.py reads whole shapes of deep nesting; these pin the
stretch ``crossing`` scans (from what the reader already counted up to and
including the character libyaml stopped at), collections closed inside that
stretch, a stretch that never crosses the limit, and which errors are taken for
libyaml's depth limit.
"""

from __future__ import annotations

import pytest
import yaml
from yaml.error import Mark

from generator.errors import InputError
from generator.source.yamldepth import crossing, is_libyaml_depth_error
from generator.source.yamlsrc import NESTING_LIMIT, iter_documents, load_stream_fast

DEEP = 1200
TOO_DEEP = (f"lists and mappings are nested more than {NESTING_LIMIT} levels deep; "
            "refusing a document this deep")


def mark(text: str, index: int) -> Mark:
    line = text.count("\n", 0, index)
    return Mark("f.yaml", index, line, index - (text.rfind("\n", 0, index) + 1), None, None)


#: Lists closed before the deep run, all within libyaml's look-ahead: (text, 1-based place).
CLOSED_FIRST = {
    "one list closed at level 3": ("[[[], " + "[" * DEEP, (1, 105)),
    "two lists closed at levels 3 and 2": ("[[[]], " + "[" * DEEP, (1, 107)),
    "a mapping holding closed lists": ("{a: [[]], b: " + "[" * DEEP, (1, 113)),
}


@pytest.mark.parametrize("text, place", CLOSED_FIRST.values(), ids=CLOSED_FIRST)
def test_lists_closed_before_the_deep_run_no_longer_count(text, place):
    for read in (lambda: load_stream_fast(text, "f.yaml"), lambda: list(iter_documents(text, "f.yaml"))):
        with pytest.raises(InputError) as caught:
            read()
        assert [str(p) for p in caught.value.problems] == [f"f.yaml:{place[0]}:{place[1]}: {TOO_DEEP}"]


def test_a_list_closed_inside_the_stretch_is_counted_out_once():
    text = "[[[], " + "[" * DEEP
    # libyaml 6.0.4 stops at its 1001st level, index 1004, having handed out no event of the document:
    # "[[[" is three deep, "]" closes one, and the 99th "[" after ", " is the 101st level
    assert crossing(text, mark(text, 1004), None, 0, 0, NESTING_LIMIT) == (0, 104)


def test_a_stretch_that_never_crosses_the_limit_is_refused_at_libyamls_mark():
    text = "a: [[[b]], [c]]\n"
    assert crossing(text, mark(text, 9), None, 1, 0, NESTING_LIMIT) == (0, 9)
    assert crossing(text, mark(text, 15), None, 1, 0, 4) == (0, 15)  # the mapping and three lists: not more than 4


def test_the_stretch_includes_the_character_libyaml_stopped_at():
    text = "[" * 5
    assert crossing(text, mark(text, 4), None, 0, 0, 4) == (0, 4)  # the fifth "[", where libyaml stopped
    assert crossing(text, mark(text, 4), None, 0, 0, 3) == (0, 3)  # the fourth, just before it


def test_nothing_after_libyamls_mark_is_scanned():
    """libyaml stopped at its mark; a collection opened after it is not where the refusal goes."""
    text = "[" * 6
    assert crossing(text, mark(text, 3), None, 0, 0, 4) == (0, 3)


def test_an_error_without_a_problem_is_not_libyamls_depth_error():
    assert not is_libyaml_depth_error(yaml.YAMLError("something else"))
    assert not is_libyaml_depth_error(yaml.scanner.ScannerError("while scanning", None, None, None))
    assert not is_libyaml_depth_error(yaml.scanner.ScannerError(
        "while scanning", None, "found character that cannot start any token", None))
