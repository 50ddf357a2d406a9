"""The fields some KubeVirt releases have and others lack, as one small tree per kind.

A build for an older release (expand/kubevirt.py) and the outputs that serve every
release (outputs/releases.py) ask, of each field of each object, which releases
have it. Nearly every field is in every release, and a large catalog's objects hold
mostly those; walking every key of every object to find the few that matter was
most of what those outputs cost. This tree holds only the fields whose presence
differs from release to release, and the keys that lead to them, so a walk looks
at a few keys of each object and skips the rest.

Its answers are has_field's: a node is built from the same schemas, following
``properties`` as has_field does. Where a schema takes any key (``additionalProperties``,
as ``spec.annotations`` does) the node is ``open``, and the walk asks has_field
about each key below it. A key the tree does not hold, under a node that is not
open, is either in every release with nothing dated below it, or in none (a
misspelt key, which no build for a release changes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping

from . import shipped_schema
from .releases import known


@dataclass(frozen=True)
class Dated:
    """One field on the way to the dated fields of a kind.

    ``lacking`` holds the indexes (into ``known()``) of the releases whose schema
    lacks the field: empty for a field every release has. ``children`` are the
    keys below it that are dated or lead to one; ``open`` says that some release
    takes any key below it.
    """

    lacking: frozenset[int] = frozenset()
    children: Mapping[str, "Dated"] = field(default_factory=dict)
    open: bool = False

    @property
    def leads_somewhere(self) -> bool:
        """Whether anything below this field may differ between releases."""
        return bool(self.children) or self.open


def _resolve(root: Mapping[str, Any], node: Any) -> Any:
    """``node`` with its ``$ref`` followed, as has_field follows it."""
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        node = root.get("$defs", {}).get(node["$ref"].rpartition("/")[2])
    return node


def _merge(nodes: Mapping[int, Any], roots: Mapping[int, Mapping[str, Any]], everyone: frozenset[int]) -> Dated:
    """The tree below one field, from its schema in each release that has it (by release index)."""
    open_here = any(isinstance(node.get("additionalProperties"), dict) for node in nodes.values())
    keys: dict[str, dict[int, Any]] = {}
    for index, node in nodes.items():
        for key, sub in (node.get("properties") or {}).items():
            sub = _resolve(roots[index], sub)
            if isinstance(sub, dict):
                keys.setdefault(key, {})[index] = sub
    children = {}
    for key, below in keys.items():
        child = _merge(below, roots, everyone)
        lacking = everyone - frozenset(below)
        if lacking or child.leads_somewhere:
            children[key] = Dated(lacking, child.children, child.open)
    return Dated(frozenset(), children, open_here)


@lru_cache(maxsize=None)
def dated_spec(kind: str) -> Dated:
    """The dated fields of ``kind`` below ``spec`` (``lacking``: the releases without a spec at all).

    KeyError for a kind no release has.
    """
    releases = known()
    roots = {index: shipped_schema(kind, release) for index, release in enumerate(releases)}
    specs = {index: _resolve(root, (root.get("properties") or {}).get("spec")) for index, root in roots.items()}
    specs = {index: node for index, node in specs.items() if isinstance(node, dict)}
    everyone = frozenset(range(len(releases)))
    tree = _merge(specs, roots, everyone)
    return Dated(everyone - frozenset(specs), tree.children, tree.open)
