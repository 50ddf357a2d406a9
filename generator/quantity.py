"""Kubernetes resource quantities: parse, compare and format.

KubeVirt compares memory as quantities, so ``1Gi`` equals ``1024Mi``. Values are
kept as exact fractions: a quantity like ``1.5Gi`` must not pick up float noise.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from typing import Union

_BINARY = {"Ki": 1, "Mi": 2, "Gi": 3, "Ti": 4, "Pi": 5, "Ei": 6}
_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_GRAMMAR = re.compile(
    r"^(?P<sign>[+-]?)(?P<number>[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
    r"(?:(?P<suffix>Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])|[eE](?P<exp>[+-]?[0-9]+))?"
)


class QuantityError(ValueError):
    """A string that is not a Kubernetes quantity; the message says what is expected."""


@lru_cache(maxsize=4096)
def parse(text: Union[str, int]) -> Fraction:
    """Return the exact value of a quantity such as ``512Mi``, ``1.5Gi``, ``2`` or ``1e3``."""
    if isinstance(text, bool):
        raise QuantityError(f"expected a quantity such as 2Gi, got {text!r}")
    if isinstance(text, int):
        return Fraction(text)
    if not isinstance(text, str):
        raise QuantityError(f"expected a quantity such as 2Gi, got {text!r}")
    match = _GRAMMAR.fullmatch(text)  # not match() and "$", which lets "1Gi\n" through
    if not match:
        raise QuantityError(
            f"{text!r} is not a Kubernetes quantity (expected a number with an optional "
            "suffix Ki, Mi, Gi, Ti, Pi, Ei, m, k, M, G, T, P, E, e.g. 2Gi or 512Mi)"
        )
    value = Fraction(match["number"])
    if match["sign"] == "-":
        value = -value
    suffix = match["suffix"]
    if suffix in _BINARY:
        return value * 1024 ** _BINARY[suffix]
    if match["exp"] is not None:
        return value * Fraction(10) ** int(match["exp"])
    return value * Fraction(10) ** _DECIMAL[suffix or ""]


def is_quantity(text: object) -> bool:
    try:
        parse(text)  # type: ignore[arg-type]
    except QuantityError:
        return False
    return True


def same(a: object, b: object) -> bool:
    """Whether two written quantities are the same amount (``4Gi`` and ``4096Mi``); False if either is none."""
    try:
        return parse(a) == parse(b)  # type: ignore[arg-type]
    except (QuantityError, TypeError):  # TypeError: an unhashable value reached the cache
        return False


def format_bytes(value: Fraction | int) -> str:
    """Format a byte count with the largest binary suffix that keeps it whole (``8Gi``, ``512Mi``)."""
    value = Fraction(value)
    if value.denominator != 1:
        raise QuantityError(f"{float(value)} bytes is not a whole number of bytes")
    whole = int(value)
    if whole == 0:
        return "0"
    for suffix, power in sorted(_BINARY.items(), key=lambda kv: -kv[1]):
        unit = 1024**power
        if whole % unit == 0:
            return f"{whole // unit}{suffix}"
    return str(whole)


def gib(amount: Fraction | int | str) -> Fraction:
    """Bytes in ``amount`` GiB; the ratio in a series is written in GiB per vCPU."""
    return Fraction(amount) * 1024**3
