"""Tolerant readers for the parts of an object that rules look at.

Rules run after the schema check but must not depend on it having passed: a
user's file may be malformed in any way, and one broken object must yield
problems, never a traceback. So every read here answers ``None`` for anything
missing or of the wrong type and leaves reporting that to the schema.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Iterable, Iterator, Mapping, Optional, Tuple

from ...merge import dig
from ...model import INSTANCETYPE_KINDS, PREFERENCE_KINDS
from ...quantity import QuantityError, format_bytes, parse
from ...source.documents import BundleDoc
from ...source.schema_fast import whole_number

LABELS: Tuple[str, ...] = ("metadata", "labels")


def of_family(docs: Iterable[BundleDoc], wanted: str) -> Iterator[BundleDoc]:
    """The documents of one family (``instancetype`` or ``preference``), in order."""
    return (doc for doc in docs if family(doc) == wanted)


def family(doc: BundleDoc) -> Optional[str]:
    """``instancetype`` or ``preference`` for the four catalog kinds, else None."""
    kind = doc.kind
    if kind in INSTANCETYPE_KINDS:
        return "instancetype"
    if kind in PREFERENCE_KINDS:
        return "preference"
    return None


def labels(doc: BundleDoc) -> Mapping[str, Any]:
    found = dig(doc.data, *LABELS)
    return found if isinstance(found, dict) else {}


def split_name(name: Optional[str]) -> Optional[Tuple[str, str]]:
    """``("cx1", "2xlarge1gi")`` for ``cx1.2xlarge1gi``; None without a dot."""
    if not name or "." not in name:
        return None
    series, _, size = name.partition(".")
    return series, size


def count(value: Any) -> Optional[int]:
    """A vCPU count as the API server takes it: an integer, or a float with an integral value
    (``4.0`` is stored as 4, docs/validation.md); never a boolean."""
    if whole_number(value):
        return value
    if type(value) is float and value.is_integer():
        return int(value)
    return None


def quantity(value: Any) -> Optional[Fraction]:
    """A quantity's exact value, or None when it is not one.

    A JSON number is a quantity too: the API server reads ``0.5`` as the string
    ``"0.5"`` would be read, so a float is taken at its shortest decimal spelling.
    """
    if type(value) is float:
        if not math.isfinite(value):
            return None
        value = repr(value)
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    try:
        return parse(value)
    except QuantityError:
        return None


def show_bytes(value: Fraction) -> str:
    """Bytes the way the catalog writes memory (``8Gi``), exact when it cannot be."""
    try:
        return format_bytes(value)
    except QuantityError:
        return f"{float(value):g}"
