"""No two objects of the same kind share a name.

Applying a bundle with two objects of one kind and name silently keeps only
the last one, so a duplicate is always a mistake: usually a size listed twice
in a series or two preference files producing the same name. Each later
occurrence is reported, pointing back at the first. Names are compared per
kind; the cluster and namespaced twins of one object share a name by design.

Example::

    bundle.yaml#1 (u1.small) $.metadata.name: duplicate VirtualMachineClusterInstancetype name 'u1.small' (first defined at bundle.yaml#0) [unique-names]
"""

from __future__ import annotations

from typing import Dict, Iterator, Sequence, Tuple

from ...problems import Problem
from ...source.documents import BundleDoc
from .base import RuleContext

ID = "unique-names"


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    first: Dict[Tuple[str, str], BundleDoc] = {}
    for doc in docs:
        kind, name = doc.kind, doc.name
        if not isinstance(kind, str) or name is None:
            continue
        seen = first.setdefault((kind, name), doc)
        if seen is not doc:
            yield Problem(
                doc.locate(("metadata", "name")),
                f"duplicate {kind} name {name!r} (first defined at {seen.file}#{seen.index})",
                ID,
            )
