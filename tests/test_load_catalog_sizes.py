"""A series' ``sizes:`` resolved against its size matrix, and its ``ratio:`` read as GiB per vCPU.

select_sizes is called the way load/catalog.py and load/overlays.py call it: with the
selection as the series file holds it, the file's document (for the lines of problems)
and the list the problems are added to.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from generator.load.catalog import parse_ratio, select_sizes
from generator.model import Size, SizeMatrix
from generator.problems import Location, Problem
from generator.source.yamlsrc import load_text

HERE = Location("series/sizes.yaml", 1, 1)
MATRIX = SizeMatrix("standard", tuple(Size(name, cpu, None, HERE) for name, cpu in
                                      (("small", 1), ("medium", 1), ("large", 2), ("xlarge", 4))), HERE)
HAS = "(it has: small, medium, large, xlarge)"


def select(text: str) -> tuple[tuple[str, ...], list[str]]:
    """The sizes a series file's ``sizes:`` (``text`` is the whole file) selects, and the problems, as printed."""
    doc = load_text(text, "series/a.yaml")
    problems: list[Problem] = [Problem(Location("earlier.yaml"), "an earlier problem")]
    chosen = select_sizes(doc.data.get("sizes"), MATRIX, doc, problems)
    assert problems[0] == Problem(Location("earlier.yaml"), "an earlier problem")
    return chosen, [str(p) for p in problems[1:]]


# --------------------------------------------------------------------------- parse_ratio


@pytest.mark.parametrize(("text", "per_cpu"), [
    ("1:4", Fraction(4)),
    ("1:0.5", Fraction(1, 2)),
    ("2:3", Fraction(3, 2)),
    ("4:1", Fraction(1, 4)),
    ("10:25.5", Fraction(51, 20)),
])
def test_a_ratio_is_gib_of_memory_per_vcpu(text, per_cpu):
    assert parse_ratio(text) == per_cpu


def test_a_ratio_is_an_exact_fraction_not_a_float():
    assert parse_ratio("3:1") == Fraction(1, 3)
    assert type(parse_ratio("3:1")) is Fraction


# --------------------------------------------------------------------------- whole matrix


def test_no_sizes_key_selects_every_size_of_the_matrix_in_its_order():
    assert select("prefix: a\n") == (("small", "medium", "large", "xlarge"), [])


def test_sizes_all_selects_every_size_of_the_matrix_in_its_order():
    assert select("sizes: all\n") == (("small", "medium", "large", "xlarge"), [])


# --------------------------------------------------------------------------- a list of names


def test_a_list_selects_its_sizes_in_the_matrix_order_not_the_list_order():
    assert select("sizes: [xlarge, small, large]\n") == (("small", "large", "xlarge"), [])


def test_a_list_of_one_size_selects_that_size():
    assert select("sizes: [medium]\n") == (("medium",), [])


def test_a_list_naming_an_unknown_size_selects_nothing_and_names_the_entry():
    assert select("sizes: [small, huge]\n") == ((), [
        f"series/a.yaml:1:16: sizes[1]: size 'huge' is not in size matrix 'standard' {HAS}"])


def test_every_unknown_size_of_a_list_is_reported_not_only_the_first():
    assert select("sizes:\n  - tiny\n  - small\n  - huge\n") == ((), [
        f"series/a.yaml:2:5: sizes[0]: size 'tiny' is not in size matrix 'standard' {HAS}",
        f"series/a.yaml:4:5: sizes[2]: size 'huge' is not in size matrix 'standard' {HAS}",
    ])


# --------------------------------------------------------------------------- from, to and exclude


def test_from_alone_selects_that_size_and_every_larger_one():
    assert select("sizes: {from: medium}\n") == (("medium", "large", "xlarge"), [])


def test_to_alone_selects_every_size_up_to_and_including_it():
    assert select("sizes: {to: medium}\n") == (("small", "medium"), [])


def test_from_and_to_select_the_range_including_both_ends():
    assert select("sizes: {from: medium, to: large}\n") == (("medium", "large"), [])


def test_from_and_to_naming_the_same_size_select_that_one_size():
    assert select("sizes: {from: large, to: large}\n") == (("large",), [])


def test_an_empty_mapping_selects_the_whole_matrix():
    assert select("sizes: {}\n") == (("small", "medium", "large", "xlarge"), [])


def test_exclude_leaves_sizes_out_of_the_range():
    assert select("sizes: {from: small, to: xlarge, exclude: [medium, xlarge]}\n") == (("small", "large"), [])


def test_exclude_alone_leaves_sizes_out_of_the_whole_matrix():
    assert select("sizes: {exclude: [small]}\n") == (("medium", "large", "xlarge"), [])


def test_excluding_a_size_outside_the_range_changes_nothing():
    assert select("sizes: {from: large, exclude: [small]}\n") == (("large", "xlarge"), [])


def test_an_unknown_from_selects_nothing_and_is_located_at_from():
    assert select("sizes: {from: huge}\n") == ((), [
        f"series/a.yaml:1:15: sizes.from: size 'huge' is not in size matrix 'standard' {HAS}"])


def test_an_unknown_to_selects_nothing_and_is_located_at_to():
    assert select("sizes:\n  to: huge\n") == ((), [
        f"series/a.yaml:2:7: sizes.to: size 'huge' is not in size matrix 'standard' {HAS}"])


def test_an_unknown_excluded_size_is_located_at_its_entry():
    assert select("sizes:\n  exclude: [small, huge]\n") == ((), [
        f"series/a.yaml:2:20: sizes.exclude[1]: size 'huge' is not in size matrix 'standard' {HAS}"])


def test_unknown_from_to_and_excluded_sizes_are_all_reported_in_that_order():
    assert select("sizes:\n  exclude: [tiny]\n  to: huge\n  from: vast\n") == ((), [
        f"series/a.yaml:4:9: sizes.from: size 'vast' is not in size matrix 'standard' {HAS}",
        f"series/a.yaml:3:7: sizes.to: size 'huge' is not in size matrix 'standard' {HAS}",
        f"series/a.yaml:2:13: sizes.exclude[0]: size 'tiny' is not in size matrix 'standard' {HAS}",
    ])


def test_from_after_to_selects_nothing_and_says_so_at_sizes():
    assert select("sizes: {from: large, to: medium}\n") == ((), [
        "series/a.yaml:1:8: sizes: 'large' comes after 'medium' in size matrix 'standard'"])


def test_from_one_past_to_is_refused_while_from_at_to_is_not():
    assert select("sizes: {from: xlarge, to: large}\n") == ((), [
        "series/a.yaml:1:8: sizes: 'xlarge' comes after 'large' in size matrix 'standard'"])


def test_the_matrix_name_in_messages_is_the_series_matrix():
    network = SizeMatrix("network", (Size("large", 4, None, HERE),), HERE)
    doc = load_text("sizes: [small]\n", "series/n.yaml")
    problems: list[Problem] = []
    assert select_sizes(["small"], network, doc, problems) == ()
    assert [str(p) for p in problems] == [
        "series/n.yaml:1:9: sizes[0]: size 'small' is not in size matrix 'network' (it has: large)"]
