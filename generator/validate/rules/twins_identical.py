"""The cluster and namespaced twins of an object are identical but for their kind.

The catalog renders every instancetype as both a VirtualMachineClusterInstancetype
and a VirtualMachineInstancetype, and every preference as both a
VirtualMachineClusterPreference and a VirtualMachinePreference, so a VM behaves
the same whichever it refers to. When both kinds of a name are in the validated
set, everything but ``kind`` (and ``metadata.namespace``, which only the
namespaced kind may carry) must be equal. Each difference is reported on the
namespaced object with the value of its cluster twin. A name present in only
one kind is not checked: a file may hold only one of the bundles. Where
KubeVirt's schema holds a resource quantity, equal amounts are equal: ``4Gi``
and ``4096Mi`` of memory do not differ.

Example::

    bundle.yaml#1 (u1.small) $.spec.memory.guest: differs from its VirtualMachineClusterInstancetype twin at bundle.yaml#0: '4Gi' here, '2Gi' there [twins-identical]
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, Sequence, Tuple

from ...model import INSTANCETYPE_KINDS, PREFERENCE_KINDS
from ...problems import Path, Problem
from ...quantity import same
from ...schemas import quantity_at
from ...source.documents import BundleDoc
from ._objects import family
from .base import RuleContext

ID = "twins-identical"

_MISSING = object()


def _comparable(data: dict) -> dict:
    out = {k: v for k, v in data.items() if k != "kind"}
    meta = out.get("metadata")
    if isinstance(meta, dict) and "namespace" in meta:
        out["metadata"] = {k: v for k, v in meta.items() if k != "namespace"}
    return out


def _differences(here: Any, there: Any, kind: str, path: Path = ()) -> Iterator[Tuple[Path, Any, Any]]:
    """Paths where two values differ, with both sides; _MISSING marks an absent key.

    One object seen from both sides (a twin parsed once and shared) has no differences.
    ``kind`` is the cluster kind, whose schema says where a value is a quantity.
    """
    if here is there:
        return
    if isinstance(here, dict) and isinstance(there, dict):
        for key in sorted(set(here) | set(there), key=str):
            yield from _differences(here.get(key, _MISSING), there.get(key, _MISSING), kind, path + (key,))
    elif isinstance(here, list) and isinstance(there, list):
        for i in range(max(len(here), len(there))):
            mine = here[i] if i < len(here) else _MISSING
            theirs = there[i] if i < len(there) else _MISSING
            yield from _differences(mine, theirs, kind, path + (i,))
    elif here != there or type(here) is not type(there):
        if not (quantity_at(kind, path) and same(here, there)):
            yield path, here, there


def _show(value: Any) -> str:
    return "absent" if value is _MISSING else repr(value)


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    twins: Dict[Tuple[str, str], Dict[str, BundleDoc]] = {}
    for doc in docs:
        fam, name = family(doc), doc.name
        if fam is None or name is None:
            continue
        twins.setdefault((fam, name), {}).setdefault(doc.kind, doc)  # type: ignore[arg-type]
    for (fam, _), by_kind in twins.items():
        cluster_kind, namespaced_kind = INSTANCETYPE_KINDS if fam == "instancetype" else PREFERENCE_KINDS
        cluster, namespaced = by_kind.get(cluster_kind), by_kind.get(namespaced_kind)
        if cluster is None or namespaced is None:
            continue
        for path, mine, theirs in _differences(_comparable(namespaced.data), _comparable(cluster.data),
                                                cluster_kind):
            yield Problem(
                namespaced.locate(path),
                f"differs from its {cluster_kind} twin at {cluster.file}#{cluster.index}: "
                f"{_show(mine)} here, {_show(theirs)} there",
                ID,
            )
