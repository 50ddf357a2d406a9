"""generator/problems.py: where a problem is and how it is written, and the order problems are reported in.

A catalog location reads ``file:line:column: dotted.path[2]``, a document's
``file#doc (name) $.json.path``; content is quoted as an excerpt of 60 characters,
a key of 300, a whole message of 1000; problems sort by file, document, line,
column, path, rule and message.
"""

from __future__ import annotations

import pytest

from generator.problems import (EXCERPT, MAX_MESSAGE, PATH_EXCERPT, WARNING, Location, Problem, bounded_lines, dotted,
                                excerpt, jsonpath, sort_problems)


def test_the_limits_are_sixty_three_hundred_and_a_thousand_characters():
    assert (EXCERPT, PATH_EXCERPT, MAX_MESSAGE, WARNING) == (60, 300, 1000, "warning")


def test_an_excerpt_keeps_text_up_to_its_limit_and_counts_what_it_leaves_out():
    assert excerpt("a" * 60) == "a" * 60
    assert excerpt("a" * 61) == "a" * 60 + "... (1 more character)"
    assert excerpt("a" * 62) == "a" * 60 + "... (2 more characters)"
    assert excerpt("abc", 2) == "ab... (1 more character)"


def test_an_excerpt_is_one_line():
    assert excerpt("a\nb") == "a\\nb"
    assert excerpt("\t" * 61) == "\\t" * 60 + "... (1 more character)"


def test_a_dotted_path_reads_as_catalog_authors_write_it():
    assert dotted(("sizes", "large", 2, "memory")) == "sizes.large[2].memory"
    assert dotted((0, "a")) == "[0].a"
    assert dotted(()) == ""
    assert dotted(("k" * 301, "k" * 300)) == "k" * 300 + "... (1 more character)." + "k" * 300


def test_a_json_path_quotes_the_keys_that_are_not_identifiers():
    assert jsonpath(()) == "$"
    assert jsonpath(("spec", "cpu_x", 0, "a.b", "k-1")) == "$.spec.cpu_x[0]['a.b']['k-1']"
    assert jsonpath(("k" * 301,)) == "$." + "k" * 300 + "... (1 more character)"
    assert jsonpath(("k-" * 150,)) == "$['" + "k-" * 150 + "']"  # a quoted key is cut at 300 characters too


@pytest.mark.parametrize("location, shown", [
    (Location("f.yaml"), "f.yaml"),
    (Location("f.yaml", 3), "f.yaml:3"),
    (Location("f.yaml", 3, 5), "f.yaml:3:5"),
    (Location("f.yaml", None, 5), "f.yaml"),  # a column without its line says nothing
    (Location("f.yaml", 3, 5, ("sizes", 1)), "f.yaml:3:5: sizes[1]"),
    (Location("b.yaml", doc=0), "b.yaml#0"),
    (Location("b.yaml", doc=2, name="u1.nano"), "b.yaml#2 (u1.nano)"),
    (Location("b.yaml", 7, doc=2, name="u1.nano", path=("spec", "cpu")), "b.yaml#2 (u1.nano) $.spec.cpu"),
    (Location("a\tb.yaml", 1), "a\\tb.yaml:1"),
    (Location("b.yaml", doc=1, name="a\nb"), "b.yaml#1 (a\\nb)"),
])
def test_a_location_reads_as_a_file_position_or_a_document(location: Location, shown: str):
    assert str(location) == shown


@pytest.mark.parametrize("location, shown", [
    (Location("f"), "f"),
    (Location("f", 3), "f:3"),
    (Location("f", 3, 5), "f:3:5"),
    (Location("f", doc=2), "f#2"),
    (Location("f", 3, doc=2), "f:3"),  # the line, when known, wins over the document
    (Location("f", None, 4), "f"),
])
def test_file_line_is_as_far_as_the_position_is_known(location: Location, shown: str):
    assert location.file_line() == shown


def test_at_goes_deeper_and_keeps_everything_else():
    deeper = Location("f", 1, 2, ("a",), 3, "n").at("b", 0)
    assert deeper == Location("f", 1, 2, ("a", "b", 0), 3, "n")
    assert str(deeper) == "f#3 (n) $.a.b[0]"


def test_a_problem_names_its_rule_unless_it_is_an_input_problem():
    assert str(Problem(Location("f", 2), "bad")) == "f:2: bad"
    assert str(Problem(Location("f", 2), "bad", rule="crd-schema")) == "f:2: bad [crd-schema]"


def test_a_problem_is_a_warning_only_when_its_severity_says_so():
    assert Problem(Location("f"), "m").severity == "error"
    assert not Problem(Location("f"), "m").is_warning
    assert Problem(Location("f"), "m", severity=WARNING).is_warning
    assert not Problem(Location("f"), "m", severity="Warning").is_warning


def test_a_message_longer_than_a_thousand_characters_is_cut_to_an_excerpt():
    assert Problem(Location("f"), "xy " * 333 + "x").message == "xy " * 333 + "x"
    assert Problem(Location("f"), "xy " * 334).message == ("xy " * 334)[:1000] + "... (2 more characters)"
    assert Problem(Location("f"), "a\nb" + " x" * 498).message == "a\nb" + " x" * 498  # kept as written, not escaped


def test_a_word_of_a_message_longer_than_three_hundred_characters_is_an_excerpt_where_it_is():
    token = "t" * 847  # a label's value quoted whole by a check
    assert Problem(Location("f"), f"label x is '{token}', not a size").message == (
        f"label x is '{'t' * 299}... (550 more characters) not a size")  # the word: quotes and comma too
    assert Problem(Location("f"), "w" * 300 + " ok").message == "w" * 300 + " ok"
    assert Problem(Location("f"), "a\n" + "w" * 301).message == "a\n" + "w" * 300 + "... (1 more character)"


def test_a_location_shows_an_excerpt_of_a_long_file_or_object_name():
    long_name, long_file = "n" * 100_000, "/" + "p" * 4999
    shown = str(Location("b.yaml", doc=0, name=long_name, path=("spec",)))
    assert shown == f"b.yaml#0 ({'n' * 300}... (99700 more characters)) $.spec"
    assert str(Location(long_file, 3, 4)) == f"/{'p' * 299}... (4700 more characters):3:4"
    assert Location(long_file, 3).file_line() == f"/{'p' * 299}... (4700 more characters):3"
    assert Location("a\nb", 3).file_line() == "a\nb:3"  # as written: its writer escapes it


def test_every_line_of_a_report_is_bounded():
    assert bounded_lines("short\n" + "x" * 4000 + "\n") == "short\n" + "x" * 4000 + "\n"
    assert bounded_lines("a\n" + "x" * 4002 + "\nb\n") == "a\n" + "x" * 3968 + "... (34 more characters)\nb\n"
    assert bounded_lines("x" * 100, 40) == "x" * 8 + "... (92 more characters)"
    assert max(map(len, bounded_lines(("x" * 10**6 + "\n") * 2).splitlines())) <= 4000


def test_problems_sort_by_file_document_line_column_path_rule_and_message():
    unsorted = [
        Problem(Location("b.yaml", doc=1), "z"),
        Problem(Location("a.yaml", 2, 1), "m"),
        Problem(Location("a.yaml", 2), "m"),
        Problem(Location("a.yaml"), "late", rule="b"),
        Problem(Location("a.yaml"), "early", rule="b"),
        Problem(Location("a.yaml"), "zz", rule="a"),
        Problem(Location("b.yaml", doc=0, path=(10,)), "p"),
        Problem(Location("b.yaml", doc=0, path=(2,)), "p"),
    ]
    assert [str(p) for p in sort_problems(unsorted)] == [
        "a.yaml: zz [a]",
        "a.yaml: early [b]",
        "a.yaml: late [b]",
        "a.yaml:2: m",
        "a.yaml:2:1: m",
        "b.yaml#0 $[10]: p",  # path parts compare as text
        "b.yaml#0 $[2]: p",
        "b.yaml#1: z",
    ]


def test_a_document_without_a_number_sorts_before_the_first_document():
    first, unnumbered = Problem(Location("b.yaml", doc=0), "x"), Problem(Location("b.yaml"), "x")
    assert sort_problems([first, unnumbered]) == [unnumbered, first]


@pytest.mark.parametrize("first, second", [
    (Location("a.yaml"), Location("a.yaml", 1)),  # the file as a whole before its first line
    (Location("a.yaml", 9), Location("a.yaml", 10)),
    (Location("a.yaml", 1, path=("a",)), Location("a.yaml", 1, path=("b",))),
])
def test_the_place_decides_before_the_message(first: Location, second: Location):
    later, earlier = Problem(first, "z"), Problem(second, "a")
    assert sort_problems([earlier, later]) == [later, earlier]
