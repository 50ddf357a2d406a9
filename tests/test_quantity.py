"""quantity.py on its own: Kubernetes quantities parsed exactly, compared as amounts, written in binary units."""

from __future__ import annotations

from fractions import Fraction

import pytest

from generator.quantity import QuantityError, format_bytes, gib, is_quantity, parse, same

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
