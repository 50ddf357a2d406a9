"""Which catalog objects a question picks: the answers of `citgen list`, kept out of the CLI.

A query is a value (family, series, vCPUs, memory, label selector) that selects
from the expanded catalog; the command line only builds one from its options
and prints what it selects, so any other consumer (a catalog page, a test) gets
the same answers from the same code.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable, Optional

from ..frozen import frozen
from ..model import CLUSTER_KINDS, CatalogObject
from .selector import Requirement, matches, parse_selector

__all__ = ["Query", "Requirement", "matches", "parse_selector"]


@frozen
class Query:
    """What to list: one family's cluster objects, narrowed by every criterion that is set.

    ``series`` holds prefixes or versioned names (``u``, ``cx1``); ``memory`` is in
    bytes; ``selector`` holds parsed label requirements, all of which must hold.
    """

    family: str = "instancetype"
    series: tuple[str, ...] = ()
    cpu: Optional[int] = None
    memory: Optional[Fraction] = None
    selector: tuple[Requirement, ...] = ()

    def wants(self, obj: CatalogObject) -> bool:
        return (obj.family == self.family and any(kind in CLUSTER_KINDS for kind in obj.kinds)
                and (not self.series or obj.group in self.series or obj.name.split(".")[0] in self.series)
                and (self.cpu is None or obj.facts.get("cpu") == self.cpu)
                and (self.memory is None or Fraction(obj.facts.get("memory") or 0) == self.memory)
                and matches(self.selector, obj.labels))

    def select(self, objects: Iterable[CatalogObject]) -> list[CatalogObject]:
        """The objects this query wants, in the order given."""
        return [obj for obj in objects if self.wants(obj)]
