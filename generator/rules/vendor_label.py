"""Every object carries the expected vendor label.

``instancetype.kubevirt.io/vendor`` tells users who provides an object, and
vendors that ship their own catalog beside KubeVirt's rely on it to tell the
two apart. It must be present on every instancetype and preference and hold
the expected vendor: the catalog's ``vendor`` (catalog.yaml), or the value
given with ``citgen validate --vendor``. A context without a vendor skips
this rule.

Example::

    bundle.yaml#0 (u1.small) $.metadata.labels['instancetype.kubevirt.io/vendor']: label instancetype.kubevirt.io/vendor is 'example.com', expected 'kubevirt.io' [vendor-label]
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ..documents import BundleDoc
from ..model import label
from ..problems import Problem
from ._objects import LABELS, family, labels
from .base import RuleContext

ID = "vendor-label"

_KEY = label("vendor")


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    if ctx.vendor is None:
        return
    for doc in docs:
        if family(doc) is None:
            continue
        found = labels(doc)
        if _KEY not in found:
            yield Problem(doc.locate(LABELS), f"label {_KEY} is missing (expected {ctx.vendor!r})", ID)
        elif found[_KEY] != ctx.vendor:
            yield Problem(doc.locate(LABELS + (_KEY,)),
                          f"label {_KEY} is {found[_KEY]!r}, expected {ctx.vendor!r}", ID)
