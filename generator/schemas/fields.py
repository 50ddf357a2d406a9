"""Which fields each KubeVirt release's schemas have, from one small index of them all.

Every build asks which releases have which fields: a build for a release rewrites
what the release lacks (expand/kubevirt.py), and the chart and the kustomize tree
serve every release (outputs/releases.py). Reading ten releases' schemas for that
took longer than the answers. ``citgen schema import`` therefore writes, beside
the folder of release files, ``release-fields.json``: the shape of every release's schema of
each kind merged into one tree, each node with the releases that have it.

A node is ``{"r": mask, "p": {key: node}, "i": node, "a": node}``: ``r`` the
releases (bits, in the order of the index's ``releases``) whose schema has a node
at this place, ``p`` the ``properties``, ``i`` the ``items`` of a list, ``a`` the
``additionalProperties`` that take any other key; each is left out when empty. A
field is had by a release as the schemas have it (schemas.has_field): a key is
looked up among the release's properties first, then taken by its
additionalProperties, if any. Below the root's ``metadata`` (ObjectMeta, composed
from the OpenAPI document and the same in every release) nothing is indexed; the
schemas answer there.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Mapping

from ..paths import SCHEMAS
from .releases import Release, known

#: The index's file, beside the folder of release files.
FIELDS_FILE = "release-fields.json"
#: Where the index stops: the root's metadata, the API server's ObjectMeta.
UNINDEXED = "metadata"

Path = tuple  # a key path from an object's root; an int part is a list item


def _merge(nodes: Mapping[int, Any]) -> dict[str, Any]:
    """One node of the index from the schema each release has at that place (by release index)."""
    out: dict[str, Any] = {"r": sum(1 << index for index in nodes)}
    properties: dict[str, dict[int, Any]] = {}
    items: dict[int, Any] = {}
    extra: dict[int, Any] = {}
    for index, node in nodes.items():
        if not isinstance(node, dict):
            continue
        for key, sub in (node.get("properties") or {}).items():
            properties.setdefault(key, {})[index] = sub
        if node.get("items") is not None:
            items[index] = node["items"]
        if isinstance(node.get("additionalProperties"), dict):
            extra[index] = node["additionalProperties"]
    if properties:
        out["p"] = {key: _merge(below) for key, below in sorted(properties.items())}
    if items:
        out["i"] = _merge(items)
    if extra:
        out["a"] = _merge(extra)
    return out


def build_index(releases: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The index of release files (shipped name ``v1.8.json`` -> its data), as fields.json holds it."""
    names = sorted((name[:-len(".json")] for name in releases), key=Release.parse)
    data = [releases[f"{name}.json"] for name in names]
    kinds = sorted({kind for release in data for kind in release["kinds"]})
    index: dict[str, Any] = {}
    for kind in kinds:
        roots = {n: release["kinds"][kind] for n, release in enumerate(data) if kind in release["kinds"]}
        tree = _merge(roots)
        metadata = tree.get("p", {}).get(UNINDEXED)
        if metadata is not None:
            tree["p"][UNINDEXED] = {"r": metadata["r"]}
        index[kind] = tree
    return {"generatedBy": "citgen schema import", "releases": names, "kinds": index}


def folder_index(folder: Any) -> dict[str, Any]:
    """The index of the release files in ``folder`` (a path or a package resource)."""
    files = {entry.name: json.loads(entry.read_bytes()) for entry in folder.iterdir()
             if entry.name.endswith(".json") and _is_release(entry.name)}
    return build_index(files)


def _is_release(name: str) -> bool:
    try:
        Release.parse(name[:-len(".json")])
    except ValueError:
        return False
    return True


@lru_cache(maxsize=None)
def _index() -> dict[str, Any]:
    """The shipped index; made from the release files when it is missing or covers other releases
    (a release file imported by hand), so the answers are always those of the shipped schemas."""
    try:
        text = (SCHEMAS / FIELDS_FILE).read_text(encoding="utf-8")
        found = json.loads(text)
    except (OSError, ValueError):
        found = None
    if not isinstance(found, dict) or found.get("releases") != [str(release) for release in known()]:
        from .releases import release_data

        found = build_index({f"{release}.json": release_data(release) for release in known()})
    return found


def tree(kind: str) -> dict[str, Any] | None:
    """The index's tree of ``kind``; None for a kind none of the releases has."""
    return _index()["kinds"].get(kind)


def has(kind: str, path: Path, release: Release) -> bool | None:
    """Whether ``release``'s schema of ``kind`` has the field at ``path``; None: ask the schemas."""
    node = tree(kind)
    if node is None or (len(path) > 1 and path[0] == UNINDEXED) or release not in known():
        return None
    bit = 1 << known().index(release)
    if not node["r"] & bit:
        return None  # a kind this release has no schema of: the schemas say how
    for part in path:
        if isinstance(part, int):
            node = node.get("i")
        else:
            child = node.get("p", {}).get(part)
            node = child if child is not None and child["r"] & bit else node.get("a")
        if node is None or not node["r"] & bit:
            return False
    return True


def fields(kind: str, release: Release) -> frozenset[Path] | None:
    """Every field path ``release``'s schema of ``kind`` has (a list's items add no index); None: ask the schemas."""
    node = tree(kind)
    if node is None or release not in known():
        return None
    bit = 1 << known().index(release)
    if not node["r"] & bit:
        return None
    found: set[Path] = set()
    stack: list[tuple[dict[str, Any], Path]] = [(node, ())]
    while stack:
        here, path = stack.pop()
        for key, child in here.get("p", {}).items():
            if child["r"] & bit:
                found.add(path + (key,))
                stack.append((child, path + (key,)))
        items = here.get("i")
        if items is not None and items["r"] & bit:
            stack.append((items, path))
    return frozenset(found)


def has_all(release: Release) -> bool | None:
    """Whether ``release`` has every field of its kinds that any release of the index has; None: ask the schemas.

    A node is had only by releases that have the node above it, so that is every
    field node of every kind of the release carrying the release.
    """
    if release not in known():
        return None
    bit = 1 << known().index(release)
    stack = [node for node in _index()["kinds"].values() if node["r"] & bit]
    while stack:
        node = stack.pop()
        for child in node.get("p", {}).values():
            if not child["r"] & bit:
                return False
            stack.append(child)
        if "i" in node:
            stack.append(node["i"])
    return True


def releases_of(node: Mapping[str, Any]) -> frozenset[int]:
    """The indexes (into known()) of the releases a node of the index is had by."""
    mask = node["r"]
    return frozenset(index for index in range(len(known())) if mask >> index & 1)
