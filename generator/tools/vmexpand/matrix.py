"""The cross-product check: every cluster instancetype with every cluster preference.

A catalog is only as good as its pairs: a user picks an instancetype and a
preference independently, and KubeVirt refuses a pair whose instancetype is too
small for the preference or whose vCPUs cannot be spread as it asks. This
expands each pair on the plainest VM a user would write (a container disk, a
cloud-init disk, nothing else) and records KubeVirt's verdict.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from ... import escape
from ...frozen import frozen
from ...model import INSTANCETYPE_KINDS, PREFERENCE_KINDS
from . import expand
from .mutate import DEFAULT_ARCHITECTURE

CONTAINER_DISK_IMAGE = "quay.io/containerdisks/fedora:latest"


@frozen
class PairResult:
    """KubeVirt's verdict on one instancetype and preference: accepted, or the first refusal."""

    instancetype: str
    preference: str
    ok: bool
    error: str | None = None
    reason: str | None = None  # why it was refused: "topology", "cpu", "memory", "architecture"...

    def record(self) -> dict:
        """The JSON record of this pair, one per line or list item."""
        return {"instancetype": self.instancetype, "preference": self.preference, "ok": self.ok, "error": self.error}


def default_vm(instancetype: str, preference: str) -> dict:
    """The plainest VM naming the pair: two volumes, no CPU, memory or architecture."""
    return {
        "apiVersion": "kubevirt.io/v1",
        "kind": "VirtualMachine",
        "metadata": {"name": "matrix"},
        "spec": {
            "instancetype": {"kind": INSTANCETYPE_KINDS[0], "name": instancetype},
            "preference": {"kind": PREFERENCE_KINDS[0], "name": preference},
            "runStrategy": "Halted",
            "template": {
                "spec": {
                    "domain": {"devices": {}},
                    "volumes": [
                        {"name": "containerdisk", "containerDisk": {"image": CONTAINER_DISK_IMAGE}},
                        {"name": "cloudinitdisk", "cloudInitNoCloud": {"userData": "#cloud-config\n"}},
                    ],
                }
            },
        },
    }


def _named(objects: Iterable[Mapping[str, Any]], kind: str) -> list[tuple[str, Mapping[str, Any]]]:
    found = []
    for obj in objects:
        meta = obj.get("metadata") if isinstance(obj, Mapping) else None
        if isinstance(obj, Mapping) and obj.get("kind") == kind and isinstance(meta, Mapping):
            found.append((str(meta.get("name")), obj))
    return sorted(found, key=lambda pair: pair[0])


def matrix(
    instancetypes: Iterable[Mapping[str, Any]],
    preferences: Iterable[Mapping[str, Any]],
    *,
    arch: str = DEFAULT_ARCHITECTURE,
) -> list[PairResult]:
    """Expand every cluster instancetype against every cluster preference, sorted by name.

    Objects of other kinds in the inputs are ignored, so a whole bundle can be
    passed as both arguments.
    """
    results = []
    prefs = _named(preferences, PREFERENCE_KINDS[0])
    for it_name, instancetype in _named(instancetypes, INSTANCETYPE_KINDS[0]):
        for pref_name, preference in prefs:
            outcome = expand(default_vm(it_name, pref_name), instancetype, preference, arch=arch)
            first = outcome.errors[0] if outcome.errors else None
            results.append(
                PairResult(
                    it_name,
                    pref_name,
                    outcome.ok,
                    first.message if first else None,
                    first.reason if first else None,
                )
            )
    return results


def summary(results: Iterable[PairResult]) -> dict[str, int]:
    """Pairs accepted and refused, and refusals by reason: the numbers a reviewer checks."""
    results = list(results)
    counts: Counter[str] = Counter(r.reason for r in results if not r.ok)
    out = {"pairs": len(results), "accepted": sum(r.ok for r in results), "rejected": sum(not r.ok for r in results)}
    out.update({f"rejected_{reason}": counts[reason] for reason in sorted(counts)})
    return out


def format_text(results: Iterable[PairResult], *, all_pairs: bool = False) -> str:
    """Refused pairs, one a line, then a count line; ``all_pairs`` lists accepted ones too.

    The names are the bundles' and the reasons quote them: each line is one line (escape.text).
    """
    results = list(results)
    lines = []
    for r in results:
        if r.ok and all_pairs:
            lines.append(escape.text(f"{r.instancetype} + {r.preference}: ok"))
        elif not r.ok:
            lines.append(escape.text(f"{r.instancetype} + {r.preference}: {r.error}"))
    counts = summary(results)
    lines.append(f"{counts['accepted']} of {counts['pairs']} pairs accepted, {counts['rejected']} rejected")
    return "\n".join(lines) + "\n"


def format_json(results: Iterable[PairResult]) -> str:
    """A JSON list with one record per pair, in the same order as the text."""
    return escape.json_text([r.record() for r in results], indent=2) + "\n"


__all__ = ["PairResult", "default_vm", "format_json", "format_text", "matrix", "summary"]
