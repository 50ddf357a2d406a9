"""Stamping: the labels and annotations every catalog object carries, added after expansion.

Expansion makes each object from its definition alone; who ships the catalog and
which release it is are the catalog's, so they are added to every object at once,
after expansion and before rendering.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

from ..model import CatalogObject, label


def stamp(objects: Sequence[CatalogObject], vendor: str, version: str, *,
          labels: Mapping[str, str] | None = None,
          annotations: Mapping[str, str] | None = None) -> list[CatalogObject]:
    """Add the labels every catalog object carries: who ships it and which catalog release.

    ``labels`` and ``annotations`` are a vendor's own (set by an overlay); what the
    catalog itself sets on an object wins over them.
    """
    extra = {label("vendor"): vendor, label("common-instancetypes-version"): version}
    return [replace(o, labels={**(labels or {}), **o.labels, **extra},
                    annotations={**(annotations or {}), **o.annotations}) for o in objects]
