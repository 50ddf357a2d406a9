"""The fields some KubeVirt releases have and others lack, as one small tree per kind.

A build for an older release (expand/kubevirt.py) and the outputs that serve every
release (outputs/releases.py) ask, of each field of each object, which releases
have it. Nearly every field is in every release, and a large catalog's objects hold
mostly those; walking every key of every object to find the few that matter was
most of what those outputs cost. This tree holds only the fields whose presence
differs from release to release, and the keys that lead to them, so a walk looks
at a few keys of each object and skips the rest.

It is read off the index of the release schemas (fields.py), so its answers are
has_field's. Where a schema takes any key (``additionalProperties``, as
``spec.annotations`` does) the node is ``open``, and the walk asks has_field about
each key below it. A key the tree does not hold, under a node that is not open, is
either in every release with nothing dated below it, or in none (a misspelt key,
which no build for a release changes).
"""

from __future__ import annotations

from dataclasses import field
from functools import lru_cache
from typing import Any, Mapping

from ..frozen import frozen
from .fields import releases_of, tree
from .releases import known


@frozen
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


def _dated(node: Mapping[str, Any], everyone: frozenset[int]) -> Dated:
    children = {}
    for key, child in node.get("p", {}).items():
        below = _dated(child, everyone)
        lacking = everyone - releases_of(child)
        if lacking or below.leads_somewhere:
            children[key] = Dated(lacking, below.children, below.open)
    return Dated(everyone - releases_of(node), children, "a" in node)


@lru_cache(maxsize=None)
def dated_spec(kind: str) -> Dated:
    """The dated fields of ``kind`` below ``spec`` (``lacking``: the releases without a spec at all).

    KeyError for a kind no release has.
    """
    root = tree(kind)
    if root is None:
        raise KeyError(kind)
    everyone = frozenset(range(len(known())))
    spec = root.get("p", {}).get("spec")
    return _dated(spec, everyone) if spec is not None else Dated(everyone)
