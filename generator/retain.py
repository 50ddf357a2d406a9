"""Carry objects of an earlier release forward when the catalog no longer defines them.

KubeVirt never deletes catalog objects that vanish from a new bundle, and VMs
keep referring to them by name. A release that drops an object should therefore
still ship it, marked deprecated, so clusters that install the new bundle from
scratch can run the VMs that were created against the old one. The old bundle
is the source: nothing is copied into the catalog by hand.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterable, Sequence

from .documents import BundleDoc
from .errors import InputError
from .expand import feature_labels
from .quantity import is_quantity, parse as parse_quantity
from .model import INSTANCETYPE_KINDS, KINDS, CatalogObject, label
from .problems import Problem


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


def retained_objects(old: Sequence[BundleDoc], current: Iterable[CatalogObject]) -> list[CatalogObject]:
    """Objects of ``old`` whose (kind, name) the catalog no longer produces, labelled deprecated."""
    produced = {(kind, o.name) for o in current for kind in o.kinds}
    problems: list[Problem] = []
    kept: list[CatalogObject] = []
    for doc in old:
        data = doc.data
        if not isinstance(data, dict) or doc.kind not in KINDS:
            problems.append(_problem(doc, ("kind",), f"expected one of the kinds {', '.join(KINDS)}"))
            continue
        if doc.name is None:
            problems.append(_problem(doc, ("metadata", "name"), "expected a name"))
            continue
        if (doc.kind, doc.name) in produced:
            continue
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
    return _merge_twins(kept)


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
