"""A migration tool's guest-OS table as a ConfigMap, and how one compares with another.

Forklift keeps, per source, a ConfigMap whose ``data`` maps the OS id the source
reports to the preference a migrated VM gets (``forklift-vsphere-osmap``,
``forklift-ovirt-osmap``). ``citgen osinfo --all --table SOURCE`` writes that
ConfigMap from the catalog's answers (tools/osinfo/offer.py), under Forklift's
name, so that ``citgen refs --names 'preference=ConfigMap/forklift-*-osmap:data.*'``
checks it as it checks the hand-kept one; ``--table osinfo`` writes the same map
keyed by libosinfo short-ids (what virt-v2v reports).
"""

from __future__ import annotations

from typing import Any, Mapping

import yaml

from ...frozen import frozen
from ...source.yamlclasses import Dumper

#: The ConfigMap each table is written as, by the name ``--table`` takes: Forklift's names for its sources.
CONFIGMAP_NAMES: Mapping[str, str] = {
    "vsphere": "forklift-vsphere-osmap",
    "ovirt": "forklift-ovirt-osmap",
    "osinfo": "osinfo-osmap",
}
TABLES = tuple(CONFIGMAP_NAMES)


def configmap(table: str, data: Mapping[str, str], namespace: str | None, said: str) -> str:
    """The ConfigMap of ``table`` holding ``data`` (id -> preference name), its keys sorted, as YAML.

    ``said`` opens the document as a comment: what made it (the catalog, the database).
    """
    metadata: dict[str, Any] = {"name": CONFIGMAP_NAMES[table]}
    if namespace is not None:
        metadata["namespace"] = namespace
    document = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata,
                "data": {key: data[key] for key in sorted(data)}}
    comment = "".join(f"# {line}\n" for line in said.splitlines())
    return "---\n" + comment + yaml.dump(document, Dumper=Dumper, sort_keys=False, default_flow_style=False)


@frozen
class Difference:
    """One id of two tables that do not agree: what each says (None: the table has no such id)."""

    key: str
    real: str | None
    generated: str | None


def compare(real: Mapping[str, str], generated: Mapping[str, str]) -> tuple[tuple[str, ...], tuple[Difference, ...]]:
    """The ids on which two tables agree, and those on which they do not (in the order of the ids)."""
    same = tuple(sorted(key for key in real.keys() & generated.keys() if real[key] == generated[key]))
    differ = tuple(Difference(key, real.get(key), generated.get(key)) for key in sorted(real.keys() | generated.keys())
                   if real.get(key) != generated.get(key))
    return same, differ
