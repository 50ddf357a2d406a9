"""Deprecated objects and retired names, with what replaces them: on the objects, and as records.

The build writes what the data says of a deprecated object (model.Deprecation)
as annotations beside the deprecated label (``deprecation_annotations``); a
retained object gets its replacement from catalog.yaml's ``retired``
(``held_replacement``). ``lifecycles`` reads it all back from any objects, so
that ``citgen refs``, ``citgen list`` and the catalog page say the same: for
every name that is not current, whether it is deprecated or retired, since
which release, and the replacement to use, followed to a current object.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Mapping

from ..load.lifecycle import CURRENT, Chain, ends
from ..model import (DEPRECATED_LABEL, DEPRECATED_REPLACEMENT, DEPRECATED_SINCE, FAMILIES, INSTANCETYPE_KINDS,
                     PREFERENCE_KINDS, CatalogObject, Deprecation, Lifecycle, Retirement)

__all__ = ["deprecation_annotations", "held_replacement", "lifecycles"]


def deprecation_annotations(deprecation: Deprecation | None) -> dict[str, str]:
    """The annotations a deprecated object carries for what its data says: since and replacement, where given."""
    if deprecation is None:
        return {}
    found = {}
    if deprecation.since is not None:
        found[DEPRECATED_SINCE] = deprecation.since
    if deprecation.replacement is not None:
        found[DEPRECATED_REPLACEMENT] = deprecation.replacement
    return found


def held_replacement(family: str, name: str, retirements: Mapping[tuple[str, str], Retirement],
                     held: Iterable[str]) -> str | None:
    """The replacement of a retired ``name`` that the build holds: its own, or the first one of its chain held.

    A retained object's replacement annotation names an object of the same
    bundle: where its replacement is itself retired and not retained, the chain
    is followed on (centos.8.stream's centos.stream8 to centos.stream9). None
    when catalog.yaml names no replacement, or none the build holds.
    """
    present = set(held)
    seen = {name}
    retirement = retirements.get((family, name))
    replacement = retirement.replacement if retirement else None
    while replacement is not None and replacement not in present and replacement not in seen:
        seen.add(replacement)
        retirement = retirements.get((family, replacement))
        replacement = retirement.replacement if retirement else None
    return replacement if replacement in present else None


def _read(obj: CatalogObject | Mapping[str, Any]) -> tuple[str | None, str | None, Mapping[str, Any],
                                                          Mapping[str, Any]]:
    """(family, name, labels, annotations) of a catalog object or of a document's object; None where it has none."""
    if isinstance(obj, CatalogObject):
        return obj.family, obj.name, obj.labels, obj.annotations
    kind = obj.get("kind")
    family = "instancetype" if kind in INSTANCETYPE_KINDS else "preference" if kind in PREFERENCE_KINDS else None
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, Mapping) else {}
    name = meta.get("name")
    labels, annotations = meta.get("labels"), meta.get("annotations")
    return (family, name if isinstance(name, str) else None, labels if isinstance(labels, Mapping) else {},
            annotations if isinstance(annotations, Mapping) else {})


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def lifecycles(objects: Iterable[CatalogObject | Mapping[str, Any]],
               retirements: Mapping[tuple[str, str], Retirement] | None = None,
               ) -> dict[tuple[str, str], Lifecycle]:
    """Every name of ``objects`` and ``retirements`` that is not current, by (family, name), as a Lifecycle.

    ``objects`` are what a cluster will have: a build's CatalogObjects, or the
    objects of bundles as parsed (mappings with ``kind`` and ``metadata``; other
    kinds are passed over), the cluster and namespaced twins of a name counting
    once. ``retirements`` is a catalog's ``Catalog.retirements`` (catalog.yaml's
    ``retired``). The result holds:

    - each object labelled ``instancetype.kubevirt.io/deprecated: "true"``, as
      ``deprecated``, with the ``deprecated-since`` and ``deprecated-replacement``
      annotations it carries; where it carries no replacement and catalog.yaml
      retires its name (an older bundle's object, since removed), the
      retirement's replacement;
    - each retired name the objects do not hold, as ``retired``, with the
      release that retired it and its replacement;
    - for both, ``chain``: the replacement, its replacement and so on, followed
      through deprecated objects and retired names to the first name that is
      neither (``current``, when the objects hold it). A chain that goes round in
      a circle or ends at a name with no replacement (which a catalog's own data
      cannot say: load/lifecycle.py refuses it, but a bundle's annotations can)
      ends there, with ``current`` None.

    ``chain`` is a lifecycle.Chain, read from the replacements when used: the
    records of a chain of n names take room and time in n, not n squared.
    Names that are current have no record: ``lifecycles(...).get((family, name))``
    is None for them, and for names neither held nor retired (unknown names).
    Nothing is read but the objects given and the retirements; the result is the
    same for the same input.
    """
    retired = retirements or {}
    held: dict[tuple[str, str], tuple[bool, str | None, str | None]] = {}
    for obj in objects:
        family, name, labels, annotations = _read(obj)
        if family is None or name is None:
            continue
        deprecated = labels.get(DEPRECATED_LABEL) == "true"
        before = held.get((family, name))
        if before is not None and (before[0] or not deprecated):
            continue  # a twin: the first deprecated copy speaks for the name
        held[(family, name)] = (deprecated, _text(annotations.get(DEPRECATED_SINCE)),
                                _text(annotations.get(DEPRECATED_REPLACEMENT)))
    records: dict[tuple[str, str], Lifecycle] = {}
    for (family, name), (deprecated, since, replacement) in held.items():
        if deprecated:
            retirement = retired.get((family, name))
            records[(family, name)] = Lifecycle(
                family, name, "deprecated", since,
                replacement or (retirement.replacement if retirement else None),
                retired=retirement.since if retirement else None,
                renamed=bool(retirement and retirement.renamed
                             and replacement in (None, retirement.replacement)))
    for (family, name), retirement in retired.items():
        if (family, name) not in held:
            records[(family, name)] = Lifecycle(family, name, "retired", retirement.since, retirement.replacement,
                                                retired=retirement.since, renamed=retirement.renamed)
    replacement_of: dict[str, dict[str, str | None]] = {family: {} for family in FAMILIES}
    for (family, name), record in records.items():
        replacement_of[family][name] = record.replacement
    found = {family: ends(replacement_of[family]) for family in FAMILIES}  # each name walked once
    for key, record in records.items():
        if record.replacement is None:
            continue
        end = found[record.family][record.name]
        current = end.last if end.how == CURRENT and (record.family, end.last) in held else None
        records[key] = replace(record, chain=Chain(record.replacement, replacement_of[record.family], end),
                               current=current)
    return dict(sorted(records.items()))
