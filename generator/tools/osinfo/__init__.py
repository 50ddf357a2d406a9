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
from typing import Iterable, Mapping

from ...model import CatalogObject, OsinfoClaim, label
from ...osinfo.claims import releases
from ...osinfo.model import OsinfoDatabase
from ...pipeline import BuildOptions, catalog_objects
from .offer import Candidate


def candidate(obj: CatalogObject, db: OsinfoDatabase | None = None) -> Candidate:
    """A preference as the offer sees it: the releases its claim stands for (those it names, and with a database
    those of its line), its line, architecture and disk bus."""
    claim = obj.facts.get("osinfoClaim")
    named = tuple(claim.short_ids) if claim is not None else tuple(obj.facts.get("osinfo") or ())
    known = tuple(r.short_id for r in releases(claim, db)) if claim is not None and db is not None else ()
    devices = obj.spec.get("devices") or {}
    architecture = obj.facts.get("architecture") or obj.spec.get("preferredArchitecture")
    return Candidate(obj.name, tuple(dict.fromkeys([*named, *known])), claim.line if claim is not None else None,
                     str(architecture) if architecture else None, devices.get("preferredDiskBus") == "virtio",
                     obj.labels.get(label("deprecated")) == "true", named, _since(claim, db))


def _since(claim: OsinfoClaim | None, db: OsinfoDatabase | None) -> str | None:
    """The version of the first release of the line a claim is for (``since: fedora36``: 36), as the database has it."""
    first = db.lookup(claim.since) if claim is not None and claim.since is not None and db is not None else None
    return first.version if first is not None else None


def candidates(objects: Iterable[CatalogObject], db: OsinfoDatabase | None = None) -> tuple[Candidate, ...]:
    """The preferences among ``objects`` that claim an OS, as the offer sees them."""
    return tuple(candidate(o, db) for o in objects if o.family == "preference" and
                 (o.facts.get("osinfo") or o.facts.get("osinfoClaim") is not None))


def catalog_preferences(options: BuildOptions) -> tuple[str, list[CatalogObject]]:
    """The catalog's version and its objects, as every command builds them."""
    _, version, objects = catalog_objects(options)
    return version, objects


def where_looked(option: Path | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The folders libosinfo's order looks in, as a refusal names them."""
    from ...osinfo.discovery import candidates

    return ", ".join(f"{path} ({named})" if str(path) != named else str(path)
                     for path, named in candidates(option, environ))


__all__ = ["Candidate", "candidate", "candidates", "catalog_preferences", "where_looked"]
