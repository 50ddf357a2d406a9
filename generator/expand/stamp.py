"""Stamping: the labels and annotations every catalog object carries, added after expansion.

Expansion makes each object from its definition alone; who ships the catalog and
which release it is are the catalog's, so they are added to every object at once,
after expansion and before rendering.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Mapping, Sequence

from ..model import CatalogObject, label

if TYPE_CHECKING:
    from ..osinfo.model import OsinfoDatabase


#: The label of common-templates (os.template.kubevirt.io/<libosinfo short-id>: "true") that KubeVirt's UIs and
#: migration tools select an OS's templates by; with ``osLabels`` a preference carries it for each OS release its
#: osinfo claim names, so that ``kubectl get vmcp -l os.template.kubevirt.io/rhel9.1`` finds it.
OS_LABEL = "os.template.kubevirt.io/"


def os_releases(obj: CatalogObject, osinfo: "OsinfoDatabase | None" = None) -> tuple[str, ...]:
    """The libosinfo short-ids a preference's osinfo claim stands for: those it names, then, with a database, the
    releases of its line the database knows (osinfo/claims.py); none for an instancetype."""
    claim = obj.facts.get("osinfoClaim")
    named = tuple(obj.facts.get("osinfo") or ())
    if claim is None or osinfo is None:
        return named
    from ..osinfo.claims import releases

    return tuple(dict.fromkeys([*named, *(r.short_id for r in releases(claim, osinfo))]))


def os_labels(obj: CatalogObject, osinfo: "OsinfoDatabase | None" = None) -> dict[str, str]:
    """The OS labels of a preference: one per libosinfo short-id its osinfo claim stands for (os_releases)."""
    return {OS_LABEL + short_id: "true" for short_id in os_releases(obj, osinfo)}


def stamp(objects: Sequence[CatalogObject], vendor: str, version: str, *,
          labels: Mapping[str, str] | None = None,
          annotations: Mapping[str, str] | None = None, with_os_labels: bool = False,
          osinfo: "OsinfoDatabase | None" = None) -> list[CatalogObject]:
    """Add the labels every catalog object carries: who ships it and which catalog release.

    ``labels`` and ``annotations`` are a vendor's own (set by an overlay); what the
    catalog itself sets on an object wins over them. ``with_os_labels`` adds the OS
    labels (os_labels) to each preference, a line's releases from ``osinfo``, libosinfo's
    database: opt-in, since upstream's objects have none.
    """
    extra = {label("vendor"): vendor, label("common-instancetypes-version"): version}
    return [replace(o, labels={**(labels or {}), **o.labels, **(os_labels(o, osinfo) if with_os_labels else {}), **extra},
                    annotations={**(annotations or {}), **o.annotations}) for o in objects]
