"""outputs/readme.py on its own: the markers between which the README's tables are written.

``update`` replaces what lies between each BEGIN/END pair and nothing else; markers
that do not pair up (unknown, nested, twice, unended, ended without a beginning or
missing) are an InputError naming the file, the line and the table. Markers inside a
fenced code block are an example, not a place to write.
"""

from __future__ import annotations

import pytest

from generator.errors import InputError
from generator.outputs.readme import update


def begin(name: str) -> str:
    return f"<!-- BEGIN citgen readme: {name} -->"


def end(name: str) -> str:
    return f"<!-- END citgen readme: {name} -->"


def refused(text: str, generated: dict[str, str] | None = None, **file: str) -> str:
    with pytest.raises(InputError) as raised:
        update(text, generated if generated is not None else {"a": "A\n", "b": "B\n"}, **file)
    [problem] = raised.value.problems
    return str(problem)


def test_each_table_replaces_only_the_lines_between_its_markers():
    text = "\n".join(["# title", begin("a"), "old a", "old a too", end("a"), "middle",
                      begin("b"), end("b"), "last", ""])
    assert update(text, {"a": "| new a |\n", "b": "b 1\nb 2\n"}) == "\n".join(
        ["# title", begin("a"), "| new a |", end("a"), "middle", begin("b"), "b 1", "b 2", end("b"), "last", ""])


def test_the_tables_are_written_in_place_whatever_order_they_are_given_in():
    text = "\n".join([begin("b"), "x", "y", "z", end("b"), begin("a"), end("a")])
    assert update(text, {"a": "1\n2\n3\n", "b": "4\n"}) == "\n".join(
        [begin("b"), "4", end("b"), begin("a"), "1", "2", "3", end("a")])


def test_only_the_final_line_breaks_of_a_table_are_dropped():
    text = "\n".join([begin("a"), end("a"), begin("b"), end("b")])
    assert update(text, {"a": "see X\n\n", "b": "trailing spaces  \n"}) == "\n".join(
        [begin("a"), "see X", end("a"), begin("b"), "trailing spaces  ", end("b")])


def test_a_table_is_written_line_for_line_whatever_its_lines_hold():
    text = "\n".join([begin("a"), end("a")])
    assert update(text, {"a": "sizes up to XX\nXXL\n"}) == "\n".join([begin("a"), "sizes up to XX", "XXL", end("a")])


def test_markers_count_with_spaces_around_them_on_a_line_of_their_own():
    text = "\n".join([f"  {begin('a')}\t", "old", f" {end('a')} ", f"text {begin('b')}"])
    assert update(text, {"a": "new\n"}) == "\n".join(
        [f"  {begin('a')}\t", "new", f" {end('a')} ", f"text {begin('b')}"])


def test_markers_in_a_fenced_code_block_are_left_alone():
    example = ["```markdown", begin("a"), "example", end("a"), "```"]
    text = "\n".join([*example, begin("a"), "old", end("a")])
    assert update(text, {"a": "new\n"}) == "\n".join([*example, begin("a"), "new", end("a")])


def test_a_fence_closes_only_with_its_own_character_and_at_least_its_length():
    text = "\n".join(["~~~~", "```", "~~~", begin("a"), "~~~~~ trailing text does not close", "~~~~~",
                      begin("a"), "old", end("a")])
    assert update(text, {"a": "new\n"}) == "\n".join(
        ["~~~~", "```", "~~~", begin("a"), "~~~~~ trailing text does not close", "~~~~~",
         begin("a"), "new", end("a")])


def test_a_marker_after_a_closed_fence_counts_again():
    text = "\n".join(["```", "```", begin("a"), "old", end("a")])
    assert update(text, {"a": "new\n"}) == "\n".join(["```", "```", begin("a"), "new", end("a")])


def test_an_unknown_table_is_refused_with_the_known_ones():
    text = "\n".join([begin("a"), end("a"), begin("b"), end("b"), begin("c")])
    assert refused(text) == ("README.md:5: unknown table 'c' in a citgen readme marker; "
                             "the tables are a, b")


def test_a_table_begun_inside_another_is_refused_where_it_begins():
    text = "\n".join(["intro", begin("a"), "x", begin("b"), end("b"), end("a")])
    assert refused(text) == ("README.md:4: the b table begins inside the a table (begun at line 2); "
                             "end that one first")


def test_a_table_whose_markers_appear_twice_is_refused_at_the_second_beginning():
    text = "\n".join([begin("a"), "x", "y", end("a"), begin("b"), end("b"), begin("a"), end("a")])
    assert refused(text) == ("README.md:7: the markers of the a table appear twice (first at line 1); "
                             "keep one pair")


def test_an_end_without_a_beginning_is_refused():
    assert refused("\n".join(["intro", end("a")])) == \
        "README.md:2: the a table ends here but does not begin before it"


def test_the_end_of_another_table_than_the_one_begun_is_refused():
    assert refused("\n".join([begin("a"), end("b")])) == \
        "README.md:2: the b table ends here but does not begin before it"


def test_a_table_that_never_ends_is_refused_where_it_begins():
    text = "\n".join([begin("b"), end("b"), "", begin("a"), "x"])
    assert refused(text) == "README.md:4: the a table begins here and never ends"


def test_a_table_without_markers_is_refused_with_the_markers_to_add():
    text = "\n".join([begin("a"), end("a")])
    assert refused(text) == ("README.md: missing the markers of the b table: put "
                             "'<!-- BEGIN citgen readme: b -->' and '<!-- END citgen readme: b -->' "
                             "on lines of their own where it belongs")


@pytest.mark.parametrize("text, where", [
    (begin("c"), "docs/x.md:1: unknown table"),
    ("\n".join([begin("a"), begin("b")]), "docs/x.md:2: the b table begins inside"),
    ("\n".join([begin("a"), end("a"), begin("a")]), "docs/x.md:3: the markers of the a table appear twice"),
    (end("a"), "docs/x.md:1: the a table ends here"),
    ("\n".join(["", begin("a")]), "docs/x.md:2: the a table begins here and never ends"),
    ("", "docs/x.md: missing the markers of the a table"),
])
def test_every_refusal_names_the_file_given(text, where):
    assert refused(text, file="docs/x.md").startswith(where)
