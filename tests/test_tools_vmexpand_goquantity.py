"""Quantities printed as Kubernetes' Go code prints them (generator/tools/vmexpand/goquantity.py)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from generator.tools.vmexpand.goquantity import INT64_INDEFINITE, canonical, float32, go_string, int64, quantity_format


@pytest.mark.parametrize("text, printed", [("1.5Gi", "1536Mi"), ("2Gi", "2Gi"), ("1000M", "1G"), ("0.5", "500m"),
                                           ("1536", "1536"), ("1e3", "1e3"), ("100Mi", "100Mi")])
def test_quantities_print_as_go_prints_them(text, printed) -> None:
    assert go_string(text) == printed


@pytest.mark.parametrize(
    "text, fmt",
    [
        ("1Gi", "BinarySI"), (" 1Ki ", "BinarySI"), ("1e3", "DecimalExponent"), ("1E3", "DecimalExponent"),
        ("-1e3", "DecimalExponent"), ("+2e3", "DecimalExponent"), ("1E", "DecimalSI"), ("1G", "DecimalSI"),
        ("1500m", "DecimalSI"), ("1536", "DecimalSI"),
    ],
)
def test_the_format_is_the_suffix_family_written(text, fmt) -> None:
    assert quantity_format(text) == fmt


def test_an_integer_from_yaml_is_decimal() -> None:
    assert quantity_format(1024) == "DecimalSI"
    assert go_string(2048) == "2048"


@pytest.mark.parametrize(
    "text, printed",
    [
        ("1Ki", "1Ki"), ("1024", "1024"), ("1536Ki", "1536Ki"), ("1.5Ki", "1536"), ("0.5Ki", "512"),
        ("1023", "1023"), ("0Gi", "0"), ("1024Ei", "1024Ei"), ("1048576Ki", "1Gi"), ("-2Gi", "-2Gi"),
        ("1000k", "1M"), ("1500k", "1500k"), ("1.5", "1500m"), ("0.000000001", "1n"), ("0.0000000001", "1n"),
        ("0.0000015", "1500n"), ("1000", "1k"), ("1000000000000000000000", "1e21"), ("1e-3", "1e-3"),
        ("1000e0", "1e3"), ("100e0", "100"), ("1.5e3", "1500"), ("0e3", "0"), ("-1.5", "-1500m"),
        ("1000E", "1e21"), ("1u", "1u"), ("1000m", "1"), ("1P", "1P"), ("1000T", "1P"), ("1E", "1E"),
    ],
)
def test_more_quantities_print_as_go_prints_them(text, printed) -> None:
    assert go_string(text) == printed


def test_a_fractional_binary_quantity_prints_as_decimal() -> None:
    assert canonical(Fraction(2049, 2), "BinarySI") == "1024500m"
    assert canonical(-1024, "BinarySI") == "-1Ki"
    assert canonical(-1023, "BinarySI") == "-1023"
    assert canonical(2**70, "BinarySI") == "1024Ei"


def test_float32_rounds_to_single_precision() -> None:
    assert float32(0.1) == 0.10000000149011612
    assert float32(0.5) == 0.5


def test_float32_of_a_value_past_its_range_is_an_infinity_as_in_go() -> None:
    assert float32(3.5e38) == math.inf and float32(-1e300) == -math.inf
    assert float32(3.4028234663852886e38) == 3.4028234663852886e38  # the largest float32 stays itself


@pytest.mark.parametrize("value, whole", [(1.9, 1), (-1.9, -1), (2.0**62, 2**62), (-(2.0**63), -(2**63)),
                                          (2.0**63, INT64_INDEFINITE), (math.inf, INT64_INDEFINITE),
                                          (-math.inf, INT64_INDEFINITE), (math.nan, INT64_INDEFINITE)])
def test_int64_of_a_float_is_go_s_on_amd64(value, whole) -> None:
    assert int64(value) == whole


def test_a_value_finer_than_a_nano_rounds_up_to_the_next_nano() -> None:
    assert go_string("0.0000000015") == "2n"
    assert go_string("1.0000000005") == "1000000001n"


def test_a_binary_value_under_1024_prints_in_decimal_notation() -> None:
    """Go switches a BinarySI value strictly between -1024 and 1024 to DecimalSI: 1000 bytes print as 1k."""
    assert canonical(1000, "BinarySI") == "1k"
    assert canonical(-1000, "BinarySI") == "-1k"
    assert go_string("0.9765625Ki") == "1k"
