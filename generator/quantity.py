"""Kubernetes resource quantities: parse, compare and format.

KubeVirt compares memory as quantities, so ``1Gi`` equals ``1024Mi``. Values are
kept as exact fractions: a quantity like ``1.5Gi`` must not pick up float noise.

It also holds how long any number citgen reads may be (MAX_DIGITS, MAX_EXPONENT):
a quantity's grammar is the widest spelling of a number citgen takes, and every
place that reads one from text (this parser, the YAML reader, a series' ratio,
the options) checks ``within_bounds`` before Python converts anything.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from typing import Union

from .problems import EXCERPT

#: The most digits a number citgen reads may have (both sides of its point, leading zeros
#: included), and the largest exponent it may carry (``1e99``). Kubernetes holds a quantity
#: in 63 bits to nano precision (19 digits before the point, 9 after) and its JSON numbers as
#: int64 or float64 (about 17 significant digits, at most 1.8e308), so no value it keeps needs
#: more; a number within both bounds is also always a finite float, never 0 unless written so.
#: Past them Python is what breaks: ``10 ** 999999999`` does not finish, and ``int()`` of
#: 4,300 digits or more refuses in words of its own ("use sys.set_int_max_str_digits()").
MAX_DIGITS = 40
MAX_EXPONENT = 99
#: The bounds as messages say them.
BOUNDS = f"at most {MAX_DIGITS} digits and an exponent from -{MAX_EXPONENT} to {MAX_EXPONENT}"

_BINARY = {"Ki": 1, "Mi": 2, "Gi": 3, "Ti": 4, "Pi": 5, "Ei": 6}
_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_GRAMMAR = re.compile(
    r"^(?P<sign>[+-]?)(?P<number>[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
    r"(?:(?P<suffix>Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])|[eE](?P<exp>[+-]?[0-9]+))?"
)


class QuantityError(ValueError):
    """A string that is not a Kubernetes quantity; the message says what is expected."""


def within_bounds(number: str, exponent: str | None = None) -> bool:
    """Whether a number written as ``number`` (digits, a point, a sign) times ten to ``exponent``
    (digits, a sign) is within MAX_DIGITS and MAX_EXPONENT, judged from its length: nothing is converted."""
    digits = len(number) - number.count(".") - number.startswith(("+", "-"))
    return digits <= MAX_DIGITS and (exponent is None or _exponent(exponent) is not None)


def _exponent(written: str) -> int | None:
    """The value of an exponent written as digits and a sign; None past MAX_EXPONENT (``e0005`` is 5)."""
    magnitude = written.lstrip("+-").lstrip("0") or "0"
    if len(magnitude) > len(str(MAX_EXPONENT)) or int(magnitude) > MAX_EXPONENT:
        return None
    return -int(magnitude) if written.startswith("-") else int(magnitude)


@lru_cache(maxsize=4096)
def parse(text: Union[str, int]) -> Fraction:
    """Return the exact value of a quantity such as ``512Mi``, ``1.5Gi``, ``2`` or ``1e3``."""
    if isinstance(text, bool):
        raise QuantityError(f"expected a quantity such as 2Gi, got {text!r}")
    if isinstance(text, int):
        if abs(text) >= 10**MAX_DIGITS:
            raise QuantityError(f"expected a quantity of {BOUNDS}, got a whole number of more than "
                                f"{MAX_DIGITS} digits")
        return Fraction(text)
    if not isinstance(text, str):
        raise QuantityError(f"expected a quantity such as 2Gi, got {text!r}")
    match = _GRAMMAR.fullmatch(text)  # not match() and "$", which lets "1Gi\n" through
    if not match:
        raise QuantityError(
            f"{_shown(text)} is not a Kubernetes quantity (expected a number with an optional "
            "suffix Ki, Mi, Gi, Ti, Pi, Ei, m, k, M, G, T, P, E, e.g. 2Gi or 512Mi)"
        )
    if not within_bounds(match["number"], match["exp"]):
        raise QuantityError(f"expected a quantity of {BOUNDS} (such as 2Gi or 1.5e9), got {_shown(text)}")
    value = Fraction(match["number"])
    if match["sign"] == "-":
        value = -value
    suffix = match["suffix"]
    if suffix in _BINARY:
        return value * 1024 ** _BINARY[suffix]
    if match["exp"] is not None:
        return value * Fraction(10) ** _exponent(match["exp"])  # type: ignore[operator]
    return value * Fraction(10) ** _DECIMAL[suffix or ""]


def _shown(text: str) -> str:
    """``text`` quoted as Python quotes it, cut to its first EXCERPT characters: a message quotes no more."""
    more = len(text) - EXCERPT
    return repr(text) if more <= 0 else repr(f"{text[:EXCERPT]}... ({more} more character{'s' if more != 1 else ''})")


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
