"""generator/outputs/tables.py: the plain-text table of `citgen list`, the README's Markdown tables, memory cells."""

from __future__ import annotations

import pytest

from generator.outputs.tables import markdown_table, memory, text_table

HEADER = ("NAME", "CPUS", "MEMORY")


# --------------------------------------------------------------------------- text_table


def test_columns_are_padded_to_their_widest_cell_and_set_three_spaces_apart():
    rows = [("u1.small", "1", "2Gi"), ("u1.2xmedium", "12", "4Gi")]
    assert text_table(HEADER, rows) == ("NAME          CPUS   MEMORY\n"
                                        "u1.small      1      2Gi\n"
                                        "u1.2xmedium   12     4Gi\n")


def test_a_header_wider_than_every_cell_sets_the_width():
    assert text_table(("INSTANCETYPE", "X"), [("a", "b")]) == "INSTANCETYPE   X\na              b\n"


def test_a_cell_wider_than_its_header_sets_the_width_of_that_column_only():
    assert text_table(("A", "B", "C"), [("1", "2222", "3")]) == "A   B      C\n1   2222   3\n"


def test_a_cell_in_a_later_row_can_set_the_width():
    assert text_table(("A", "B"), [("1", "2"), ("333", "4"), ("5", "6")]) == "A     B\n1     2\n333   4\n5     6\n"


def test_no_line_ends_in_spaces_even_when_its_last_cells_are_empty():
    text = text_table(("NAME", "GPU", "LONG-HEADER"), [("a", "", ""), ("b", "x", "")])
    assert text == "NAME   GPU   LONG-HEADER\na\nb      x\n"


def test_a_table_without_rows_is_its_header_line():
    assert text_table(HEADER, []) == "NAME   CPUS   MEMORY\n"


def test_cells_are_written_as_they_are():
    assert text_table(("A",), [("a|b",), ("*x*",)]) == "A\na|b\n*x*\n"


# --------------------------------------------------------------------------- markdown_table


def test_a_markdown_table_has_its_header_a_separator_row_and_a_line_per_row():
    rows = [("u1.small", "1", "2Gi"), ("u1.medium", "1", "4Gi")]
    assert markdown_table(HEADER, rows) == ("| NAME | CPUS | MEMORY |\n"
                                            "| --- | --- | --- |\n"
                                            "| u1.small | 1 | 2Gi |\n"
                                            "| u1.medium | 1 | 4Gi |\n")


def test_a_markdown_table_of_one_column_without_rows():
    assert markdown_table(("NAME",), []) == "| NAME |\n| --- |\n"


def test_a_pipe_in_a_cell_is_escaped_so_it_does_not_start_a_column():
    assert markdown_table(("a|b",), [("x | y",)]) == "| a\\|b |\n| --- |\n| x \\| y |\n"


def test_control_characters_in_a_cell_are_written_as_escapes_on_one_line():
    assert markdown_table(("A", "B"), [("line\nbreak", "\x1b[31m|")]) == (
        "| A | B |\n| --- | --- |\n| line\\nbreak | \\x1b[31m\\| |\n")


def test_empty_cells_stay_cells():
    assert markdown_table(("A", "B"), [("", "")]) == "| A | B |\n| --- | --- |\n|  |  |\n"


# --------------------------------------------------------------------------- memory


@pytest.mark.parametrize("value, cell", [
    (None, "-"), (0, "-"), (1, "1"), (1023, "1023"), (1024, "1Ki"), (512 * 1024 ** 2, "512Mi"),
    (8 * 1024 ** 3, "8Gi"), (3 * 1024 ** 3 // 2, "1536Mi"),
])
def test_memory_is_written_in_the_largest_whole_binary_unit_and_nothing_as_a_dash(value, cell):
    assert memory(value) == cell
