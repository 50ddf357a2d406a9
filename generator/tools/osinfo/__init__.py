"""``citgen osinfo``: the catalog's preferences as the answer for a guest's OS, and the tables made of them.

- ``offer.py``: which preference the catalog offers for a libosinfo short-id, and why;
- ``guests.py``: the guest-OS ids of migration sources (vSphere, oVirt) as libosinfo OSes;
- ``osmap.py``: a guest-OS table as a ConfigMap, and two tables compared;
- ``show.py``: the command's report.

Here: the catalog's preferences as the offer sees them (``Candidate``), made from the
same build every command makes, and where the database was looked for.
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

from ...model import CatalogObject, PreferenceCatalog
from ...pipeline import BuildOptions, catalog_objects, load_all
from .offer import Candidate


def _line(name: str, preferences: PreferenceCatalog) -> str | None:
    """The line of releases a preference stands for, as its osinfo claim says (its own, a base's or its family's)."""
    seen: set[str] = set()
    current = preferences.preferences.get(name)
    while current is not None and current.name not in seen:
        seen.add(current.name)
        claim = getattr(current, "osinfo", None)
        if claim is not None:
            return claim.line
        current = preferences.preferences.get(current.based_on) if current.based_on else None
    family = preferences.families.get(preferences.preferences[name].family) if name in preferences.preferences \
        else None
    claim = getattr(family, "osinfo", None)
    return claim.line if claim is not None else None


def candidate(obj: CatalogObject, line: str | None) -> Candidate:
    """A preference as the offer sees it: its claim, architecture and disk bus."""
    devices = obj.spec.get("devices") or {}
    architecture = obj.facts.get("architecture") or obj.spec.get("preferredArchitecture")
    return Candidate(obj.name, tuple(obj.facts.get("osinfo") or ()), line,
                     str(architecture) if architecture else None, devices.get("preferredDiskBus") == "virtio",
                     obj.labels.get("instancetype.kubevirt.io/deprecated") == "true")


def catalog_candidates(options: BuildOptions) -> tuple[str, tuple[Candidate, ...]]:
    """The catalog's version and its preferences that claim an OS, as the offer sees them."""
    _, preferences = load_all(options)
    _, version, objects = catalog_objects(options)
    return version, tuple(candidate(o, _line(o.name, preferences)) for o in objects
                          if o.family == "preference" and o.facts.get("osinfo"))


def where_looked(option: Path | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The folders libosinfo's order looks in, as a refusal names them."""
    from ...osinfo.database import candidates

    return ", ".join(f"{path} ({named})" if str(path) != named else str(path)
                     for path, named in candidates(option, environ))


__all__ = ["Candidate", "candidate", "catalog_candidates", "where_looked"]
