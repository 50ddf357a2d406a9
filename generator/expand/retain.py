"""Carry objects of an earlier release forward when the catalog no longer defines them.

KubeVirt never deletes catalog objects that vanish from a new bundle, and VMs
keep referring to them by name. A release that drops an object should therefore
still ship it, marked deprecated, so clusters that install the new bundle from
scratch can run the VMs that were created against the old one. The old bundle
is the source: nothing is copied into the catalog by hand.

A retained object is shipped exactly as released but for the deprecated label
and, where catalog.yaml's ``retired`` names what replaces it, the annotations
saying so (``deprecated-replacement``, and ``deprecated-since`` unless it was
released with one): the same labels (its old version label too, which tells
validation which release to judge it by), annotations and spec, in the kinds it
was released in. What
cannot be carried over exactly is refused rather than changed: an object of
another API version (instancetype.kubevirt.io/v1alpha1 or v1alpha2, while the
bundles are v1beta1) or with fields a bundle's object does not have (a
namespace, a status, what the API server adds to an object read back from it).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence

from ..errors import InputError
from ..model import (API_VERSION, DEPRECATED_REPLACEMENT, DEPRECATED_SINCE, FAMILIES, INSTANCETYPE_KINDS, KINDS,
                     CatalogObject, Retirement, label)
from ..problems import Problem
from ..quantity import is_quantity, parse as parse_quantity
from ..source.documents import BundleDoc
from .instancetypes import feature_labels
from .lifecycle import held_replacement

#: What an object of a bundle holds, at the top and in its metadata; all of it is carried over.
_FIELDS = ("apiVersion", "kind", "metadata", "spec")
_METADATA = ("annotations", "labels", "name")


def _group(family: str, name: str) -> str:
    """The series or family an old object belonged to, read off its name."""
    head = name.split(".", 1)[0]
    return re.sub(r"[0-9]+$", "", head) if family == "instancetype" else head


def _facts(family: str, meta: dict, spec: dict) -> dict:
    """What listings show of an object, read off its spec since no definition is left."""
    if family == "instancetype":
        guest = spec.get("memory", {}).get("guest")
        return {"retained": True, "cpu": spec.get("cpu", {}).get("guest"),
                "memory": int(parse_quantity(guest)) if is_quantity(guest) else None,
                "class": meta.get("labels", {}).get(label("class"), "-"),
                "features": tuple(sorted(feature_labels(spec)))}
    requirements = spec.get("requirements", {})
    guest = requirements.get("memory", {}).get("guest")
    return {"retained": True, "cpu": requirements.get("cpu", {}).get("guest"),
            "memory": int(parse_quantity(guest)) if is_quantity(guest) else None,
            "displayName": meta.get("annotations", {}).get("openshift.io/display-name", ""),
            "architecture": requirements.get("architecture")}


def _problem(doc: BundleDoc, path: tuple, message: str) -> Problem:
    return Problem(doc.locate(path), message)


def _unusable(doc: BundleDoc) -> Optional[Problem]:
    """Why ``doc`` cannot be carried over exactly as released, or None when it can."""
    data = doc.data
    if not isinstance(data, dict) or doc.kind not in KINDS:
        return _problem(doc, ("kind",), f"expected one of the kinds {', '.join(KINDS)}")
    version = data.get("apiVersion")
    if version != API_VERSION:
        return _problem(doc, ("apiVersion",), f"{doc.kind} {doc.name or '(unnamed)'} is {version}, expected "
                        f"{API_VERSION}: an object is carried over only as released, so convert it to "
                        f"{API_VERSION} first")
    extra = [key for key in data if key not in _FIELDS]
    if extra:
        return _problem(doc, (extra[0],), f"unexpected field {extra[0]!r}: a bundle's object has only "
                        f"{', '.join(_FIELDS)}")
    meta = data.get("metadata")
    if not isinstance(meta, dict):
        return _problem(doc, ("metadata",), "expected a mapping with the name, labels and annotations")
    if doc.name is None:
        return _problem(doc, ("metadata", "name"), "expected a name")
    extra = [key for key in meta if key not in _METADATA]
    if extra:
        return _problem(doc, ("metadata", extra[0]), f"unexpected field {extra[0]!r}: a bundle's object has only "
                        f"{', '.join(_METADATA)} in its metadata")
    for key in ("labels", "annotations"):
        if not isinstance(meta.get(key, {}), dict):
            return _problem(doc, ("metadata", key), "expected a mapping")
    if not isinstance(data.get("spec", {}), dict):
        return _problem(doc, ("spec",), "expected a mapping")
    return None


def retained_objects(old: Sequence[BundleDoc], current: Iterable[CatalogObject],
                     retirements: Mapping[tuple[str, str], Retirement] | None = None) -> list[CatalogObject]:
    """Objects of ``old`` whose (kind, name) the catalog no longer produces, labelled deprecated.

    Every object of ``old`` is checked, carried over or not: a file that is not a
    bundle of this API version is refused as a whole rather than half used.
    ``retirements`` (catalog.yaml's ``retired``) give each retained object whose
    name they retire its replacement, as an object the build holds
    (``lifecycle.held_replacement``), and the release that retired it.
    """
    current = list(current)
    produced = {(kind, o.name) for o in current for kind in o.kinds}
    problems: list[Problem] = []
    kept: list[CatalogObject] = []
    for doc in old:
        problem = _unusable(doc)
        if problem is not None:
            problems.append(problem)
            continue
        if (doc.kind, doc.name) in produced:
            continue
        data: Any = doc.data
        meta = data.get("metadata", {})
        family = "instancetype" if doc.kind in INSTANCETYPE_KINDS else "preference"
        kept.append(CatalogObject(
            family=family,
            name=doc.name,
            group=_group(family, doc.name),
            labels={**meta.get("labels", {}), label("deprecated"): "true"},
            annotations=dict(meta.get("annotations", {})),
            spec=data.get("spec", {}),
            location=doc.locate(),
            facts=_facts(family, meta, data.get("spec", {})),
            only_kinds=(doc.kind,),
        ))
    if problems:
        raise InputError(problems)
    return _merge_twins(_replaced(kept, current, retirements or {}))


def _replaced(kept: list[CatalogObject], current: list[CatalogObject],
              retirements: Mapping[tuple[str, str], Retirement]) -> list[CatalogObject]:
    """The retained objects, each whose name catalog.yaml retires annotated with its replacement and release."""
    held = {family: {o.name for o in [*current, *kept] if o.family == family} for family in FAMILIES}
    found = []
    for obj in kept:
        retirement = retirements.get((obj.family, obj.name))
        if retirement is None:
            found.append(obj)
            continue
        extra = {DEPRECATED_SINCE: obj.annotations.get(DEPRECATED_SINCE) or retirement.since}
        replacement = held_replacement(obj.family, obj.name, retirements, held[obj.family])
        if replacement is not None:
            extra[DEPRECATED_REPLACEMENT] = replacement
        found.append(replace(obj, annotations={**obj.annotations, **extra}))
    return found


def _merge_twins(objects: list[CatalogObject]) -> list[CatalogObject]:
    """One object for identical cluster and namespaced copies, so it renders as both kinds."""
    merged: dict[tuple, CatalogObject] = {}
    for obj in objects:
        key = (obj.family, obj.name, repr((sorted(obj.labels.items()), sorted(obj.annotations.items()), obj.spec)))
        first = merged.get(key)
        if first is None:
            merged[key] = obj
        else:
            kinds = tuple(k for k in KINDS if k in first.only_kinds + obj.only_kinds)
            merged[key] = replace(first, only_kinds=kinds)
    return list(merged.values())


def retained_note(findings: Sequence[Problem], out: Path) -> str:
    """What a build says of findings on retained objects from checks newer than their release.

    They do not block the build (the objects ship as released, and a release
    could not have what later ones added) but are not hidden either.
    """
    releases = ", ".join(sorted({p.older_release or "" for p in findings}))
    many = len(findings) != 1
    return (f"note: {len(findings)} finding{'s' if many else ''} on retained objects "
            f"{'come' if many else 'comes'} from rules newer than their release {releases} and "
            f"{'do' if many else 'does'} not count; `citgen validate "
            f"{out / 'common-instancetypes-all-bundle.yaml'}` lists them")
