"""The size arithmetic of generator/render/limits.py, called in-process: exact counts and predictions.

``deep_size`` says how large a value is; ``text_bound``, ``printf_size``,
``format_field_size`` and the tojson and replace predictors say how long a
result would be before the sandbox makes it. Each test pins one exact number,
and each bound is tried exactly at its limit and one past it.
"""

from __future__ import annotations

from collections import OrderedDict

import pytest
from jinja2.utils import Namespace
from markupsafe import Markup

from generator.render import limits
from generator.render.limits import (
    _depth,
    _indent_width,
    _number,
    _replace_size,
    _tojson_size,
    deep_size,
    format_field_size,
    printf_size,
    text_bound,
    text_length,
)

BIG = 1_000_000
#: text_bound of any one scalar that is not a string: 12 * deep_size (1) + 330.
SCALAR_TEXT = 342


# --------------------------------------------------------------------------- deep_size


@pytest.mark.parametrize("value, size", [
    ("", 1), ("abc", 3), (b"", 1), (b"ab", 2), (bytearray(b"abcd"), 4), (Markup("xyz"), 3),
], ids=["empty str", "str", "empty bytes", "bytes", "bytearray", "str subclass"])
def test_a_text_counts_its_characters_and_an_empty_one_counts_one(value, size):
    assert deep_size(value, BIG) == size


@pytest.mark.parametrize("value, size", [
    (0, 1), (2 ** 31 - 1, 1), (2 ** 31, 2), (2 ** 63 - 1, 2), (2 ** 63, 3), (-(2 ** 31), 2),
], ids=["zero", "31 bits", "32 bits", "63 bits", "64 bits", "negative 32 bits"])
def test_a_whole_number_counts_one_and_one_more_for_every_32_bits(value, size):
    assert deep_size(value, BIG) == size


@pytest.mark.parametrize("value", [True, False, 1.5, None, iter([1, 2, 3]), len],
                         ids=["true", "false", "float", "none", "iterator", "callable"])
def test_any_other_value_counts_one(value):
    assert deep_size(value, BIG) == 1


@pytest.mark.parametrize("value, size", [
    ([], 1), (["ab", 1], 4), (("ab", "cde"), 6), ({"ab"}, 3), (frozenset({"abc"}), 4),
    ([["a"], ("bc",)], 6), (type("Items", (list,), {})(["ab"]), 3),
], ids=["empty list", "list", "tuple", "set", "frozenset", "nested", "list subclass"])
def test_a_sequence_counts_one_and_everything_in_it(value, size):
    assert deep_size(value, BIG) == size


@pytest.mark.parametrize("value, size", [
    ({}, 1), ({"ab": "cde"}, 6), ({"a": [1, 2]}, 5), (OrderedDict(k="vw"), 4),
], ids=["empty", "keys and values", "nested list", "dict subclass"])
def test_a_mapping_counts_one_and_its_keys_and_values(value, size):
    assert deep_size(value, BIG) == size


def test_a_namespace_counts_one_and_what_it_holds():
    assert deep_size(Namespace(text="xyz"), BIG) == 1 + 1 + 4 + 3


def test_a_namespace_after_other_values_adds_to_their_count():
    assert deep_size([Namespace(x="y"), "ab"], BIG) == 1 + 2 + 1 + 1 + 1 + 1


def test_a_scalar_after_other_values_adds_to_their_count():
    assert deep_size([None, "ab"], BIG) == 1 + 2 + 1


def test_counting_goes_on_while_the_total_is_at_the_limit():
    assert deep_size(["a", "b"], 3) == 3


def test_counting_stops_just_past_the_limit():
    assert deep_size(["a", "b", "c", "d", "e"], 3) == 4


def test_a_value_built_by_doubling_is_counted_no_further_than_the_limit():
    value: list = ["x"]
    for _ in range(200):
        value = [value, value]
    assert deep_size(value, 10) == 11


# --------------------------------------------------------------------------- text_bound


@pytest.mark.parametrize("value, as_repr, bound", [
    ("abc", True, 32), ("", True, 2), ("abc", False, 3), ("", False, 0),
], ids=["repr", "repr of empty", "str", "str of empty"])
def test_a_string_is_bounded_by_ten_characters_each_and_quotes_or_by_its_length(value, as_repr, bound):
    assert text_bound(value, BIG, as_repr=as_repr) == bound


def test_text_bound_writes_a_string_as_its_repr_unless_told():
    assert text_bound("abcd", BIG) == 42


@pytest.mark.parametrize("as_repr", [True, False])
def test_any_other_value_is_bounded_by_twelve_characters_an_item_and_330(as_repr):
    assert text_bound(["ab", 1], BIG, as_repr=as_repr) == 12 * 4 + 330


def test_the_bound_of_a_value_counts_it_no_further_than_the_limit():
    assert text_bound(["a"] * 10, 3) == 12 * 4 + 330


# --------------------------------------------------------------------------- text_length


@pytest.mark.parametrize("value, length", [("", 0), ("abc", 3), (Markup("<a>"), 3), (12345, 5), (None, 4)],
                         ids=["empty", "str", "markup", "number", "none"])
def test_text_length_is_the_length_of_the_value_as_text(value, length):
    assert text_length(value) == length


# --------------------------------------------------------------------------- _number


@pytest.mark.parametrize("digits, number", [
    ("0", 0), ("42", 42), ("2" + "0" * 17, 2 * 10 ** 17), ("9" * 18, 10 ** 18 - 1),
    ("2" + "0" * 18, 10 ** 18), ("9" * 400, 10 ** 18),
], ids=["zero", "two digits", "18 digits", "largest of 18 digits", "19 digits", "400 digits"])
def test_a_width_is_its_number_up_to_18_digits_and_10_to_the_18_past_them(digits, number):
    assert _number(digits) == number


# --------------------------------------------------------------------------- printf_size


@pytest.mark.parametrize("template, args, size", [
    ("plain", (), 5),
    ("%s", "abc", 2 + 3),
    ("%s", ("abc",), 2 + 3),
    ("%r", "abc", 2 + 32),
    ("%a", ("abc",), 2 + 32),
    ("%d", 5, 2 + SCALAR_TEXT),
    ("%", ("ab",), 1 + 2),
], ids=["no conversion", "one value", "a tuple of one", "repr", "ascii", "a number", "a lone percent"])
def test_each_conversion_adds_the_bound_of_its_value_to_the_template(template, args, size):
    assert printf_size(template, args, BIG) == size


def test_a_percent_sign_written_twice_takes_no_value():
    assert printf_size("%%%s", ("ab",), BIG) == 4 + 2


@pytest.mark.parametrize("template, args, size", [
    ("%5s", "ab", 3 + 5 + 2),
    ("%.3s", "ab", 4 + 3 + 2),
    ("%-08.3s", "ab", 7 + 8 + 3 + 2),
    ("%5ld", 1, 4 + 5 + SCALAR_TEXT),
], ids=["width", "precision", "flags, width and precision", "length modifier"])
def test_a_written_width_and_precision_are_added(template, args, size):
    assert printf_size(template, args, BIG) == size


@pytest.mark.parametrize("template, args, size", [
    ("%*s", (7, "ab"), 3 + 7 + 2),
    ("%*s", (-7, "ab"), 3 + 7 + 2),
    ("%.*s", (4, "ab"), 4 + 4 + 2),
    ("%*.*s", (3, 4, "ab"), 5 + 3 + 4 + 2),
], ids=["width", "negative width", "precision", "both"])
def test_a_star_takes_its_number_from_the_values_before_the_one_converted(template, args, size):
    assert printf_size(template, args, BIG) == size


def test_a_star_given_something_else_than_a_number_adds_nothing_but_takes_it():
    assert printf_size("%*s", ("x", "ab"), BIG) == 3 + 0 + 2


def test_a_star_without_a_value_adds_nothing_and_the_conversion_gets_none():
    assert printf_size("%*s", (), BIG) == 3 + 0 + SCALAR_TEXT


def test_a_conversion_without_a_value_is_bounded_as_none():
    assert printf_size("%s", (), BIG) == 2 + SCALAR_TEXT


def test_values_are_taken_in_order():
    assert printf_size("%s%r", ("ab", "cdefg"), BIG) == 4 + 2 + 52


def test_a_named_conversion_takes_its_value_from_the_mapping():
    assert printf_size("%(n)s", {"n": "abc"}, BIG) == 5 + 3


def test_a_named_conversion_missing_from_the_mapping_is_bounded_as_none():
    assert printf_size("%(m)s", {"n": "abc"}, BIG) == 5 + SCALAR_TEXT


def test_a_named_conversion_without_a_mapping_takes_the_next_value():
    assert printf_size("%(n)r", ("abc",), BIG) == 5 + 32


def test_an_unnamed_conversion_with_a_mapping_takes_the_mapping_itself():
    assert printf_size("%s", {"n": "a"}, BIG) == 2 + 12 * 3 + 330


def test_a_mapping_given_to_named_and_unnamed_conversions_serves_both():
    assert printf_size("%(n)s%s", {"n": "a"}, BIG) == 7 + 1 + 12 * 3 + 330


def test_a_value_is_bounded_no_further_than_the_limit():
    assert printf_size("%s", (["a"] * 10,), 3) == 2 + 12 * 4 + 330


def test_predicting_goes_on_while_the_total_is_at_the_limit():
    assert printf_size("%s%s", ("abc", "defg"), 7) == 4 + 3 + 4


def test_predicting_stops_at_the_first_conversion_past_the_limit():
    assert printf_size("%s%s", ("abc", "defg"), 6) == 4 + 3


# --------------------------------------------------------------------------- format_field_size


@pytest.mark.parametrize("value, spec, size", [
    ("abc", "", 3),
    ("abc", ">10", 10 + 3),
    ("abc", ">10.200", 200 + 3),
    ("abc", "5.3", 5 + 3),
    (5, "", SCALAR_TEXT),
    ("abc", ">" + "9" * 30, 10 ** 18 + 3),
], ids=["no spec", "a width", "width and precision", "the widest", "a number", "a width too long to read"])
def test_a_field_is_bounded_by_its_widest_number_and_its_value_as_text(value, spec, size):
    assert format_field_size(value, spec, BIG) == size


def test_a_field_value_is_bounded_no_further_than_the_limit():
    assert format_field_size(["a"] * 10, "", 3) == 12 * 4 + 330


# --------------------------------------------------------------------------- _indent_width


@pytest.mark.parametrize("indent, width", [
    ("", 0), ("  ", 2), ("\t", 1), (0, 0), (3, 3), (-2, 0), (True, 1), (False, 0), (None, 8), (1.5, 8),
], ids=["empty text", "two spaces", "a tab", "zero", "three", "negative", "true", "false", "none", "float"])
def test_an_indent_is_its_text_or_its_number_and_anything_else_is_eight(indent, width):
    assert _indent_width(indent) == width


# --------------------------------------------------------------------------- _depth


@pytest.mark.parametrize("value, depth", [
    ("abc", 0), (5, 0), ([], 1), ((1,), 1), ({1}, 1), (frozenset(), 1), ({}, 1),
    ([[]], 2), ([[[]], []], 3), ([[], [[]]], 3), ({"a": {"b": 1}}, 2), ({(1, (2,)): 1}, 1), ({(1,)}, 2),
], ids=["str", "int", "list", "tuple", "set", "frozenset", "dict", "list in list", "deep first",
        "deep last", "dict in dict", "keys not counted", "tuple in set"])
def test_depth_is_how_deeply_lists_and_mappings_nest(value, depth):
    assert _depth(value, BIG) == depth


@pytest.mark.parametrize("limit, depth", [(2, 2), (3, 3), (4, 4), (5, 4)])
def test_depth_is_measured_no_deeper_than_the_limit(limit, depth):
    assert _depth([[[[]]]], limit) == depth


# --------------------------------------------------------------------------- _replace_size


@pytest.mark.parametrize("text, old, new, count, size", [
    ("abab", "ab", "XYZ", -1, 4 + 2 * 3),
    ("abab", "ab", "XYZ", None, 4 + 2 * 3),
    ("abab", "ab", "XYZ", 5, 4 + 2 * 3),
    ("abab", "ab", "XYZ", 2, 4 + 2 * 3),
    ("abab", "ab", "XYZ", 1, 4 + 3),
    ("abab", "ab", "XYZ", 0, 4),
    ("abab", "cd", "XYZ", -1, 4),
    ("abc", "", "XY", -1, 3 + 4 * 2),
    ("", "", "XY", -1, 2),
    (b"abab", b"ab", b"x", -1, 4 + 2),
], ids=["every", "count none", "count above", "count at", "count one", "count zero", "absent", "empty old",
        "empty text", "bytes"])
def test_replace_adds_the_new_text_once_for_each_replacement_it_makes(text, old, new, count, size):
    assert _replace_size(text, old, new, count) == size


def test_replace_on_bytes_with_an_empty_old_text_counts_every_position():
    # the replace filter gives bytes as they are and other values as text: b"abc" | replace("", "XY")
    arguments = {"s": b"abc", "old": "", "new": "XY", "count": None}
    assert limits.FILTER_PREDICTORS["replace"](arguments, BIG) == 3 + 4 * 2


def test_the_replace_filter_predicts_bytes_as_they_are():
    arguments = {"s": b"abab", "old": b"ab", "new": b"x", "count": None}
    assert limits.FILTER_PREDICTORS["replace"](arguments, BIG) == 4 + 2 * 1


def test_the_replace_filter_predicts_a_value_that_is_not_text_as_its_text():
    arguments = {"s": 1212, "old": 12, "new": 345, "count": 1}
    assert limits.FILTER_PREDICTORS["replace"](arguments, BIG) == 4 + 1 * 3


@pytest.mark.parametrize("text, width, size", [("a\nb", 2, 3 + 2 * 2), (12345, 4, 5 + 4), (None, "  ", 4 + 2)],
                         ids=["two lines", "a number", "none"])
def test_the_indent_filter_predicts_its_text_with_each_line_indented(text, width, size):
    assert limits.FILTER_PREDICTORS["indent"]({"s": text, "width": width}, BIG) == size


# --------------------------------------------------------------------------- _tojson_size


@pytest.mark.parametrize("indent", [None, 0, ""], ids=["none", "zero", "empty text"])
def test_tojson_without_an_indent_is_bounded_as_the_value_is(indent):
    assert _tojson_size({"value": {"a": [1, 2]}, "indent": indent}, BIG) == 12 * 5 + 330


def test_tojson_without_an_indent_argument_is_bounded_as_the_value_is():
    assert _tojson_size({"value": {"a": [1, 2]}}, BIG) == 12 * 5 + 330


@pytest.mark.parametrize("indent, width", [(2, 2), ("   ", 3), (1.5, 8)], ids=["number", "text", "other"])
def test_tojson_with_an_indent_adds_each_item_indented_to_its_depth(indent, width):
    # {"a": [1, 2]}: five items, nested two deep
    assert _tojson_size({"value": {"a": [1, 2]}, "indent": indent}, BIG) == 12 * 5 + 330 + 5 * 2 * width


def test_tojson_counts_the_value_no_further_than_the_limit():
    assert _tojson_size({"value": [["a"] * 10], "indent": 1}, 3) == (12 * 4 + 330) + 4 * 2 * 1


def test_pprint_is_predicted_as_tojson_with_an_indent_of_one():
    assert limits.FILTER_PREDICTORS["pprint"]({"value": {"a": [1, 2]}}, BIG) == 12 * 5 + 330 + 5 * 2
