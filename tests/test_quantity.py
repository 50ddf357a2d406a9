"""quantity.py on its own: Kubernetes quantities parsed exactly, compared as amounts, written in binary units."""

from __future__ import annotations

from fractions import Fraction

import pytest

from generator.quantity import (BOUNDS, MAX_DIGITS, MAX_EXPONENT, QuantityError, format_bytes, gib, is_quantity,
                                parse, same, within_bounds)

Ki = 1024


@pytest.mark.parametrize("text, value", [
    ("0", 0), ("2", 2), ("+2", 2), ("-2", -2), ("1.5", Fraction(3, 2)), (".5", Fraction(1, 2)), ("5.", 5),
    ("1Ki", Ki), ("1Mi", Ki ** 2), ("1.5Gi", 3 * Ki ** 3 // 2), ("2Ti", 2 * Ki ** 4), ("1Pi", Ki ** 5),
    ("1Ei", Ki ** 6), ("-1Gi", -(Ki ** 3)),
    ("1n", Fraction(1, 10 ** 9)), ("1u", Fraction(1, 10 ** 6)), ("500m", Fraction(1, 2)), ("1k", 1000),
    ("1M", 10 ** 6), ("1G", 10 ** 9), ("1T", 10 ** 12), ("1P", 10 ** 15), ("1E", 10 ** 18),
    ("1e3", 1000), ("1E3", 1000), ("1e+3", 1000), ("25e-1", Fraction(5, 2)), ("-1e2", -100),
    (3, 3), (0, 0),
])
def test_quantities_and_their_exact_values(text, value) -> None:
    assert parse(text) == value
    assert is_quantity(text)


@pytest.mark.parametrize("text", ["", "Gi", "1 Gi", "1gi", "1GiB", "1K", "1Ki1", "--1", "1.2.3", "e3", "1e", "0x10",
                                  " 1", "1\n", "1Gi\n", "1.5e3Gi", "infinity", "nan"])
def test_text_that_is_no_quantity(text) -> None:
    with pytest.raises(QuantityError) as raised:
        parse(text)
    assert str(raised.value) == (f"{text!r} is not a Kubernetes quantity (expected a number with an optional suffix "
                                 "Ki, Mi, Gi, Ti, Pi, Ei, m, k, M, G, T, P, E, e.g. 2Gi or 512Mi)")
    assert not is_quantity(text)


@pytest.mark.parametrize("value", [True, False, None, 1.5])
def test_values_that_are_neither_text_nor_whole_numbers(value) -> None:
    with pytest.raises(QuantityError) as raised:
        parse(value)
    assert str(raised.value) == f"expected a quantity such as 2Gi, got {value!r}"


def test_same_amounts_written_differently() -> None:
    assert same("1Gi", "1024Mi")
    assert same("1G", "1000M")
    assert same("0.5", "500m")
    assert same(1024, "1Ki")
    assert not same("1G", "1Gi")
    assert not same("1Gi", "lots")
    assert not same(["1Gi"], "1Gi")  # an unhashable value is no quantity, not an error
    assert not same(True, 1)


@pytest.mark.parametrize("value, text", [
    (0, "0"), (1, "1"), (1023, "1023"), (Ki, "1Ki"), (1536, "1536"), (3 * Ki // 2 * Ki, "1536Ki"),
    (Ki ** 2, "1Mi"), (512 * Ki ** 2, "512Mi"), (Ki ** 3, "1Gi"), (3 * Ki ** 3 // 2, "1536Mi"),
    (8 * Ki ** 3, "8Gi"), (Ki ** 4, "1Ti"), (Ki ** 5, "1Pi"), (Ki ** 6, "1Ei"), (2 * Ki ** 6, "2Ei"),
    (Ki ** 7, "1024Ei"), (Fraction(2048), "2Ki"),
])
def test_bytes_are_written_with_the_largest_whole_binary_unit(value, text) -> None:
    assert format_bytes(value) == text
    assert parse(text) == value


def test_a_fraction_of_a_byte_cannot_be_written() -> None:
    with pytest.raises(QuantityError) as raised:
        format_bytes(Fraction(1, 2))
    assert str(raised.value) == "0.5 bytes is not a whole number of bytes"


def test_gib_per_vcpu() -> None:
    assert gib(4) == 4 * Ki ** 3
    assert gib(Fraction(1, 2)) == 512 * Ki ** 2
    assert gib("1.5") == 3 * Ki ** 3 // 2


# --------------------------------------------------------------------------- how long a number may be written


def test_the_bounds_are_forty_digits_and_an_exponent_within_99() -> None:
    assert (MAX_DIGITS, MAX_EXPONENT) == (40, 99)
    assert BOUNDS == "at most 40 digits and an exponent from -99 to 99"


@pytest.mark.parametrize("number, exponent, within", [
    ("9" * 40, None, True), ("9" * 41, None, False), ("+" + "9" * 40, None, True), ("-" + "9" * 40, None, True),
    ("9" * 20 + "." + "9" * 20, None, True), ("9" * 20 + "." + "9" * 21, None, False), ("." + "9" * 40, None, True),
    ("0" * 40, None, True), ("0" * 41, None, False),  # leading zeros are digits written
    ("1", "99", True), ("1", "-99", True), ("1", "+99", True), ("1", "100", False), ("1", "-100", False),
    ("1", "0099", True), ("1", "-" + "0" * 1000 + "5", True), ("1", "9" * 1_000_000, False), ("1", "0", True),
])
def test_a_number_is_judged_by_its_digits_and_its_exponent(number, exponent, within) -> None:
    assert within_bounds(number, exponent) is within


@pytest.mark.parametrize("text, value", [
    ("9" * 40, 10 ** 40 - 1), ("0." + "0" * 38 + "1", Fraction(1, 10 ** 39)), ("1e99", 10 ** 99),
    ("1e-99", Fraction(1, 10 ** 99)), ("1e+0099", 10 ** 99), ("2e" + "0" * 5000 + "3", 2000),
    ("9" * 40 + "Ei", (10 ** 40 - 1) * Ki ** 6),
    (10 ** 40 - 1, 10 ** 40 - 1), (-(10 ** 40) + 1, -(10 ** 40) + 1),
])
def test_a_quantity_within_the_bounds_is_read_exactly(text, value) -> None:
    assert parse(text) == value


@pytest.mark.parametrize("text, shown", [
    ("9" * 41, "9" * 41), ("0." + "0" * 39 + "1", "0." + "0" * 39 + "1"), ("1e100", "1e100"), ("1e-100", "1e-100"),
    ("1e999999999", "1e999999999"), ("9" * 41 + "Gi", "9" * 41 + "Gi"),
    ("9" * 5000, "9" * 60 + "... (4940 more characters)"),
])
def test_a_quantity_past_the_bounds_is_refused_saying_what_is_allowed(text, shown) -> None:
    with pytest.raises(QuantityError) as raised:
        parse(text)
    assert str(raised.value) == ("expected a quantity of at most 40 digits and an exponent from -99 to 99 (such as "
                                 f"2Gi or 1.5e9), got {shown!r}")
    assert not is_quantity(text) and not same(text, text)


@pytest.mark.parametrize("value", [10 ** 40, -(10 ** 40), 10 ** 1_000_000], ids=["40 zeros", "minus", "a million"])
def test_a_whole_number_of_more_than_40_digits_is_no_quantity(value) -> None:
    with pytest.raises(QuantityError) as raised:
        parse(value)
    assert str(raised.value) == ("expected a quantity of at most 40 digits and an exponent from -99 to 99, got a "
                                 "whole number of more than 40 digits")


@pytest.mark.parametrize("text", ["9" * 1_000_000, "1e" + "9" * 1_000_000, "1e-999999999", "0." + "0" * 1_000_000 + "1",
                                  "0" * 1_000_000 + "1Gi"])
def test_a_million_digits_are_refused_without_being_read(text) -> None:
    # finishing is the proof: reading 10 ** 999999999 would not end, int() of these would refuse in Python's words
    with pytest.raises(QuantityError, match="^expected a quantity of at most 40 digits"):
        parse(text)


def test_text_that_is_no_quantity_is_quoted_as_an_excerpt() -> None:
    with pytest.raises(QuantityError) as raised:
        parse("x" * 1_000_000)
    assert str(raised.value).startswith(f"'{'x' * 60}... (999940 more characters)' is not a Kubernetes quantity")
