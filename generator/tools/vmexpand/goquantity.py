"""Quantities printed the way Kubernetes' Go code prints them.

KubeVirt's messages format memory with ``resource.Quantity.String()``, which does
not echo what the user wrote: it canonicalises. ``1.5Gi`` prints as ``1536Mi``,
``1000M`` as ``1G`` and ``0.5`` as ``500m``. Matching KubeVirt's messages exactly
needs the same rules: the suffix family (binary, decimal, exponent) is the one the
value was written with, and the number is the largest whole mantissa that family
allows.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction
from typing import Union

from ...quantity import parse

BINARY_SI = "BinarySI"
DECIMAL_SI = "DecimalSI"
DECIMAL_EXPONENT = "DecimalExponent"

_BINARY_SUFFIXES = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]
_DECIMAL_SUFFIXES = {-9: "n", -6: "u", -3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}


def quantity_format(text: Union[str, int]) -> str:
    """The suffix family a quantity was written in, which decides how Go prints it back."""
    if isinstance(text, int):
        return DECIMAL_SI
    stripped = str(text).strip()
    if stripped.endswith("i"):
        return BINARY_SI
    body = stripped.lstrip("+-")
    if ("e" in body or "E" in body) and body[-1].isdigit():
        return DECIMAL_EXPONENT
    return DECIMAL_SI


def canonical(value: Fraction | int, fmt: str) -> str:
    """Print ``value`` as Go's ``Quantity.String()`` does for the given format."""
    value = Fraction(value)
    if fmt == BINARY_SI and (-1024 < value < 1024 or value.denominator != 1):
        fmt = DECIMAL_SI
    if fmt == BINARY_SI:
        number, power = int(value), 0
        while number != 0 and number % 1024 == 0 and power < len(_BINARY_SUFFIXES) - 1:
            number //= 1024
            power += 1
        return f"{number}{_BINARY_SUFFIXES[power]}"
    return _decimal(value, fmt)


def _decimal(value: Fraction, fmt: str) -> str:
    # Go keeps at most nano precision and rounds any finer value up.
    scaled = value * 10**9
    if scaled.denominator != 1:
        whole = -((-scaled.numerator) // scaled.denominator)
        value = Fraction(whole, 10**9)
    if value == 0:
        return "0"
    exponent = 0
    mantissa = value
    while mantissa.denominator != 1:
        mantissa *= 1000
        exponent -= 3
    number = int(mantissa)
    while number % 1000 == 0 and number != 0:
        number //= 1000
        exponent += 3
    if fmt == DECIMAL_EXPONENT:
        return f"{number}e{exponent}" if exponent else str(number)
    suffix = _DECIMAL_SUFFIXES.get(exponent)
    if suffix is None:
        return f"{number}e{exponent}"
    return f"{number}{suffix}"


def go_string(text: Union[str, int]) -> str:
    """What KubeVirt prints for a quantity read from YAML: parse, then canonicalise."""
    return canonical(parse(text), quantity_format(text))


def float32(value: float) -> float:
    """Round to IEEE single precision, as Go's ``float32()`` conversion does (past its range: an infinity)."""
    try:
        return struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:  # Python refuses what IEEE (and Go) round to an infinity
        return math.copysign(math.inf, value)


#: What Go's ``int64()`` of a float gives on amd64 when the float has no int64 value
#: (an infinity, NaN, or past 2**63): the instruction's "integer indefinite".
INT64_INDEFINITE = -(2**63)


def int64(value: float) -> int:
    """Go's ``int64()`` of a float on amd64: the whole part, or INT64_INDEFINITE when there is none that fits."""
    if math.isfinite(value) and -(2**63) <= value < 2**63:
        return int(value)
    return INT64_INDEFINITE


__all__ = ["INT64_INDEFINITE", "canonical", "float32", "go_string", "int64", "quantity_format"]
