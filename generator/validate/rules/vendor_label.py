"""Every object carries the vendor label, and all of them the same vendor.

``instancetype.kubevirt.io/vendor`` tells users who provides an object, and
vendors that ship their own catalog beside KubeVirt's rely on it to tell the
two apart. It must be present on every instancetype and preference.

Which vendor it must name depends on what is known:

- ``citgen build`` and ``citgen validate`` without files check against the
  catalog's ``vendor`` (catalog.yaml), and so does ``citgen validate
  --catalog DIR``; ``citgen validate --vendor V`` checks against ``V``.
- ``citgen validate FILE...`` with neither option checks that the objects
  agree on one vendor, whoever it is: a vendor's bundle passes as it is. The
  vendor most objects carry is taken as the bundle's (on a tie, the one met
  first), and every object that carries another one, or none, is reported
  with both values.

Example::

    bundle.yaml#2 (cirros) $.metadata.labels['instancetype.kubevirt.io/vendor']: label instancetype.kubevirt.io/vendor is 'example.com', but 2 of 3 objects have 'kubevirt.io': one bundle, one vendor (name the right one with --vendor or --catalog) [vendor-label]
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator, Optional, Sequence

from ...frozen import frozen
from ...model import label
from ...problems import Problem
from ...source.documents import BundleDoc
from ._objects import LABELS, family, labels
from .base import RuleContext

ID = "vendor-label"

_KEY = label("vendor")


@frozen
class Agreement:
    """The vendor most of a set's objects carry, and how many of how many carry it."""

    vendor: str
    carried_by: int
    objects: int


def agreed_vendor(docs: Sequence[BundleDoc]) -> Optional[Agreement]:
    """The set's vendor when none is given: the most common one, the first met on a tie.

    None when no instancetype or preference carries the label as a string.
    ``citgen validate`` also uses this to decide whether a bundle claims to be
    the built-in catalog's (and so is held to its series ratios).
    """
    objects = [doc for doc in docs if family(doc) is not None]
    values = [labels(doc).get(_KEY) for doc in objects]
    counts = Counter(v for v in values if isinstance(v, str))
    if not counts:
        return None
    most = max(counts.values())
    vendor = next(v for v in values if isinstance(v, str) and counts[v] == most)
    return Agreement(vendor, most, len(objects))


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    agreement = agreed_vendor(docs) if ctx.vendor is None else None
    expected = ctx.vendor if ctx.vendor is not None else agreement.vendor if agreement else None
    for doc in docs:
        if family(doc) is None:
            continue
        found = labels(doc)
        if _KEY not in found:
            if expected is None:
                message = f"label {_KEY} is missing"
            elif agreement is None:
                message = f"label {_KEY} is missing (expected {expected!r})"
            else:
                message = (f"label {_KEY} is missing, but {agreement.carried_by} of {agreement.objects} "
                           f"objects have {expected!r}")
            yield Problem(doc.locate(LABELS), message, ID)
        elif expected is not None and found[_KEY] != expected:
            if agreement is None:
                message = f"label {_KEY} is {found[_KEY]!r}, expected {expected!r}"
            else:
                message = (f"label {_KEY} is {found[_KEY]!r}, but {agreement.carried_by} of "
                           f"{agreement.objects} objects have {expected!r}: one bundle, one vendor "
                           "(name the right one with --vendor or --catalog)")
            yield Problem(doc.locate(LABELS + (_KEY,)), message, ID)
